internal import CZBar
import IDKitImage

/// The one Swift choke point for zbar: 1D symbologies and QR. zbar's PDF417 decoder is
/// unfinished (it finds nothing in valid symbols), so PDF417 is not switched on here.
enum ZBarDecoder {
    static func format(_ type: zbar_symbol_type_t) -> BarcodeFormat {
        switch type {
        case ZBAR_QRCODE: .qrCode
        case ZBAR_CODE128: .code128
        case ZBAR_CODE39: .code39
        case ZBAR_CODE93: .code93
        case ZBAR_CODABAR: .codabar
        case ZBAR_EAN13: .ean13
        case ZBAR_EAN8: .ean8
        case ZBAR_UPCA: .upcA
        case ZBAR_UPCE: .upcE
        case ZBAR_I25: .itf
        case ZBAR_DATABAR, ZBAR_DATABAR_EXP: .dataBar
        default: .other
        }
    }

    /// What zbar reads for IDKit: QR and the 1D symbologies of ``BarcodeFormat`` but DataBar.
    static let enabled: [zbar_symbol_type_t] = [ZBAR_QRCODE, ZBAR_CODE128, ZBAR_CODE39, ZBAR_CODE93, ZBAR_CODABAR,
                                                ZBAR_EAN13, ZBAR_EAN8, ZBAR_UPCA, ZBAR_UPCE, ZBAR_I25]

    static func read(_ image: GrayImage) -> [Barcode] {
        guard image.width > 0, image.height > 0, let scanner = zbar_image_scanner_create() else { return [] }
        defer { zbar_image_scanner_destroy(scanner) }
        // Only the symbologies reported, and not DataBar: zxing-cpp reads DataBar, and zbar's
        // DataBar decoder prints internal assertions to stderr on some images (a zxing test photo).
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for symbology in Self.enabled { zbar_image_scanner_set_config(scanner, symbology, ZBAR_CFG_ENABLE, 1) }
        // Raw bytes for QR, not zbar's guess at a text encoding.
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
        // Every second row and column (zbar's default is every one): a 1D symbol's bars cross
        // dozens of scan lines either way, and zxing-cpp reads QR codes as well; the scan of a
        // 2-MP page without a barcode, a quarter of its cost, halves.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, 2)
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, 2)
        guard let zimage = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(zimage) }
        // fourcc("Y800"): 8-bit gray.
        let y800 = UInt(UInt8(ascii: "Y")) | UInt(UInt8(ascii: "8")) << 8 | UInt(UInt8(ascii: "0")) << 16 | UInt(UInt8(ascii: "0")) << 24
        zbar_image_set_format(zimage, y800)
        zbar_image_set_size(zimage, UInt32(image.width), UInt32(image.height))
        return image.pixels.withUnsafeBufferPointer { buf -> [Barcode] in
            // zbar only reads the data during zbar_scan_image; no cleanup handler is needed.
            zbar_image_set_data(zimage, buf.baseAddress, UInt(buf.count), nil)
            guard zbar_scan_image(scanner, zimage) > 0 else { return [] }
            var found: [Barcode] = []
            var symbol = zbar_image_first_symbol(zimage)
            while let s = symbol {
                let length = Int(zbar_symbol_get_data_length(s))
                let bytes: [UInt8] = zbar_symbol_get_data(s).map { p in
                    p.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
                } ?? []
                var xs: [Double] = [], ys: [Double] = []
                for k in 0..<zbar_symbol_get_loc_size(s) {
                    xs.append(Double(zbar_symbol_get_loc_x(s, k)))
                    ys.append(Double(zbar_symbol_get_loc_y(s, k)))
                }
                let quad: Quadrilateral
                if let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() {
                    quad = Quadrilateral(topLeft: Point(x: minX, y: minY), topRight: Point(x: maxX, y: minY),
                                         bottomRight: Point(x: maxX, y: maxY), bottomLeft: Point(x: minX, y: maxY))
                } else {
                    quad = Quadrilateral(topLeft: Point(x: 0, y: 0), topRight: Point(x: 0, y: 0), bottomRight: Point(x: 0, y: 0), bottomLeft: Point(x: 0, y: 0))
                }
                found.append(Barcode(format: format(zbar_symbol_get_type(s)), bytes: bytes, quad: quad, decoder: .zbar))
                symbol = zbar_symbol_next(s)
            }
            return found
        }
    }
}
