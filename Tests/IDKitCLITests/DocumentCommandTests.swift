import Foundation
import Testing
import IDKitImage
import IDKitTestSupport

/// `idkit bac` and `idkit merge`, run as the built binary, against `TestVectors/chip` and
/// `TestVectors/document`.
@Suite struct DocumentCommandTests {
    static let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors")

    static let appendixD = BACVector.appendixD

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("idkit bac --json: the contract's names, Appendix D's values, from the three values")
    func bacFromValues() throws {
        let v = Self.appendixD
        let r = try IDKitBinary.run(["bac", "--json", "--document-number", v.documentNumber, "--birth", v.dateOfBirth,
                                     "--expiry=\(v.dateOfExpiry)", "--rnd-ic", v.rndIC, "--rnd-ifd", v.rndIFD, "--k-ifd", v.kIFD,
                                     "--card-response", v.cardResponse])
        #expect(r.status == 0)
        let o = try object(r.stdout)
        #expect(o["mrzInformation"] as? String == v.mrzInformation)
        #expect(o["kSeed"] as? String == v.kSeed)
        #expect(o["kEnc"] as? String == v.kEnc)
        #expect(o["kMac"] as? String == v.kMac)
        #expect(o["bacReady"] as? Bool == true)
        #expect(o["externalAuthenticate"] as? String == v.externalAuthenticate)
        #expect(o["ksEnc"] as? String == v.ksEnc)
        #expect(o["ksMac"] as? String == v.ksMac)
        #expect(o["ssc"] as? String == v.ssc)
    }

    @Test("idkit bac from MRZ lines; a failing check digit is not BAC-ready (exit 1)")
    func bacFromLines() throws {
        let v = Self.appendixD
        let ok = try IDKitBinary.run(["bac", "--json"] + v.mrz)
        #expect(ok.status == 0)
        #expect(try object(ok.stdout)["kEnc"] as? String == v.kEnc)
        var bad = v.mrz
        bad[0] = String(bad[0].prefix(14)) + "4" + bad[0].dropFirst(15)
        let notReady = try IDKitBinary.run(["bac", "--json"] + bad)
        #expect(notReady.status == 1)
        #expect(try object(notReady.stdout)["bacReady"] as? Bool == false)
    }

    @Test("idkit bac refuses a forged card answer and bad hex with what and where")
    func bacErrors() throws {
        let v = Self.appendixD
        var forged = Array(v.cardResponse)
        forged[0] = forged[0] == "4" ? "5" : "4"
        let r = try IDKitBinary.run(["bac", "--document-number", v.documentNumber, "--birth", v.dateOfBirth, "--expiry", v.dateOfExpiry,
                                     "--rnd-ic", v.rndIC, "--rnd-ifd", v.rndIFD, "--k-ifd", v.kIFD, "--card-response", String(forged)])
        #expect(r.status == 1)
        #expect(r.stderr.contains("M_IC does not verify"))
        let hex = try IDKitBinary.run(["bac", "--document-number", "X1", "--birth", "690806", "--expiry", "940623",
                                       "--rnd-ic", "4608F91988702Z12", "--rnd-ifd", v.rndIFD, "--k-ifd", v.kIFD])
        #expect(hex.status == 64)
        #expect(hex.stderr.contains("--rnd-ic, hex digit 14: 'Z' is not 0–9 or A–F"))
        let missing = try IDKitBinary.run(["bac", "--document-number", "X1", "--birth", "690806"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("--document-number, --birth and --expiry go together"))
    }

    @Test("idkit merge --json keeps the contract's names; redaction removes the value everywhere")
    func mergeJSON() throws {
        let input = """
        {"mrz": ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"],
         "viz": {"front": {"dateOfBirth": "12 AUG 1974", "lastName": "ERIKSSON"}, "back": {"address": ""}},
         "referenceDate": "2010-06-01"}
        """
        let r = try IDKitBinary.run(["merge", "--json", "-"], stdin: input)
        #expect(r.status == 0)
        let o = try object(r.stdout)
        let fields = try #require(o["fields"] as? [String: [String: Any]])
        #expect(fields["documentNumber"]?["value"] as? String == "L898902C3")
        #expect(fields["documentNumber"]?["source"] as? String == "mrz")
        #expect(fields["lastName"]?["source"] as? String == "vizFront")
        #expect(fields["lastName"]?["readings"] as? [String: String] == ["mrz": "ERIKSSON", "vizFront": "ERIKSSON"])
        #expect(fields["address"]?["value"] as? String == "")           // present and empty
        #expect(fields["dateOfIssue"]?["value"] is NSNull)               // absent
        let match = try #require(o["dataMatch"] as? [String: String])
        #expect(match["dateOfBirth"] == "match")
        #expect(match["documentNumber"] == "notPerformed")
        #expect(match["wholeDocument"] == "match")
        #expect((o["derived"] as? [String: Any])?["age"] as? Int == 35)
        #expect(o["redacted"] as? [String] == [])

        let red = try IDKitBinary.run(["merge", "--json", "--redact", "dateOfBirth", "--redact-mrz", "-"], stdin: input)
        #expect(red.status == 0)
        #expect(!red.stdout.contains("1974-08-12") && !red.stdout.contains("740812"))
        #expect(try object(red.stdout)["redacted"] as? [String] == ["dateOfBirth", "mrz"])
    }

    @Test("idkit merge: bad input names the key; a data mismatch exits 1")
    func mergeErrors() throws {
        let bad = try IDKitBinary.run(["merge", "-"], stdin: #"{"viz": {"front": {"surname": "X"}}}"#)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("viz.front.surname: not a field name"))
        let flag = try IDKitBinary.run(["merge", "--redact", "photo", "-"], stdin: "{}")
        #expect(flag.status == 64)
        #expect(flag.stderr.contains("--redact must be field names separated by commas") && flag.stderr.contains("found 'photo'"))
        let mismatch = try IDKitBinary.run(["merge", "-"], stdin: """
            {"mrz": ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"],
             "viz": {"back": {"dateOfBirth": "13.08.1974"}}}
            """)
        #expect(mismatch.status == 1)
        #expect(mismatch.stdout.contains("dateOfBirth mismatch"))
    }

    @Test("idkit merge reads a base64 barcode and gives it back, masked where redacted")
    func mergeBarcode() throws {
        let payload = try Data(contentsOf: Self.vectors.appendingPathComponent("aamva/generated/v10-dl-va.bin"))
        let input = #"{"barcode": "\#(payload.base64EncodedString())", "referenceDate": "2025-06-01"}"#
        let r = try IDKitBinary.run(["merge", "--json", "-"], stdin: input)
        #expect(r.status == 0)
        let o = try object(r.stdout)
        let fields = try #require(o["fields"] as? [String: [String: Any]])
        #expect(fields["lastName"]?["value"] as? String == "GARCIA")
        #expect(fields["lastName"]?["source"] as? String == "barcode")
        #expect((o["raw"] as? [String: Any])?["barcode"] as? String == payload.base64EncodedString())
        #expect((o["documentClass"] as? [String: Any])?["region"] as? String == "VA")

        let red = try IDKitBinary.run(["merge", "--json", "--redact=documentNumber", "-"], stdin: input)
        let raw = try #require((try object(red.stdout)["raw"] as? [String: Any])?["barcode"] as? String)
        let bytes = try #require(Data(base64Encoded: raw))
        #expect(bytes.count == payload.count)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("Y17895625"))
    }
}

@Suite struct ScanCommandTests {
    static let images = DocumentCommandTests.vectors.appendingPathComponent("images")

    @Test("idkit scan --json keeps the contract's names; --annotate writes a PNG")
    func scanJSON() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-annotate-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = Self.images.appendingPathComponent("clean-01-td1.jpg").path
        let r = try IDKitBinary.run(["scan", "--json", "--no-barcodes", "--annotate", dir.path, image])
        #expect(r.status == 0)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(o["file"] as? String == image)
        #expect(o["status"] as? String == "ok")
        let mrz = try #require(o["mrz"] as? [String: Any])
        let lines = try #require(mrz["lines"] as? [String])
        #expect(lines.count == 3 && lines.allSatisfy { $0.count == 30 })
        #expect((mrz["quad"] as? [[Double]])?.count == 4)
        #expect((mrz["confidence"] as? [[Double]])?.map(\.count) == [30, 30, 30])
        #expect(mrz["verified"] as? Bool == true)
        #expect(mrz["unsureFields"] as? [String] == [])
        #expect(mrz["recognizer"] as? String == "network")
        #expect((mrz["parsed"] as? [String: Any])?["valid"] as? Bool == true)
        let quality = try #require(o["quality"] as? [String: Any])
        for key in ["brightness", "sharpness", "glare", "mrzCharHeightPx", "isSharp", "isGlareFree", "isAdequateResolution", "hints"] {
            #expect(quality[key] != nil, "quality.\(key)")
        }
        #expect(o["barcodes"] as? [Any] != nil)
        #expect((o["document"] as? [String: Any])?["fields"] != nil)
        #expect((o["timingsMs"] as? [String: Double])?["total"] != nil)
        let png = try Data(contentsOf: dir.appendingPathComponent("clean-01-td1.annotated.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("idkit scan --crop writes each document straightened at 300 dpi, its face and its signature, in color, and names the files in the JSON")
    func crops() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-crop-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = Self.images.appendingPathComponent("documents/pair-00.jpg").path
        let r = try IDKitBinary.run(["scan", "--json", "--no-barcodes", "--crop", dir.path, image])
        #expect(r.status == 0)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let crops = try #require(o["crops"] as? [String: Any])
        #expect(crops["document"] as? String == dir.path + "/pair-00.document.png")
        #expect(crops["face"] as? String == dir.path + "/pair-00.face.png")
        #expect(crops["signature"] as? String == dir.path + "/pair-00.signature.png")
        let second = try #require((o["documents"] as? [[String: Any]])?.last?["crops"] as? [String: Any])
        #expect(second["document"] as? String == dir.path + "/pair-00.doc2.document.png")
        // The primary is a passport page: 125 × 88 mm at 300 dpi, in color.
        let document = try ImageDecoder.decodeColorPage(Array(try Data(contentsOf: dir.appendingPathComponent("pair-00.document.png")))).image
        #expect(document.width == 1476 && document.height == 1039)
        #expect(stride(from: 0, to: document.pixels.count, by: 3).contains { document.pixels[$0] != document.pixels[$0 + 2] })
        // The face photo: taller than wide, much smaller than the page.
        let face = try ImageDecoder.decodeColorPage(Array(try Data(contentsOf: dir.appendingPathComponent("pair-00.face.png")))).image
        #expect(face.height > face.width && face.width < document.width / 3)
        // The signature: a wide strip of ink, blue (the generator signs in blue-black).
        let signature = try ImageDecoder.decodeColorPage(Array(try Data(contentsOf: dir.appendingPathComponent("pair-00.signature.png")))).image
        #expect(signature.width > 2 * signature.height && signature.width < document.width * 3 / 5)
        #expect(stride(from: 0, to: signature.pixels.count, by: 3).contains { Int(signature.pixels[$0 + 2]) - Int(signature.pixels[$0]) > 50 })
    }

    @Test("idkit scan --crop: a missing directory and --fuse are usage errors")
    func cropUsage() throws {
        let image = Self.images.appendingPathComponent("clean-01-td1.jpg").path
        let missing = try IDKitBinary.run(["scan", "--crop", "/nonexistent-\(getpid())", image])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("--crop: '/nonexistent-\(getpid())' is not an existing directory"))
        let fused = try IDKitBinary.run(["scan", "--fuse", "--crop", FileManager.default.temporaryDirectory.path, image, image])
        #expect(fused.status == 64)
        #expect(fused.stderr.contains("--crop cannot be used with --fuse"))
    }

    @Test("idkit scan --viz: the visual zone in the JSON; with --fuse a usage error")
    func vizOption() throws {
        let image = Self.images.appendingPathComponent("clean-00-td3.jpg").path
        let r = try IDKitBinary.run(["scan", "--json", "--viz", "--reference-date", "2025-01-01", image])
        #expect(r.status == 0)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let viz = try #require(o["viz"] as? [String: Any])
        #expect(viz["side"] as? String == "front")
        // The generated page prints its labels in English and French.
        #expect((viz["lines"] as? [[String: Any]])?.contains { ($0["text"] as? String)?.contains("Surname") == true } == true)
        let fused = try IDKitBinary.run(["scan", "--fuse", "--viz", image, image])
        #expect(fused.status == 64)
        #expect(fused.stderr.contains("--viz cannot be used with --fuse"))
    }

    /// Tesseract's image library reports a box clipped off the Icelandic specimen's page on
    /// stderr unless silenced.
    @Test("idkit scan --viz prints nothing of the libraries on stderr",
          .enabled(if: FileManager.default.fileExists(atPath: realSpecimen), "needs ../shared/testdata/mrz-real; absent here"))
    func vizLeavesStandardErrorAlone() throws {
        let r = try IDKitBinary.run(["scan", "--json", "--viz", "--no-barcodes", Self.realSpecimen])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "stderr: \(r.stderr)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(((o["viz"] as? [String: Any])?["lines"] as? [Any])?.isEmpty == false)
    }
    static let realSpecimen = images.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/testdata/mrz-real/images/012_isl-pass.png").path

    @Test("idkit scan --annotate: an annotation that cannot be written exits 73 and says where and why")
    func annotationThatCannotBeWritten() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-annotate-fail-\(getpid())")
        // A directory where the PNG should go: open(2) fails with EISDIR.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("clean-01-td1.annotated.png"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = Self.images.appendingPathComponent("clean-01-td1.jpg").path
        let r = try IDKitBinary.run(["scan", "--no-barcodes", "--annotate", dir.path, image])
        #expect(r.status == 73)
        #expect(r.stderr.contains("cannot write '\(dir.path)/clean-01-td1.annotated.png'"))
        #expect(r.stderr.contains("Is a directory"))
    }

    @Test("idkit scan reads every format and every page of a TIFF, the pages after the first as FILE#page=N")
    func everyFormatAndPage() throws {
        let formats = DocumentCommandTests.vectors.appendingPathComponent("images/formats")
        let files = ["two-pages.tif", "lossless.webp", "lossy.heic", "gray.gif", "gray8.bmp"].map { formats.appendingPathComponent($0).path }
        let r = try IDKitBinary.run(["scan", "--json", "--no-barcodes"] + files)
        #expect(r.status == 0)
        let objects = try r.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["file"] as? String } == [files[0], files[0] + "#page=2"] + files.dropFirst().map { $0 })
        let lines = objects.map { ($0["mrz"] as? [String: Any])?["lines"] as? [String] }
        // The same document in every file (the second TIFF page turned 180°, read upright).
        #expect(Set(lines.map { $0?.joined(separator: "/") ?? "" }).count == 1)
        #expect(lines.first??.first == "C<ESP6BLUFGL7U5NNPR4<<<<<<<<<<")
        #expect(objects.allSatisfy { ($0["mrz"] as? [String: Any])?["verified"] as? Bool == true })
    }

    @Test("idkit scan: a file that is not an image exits 66 and says why")
    func scanErrors() throws {
        let r = try IDKitBinary.run(["scan", "--json", Self.images.appendingPathComponent("manifest.json").path])
        #expect(r.status == 66)
        #expect(r.stdout.contains("\"status\":\"unsupportedImage\""))
        #expect(r.stdout.contains("\"reasonKind\":\"unsupportedFormat\""))
        let usage = try IDKitBinary.run(["scan"])
        #expect(usage.status == 64)
    }

    /// The exit status says what to do: 0 accept, 1 take another photo (mrzUncertain), 2 reject
    /// the document (mrzInvalid); several images exit with the highest.
    @Test("idkit scan: the exit status follows the status")
    func scanExitStatus() throws {
        func path(_ name: String) -> String { Self.images.appendingPathComponent(name).path }
        let clean = try IDKitBinary.run(["scan", "--json", "--no-barcodes", path("clean-00-td3.jpg")])
        #expect(clean.status == 0)
        #expect(clean.stdout.contains("\"status\":\"ok\",\"reason\":null,\"reasonKind\":null"))
        let faint = try IDKitBinary.run(["scan", "--json", "--no-barcodes", path("faint-00-td2.jpg")])
        #expect(faint.status == 1)
        #expect(faint.stdout.contains("\"status\":\"mrzUncertain\""))
        let misprinted = try IDKitBinary.run(["scan", "--json", "--no-barcodes", path("misprinted-00-td3.jpg")])
        #expect(misprinted.status == 2)
        #expect(misprinted.stdout.contains("\"reasonKind\":\"invalidCheckDigit\""))
        let all = try IDKitBinary.run(["scan", "--no-barcodes", path("clean-00-td3.jpg"), path("misprinted-00-td3.jpg"), path("faint-00-td2.jpg")])
        #expect(all.status == 2)
    }
}

/// `idkit scan --sides FRONT BACK`: the two sides of one card as one document.
@Suite struct ScanSidesCommandTests {
    static let viz = DocumentCommandTests.vectors.appendingPathComponent("viz")

    @Test func aFrontOfAnotherCardExitsFiveWithTheMismatch() throws {
        let r = try IDKitBinary.run(["scan", "--json", "--no-barcodes", "--sides", Self.viz.appendingPathComponent("card-b-front.png").path,
                                     Self.viz.appendingPathComponent("card-a-back.png").path])
        #expect(r.status == 5)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(o["status"] as? String == "sidesMismatch")
        let sides = try #require(o["sides"] as? [String: Any])
        #expect(sides["match"] as? Bool == false)
        #expect(sides["reasonKind"] as? String == "otherCard")
    }

    @Test func sidesTakeExactlyTwoImages() throws {
        let r = try IDKitBinary.run(["scan", "--sides", Self.viz.appendingPathComponent("card-a-back.png").path])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--sides takes two images"))
    }
}
