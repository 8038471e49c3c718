/// One field of the visual zone: the words that print it, what they mean, and whether they agree
/// with the MRZ.
public struct VIZField: Sendable, Codable, Equatable {
    /// The words as printed, joined by single spaces (national characters kept).
    public var text: String
    /// What the text means: a date as `YYYY-MM-DD`, a document or personal number without its
    /// spaces, a name as printed.
    public var value: String
    /// The least of the words' confidences, 0…1.
    public var confidence: Double
    /// The words' box on the page.
    public var box: VIZBox
    /// `true` when the value is the MRZ's (under ICAO 9303-3 transliteration for names, as a date
    /// for dates); `false` when it contradicts it; `null` when there is nothing to compare with.
    public var matchesMRZ: Bool?

    /// The least ``confidence`` at which a value nothing can check (a place of birth, an
    /// authority; a date of issue its expiry does not confirm) is taken on its reading alone: on
    /// the real specimens every such value read at 0.9 or more is right, and the misreads (a
    /// neighbouring column's `S/F` in a place of birth, `04.07.2009` for `01.07.2009`) are below 0.75.
    public static let sureConfidence = 0.9

    public init(text: String, value: String, confidence: Double, box: VIZBox, matchesMRZ: Bool?) {
        self.text = text
        self.value = value
        self.confidence = confidence
        self.box = box
        self.matchesMRZ = matchesMRZ
    }
}
