internal import CZXingShim
import IDKitImage

/// The one Swift choke point for zxing-cpp (through the CZXingShim C interface).
enum ZXingDecoder {
    struct Options {
        var formats: Int32 = 0
        var tryHarder = true
        var tryRotate = true
        var isPure = false
        var binarizer = Binarizer.localAverage
    }

    /// zxing-cpp's binarizers (DecodeHints::Binarizer), as the shim header names them.
    enum Binarizer {
        case localAverage, globalHistogram
        /// Threshold 127: for views whose contrast is already stretched, where a local average
        /// loses bars one pixel wide.
        case fixedThreshold

        var rawValue: Int32 {
            switch self {
            case .localAverage: Int32(IDK_ZXING_BINARIZER_LOCAL_AVERAGE)
            case .globalHistogram: Int32(IDK_ZXING_BINARIZER_GLOBAL_HISTOGRAM)
            case .fixedThreshold: Int32(IDK_ZXING_BINARIZER_FIXED_THRESHOLD)
            }
        }
    }

    /// The shim's format bit of each format IDKit reports, and the bits zxing-cpp may answer with.
    static let formatBits: [(bit: Int32, format: BarcodeFormat)] = ([
        (IDK_ZXING_AZTEC, .aztec), (IDK_ZXING_CODABAR, .codabar), (IDK_ZXING_CODE39, .code39),
        (IDK_ZXING_CODE93, .code93), (IDK_ZXING_CODE128, .code128), (IDK_ZXING_DATABAR, .dataBar),
        (IDK_ZXING_DATABAR_EXPANDED, .dataBar), (IDK_ZXING_DATAMATRIX, .dataMatrix), (IDK_ZXING_EAN8, .ean8),
        (IDK_ZXING_EAN13, .ean13), (IDK_ZXING_ITF, .itf), (IDK_ZXING_MAXICODE, .other), (IDK_ZXING_PDF417, .pdf417),
        (IDK_ZXING_QRCODE, .qrCode), (IDK_ZXING_UPCA, .upcA), (IDK_ZXING_UPCE, .upcE), (IDK_ZXING_MICROQRCODE, .qrCode),
    ] as [(Int, BarcodeFormat)]).map { (Int32($0.0), $0.1) }

    static let pdf417Bit = Int32(IDK_ZXING_PDF417)

    static func format(_ bit: Int32) -> BarcodeFormat {
        formatBits.first { $0.bit == bit }?.format ?? .other
    }

    /// Every barcode zxing-cpp finds in `image` (rows of `stride` bytes starting at `offset`).
    static func read(_ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, stride: Int,
                     options: Options) throws(BarcodeError) -> [Barcode] {
        var results: UnsafeMutablePointer<idk_zxing_result>?
        var message = [CChar](repeating: 0, count: 256)
        let count = idk_zxing_read(pixels.baseAddress, Int32(width), Int32(height), Int32(stride), options.formats,
                                   options.tryHarder ? 1 : 0, options.tryRotate ? 1 : 0, options.isPure ? 1 : 0,
                                   options.binarizer.rawValue, &results, &message, message.count)
        if count < 0 {
            throw BarcodeError("zxing-cpp failed: " + message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        defer { idk_zxing_free_results(results, count) }
        var found: [Barcode] = []
        for i in 0..<Int(count) {
            let r = results![i]
            let bytes = Array(UnsafeBufferPointer(start: r.bytes, count: Int(r.length)))
            let q = withUnsafeBytes(of: r.quad) { Array($0.bindMemory(to: Int32.self)) }
            func p(_ k: Int) -> Point { Point(x: Double(q[2 * k]), y: Double(q[2 * k + 1])) }
            var macro: MacroSegment?
            if r.sequenceIndex >= 0 {
                let id = withUnsafeBytes(of: r.sequenceId) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                macro = MacroSegment(segmentIndex: Int(r.sequenceIndex), segmentCount: r.sequenceSize > 0 ? Int(r.sequenceSize) : nil,
                                     fileId: id)
            }
            found.append(Barcode(format: format(r.format), bytes: bytes,
                                 quad: Quadrilateral(topLeft: p(0), topRight: p(1), bottomRight: p(2), bottomLeft: p(3)),
                                 decoder: .zxing, isMirrored: r.isMirrored != 0, macro: macro))
        }
        return found
    }

    static func read(_ image: GrayImage, options: Options) throws(BarcodeError) -> [Barcode] {
        guard image.width > 0, image.height > 0 else { return [] }
        return try image.pixels.withUnsafeBufferPointer { buf throws(BarcodeError) in
            try read(buf, width: image.width, height: image.height, stride: image.width, options: options)
        }
    }
}
