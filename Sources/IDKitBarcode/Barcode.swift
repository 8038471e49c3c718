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
public enum BarcodeDecoder: String, Sendable, Codable {
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

    public init(format: BarcodeFormat, bytes: [UInt8], quad: Quadrilateral, decoder: BarcodeDecoder, isMirrored: Bool = false) {
        self.format = format
        self.bytes = bytes
        self.quad = quad
        self.decoder = decoder
        self.isMirrored = isMirrored
    }
}

/// Why barcode reading failed (finding no barcode is not an error: the result is empty).
public struct BarcodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
