import Foundation
import IDKitImage

/// Seed corpora from TestVectors/, one folder per harness (run from the package root).
enum Seeds {
    static func write(into directory: String) {
        let fm = FileManager.default
        func folder(_ name: String) -> String {
            let path = directory + "/" + name
            try? fm.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }
        func put(_ dir: String, _ name: String, _ bytes: [UInt8]) {
            if !fm.createFile(atPath: dir + "/" + name, contents: Data(bytes)) {
                FileHandle.standardError.write(Data("idkit-fuzz: cannot write seed \(dir)/\(name)\n".utf8))
            }
        }
        // MRZ: every record of the samples file, and every vector's lines.
        let mrz = folder("mrz")
        if let samples = try? String(contentsOfFile: "TestVectors/mrz/samples.txt", encoding: .utf8) {
            for (i, record) in samples.components(separatedBy: "\n\n").enumerated() { put(mrz, "sample-\(i)", Array(record.utf8)) }
        }
        for file in ["specimens", "tricky", "invalid", "ocr", "structural"] {
            guard let data = fm.contents(atPath: "TestVectors/mrz/\(file).json"),
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let cases = json["cases"] as? [[String: Any]] else { continue }
            for (i, c) in cases.enumerated() {
                if let lines = c["lines"] as? [String] { put(mrz, "\(file)-\(i)", Array(lines.joined(separator: "\n").utf8)) }
                if let text = c["text"] as? String { put(mrz, "\(file)-\(i)", Array(text.utf8)) }
            }
        }
        // AAMVA: every payload.
        let aamva = folder("aamva")
        for sub in ["public", "generated"] {
            for name in (try? fm.contentsOfDirectory(atPath: "TestVectors/aamva/\(sub)")) ?? [] where !name.hasSuffix(".md") {
                if let data = fm.contents(atPath: "TestVectors/aamva/\(sub)/\(name)") { put(aamva, "\(sub)-\(name)", Array(data)) }
            }
        }
        // Merge: every merge case as `idkit merge` input.
        let merge = folder("merge")
        if let data = fm.contents(atPath: "TestVectors/document/merge-cases.json"),
           let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
           let cases = json["cases"] as? [[String: Any]] {
            for (i, c) in cases.enumerated() {
                guard var input = c["input"] as? [String: Any] else { continue }
                if let file = input.removeValue(forKey: "barcodeFile") as? String,
                   let payload = fm.contents(atPath: "TestVectors/document/" + file) {
                    input["barcode"] = payload.base64EncodedString()
                }
                if let out = try? JSONSerialization.data(withJSONObject: input) { put(merge, "case-\(i)", Array(out)) }
            }
        }
        // Images: the small symbols as they are; document photos shrunk to 480 px wide as PNG.
        let image = folder("image"), scan = folder("scan")
        for name in (try? fm.contentsOfDirectory(atPath: "TestVectors/pdf417/misc")) ?? [] {
            if let data = fm.contents(atPath: "TestVectors/pdf417/misc/\(name)"), data.count < 200_000 { put(image, name, Array(data)) }
        }
        // Every other format (issue 14): BMP, TIFF, WebP, GIF, HEIC as the committed script made them.
        for name in ((try? fm.contentsOfDirectory(atPath: "TestVectors/images/formats")) ?? []).sorted() where !name.hasSuffix(".py") {
            if let data = fm.contents(atPath: "TestVectors/images/formats/\(name)"), data.count < 200_000 { put(image, "format-" + name, Array(data)) }
        }
        for name in ((try? fm.contentsOfDirectory(atPath: "TestVectors/images")) ?? []).sorted() where name.hasSuffix(".jpg") {
            guard let decoded = try? ImageDecoder.decodeFile(atPath: "TestVectors/images/\(name)").image else { continue }
            let scale = 480.0 / Double(decoded.width)
            let w = 480, h = Int(Double(decoded.height) * scale)
            guard let t = Homography(from: [Point(x: 0, y: 0), Point(x: Double(w), y: 0), Point(x: Double(w), y: Double(h)), Point(x: 0, y: Double(h))],
                                     to: [Point(x: 0, y: 0), Point(x: Double(decoded.width), y: 0),
                                          Point(x: Double(decoded.width), y: Double(decoded.height)), Point(x: 0, y: Double(decoded.height))]) else { continue }
            let small = decoded.warped(width: w, height: h, by: t)
            if let png = try? ImageEncoder.png(small) {
                put(scan, name.replacingOccurrences(of: ".jpg", with: ".png"), png)
                put(image, name.replacingOccurrences(of: ".jpg", with: ".png"), png)
            }
        }
        // Chip files: the worked examples of ICAO 9303 transcribed in TestVectors/chip, and the
        // test PKI's files when TestVectors/chip/make_pki.sh has been run into .build/pki.
        let chip = folder("chip")
        let specimen = Array("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<L898902C36UTO7408122F1204159ZE184226B<<<<<10".utf8)
        put(chip, "dg1", [0x61, 0x5B, 0x5F, 0x1F, 0x58] + specimen)
        put(chip, "com", [0x60, 0x16, 0x5F, 0x01, 0x04] + Array("0107".utf8) + [0x5F, 0x36, 0x06] + Array("040000".utf8) + [0x5C, 0x04, 0x61, 0x75, 0x76, 0x6C])
        put(chip, "sm-response", [0x99, 0x02, 0x90, 0x00, 0x8E, 0x08, 0xFA, 0x85, 0x5A, 0x5D, 0x4C, 0x50, 0xA8, 0xED, 0x90, 0x00])
        for name in ((try? fm.contentsOfDirectory(atPath: ".build/pki/sod")) ?? []).sorted() {
            if let data = fm.contents(atPath: ".build/pki/sod/\(name)") { put(chip, "sod-" + name, Array(data)) }
        }
        for name in ["EF_DG2.bin", "EF_DG11.bin", "EF_DG12.bin", "EF_DG15.bin"] {
            if let data = fm.contents(atPath: ".build/pki/\(name)") { put(chip, name, Array(data)) }
        }
        // An LDS 2 DG2 (ISO/IEC 39794-5 record in 7F2E) and a DG7, around a JPEG 2000 file's first bytes.
        func tlv(_ tag: [UInt8], _ body: [UInt8]) -> [UInt8] {
            tag + (body.count < 0x80 ? [UInt8(body.count)] : [0x82, UInt8(body.count >> 8), UInt8(body.count & 0xFF)]) + body
        }
        let jp2: [UInt8] = [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A, 0, 0, 0, 0x2D, 0x6A, 0x70, 0x32, 0x68,
                            0, 0, 0, 0x16, 0x69, 0x68, 0x64, 0x72, 0, 0, 0, 0x1E, 0, 0, 0, 0x30, 0, 3, 7, 7, 0, 0]
        let information = tlv([0xA1], tlv([0xA0], tlv([0x80], [3])) + tlv([0xA7], tlv([0x80], [0x30]) + tlv([0x81], [0x1E])))
        let representation = tlv([0x30], tlv([0x80], [0]) + tlv([0xA1], tlv([0xA0], tlv([0xA0], tlv([0x80], jp2) + information))))
        let record = tlv([0x65], tlv([0xA0], tlv([0x80], [3]) + tlv([0x81], [0x07, 0xE3])) + tlv([0xA1], representation))
        put(chip, "dg2-39794", tlv([0x75], tlv([0x7F, 0x61], tlv([0x02], [1]) + tlv([0x7F, 0x60], tlv([0x7F, 0x2E], tlv([0xA1], record))))))
        put(chip, "dg7", tlv([0x67], tlv([0x02], [1]) + tlv([0x5F, 0x43], jp2)))
        print("seeds written to \(directory)")
    }
}
