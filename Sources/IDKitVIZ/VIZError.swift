public import IDKitCore

/// Why the visual zone's text could not be read.
public struct VIZError: Error, Sendable, Equatable, CustomStringConvertible, ClassifiedError {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A language's Tesseract data is not installed (Debian's `tesseract-ocr-LANG`).
        case languageDataMissing
        /// Tesseract failed on the image.
        case recognitionFailed
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
    public var kindName: String { kind.rawValue }
    /// Missing language data is an installation that cannot run, not bad input.
    public var errorClass: ErrorClass { kind == .languageDataMissing ? .unavailable : .internalError }
}
