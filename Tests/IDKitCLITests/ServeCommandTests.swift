import Foundation
import IDKitImage
import Synchronization
import Testing

/// `idkit serve` over real HTTP (issue 15): the server on an ephemeral port, called with curl.
/// `@unchecked Sendable`: its fields are set in `init`; `call` only reads `baseURL`.
final class RunningServer: @unchecked Sendable {
    let process = Process()
    let baseURL: String
    private let errPipe = Pipe()

    init(_ arguments: [String] = [], environment: [String: String] = [:]) throws {
        process.executableURL = IDKitBinary.url
        process.arguments = ["serve", "--listen", "127.0.0.1:0"] + arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errPipe
        try process.run()
        // The first line says where it listens.
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "listening on ") else {
            throw ServerError(message: "no 'listening on' line: \(text) \(String(decoding: errPipe.fileHandleForReading.availableData, as: UTF8.self))")
        }
        baseURL = String(text[range.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct ServerError: Error { var message: String }

    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// One request with curl: the status, the headers (lower-case names), the body.
    func call(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:], extra: [String] = []) throws -> Reply {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bodyFile = dir.appendingPathComponent("out"), headerFile = dir.appendingPathComponent("headers")
        var args = ["-sS", "-X", method, "-o", bodyFile.path, "-D", headerFile.path, "-w", "%{http_code}"] + extra
        for (k, v) in headers { args += ["-H", "\(k): \(v)"] }
        if let body {
            let inFile = dir.appendingPathComponent("in")
            try body.write(to: inFile)
            args += ["--data-binary", "@" + inFile.path]
        }
        args.append(baseURL + path)
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = args
        let out = Pipe()
        curl.standardOutput = out
        curl.standardError = Pipe()
        try curl.run()
        let code = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        var parsed: [String: String] = [:]
        let headerText = Self.read(headerFile).map { String(decoding: $0, as: UTF8.self) } ?? ""
        for line in headerText.split(separator: "\r\n") {
            if let colon = line.firstIndex(of: ":") {
                parsed[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return Reply(status: Int(code) ?? 0, headers: parsed, body: Self.read(bodyFile) ?? Data())
    }

    /// A file curl wrote, `nil` when it wrote nothing. (Foundation's file readers leak their 4 KiB
    /// buffer on an empty file — curl leaves one when it refuses a connection — which
    /// LeakSanitizer reports under `make sanitizers`; an empty file is not read.)
    static func read(_ url: URL) -> Data? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size > 0 else { return nil }
        return FileManager.default.contents(atPath: url.path)
    }

    /// SIGTERM, then the exit status and what it wrote on standard error.
    func terminate() -> (status: Int32, stderr: String) {
        process.terminate()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }
}

@Suite(.serialized) struct ServeCommandTests {
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
        let v = DocumentCommandTests.appendixD
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

    @Test("A bearer token is required when given; a non-loopback address without one is refused")
    func authentication() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-token-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tokenFile = dir.appendingPathComponent("token")
        try Data("correct-horse-battery-staple\n".utf8).write(to: tokenFile)
        let server = try RunningServer(["--token-file", tokenFile.path])
        let body = Data("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10\n".utf8)
        let none = try server.call("POST", "/v1/mrz", body: body, headers: ["Content-Type": "text/plain"])
        #expect(none.status == 401)
        #expect(none.headers["www-authenticate"] == "Bearer")
        #expect(try server.call("POST", "/v1/mrz", body: body, headers: ["Content-Type": "text/plain", "Authorization": "Bearer wrong"]).status == 401)
        #expect(try server.call("POST", "/v1/mrz", body: body,
                                headers: ["Content-Type": "text/plain", "Authorization": "Bearer correct-horse-battery-staple"]).status == 200)
        #expect(try server.call("GET", "/healthz").status == 200)
        _ = server.terminate()
        let open = try IDKitBinary.run(["serve", "--listen", "0.0.0.0:0"])
        #expect(open.status == 64)
        #expect(open.stderr.contains("--token-file"))
        #expect(open.stderr.contains("--insecure-no-auth"))
        let flags = try IDKitBinary.run(["serve", "--listen", "localhost"])
        #expect(flags.status == 64)
        #expect(flags.stderr.contains("is not HOST:PORT"))
    }

    @Test("HTTPS with --tls-cert and --tls-key (a certificate made here with openssl)")
    func tls() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-tls-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cert = dir.appendingPathComponent("cert.pem"), key = dir.appendingPathComponent("key.pem")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", cert.path,
                             "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        openssl.standardOutput = Pipe()
        openssl.standardError = Pipe()
        try openssl.run()
        openssl.waitUntilExit()
        try #require(openssl.terminationStatus == 0)
        let server = try RunningServer(["--tls-cert", cert.path, "--tls-key", key.path])
        #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
        let reply = try server.call("GET", "/healthz", extra: ["--cacert", cert.path])
        #expect(reply.status == 200)
        #expect(reply.text == "{\"status\":\"ok\"}\n")
        // Without the certificate to trust, curl refuses the connection: it is really TLS.
        #expect(try server.call("GET", "/healthz").status == 0)
        _ = server.terminate()
    }

    @Test("With one worker and no queue, requests beyond it get 503 and Retry-After at once, and the server keeps answering")
    func shedsLoad() throws {
        let server = try RunningServer(["--threads", "1", "--queue", "0"])
        // Each scan of a photo holds the worker for a while (a second in a debug build); four at
        // once leave three with nowhere to wait. (Admission is decided once the body is in.)
        let body = try Data(contentsOf: Self.vectors.appendingPathComponent("images/tilt-01-td1.jpg"))
        let group = DispatchGroup()
        let replies = Mutex<[RunningServer.Reply]>([])
        for _ in 0..<4 {
            DispatchQueue.global().async(group: group) {
                if let r = try? server.call("POST", "/v1/scan", body: body, headers: ["Content-Type": "image/jpeg"]) {
                    replies.withLock { $0.append(r) }
                }
            }
        }
        group.wait()
        let all = replies.withLock { $0 }
        #expect(all.count == 4)
        #expect(all.contains { $0.status == 200 })
        let shed = all.filter { $0.status == 503 }
        #expect(!shed.isEmpty)
        #expect(shed.allSatisfy { $0.headers["retry-after"] == "1" && $0.text.contains("urn:idkit:problem:overloaded") })
        #expect(try server.call("GET", "/metrics").text.contains("idkit_rejected_total \(shed.count)"))
        _ = server.terminate()
    }

    @Test("SIGTERM: requests in flight are answered, then the server exits 0")
    func gracefulShutdown() throws {
        let server = try RunningServer()
        // A body uploaded at 1 MB/s (2 s: comment lines, then one MRZ) keeps a request in flight
        // while the signal arrives.
        var batch = String(repeating: "# " + String(repeating: "x", count: 97) + "\n", count: 20_000)
        batch += "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10\n"
        let body = Data(batch.utf8)
        let group = DispatchGroup()
        nonisolated(unsafe) var reply: RunningServer.Reply?
        DispatchQueue.global().async(group: group) {
            reply = try? server.call("POST", "/v1/mrz", body: body, headers: ["Content-Type": "text/plain"], extra: ["--limit-rate", "1M"])
        }
        usleep(700_000)
        let (status, log) = server.terminate()
        group.wait()
        #expect(status == 0)
        #expect(log.contains("idkit serve: stopped"))
        #expect(reply?.status == 200)
        #expect(reply?.text.split(separator: "\n").count == 1)
        #expect(reply?.text.contains(#""line":20001"#) == true)
    }
}
