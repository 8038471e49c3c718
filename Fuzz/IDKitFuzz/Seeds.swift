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
        print("seeds written to \(directory)")
    }
}
