/// What a library error means to whoever sent the input, and so how every front end answers it:
/// the one table behind the command line's exit code, the service's HTTP status and the C
/// interface's status (docs/errors.md). Each library's error type says its class
/// (``ClassifiedError``); a front end never decides it from the error's kind or text, so the same
/// input gets the same `kind`, the same class and the same answer on every route.
public enum ErrorClass: String, Sendable, Codable, CaseIterable {
    /// The input is malformed or damaged (a corrupt image, text that is no MRZ, a payload that is
    /// not AAMVA, a merge input of the wrong shape): send other input.
    case invalidInput
    /// The input is over a limit (pixels, bytes): send a smaller one, or raise the limit where the
    /// front end lets you.
    case tooLarge
    /// The input is in a format IDKit does not read.
    case unsupported
    /// An option or argument has a wrong name, type or value.
    case invalidOptions
    /// A part of IDKit cannot run (the MRZ recognizer's model cannot be loaded): the input may be
    /// fine; the installation is not.
    case unavailable
    /// IDKit failed on input it should have handled (a library it calls threw): a bug to report.
    case internalError

    /// The HTTP status of the service's `application/problem+json` answer.
    public var httpStatus: Int {
        switch self {
        case .invalidInput, .invalidOptions: 400
        case .tooLarge: 413
        case .unsupported: 415
        case .unavailable: 503
        case .internalError: 500
        }
    }

    /// The status of the C interface's `idkit_result` (the `IDKIT_…` constants of idkit.h).
    public var cStatus: Int32 {
        switch self {
        case .invalidInput, .unsupported: 1  // IDKIT_INVALID_INPUT
        case .invalidOptions: 2  // IDKIT_INVALID_OPTIONS
        case .tooLarge: 3  // IDKIT_TOO_LARGE
        case .unavailable, .internalError: 5  // IDKIT_INTERNAL_ERROR
        }
    }

    /// The `idkit` command's exit status, from sysexits(3): input that cannot be used is
    /// EX_NOINPUT (66), a bad option EX_USAGE (64), a missing part or a failure of IDKit's own
    /// EX_SOFTWARE (70).
    public var exitCode: Int32 {
        switch self {
        case .invalidInput, .tooLarge, .unsupported: 66
        case .invalidOptions: 64
        case .unavailable, .internalError: 70
        }
    }
}

/// An error a front end can answer without knowing its module: the machine-readable `kind` it
/// reports (`kind` of the service's problems and the C error object, `reasonKind` of a scan,
/// `errorKind` of a barcode report), the message for a person, and the ``ErrorClass``.
public protocol ClassifiedError: Error, Sendable {
    /// The kind's raw value, as every front end reports it.
    var kindName: String { get }
    /// What went wrong and where, for a person.
    var message: String { get }
    var errorClass: ErrorClass { get }
}
