/// Which character recognizer read an MRZ.
public enum MRZRecognizer: String, Sendable, Codable, Equatable, CaseIterable {
    /// The convolutional network of ``MRZGlyphModel`` (OpenCV dnn).
    case network
    /// Normalized cross-correlation against the OCR-B templates: the fallback when OpenCV cannot
    /// run the network, and the quick probe that decides orientation and scale.
    case templates
}
