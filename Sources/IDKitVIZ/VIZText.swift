/// A box in an image's pixels: `left` and `top` inclusive, `right` and `bottom` exclusive.
public struct VIZBox: Sendable, Codable, Equatable, Hashable {
    public var left: Int
    public var top: Int
    public var right: Int
    public var bottom: Int

    public init(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    public var width: Int { right - left }
    public var height: Int { bottom - top }
}

/// One word of a visual-zone text line as Tesseract read it.
public struct VIZWord: Sendable, Codable, Equatable {
    /// The word as printed, in Unicode (national characters kept).
    public var text: String
    /// Tesseract's confidence, 0…1.
    public var confidence: Double
    public var box: VIZBox

    public init(text: String, confidence: Double, box: VIZBox) {
        self.text = text
        self.confidence = confidence
        self.box = box
    }
}

/// One text line of a document's visual inspection zone.
public struct VIZLine: Sendable, Codable, Equatable {
    /// The line's words joined by single spaces.
    public var text: String
    /// Tesseract's confidence in the line, 0…1.
    public var confidence: Double
    public var box: VIZBox
    public var words: [VIZWord]

    public init(text: String, confidence: Double, box: VIZBox, words: [VIZWord]) {
        self.text = text
        self.confidence = confidence
        self.box = box
        self.words = words
    }
}
