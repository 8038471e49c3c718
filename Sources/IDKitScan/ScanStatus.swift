import Foundation
import IDKitImage
import IDKitMRZ

/// What a backend does with a scan: accept it (`ok`), ask for another photo (`mrzUncertain`,
/// `mrzNotFound`, `imageTooSmall`), or reject the document (`mrzInvalid`). `reasonKind` says why
/// in a word, `reason` in a sentence (docs/contracts.md has the table).
public enum ScanStatus: String, Sendable, Codable, CaseIterable {
    /// Read and verified: every character sure (``MRZReading/isSure``), every check digit and
    /// rule met.
    case ok
    /// Read, not sure enough to trust: `unsureFields` names the fields in doubt. Another photo
    /// (sharper, larger, steadier, unobstructed) may settle them.
    case mrzUncertain
    /// Read with every character sure, and the MRZ as printed breaks a rule: a check digit, an
    /// impossible date, digits in a code (`mrz.errors` say which). Another photo does not help.
    case mrzInvalid
    /// No MRZ in the image.
    case mrzNotFound
    /// The image is too small to hold a readable MRZ.
    case imageTooSmall
    /// Not an image IDKit decodes, corrupt, or beyond the limits.
    case unsupportedImage
    /// Two sides given as one card (`idkit scan --sides`) that belong to different documents:
    /// `sides.reasonKind` says how (`otherCard`, `differentMRZ`). Nothing of the front is merged;
    /// ask for the two sides of one card.
    case sidesMismatch

    /// The `idkit scan` exit status of an image with this status: 0 ok, 1 mrzUncertain,
    /// 2 mrzInvalid, 3 mrzNotFound, 4 imageTooSmall, 5 sidesMismatch, 66 unsupportedImage.
    public var exitCode: Int32 {
        switch self {
        case .ok: 0
        case .mrzUncertain: 1
        case .mrzInvalid: 2
        case .mrzNotFound: 3
        case .imageTooSmall: 4
        case .sidesMismatch: 5
        case .unsupportedImage: 66
        }
    }
}
