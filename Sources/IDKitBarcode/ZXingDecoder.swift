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

    /// zxing-cpp's binarizers (DecodeHints::Binarizer).
    enum Binarizer: Int32 {
        case localAverage = 0, globalHistogram = 1
        /// Threshold 127: for views whose contrast is already stretched, where a local average
        /// loses bars one pixel wide.
        case fixedThreshold = 2
    }

    static let pdf417Bit: Int32 = 1 << 12

    static func format(_ bit: Int32) -> BarcodeFormat {
        switch bit {
        case 1 << 0: .aztec
        case 1 << 1: .codabar
        case 1 << 2: .code39
        case 1 << 3: .code93
        case 1 << 4: .code128
        case 1 << 5, 1 << 6: .dataBar
        case 1 << 7: .dataMatrix
        case 1 << 8: .ean8
        case 1 << 9: .ean13
        case 1 << 10: .itf
        case 1 << 12: .pdf417
        case 1 << 13, 1 << 16: .qrCode
        case 1 << 14: .upcA
        case 1 << 15: .upcE
        default: .other
        }
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
            found.append(Barcode(format: format(r.format), bytes: bytes,
                                 quad: Quadrilateral(topLeft: p(0), topRight: p(1), bottomRight: p(2), bottomLeft: p(3)),
                                 decoder: .zxing, isMirrored: r.isMirrored != 0))
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
