import IDKitCore
import Testing

/// The one table every front end answers a library error with (docs/errors.md).
@Suite struct ErrorClassTests {
    @Test("each class has its HTTP status, C status and exit code", arguments: [
        (ErrorClass.invalidInput, 400, Int32(1), Int32(66)),
        (.tooLarge, 413, 3, 66),
        (.unsupported, 415, 1, 66),
        (.invalidOptions, 400, 2, 64),
        (.unavailable, 503, 5, 70),
        (.internalError, 500, 5, 70),
    ])
    func table(errorClass: ErrorClass, http: Int, c: Int32, exit: Int32) {
        #expect(errorClass.httpStatus == http)
        #expect(errorClass.cStatus == c)
        #expect(errorClass.exitCode == exit)
    }

    @Test("the table covers every class")
    func everyClass() {
        #expect(ErrorClass.allCases.count == 6)
    }
}
