import Foundation
import IDKitTestSupport
import Testing
import IDKitTestSupport

@Suite struct AAMVAAndBarcodeCommandTests {
    static let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors")

    func path(_ p: String) -> String { Self.vectors.appendingPathComponent(p).path }

    func jsonObjects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("idkit aamva --json keeps the contract names and the nil-versus-empty rule")
    func aamvaJSON() throws {
        let r = try IDKitBinary.run(["aamva", "--json", path("aamva/public/IdParser__Licenses__CA.txt")])
        #expect(r.status == 0)
        let o = try #require(try jsonObjects(r.stdout).first)
        #expect(o["version"] as? Int == 4)
        #expect(o["jurisdictionVersion"] as? Int == 0)
        #expect(o["iin"] as? String == "636014")
        #expect(o["jurisdiction"] as? String == "CA")
        #expect(o["country"] as? String == "USA")
        let elements = try #require(o["elements"] as? [String: String])
        #expect(elements["DCS"] == "HARPER")
        #expect(elements["ZCB"] == "")                  // present and empty
        let fields = try #require(o["fields"] as? [String: Any])
        #expect(fields["lastName"] as? String == "HARPER")
        #expect(fields["dateOfBirth"] as? String == "1973-07-05")
        #expect(fields["heightCm"] as? Int == 173)
        #expect(fields["postalCode"] as? String == "95035")
        #expect(fields["suffix"] is NSNull)             // absent: null, not ""
        let warnings = try #require(o["warnings"] as? [[String: Any]])
        #expect(warnings.contains { $0["code"] as? String == "leadingJunk" && $0["offset"] as? Int == 0 })
    }

    @Test("idkit aamva reads standard input and fails with 1 on what is not AAMVA")
    func aamvaStdin() throws {
        let ok = try IDKitBinary.run(["aamva", "-"], stdin: "@\n\u{1E}\rANSI 636000100102DL00310010DLDAQT1\r")
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("IIN 636000 VA Virginia"))
        let bad = try IDKitBinary.run(["aamva", "--json", "-"], stdin: "hello")
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("\"kind\":\"notAAMVA\""))
        let strict = try IDKitBinary.run(["aamva", "--strict", path("aamva/generated/damaged-v08-crlf.bin")])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("warning: crlfLineEnds"))
        let missing = try IDKitBinary.run(["aamva", "/nonexistent/payload.txt"])
        #expect(missing.status == 66)
        let usage = try IDKitBinary.run(["aamva", "--frobnicate"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("unknown option '--frobnicate'"))
    }

    @Test("idkit barcode --json: format, base64 bytes, quad, decoder and the parsed AAMVA payload")
    func barcodeJSON() throws {
        let r = try IDKitBinary.run(["barcode", "--json", path("pdf417/images/rot30-00.png"), path("pdf417/misc/code128.png")])
        #expect(r.status == 0)
        let objects = try jsonObjects(r.stdout)
        #expect(objects.count == 2)
        let first = try #require((objects[0]["barcodes"] as? [[String: Any]])?.first)
        #expect(first["format"] as? String == "PDF417")
        #expect(first["decoder"] as? String == "zxing")
        let quad = try #require(first["quad"] as? [[Int]])
        #expect(quad.count == 4 && quad.allSatisfy { $0.count == 2 })
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.vectors.appendingPathComponent("pdf417/images/manifest.json"))) as? [String: Any])
        let expected = try #require((manifest["images"] as? [[String: Any]])?.first { $0["file"] as? String == "rot30-00.png" })
        #expect(first["bytes"] as? String == expected["bytes"] as? String)
        let aamva = try #require(first["aamva"] as? [String: Any])
        #expect(aamva["iin"] as? String != nil)
        let second = try #require((objects[1]["barcodes"] as? [[String: Any]])?.first)
        #expect(second["format"] as? String == "Code128")
        #expect(second["aamva"] is NSNull)
        #expect((objects[1]["errors"] as? [Any])?.isEmpty == true)
    }

    @Test("idkit barcode --pdf417 reads PDF417 symbols and nothing else")
    func pdf417Only() throws {
        let r = try IDKitBinary.run(["barcode", "--json", "--pdf417", path("pdf417/images/rot30-00.png"), path("pdf417/misc/code128.png")])
        #expect(r.status == 1)                            // the Code 128 image has no PDF417
        let objects = try jsonObjects(r.stdout)
        #expect((objects[0]["barcodes"] as? [[String: Any]])?.map { $0["format"] as? String } == ["PDF417"])
        #expect((objects[1]["barcodes"] as? [Any])?.isEmpty == true)
    }

    @Test("idkit barcode reports bad images with the reason, the kind and exit 66")
    func barcodeErrors() throws {
        let bomb = try IDKitBinary.run(["barcode", "--json", path("pdf417/misc/bomb-100000x100000.png")])
        #expect(bomb.status == 66)
        #expect(bomb.stdout.contains("\"errorKind\":\"tooLarge\""))
        #expect(bomb.stdout.contains("the image is 100000×100000 = 10000000000 pixels; the limit is 40000000"))
        let limit = try IDKitBinary.run(["barcode", "--max-pixels=1000", path("pdf417/images/clean-00.png")])
        #expect(limit.status == 66)
        #expect(limit.stdout.contains("error: the image is 800×600 = 480000 pixels; the limit is 1000"))
        // The same option style as scan: the value after a space as well.
        let spaced = try IDKitBinary.run(["barcode", "--max-pixels", "1000", path("pdf417/images/clean-00.png")])
        #expect(spaced.status == 66)
        #expect(spaced.stdout.contains("error: the image is 800×600 = 480000 pixels; the limit is 1000"))
        let notANumber = try IDKitBinary.run(["barcode", "--max-pixels", "many", path("pdf417/images/clean-00.png")])
        #expect(notANumber.status == 64)
        #expect(notANumber.stderr.contains("--max-pixels: 'many' is not a positive number"))
        let missing = try IDKitBinary.run(["barcode", "/nonexistent.png"])
        #expect(missing.status == 66)
        let usage = try IDKitBinary.run(["barcode"])
        #expect(usage.status == 64)
    }
}

/// The zxing projects' PDF417 suites, read in place from ../shared (never copied here).
enum ZXingSuites {
    static let directory = AAMVAAndBarcodeCommandTests.vectors.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/testdata/pdf417-zxing")
    static var available: Bool { FileManager.default.fileExists(atPath: directory.appendingPathComponent("manifest.tsv").path) }
}

@Suite(.enabled(if: ZXingSuites.available, "needs ../shared/testdata/pdf417-zxing (the zxing projects' PDF417 suites); absent here"))
struct ZXingSuiteCommandTests {
    @Test("idkit barcode prints nothing of the libraries: zbar's DataBar assertion on a zxing photo stays out of stderr")
    func nothingLeaksToStandardError() throws {
        let image = ZXingSuites.directory.appendingPathComponent("zxing-java-pdf417-4/02-01.png").path
        let r = try IDKitBinary.run(["barcode", image])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("PDF417, 1000 bytes"))
    }

    @Test("idkit barcode: every symbol of a page, and a Macro PDF417 set over two images joined to the expected file")
    func macroSetOverTwoImages() throws {
        let images = ["zxing-cpp-pdf417-4/02-01.webp", "zxing-cpp-pdf417-4/02-02.webp"].map { ZXingSuites.directory.appendingPathComponent($0).path }
        let r = try IDKitBinary.run(["barcode", "--json"] + images)
        #expect(r.status == 0)
        let lines = try r.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(lines.count == 3)
        let indices = lines.prefix(2).map { (($0["barcodes"] as? [[String: Any]]) ?? []).compactMap { ($0["macro"] as? [String: Any])?["segmentIndex"] as? Int }.sorted() }
        #expect(indices == [[0, 1, 2, 3], [4, 5, 6, 7]])
        let set = try #require((lines[2]["macroSets"] as? [[String: Any]])?.first)
        #expect(set["segmentCount"] as? Int == 8 && set["isComplete"] as? Bool == true)
        let expected = try Data(contentsOf: ZXingSuites.directory.appendingPathComponent("zxing-cpp-pdf417-4/02.bin"))
        #expect((set["bytes"] as? String).flatMap { Data(base64Encoded: $0) } == expected)
    }

    @Test("idkit barcode reads every WebP and GIF image of the suites as it is, to the expected bytes")
    func webPAndGIFAsTheyAre() throws {
        let rows = try String(contentsOf: ZXingSuites.directory.appendingPathComponent("manifest.tsv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        // suite, image, expected, kind, unit: single-image units stored as WebP or GIF.
        let units = rows.filter { ($0[1].hasSuffix(".webp") || $0[1].hasSuffix(".gif")) && $0[4] == "image" }
        #expect(units.count >= 30)
        for row in units {
            let r = try IDKitBinary.run(["barcode", "--json", ZXingSuites.directory.appendingPathComponent(row[1]).path])
            let expected = try Data(contentsOf: ZXingSuites.directory.appendingPathComponent(row[2]))
            let found = try barcodeBytes(r.stdout)
            let same: (Data) -> Bool = row[3] == "txt"
                ? { String(decoding: $0, as: UTF8.self) == String(decoding: expected, as: UTF8.self) } : { $0 == expected }
            #expect(found.contains(where: same), "\(row[1])")
        }
    }

    /// Every barcode of `--json` output (one object a line), as bytes.
    private func barcodeBytes(_ stdout: String) throws -> [Data] {
        try stdout.split(separator: "\n").flatMap { line -> [Data] in
            let o = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return ((o["barcodes"] as? [[String: Any]]) ?? []).compactMap { ($0["bytes"] as? String).flatMap { Data(base64Encoded: $0) } }
        }
    }

    @Test("idkit scan searches a page without an MRZ whole only up to 0.5 MP: of a lossy 1052 x 536 scan of two symbols the located field gives one, idkit barcode both")
    func scanSearchesLargePagesOnlyWhereLocated() throws {
        let image = ZXingSuites.directory.appendingPathComponent("zxing-cpp-pdf417-3/06.webp").path
        let scan = try IDKitBinary.run(["scan", "--json", image])
        let barcode = try IDKitBinary.run(["barcode", "--json", image])
        let scanned = try barcodeBytes(scan.stdout), read = try barcodeBytes(barcode.stdout)
        // The page prints the same text twice: idkit barcode reads both symbols, idkit scan the one
        // its located field gives.
        #expect(read.count == 2)
        #expect(scanned.count == 1)
        #expect(scanned.allSatisfy { read.contains($0) })
        // A small page keeps the whole-image search: a bare symbol of 239 x 40 the locator cannot outline.
        let strip = try IDKitBinary.run(["scan", "--json", ZXingSuites.directory.appendingPathComponent("zxing-cpp-pdf417-1/05.png").path])
        let expected = try String(contentsOf: ZXingSuites.directory.appendingPathComponent("zxing-cpp-pdf417-1/05.txt"), encoding: .utf8)
        #expect(try barcodeBytes(strip.stdout).map { String(decoding: $0, as: UTF8.self) } == [expected])
    }
}

/// The same bad image gets the same `kind` and exit code from every command: the class table of
/// IDKitCore (ErrorClass), as the service's 413 and the C interface's IDKIT_TOO_LARGE.
@Suite struct CommandErrorKindTests {
    @Test("a PNG declaring 7000 × 7000 pixels is tooLarge, exit 66, for idkit scan and idkit barcode")
    func tooLargeEverywhere() throws {
        let big = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-7000-\(getpid()).png")
        try Data(DeclaredSizePNG.bytes(width: 7000, height: 7000)).write(to: big)
        defer { try? FileManager.default.removeItem(at: big) }
        let barcode = try IDKitBinary.run(["barcode", "--json", big.path])
        #expect(barcode.status == 66)
        let b = try #require(try JSONSerialization.jsonObject(with: Data(barcode.stdout.utf8)) as? [String: Any])
        #expect(b["errorKind"] as? String == "tooLarge")
        #expect((b["errors"] as? [String])?.first?.contains("49000000 pixels") == true)
        let scan = try IDKitBinary.run(["scan", "--json", big.path])
        #expect(scan.status == 66)
        let s = try #require(try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any])
        #expect(s["reasonKind"] as? String == "tooLarge")
        #expect(s["status"] as? String == "unsupportedImage")
    }

    @Test("a barcode report without an error has errorKind null")
    func noError() throws {
        let r = try IDKitBinary.run(["barcode", "--json", Self.vectors.appendingPathComponent("pdf417/images/phone-00.jpg").path])
        #expect(r.status == 0)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(o["errorKind"] is NSNull)
        #expect((o["errors"] as? [Any])?.isEmpty == true)
    }

    static let vectors = AAMVAAndBarcodeCommandTests.vectors
}
