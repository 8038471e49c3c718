import IDKitCore
import IDKitImage

/// The symbologies IDKit reports (names as in the `idkit barcode --json` contract).
public enum BarcodeFormat: String, Sendable, Codable, CaseIterable {
    case pdf417 = "PDF417"
    case qrCode = "QRCode"
    case dataMatrix = "DataMatrix"
    case aztec = "Aztec"
    case code128 = "Code128"
    case code39 = "Code39"
    case code93 = "Code93"
    case codabar = "Codabar"
    case ean13 = "EAN13"
    case ean8 = "EAN8"
    case upcA = "UPCA"
    case upcE = "UPCE"
    case itf = "ITF"
    case dataBar = "DataBar"
    case other = "Other"
}

/// Which library decoded a barcode.
public enum BarcodeDecoder: String, Sendable, Codable, CaseIterable {
    case zxing
    case zbar
}

/// One decoded barcode.
public struct Barcode: Sendable, Equatable, Codable {
    public var format: BarcodeFormat
    /// The content as raw bytes: AAMVA payloads hold control characters that a string would lose.
    public var bytes: [UInt8]
    /// Where the symbol is, in the coordinates of the image that was passed in. For PDF417 the
    /// corners follow the symbol's reading order (top-left is where its first row starts, found
    /// from the start pattern's side), so a rotated symbol's angle is `topLeft → topRight`; a
    /// mirrored print is reported as if turned 180°.
    public var quad: Quadrilateral
    public var decoder: BarcodeDecoder
    /// Whether the symbol was read from the mirror image. zxing-cpp 1.4 reads many mirrored PDF417
    /// symbols by itself without saying so; this is `true` when IDKit had to flip the image or
    /// the decoder reported a mirrored read.
    public var isMirrored: Bool
    /// The symbol's place in a Macro PDF417 set; `nil` for a symbol that stands alone.
    public var macro: MacroSegment?

    public init(format: BarcodeFormat, bytes: [UInt8], quad: Quadrilateral, decoder: BarcodeDecoder, isMirrored: Bool = false,
                macro: MacroSegment? = nil) {
        self.format = format
        self.bytes = bytes
        self.quad = quad
        self.decoder = decoder
        self.isMirrored = isMirrored
        self.macro = macro
    }
}

/// One segment of a Macro PDF417 set (ISO/IEC 15438 Annex H, "Macro PDF417"): a file too long for
/// one symbol is split over several, each carrying its index and the set's file id; the bytes of
/// the segments in index order are the file.
public struct MacroSegment: Sendable, Equatable, Codable {
    /// 0-based.
    public var segmentIndex: Int
    /// How many segments the set has, when the symbol says so (the count field is optional; the
    /// last segment says it is last); `nil` when unknown.
    public var segmentCount: Int?
    /// The set's file id: segments with the same id belong together.
    public var fileId: String
    public var isLast: Bool { segmentCount == segmentIndex + 1 }

    public init(segmentIndex: Int, segmentCount: Int?, fileId: String) {
        self.segmentIndex = segmentIndex
        self.segmentCount = segmentCount
        self.fileId = fileId
    }

    /// The sets among `barcodes`, by file id: the segments found in index order, whether the set
    /// is complete (every index up to the last one's present), and, when it is, the file they make.
    public static func sets(in barcodes: [Barcode]) -> [MacroSet] {
        var byId: [String: [(MacroSegment, [UInt8])]] = [:]
        var order: [String] = []
        for b in barcodes {
            guard let m = b.macro else { continue }
            if byId[m.fileId] == nil { order.append(m.fileId) }
            var segments = byId[m.fileId, default: []]
            if segments.contains(where: { $0.0.segmentIndex == m.segmentIndex }) { continue }
            segments.append((m, b.bytes))
            byId[m.fileId] = segments
        }
        return order.map { id in
            let segments = byId[id, default: []].sorted { $0.0.segmentIndex < $1.0.segmentIndex }
            let count = segments.compactMap(\.0.segmentCount).max()
            let complete = count.map { n in segments.map(\.0.segmentIndex) == Array(0..<n) } ?? false
            return MacroSet(fileId: id, segmentCount: count, segmentsFound: segments.map(\.0.segmentIndex),
                            isComplete: complete, bytes: complete ? segments.flatMap(\.1) : nil)
        }
    }
}

/// The segments of one Macro PDF417 file found together (``MacroSegment/sets(in:)``).
public struct MacroSet: Sendable, Equatable, Codable {
    public var fileId: String
    public var segmentCount: Int?
    public var segmentsFound: [Int]
    public var isComplete: Bool
    /// The segments' bytes joined in index order, when the set is complete.
    public var bytes: [UInt8]?
}

/// Why barcode reading failed (finding no barcode is not an error: the result is empty): only
/// a decoder library that throws, which is IDKit's failure, not the image's.
public struct BarcodeError: Error, Sendable, Equatable, CustomStringConvertible, ClassifiedError {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var kindName: String { "decoderFailure" }
    public var errorClass: ErrorClass { .internalError }
}
