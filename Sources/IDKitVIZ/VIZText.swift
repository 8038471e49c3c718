import IDKitDocument

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

extension VIZWord {
    /// The characters `range` of the word, with its share of the word's box (the box cut in
    /// proportion to the characters, as OCR gives no box per character).
    public func part(_ range: Range<Int>) -> VIZWord {
        let characters = Array(text), count = max(1, characters.count)
        func x(_ k: Int) -> Int { box.left + box.width * k / count }
        var part = self
        part.text = String(characters[range])
        part.box.left = x(range.lowerBound)
        part.box.right = x(range.upperBound)
        return part
    }

    /// The two dates of a word that joins them by a dash (`17.10.03-09.05.2013`, a card's validity
    /// printed as one range; ``VIZLine/dashes``), or `nil`. A hyphen inside one date (`1974-08-12`)
    /// or a name (`CHIEN-SHENG`) joins no two dates.
    public var dateRange: (start: VIZWord, end: VIZWord)? {
        let characters = Array(text)
        for (i, c) in characters.enumerated() where VIZLine.dashes.contains(c) {
            // After the dash, and any more (`17.10.03--09.05.2013`).
            let next = characters[(i + 1)...].firstIndex { !VIZLine.dashes.contains($0) } ?? characters.count
            guard VIZLine.isWholeDate(String(characters[..<i])), VIZLine.isWholeDate(String(characters[next...])) else { continue }
            return (part(0..<i), part(next..<characters.count))
        }
        return nil
    }
}

extension VIZLine {
    /// The line with each word that joins two dates by a dash split into the two
    /// (``VIZWord/dateRange``).
    public var splittingDateRanges: VIZLine {
        var line = self
        line.words = words.flatMap { word in word.dateRange.map { [$0.start, $0.end] } ?? [word] }
        return line
    }

    /// A hyphen, an en dash, an em dash, a minus sign.
    static let dashes: Set<Character> = ["-", "\u{2013}", "\u{2014}", "\u{2212}"]

    /// Three groups of digits that read as a date, ending in a digit or a date's end mark.
    static func isWholeDate(_ text: String) -> Bool {
        guard let last = text.last, last.isNumber || last == "." else { return false }
        return text.split(whereSeparator: { !$0.isASCII || !$0.isNumber }).count == 3
            && !DocumentDate.candidates(text, monthFirst: false, kind: .issue, reference: .today).isEmpty
    }
}
