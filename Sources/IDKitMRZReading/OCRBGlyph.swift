/// The OCR-B reference glyphs (the sharp variant of ``OCRBTemplates``), for drawing a reading on
/// an image.
public enum OCRBGlyph {
    public static let width = OCRBTemplates.width
    public static let height = OCRBTemplates.height

    /// Row by row, `width` × `height`: which pixels of the character's glyph are ink; `nil` for a
    /// character that is not one of the 37 MRZ symbols.
    public static func inkMask(of character: UInt8) -> [Bool]? {
        guard let s = OCRBTemplates.symbols.firstIndex(of: character) else { return nil }
        let size = width * height
        return OCRBTemplates.ink[(s * size)..<((s + 1) * size)].map { $0 > 110 }
    }
}
