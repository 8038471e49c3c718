import Foundation
import Testing
import IDKitMRZ
@testable import IDKitMRZReading

/// What is printed is read as printed, then judged (issue 12): the check digits, a name's grammar
/// and the list of country codes do not overrule characters the recognizer reads clearly.
@Suite struct MisprintedPrintTests {
    /// `misprinted-00-td3.jpg` (make_images.py's `misprinted`): a blurred TD3 whose birth date has a
    /// letter printed for a digit (`B` for `8`, so that its check digit and the composite fail) and
    /// whose name has a `K` among its trailing fillers. The scanner before the bound on overruling
    /// read the date as `8103…`, "fixed" by the check digits.
    @Test func clearlyPrintedConfusionsAreReadAsPrintedAndJudgedInvalid() throws {
        let v = ImageVectors.file.misprinted
        let outcome = MRZScanner().scan(ImageVectors.image(v.file))
        let reading = try #require(outcome.reading)
        #expect(reading.lines == v.lines)
        #expect(reading.checkDigitCorrections == 0)
        #expect(!reading.verified)
        let parsed = try #require(outcome.parsed)
        #expect(!parsed.isValid)
        #expect(parsed.checkDigits.dateOfBirth == .invalid)
        #expect(parsed.errors.contains { $0.code == .invalidDateCharacter && $0.field == "dateOfBirth" })
    }
}
