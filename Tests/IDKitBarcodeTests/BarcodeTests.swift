import Foundation
import IDKitAAMVA
import IDKitBarcode
import IDKitImage
import Testing

/// `TestVectors/pdf417/`, written by `TestVectors/pdf417/make_images.py` (seeded; zint symbols).
enum PDF417Vectors {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestVectors")
    static let directory = root.appendingPathComponent("pdf417")

    struct Image: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var variant: String
        var payload: String
        var bytes: String
        var angle: Double
        var testDescription: String { file }
    }
    struct Manifest: Decodable { var images: [Image] }
    struct Symbol: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var format: String
        var bytes: String
        var testDescription: String { file }
    }
    struct Misc: Decodable { var symbols: [Symbol] }

    static let images: [Image] = {
        let data = try! Data(contentsOf: directory.appendingPathComponent("images/manifest.json"))
        return try! JSONDecoder().decode(Manifest.self, from: data).images
    }()
    static let symbols: [Symbol] = {
        let data = try! Data(contentsOf: directory.appendingPathComponent("misc/manifest.json"))
        return try! JSONDecoder().decode(Misc.self, from: data).symbols
    }()

    static func load(_ path: String) throws -> GrayImage {
        try ImageDecoder.decodeFile(atPath: directory.appendingPathComponent(path).path).image
    }
}

@Suite("Barcode reading")
struct BarcodeTests {
    @Test("every PDF417 test image decodes to its exact payload bytes", arguments: PDF417Vectors.images)
    func pdf417(_ c: PDF417Vectors.Image) throws {
        let image = try PDF417Vectors.load("images/" + c.file)
        let found = try BarcodeReader(options: .pdf417).read(image)
        let expected = Array(Data(base64Encoded: c.bytes)!)
        let match = found.first { $0.format == .pdf417 && $0.bytes == expected }
        #expect(match != nil, "\(c.variant): found \(found.map { "\($0.format) \($0.bytes.count) bytes" })")
        #expect(match?.decoder == .zxing)
        // The quadrilateral is in the photo's coordinates (inside it, not in the straightened crop).
        for p in match?.quad.corners ?? [] {
            #expect(p.x >= -2 && p.y >= -2 && p.x <= Double(image.width) + 2 && p.y <= Double(image.height) + 2)
        }
        // Corners come in the symbol's reading order: top-left → top-right follows its rows, at the
        // angle the image was made with (a mirrored print reads as turned 180°, so it is skipped).
        if let q = match?.quad, c.variant != "mirrored" {
            let angle = atan2(q.topRight.y - q.topLeft.y, q.topRight.x - q.topLeft.x) * 180 / .pi
            var diff = (angle - c.angle).truncatingRemainder(dividingBy: 360)
            if diff > 180 { diff -= 360 } else if diff < -180 { diff += 360 }
            #expect(abs(diff) < 8, "rows at \(angle)°, made at \(c.angle)°")
        }
    }

    @Test("the decoded payloads parse as the AAMVA data they were made from")
    func aamvaFromImages() throws {
        for c in PDF417Vectors.images.prefix(9) {
            let image = try PDF417Vectors.load("images/" + c.file)
            let barcode = try #require(try BarcodeReader(options: .pdf417).read(image).first)
            let fromImage = try AAMVAParser().parse(barcode.bytes)
            let fromFile = try AAMVAParser().parse(Array(try Data(contentsOf: PDF417Vectors.root.appendingPathComponent(c.payload))))
            #expect(fromImage == fromFile)
            #expect(fromImage.warnings.isEmpty)
        }
    }

    @Test("1D and QR symbols are read by zbar and zxing-cpp", arguments: PDF417Vectors.symbols)
    func otherSymbologies(_ c: PDF417Vectors.Symbol) throws {
        let image = try PDF417Vectors.load("misc/" + c.file)
        let found = try BarcodeReader().read(image)
        let expected = Array(Data(base64Encoded: c.bytes)!)
        let matches = found.filter { $0.format.rawValue == c.format && $0.bytes == expected }
        #expect(!matches.isEmpty, "found \(found.map { "\($0.format) \(String(decoding: $0.bytes, as: UTF8.self))" })")
        // zbar alone reads them too (zxing-cpp results come first; zbar's duplicates are merged).
        let zbarOnly = try BarcodeReader(options: .init(formats: [.qrCode, .code128, .ean13], useZBar: true, locatePDF417: false)).read(image)
        #expect(zbarOnly.contains { $0.bytes == expected })
    }

    @Test("PGM decodes to the same pixels as the PNG it was made from")
    func pgm() throws {
        let png = try PDF417Vectors.load("images/clean-00.png")
        let pgm = try PDF417Vectors.load("misc/clean-00.pgm")
        #expect(png == pgm)
    }
}

@Suite("Image decoding limits and errors")
struct ImageDecoderTests {
    @Test("a 100000×100000 PNG header is refused before any pixel memory is allocated")
    func bomb() throws {
        let data = Array(try Data(contentsOf: PDF417Vectors.directory.appendingPathComponent("misc/bomb-100000x100000.png")))
        #expect(throws: ImageError(.tooLarge, "the image is 100000×100000 = 10000000000 pixels; the limit is 40000000")) {
            try ImageDecoder.decode(data)
        }
    }

    @Test("truncated and corrupt files get a clear error", arguments: ["images/clean-01.png", "images/phone-00.jpg"])
    func truncated(_ file: String) throws {
        let data = Array(try Data(contentsOf: PDF417Vectors.directory.appendingPathComponent(file)))
        for cut in [20, data.count / 3, data.count * 2 / 3] {
            do {
                _ = try ImageDecoder.decode(Array(data.prefix(cut)))
                Issue.record("a file cut to \(cut) of \(data.count) bytes decoded")
            } catch {
                #expect(error.kind == .corrupt, "\(error)")
                #expect(error.message.hasPrefix("corrupt"))
            }
        }
        var flipped = data
        for i in stride(from: 100, to: flipped.count, by: 97) { flipped[i] ^= 0x5A }
        #expect(throws: ImageError.self) { try ImageDecoder.decode(flipped) }
    }

    @Test("unknown formats, empty files and small pixel limits")
    func otherErrors() throws {
        #expect(throws: ImageError(.empty, "the file is empty")) { try ImageDecoder.decode([]) }
        #expect(throws: ImageError(.unsupportedFormat, "not a PNG, JPEG, PGM, BMP, TIFF, WebP, GIF, HEIC or JPEG 2000 file (first bytes 25 50 44 46)")) {
            try ImageDecoder.decode(Array("%PDF-1.7".utf8))
        }
        let data = Array(try Data(contentsOf: PDF417Vectors.directory.appendingPathComponent("images/clean-00.png")))
        #expect(throws: ImageError(.tooLarge, "the image is 800×600 = 480000 pixels; the limit is 1000")) {
            try ImageDecoder.decode(data, limits: ImageLimits(maxPixels: 1000))
        }
        #expect(throws: ImageError(.corrupt, "truncated PGM: 480000 sample bytes expected after byte 15, 3 present")) {
            try ImageDecoder.decode(Array("P5\n800 600\n255\nabc".utf8))
        }
    }
}

/// Joining Macro PDF417 segments (ISO/IEC 15438 Annex H) found in the images of one call.
@Suite struct MacroPDF417Tests {
    static func segment(_ bytes: String, _ index: Int, of count: Int?, id: String) -> Barcode {
        Barcode(format: .pdf417, bytes: Array(bytes.utf8), quad: Quadrilateral(topLeft: Point(x: 0, y: 0), topRight: Point(x: 1, y: 0),
                                                                             bottomRight: Point(x: 1, y: 1), bottomLeft: Point(x: 0, y: 1)),
                decoder: .zxing, macro: MacroSegment(segmentIndex: index, segmentCount: count, fileId: id))
    }

    @Test func segmentsJoinInIndexOrderOncePerIndex() {
        // Found out of order, one twice, one symbol that stands alone, and a second, incomplete set
        // whose count only its last segment knows.
        let lone = Barcode(format: .pdf417, bytes: [1, 2], quad: Self.segment("", 0, of: nil, id: "").quad, decoder: .zxing)
        let found = [Self.segment("C", 2, of: 3, id: "017"), Self.segment("A", 0, of: nil, id: "017"), lone,
                     Self.segment("B", 1, of: nil, id: "017"), Self.segment("A", 0, of: nil, id: "017"),
                     Self.segment("y", 1, of: nil, id: "99"), Self.segment("z", 3, of: 4, id: "99")]
        let sets = MacroSegment.sets(in: found)
        #expect(sets.map(\.fileId) == ["017", "99"])
        #expect(sets[0].segmentsFound == [0, 1, 2] && sets[0].segmentCount == 3 && sets[0].isComplete)
        #expect(sets[0].bytes == Array("ABC".utf8))
        #expect(sets[1].segmentsFound == [1, 3] && sets[1].segmentCount == 4 && !sets[1].isComplete && sets[1].bytes == nil)
        #expect(found[0].macro?.isLast == true && found[1].macro?.isLast == false)
    }
}
