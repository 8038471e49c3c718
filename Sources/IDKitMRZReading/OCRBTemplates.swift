internal import CIDKitData

/// OCR-B reference cells for the 37 MRZ symbols, two variants each (sharp, blurred): the bytes of
/// `Sources/CIDKitData/ocrb-templates.gray`, made by `scripts/make_ocrb_templates.py` from
/// Debian's fonts-ocr-b (`make ocrb-templates`).
enum OCRBTemplates {
    static let width = 20
    static let height = 26
    static let symbols: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<".utf8)
    static let variants = 2
    /// Symbol-major within each variant: variant 0 A…<, then variant 1 A…<; ink 0–255 row by row.
    static let ink: [UInt8] = {
        var length = 0
        let bytes = idk_data_ocrb_templates(&length)!
        precondition(length == variants * symbols.count * width * height, "ocrb-templates.gray holds \(length) bytes")
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }()
}
