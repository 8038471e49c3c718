import Foundation
import IDKitImage
import Testing
import IDKitTestSupport

/// The routes of `idkit serve` over real HTTP: the built server on an ephemeral port, called with
/// curl (``RunningServer``), each route's answer the same as the command line's for the same
/// input; the problem statuses, probes and metrics. `ServiceTests` call the routes in process;
/// `ServeCommandTests` (IDKitCLITests) check the command's own flags: authentication, TLS, load
/// shedding and shutdown.
@Suite(.serialized) struct HTTPRouteTests {
    static let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors")

    /// A scan's JSON for comparing the service's with the command line's: all but the file name
    /// and the timings.
    static func comparable(_ text: String) throws -> NSDictionary {
        var o = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        o["timingsMs"] = nil
        o["file"] = nil
        return o as NSDictionary
    }

    @Test("POST /v1/mrz answers byte for byte what idkit validate --json prints for the same records")
    func mrzContractEqualsTheCommandLine() throws {
        let server = try RunningServer(["--reference-date", "2025-01-01"])
        let samples = try Data(contentsOf: Self.vectors.appendingPathComponent("mrz/samples.txt"))
        let reply = try server.call("POST", "/v1/mrz", body: samples, headers: ["Content-Type": "text/plain"])
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "application/x-ndjson")
        let cli = try IDKitBinary.run(["validate", "--json", "--reference-date", "2025-01-01", "-"], stdin: String(decoding: samples, as: UTF8.self))
        #expect(reply.text == cli.stdout)
        #expect(reply.text.split(separator: "\n").count >= 5)
        // A JSON record: the same line as the command line gives for that record on standard input.
        let record = #"{"lines": ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"], "id": "a"}"#
        let one = try server.call("POST", "/v1/mrz", body: Data(record.utf8), headers: ["Content-Type": "application/json"])
        let cliOne = try IDKitBinary.run(["validate", "--json", "--reference-date", "2025-01-01", "-"], stdin: record + "\n")
        #expect(one.status == 200)
        #expect(one.text == cliOne.stdout)
        #expect(server.terminate().status == 0)
    }

    @Test("POST /v1/aamva answers what idkit aamva --json prints; garbage is a 400 problem")
    func aamvaContractEqualsTheCommandLine() throws {
        let server = try RunningServer()
        let file = Self.vectors.appendingPathComponent("aamva/public/AR-Apple__1.txt")
        let reply = try server.call("POST", "/v1/aamva", body: try Data(contentsOf: file), headers: ["Content-Type": "application/octet-stream"])
        let cli = try IDKitBinary.run(["aamva", "--json", file.path])
        #expect(reply.status == 200)
        #expect(reply.text == cli.stdout)
        let bad = try server.call("POST", "/v1/aamva", body: Data("nothing".utf8), headers: ["Content-Type": "application/octet-stream"])
        #expect(bad.status == 400)
        #expect(bad.headers["content-type"] == "application/problem+json")
        #expect(bad.text.contains(#""kind":"notAAMVA""#))
        _ = server.terminate()
    }

    @Test("POST /v1/barcode and /v1/scan answer what idkit barcode --json and idkit scan --json print for the file")
    func imageContractsEqualTheCommandLine() throws {
        let server = try RunningServer(["--reference-date", "2025-01-01"])
        let phone = Self.vectors.appendingPathComponent("pdf417/images/phone-00.jpg")
        let barcode = try server.call("POST", "/v1/barcode", body: try Data(contentsOf: phone), headers: ["Content-Type": "image/jpeg"])
        let cliBarcode = try IDKitBinary.run(["barcode", "--json", phone.path])
        #expect(barcode.status == 200)
        #expect(barcode.text == cliBarcode.stdout.replacingOccurrences(of: #""file":"\#(phone.path)""#, with: #""file":"-""#))
        #expect(barcode.text.contains(#""format":"PDF417""#))
        // The scan: the same object but for the file name and the timings.
        let photo = Self.vectors.appendingPathComponent("images/tilt-01-td1.jpg")
        let scan = try server.call("POST", "/v1/scan", body: try Data(contentsOf: photo), headers: ["Content-Type": "image/jpeg"])
        let cliScan = try IDKitBinary.run(["scan", "--json", "--reference-date", "2025-01-01", photo.path])
        #expect(scan.status == 200)
        #expect(try Self.comparable(scan.text) == Self.comparable(cliScan.stdout))
        #expect(scan.text.contains(#""status":"ok""#))
        // ?crops: the straightened document as a base64 PNG of an ID-1 card at 300 dpi.
        let cropped = try server.call("POST", "/v1/scan?crops", body: try Data(contentsOf: photo), headers: ["Content-Type": "image/jpeg"])
        let crops = try #require((try JSONSerialization.jsonObject(with: cropped.body) as? [String: Any])?["crops"] as? [String: Any])
        let base64 = try #require(crops["document"] as? String)
        let png = try #require(Data(base64Encoded: base64))
        let document = try ImageDecoder.decodeColorPage(Array(png)).image
        #expect(document.width == 1011 && document.height == 638)
        // Not an image: 415; a truncated JPEG: 400; no document in a plain image: 422.
        let text = try server.call("POST", "/v1/scan", body: Data("plain text".utf8), headers: ["Content-Type": "image/jpeg"])
        #expect(text.status == 415)
        #expect(text.text.contains("urn:idkit:problem:unsupported-image"))
        let jpeg = try Data(contentsOf: photo)
        let cut = try server.call("POST", "/v1/barcode", body: jpeg.prefix(600), headers: ["Content-Type": "image/jpeg"])
        #expect(cut.status == 400)
        _ = server.terminate()
    }

    @Test("POST /v1/merge answers what idkit merge --json prints for the same input; bad input is a 400 with its kind")
    func mergeContractEqualsTheCommandLine() throws {
        let server = try RunningServer()
        let cases = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.vectors.appendingPathComponent("document/merge-cases.json"))) as? [String: Any])
        let inputs = try #require(cases["cases"] as? [[String: Any]]).prefix(5).compactMap { $0["input"] }
        #expect(inputs.count == 5)
        for input in inputs {
            let body = try JSONSerialization.data(withJSONObject: input)
            let reply = try server.call("POST", "/v1/merge", body: body, headers: ["Content-Type": "application/json"])
            let cli = try IDKitBinary.run(["merge", "--json", "-"], stdin: String(decoding: body, as: UTF8.self))
            #expect(reply.status == 200)
            #expect(reply.text == cli.stdout)
        }
        let bad = try server.call("POST", "/v1/merge", body: Data(#"{"mrz": 5}"#.utf8), headers: ["Content-Type": "application/json"])
        #expect(bad.status == 400)
        #expect(bad.text.contains(#""kind":"invalidInput""#))
        _ = server.terminate()
    }

    @Test("POST /v1/bac answers what idkit bac --json prints: ICAO 9303-11 Appendix D's keys, challenge and session keys")
    func bacContractEqualsTheCommandLine() throws {
        let server = try RunningServer()
        let v = BACVector.appendixD
        let body = try JSONSerialization.data(withJSONObject: [
            "documentNumber": v.documentNumber, "dateOfBirth": v.dateOfBirth, "dateOfExpiry": v.dateOfExpiry,
            "rndIC": v.rndIC, "rndIFD": v.rndIFD, "kIFD": v.kIFD, "cardResponse": v.cardResponse])
        let reply = try server.call("POST", "/v1/bac", body: body, headers: ["Content-Type": "application/json"])
        let cli = try IDKitBinary.run(["bac", "--json", "--document-number", v.documentNumber, "--birth", v.dateOfBirth,
                                       "--expiry", v.dateOfExpiry, "--rnd-ic", v.rndIC, "--rnd-ifd", v.rndIFD, "--k-ifd", v.kIFD,
                                       "--card-response", v.cardResponse])
        #expect(reply.status == 200)
        #expect(reply.text == cli.stdout)
        #expect(reply.text.contains(#""ksEnc":"\#(v.ksEnc)""#))
        let lines = try server.call("POST", "/v1/bac", body: try JSONSerialization.data(withJSONObject: ["lines": v.mrz]),
                                    headers: ["Content-Type": "application/json"])
        #expect(lines.status == 200)
        #expect(lines.text.contains(#""kSeed":"\#(v.kSeed)""#))
        let hex = try server.call("POST", "/v1/bac", body: Data(#"{"lines": ["x"], "rndIC": "zz"}"#.utf8), headers: ["Content-Type": "application/json"])
        #expect(hex.status == 400)
        #expect(hex.text.contains(#""kind":"invalidHex""#))
        _ = server.terminate()
    }

    @Test("POST /v1/scan with multipart/form-data frames fuses them as idkit scan --fuse does")
    func fusedFramesEqualTheCommandLine() throws {
        let server = try RunningServer(["--reference-date", "2025-01-01"])
        let frames = ["a", "b", "c"].map { Self.vectors.appendingPathComponent("images/frames-00\($0)-td3.jpg").path }
        let reply = try server.call("POST", "/v1/scan", extra: frames.enumerated().flatMap { ["-F", "frame\($0.offset)=@\($0.element);type=image/jpeg"] })
        let cli = try IDKitBinary.run(["scan", "--json", "--fuse", "--reference-date", "2025-01-01"] + frames)
        #expect(reply.status == 200)
        #expect(try Self.comparable(reply.text) == Self.comparable(cli.stdout))
        #expect(reply.text.contains(#""lines":["#))
        // A part that is no image says which part.
        let bad = try server.call("POST", "/v1/scan", extra: ["-F", "frame0=@\(frames[0])", "-F", "frame1=hello"])
        #expect(bad.status == 415)
        _ = server.terminate()
    }

    @Test("POST /v1/scan with parts named front and back reads both sides as idkit scan --sides does")
    func bothSidesEqualTheCommandLine() throws {
        let server = try RunningServer(["--reference-date", "2025-01-01"])
        let viz = Self.vectors.appendingPathComponent("viz")
        let back = viz.appendingPathComponent("card-a-back.png").path, other = viz.appendingPathComponent("card-b-front.png").path
        let reply = try server.call("POST", "/v1/scan", extra: ["-F", "back=@\(back);type=image/png", "-F", "front=@\(other);type=image/png"])
        let cli = try IDKitBinary.run(["scan", "--json", "--reference-date", "2025-01-01", "--sides", other, back])
        #expect(reply.status == 200)
        #expect(try Self.comparable(reply.text) == Self.comparable(cli.stdout))
        #expect(reply.text.contains(#""status":"sidesMismatch""#))
        // A front without a back, or a third part beside them: 400, naming the parts.
        let lone = try server.call("POST", "/v1/scan", extra: ["-F", "front=@\(other);type=image/png", "-F", "frame1=@\(back);type=image/png"])
        #expect(lone.status == 400)
        #expect(lone.text.contains("urn:idkit:problem:bad-sides"))
        #expect(lone.text.contains("'frame1'"))
        _ = server.terminate()
    }

    @Test("Errors: 404, 405 with Allow, 413 before the body is read, 415; probes answer")
    func errorStatuses() throws {
        let server = try RunningServer(["--max-body-bytes", "1000"])
        #expect(try server.call("GET", "/healthz").status == 200)
        #expect(try server.call("GET", "/readyz").text == "{\"status\":\"ready\"}\n")
        #expect(try server.call("GET", "/nowhere").status == 404)
        let method = try server.call("PUT", "/v1/mrz", body: Data("x".utf8))
        #expect(method.status == 405)
        #expect(method.headers["allow"] == "POST")
        let big = try server.call("POST", "/v1/mrz", body: Data(repeating: 0x41, count: 5000), headers: ["Content-Type": "text/plain"])
        #expect(big.status == 413)
        #expect(big.text.contains("urn:idkit:problem:body-too-large"))
        // A chunked body (no declared length) over the limit too.
        let chunked = try server.call("POST", "/v1/mrz", body: Data(repeating: 0x41, count: 5000),
                                      headers: ["Content-Type": "text/plain", "Transfer-Encoding": "chunked"])
        #expect(chunked.status == 413)
        #expect(try server.call("POST", "/v1/mrz", body: Data("x".utf8), headers: ["Content-Type": "image/png"]).status == 415)
        #expect(try server.call("GET", "/version").text == "{\"idkit\":\"1.0.0\"}\n")
        #expect(try server.call("GET", "/openapi.json").text.contains(#""openapi": "3.1.0""#))
        // A readable image with nothing of a document in it: 422, the scan's status said.
        let blank = try ImageEncoder.png(ColorImage(width: 200, height: 150, pixels: [UInt8](repeating: 240, count: 200 * 150 * 3)))
        let empty = try server.call("POST", "/v1/scan", body: Data(blank), headers: ["Content-Type": "image/png"])
        #expect(empty.status == 422)
        #expect(empty.text.contains(#""scanStatus":"mrzNotFound""#))
        let metrics = try server.call("GET", "/metrics")
        #expect(metrics.text.contains(#"idkit_requests_total{route="/v1/mrz",status="413"} 2"#))
        #expect(metrics.text.contains(#"idkit_requests_total{route="/v1/scan",status="422"} 1"#))
        let (status, log) = server.terminate()
        #expect(status == 0)
        // The access log: one JSON line per request, no body content.
        #expect(log.split(separator: "\n").filter { $0.hasPrefix("{") }.count == 11)
        #expect(!log.contains("AAAAAAAA"))
    }
}
