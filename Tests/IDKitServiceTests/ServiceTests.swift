import Foundation
import Synchronization
import Testing
import IDKitAAMVA
import IDKitChip
import IDKitCore
import IDKitDocument
import IDKitImage
import IDKitMRZ
@testable import IDKitService
import IDKitTestSupport

/// The routes of `idkit serve` in process: contracts, problems, authentication.
/// `HTTPRouteTests` call the real server over HTTP.
@Suite struct ServiceTests {
    static let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors")
    static let specimen = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10"
    let service = Service(options: ServiceOptions(referenceDate: CalendarDate(year: 2025, month: 1, day: 1)))

    static func post(_ path: String, _ body: String, type: String?, query: [String: String] = [:], authorization: String? = nil) -> HTTPRequest {
        HTTPRequest(method: "POST", path: path, contentType: type, authorization: authorization, query: query, body: Array(body.utf8))
    }

    static func object(_ r: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])
    }

    @Test func mrzTextIsTheValidateContractLineByLine() throws {
        let body = Self.specimen + "\n\nI<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<\n"
        let r = service.handle(Self.post("/v1/mrz", body, type: "text/plain"))
        #expect(r.status == 200)
        #expect(r.contentType == "application/x-ndjson")
        // The same bytes as the library's writer gives for the same records (the CLI's encoder).
        let validator = MRZRecordValidator(options: .init(referenceDate: CalendarDate(year: 2025, month: 1, day: 1)))
        var reader = MRZRecordReader(bytes: Array(body.utf8))
        var w = JSONWriter()
        while let record = reader.next() { _ = validator.writeJSONLine(for: record, source: "-", into: &w) }
        #expect(r.stream == nil)                // a few records: answered whole
        let answer = r.collected()
        #expect(answer == w.bytes)
        let lines = String(decoding: answer, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect((second["input"] as? [String: Any])?["line"] as? Int == 4)
        #expect(second["format"] as? String == "TD1")
        #expect(second["valid"] as? Bool == true)
    }

    /// A batch's answer is made as it is sent, a piece at a time: every line whole, in order.
    @Test func mrzBatchesStreamInPieces() throws {
        let body = String(repeating: Self.specimen + "\n\n", count: 1000)    // 91 kB: streamed
        let r = service.handle(Self.post("/v1/mrz", body, type: "text/plain"))
        let stream = try #require(r.stream)
        var pieces: [[UInt8]] = []
        while true {
            let piece = stream.next(max: 4096)
            if piece.isEmpty { break }
            #expect(piece.count <= 4096)
            pieces.append(piece)
        }
        #expect(pieces.count > 50)
        let lines = String(decoding: pieces.flatMap { $0 }, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 1000)
        #expect(lines.last?.contains(#""line":2998"#) == true)
    }

    @Test func mrzJSONIsOneRecordWithItsOptions() throws {
        // Expired on the reference date: valid, with a warning; strict turns warnings into invalid.
        let body = #"{"mrz": "\#(Self.specimen.replacingOccurrences(of: "\n", with: "\\n"))", "id": "r-1", "strict": true}"#
        let r = service.handle(Self.post("/v1/mrz", body, type: "application/json; charset=utf-8"))
        #expect(r.status == 200)
        #expect(r.contentType == "application/json")
        let o = try Self.object(r)
        #expect((o["input"] as? [String: Any])?["id"] as? String == "r-1")
        #expect((o["fields"] as? [String: Any])?["documentNumber"] as? String == "L898902C3")
        #expect(r.body.last == 0x0A)
    }

    @Test func mrzBadOptionsAreProblemsThatSayWhich() throws {
        let r = service.handle(Self.post("/v1/mrz", Self.specimen, type: "text/plain", query: ["referenceDate": "2025-13-01"]))
        #expect(r.status == 400)
        #expect(r.contentType == "application/problem+json")
        let o = try Self.object(r)
        #expect(o["type"] as? String == "urn:idkit:problem:bad-option")
        #expect(o["status"] as? Int == 400)
        #expect((o["detail"] as? String)?.contains("referenceDate") == true)
        let bad = service.handle(Self.post("/v1/mrz", "{\"mrz\": ", type: "application/json"))
        #expect(bad.status == 400)
        #expect(try Self.object(bad)["type"] as? String == "urn:idkit:problem:bad-json")
        // A JSON member that should be a boolean is not a number (found by make check-api).
        let number = service.handle(Self.post("/v1/mrz", #"{"mrz": "x", "strict": 0}"#, type: "application/json"))
        #expect(number.status == 400)
        #expect(try Self.object(number)["detail"] as? String == "member strict must be true or false")
        let media = service.handle(Self.post("/v1/mrz", "x", type: "image/png"))
        #expect(media.status == 415)
    }

    @Test func aamvaIsTheAAMVAContractAndDamageIsAProblemWithItsOffset() throws {
        let file = Self.vectors.appendingPathComponent("aamva/public/AR-Apple__1.txt")
        let bytes = try [UInt8](Data(contentsOf: file))
        let r = service.handle(HTTPRequest(method: "POST", path: "/v1/aamva", contentType: "application/octet-stream", body: bytes))
        #expect(r.status == 200)
        #expect(r.body == Array((AAMVAReport(try AAMVAParser().parse(bytes)).jsonString() + "\n").utf8))
        let viaJSON = service.handle(Self.post("/v1/aamva", #"{"payload": "\#(Data(bytes).base64EncodedString())"}"#, type: "application/json"))
        #expect(viaJSON.body == r.body)
        let garbage = service.handle(Self.post("/v1/aamva", "hello, not a license", type: "application/octet-stream"))
        #expect(garbage.status == 400)
        let o = try Self.object(garbage)
        #expect(o["kind"] as? String == "notAAMVA")
        #expect(o["offset"] as? Int == 0)
    }

    @Test func aBlankImageIsReadableButNotADocument() throws {
        let blank = try ImageEncoder.png(ColorImage(width: 320, height: 200, pixels: [UInt8](repeating: 235, count: 320 * 200 * 3)))
        let deferred = service.handle(HTTPRequest(method: "POST", path: "/v1/scan", contentType: "image/png", body: blank))
        #expect(deferred.work != nil)          // made on the worker pool
        let r = deferred.resolved()
        #expect(r.status == 422)
        let o = try Self.object(r)
        #expect(o["type"] as? String == "urn:idkit:problem:no-document")
        #expect(o["scanStatus"] as? String == "mrzNotFound")
        // The barcode route answers an empty list for it, as idkit barcode --json does.
        let b = service.handle(HTTPRequest(method: "POST", path: "/v1/barcode", contentType: "image/png", body: blank)).resolved()
        #expect(b.status == 200)
        #expect((try Self.object(b)["barcodes"] as? [Any])?.isEmpty == true)
    }

    /// A PNG declaring 7000 × 7000 pixels (over the 40 MP limit) is `tooLarge`, 413, on both image
    /// routes: the scan keeps its image error's kind.
    @Test func anImageOverTheLimitIsTooLargeOnEveryRoute() throws {
        let big = DeclaredSizePNG.bytes(width: 7000, height: 7000)
        for path in ["/v1/scan", "/v1/barcode"] {
            let r = service.handle(HTTPRequest(method: "POST", path: path, contentType: "image/png", body: big)).resolved()
            #expect(r.status == 413, "\(path)")
            #expect(try Self.object(r)["kind"] as? String == "tooLarge", "\(path)")
        }
    }

    @Test func routesMethodsAndHealth() throws {
        #expect(service.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 200)
        #expect(service.handle(HTTPRequest(method: "GET", path: "/readyz")).status == 200)
        let wrong = service.handle(HTTPRequest(method: "GET", path: "/v1/mrz"))
        #expect(wrong.status == 405)
        #expect(wrong.headers.contains { $0.0 == "Allow" && $0.1 == "POST" })
        #expect(service.handle(HTTPRequest(method: "GET", path: "/v2/anything")).status == 404)
        #expect(service.handle(HTTPRequest(method: "POST", path: "/v1/mrz", bodyTooLarge: true)).status == 413)
        // An empty body is a mistake, not an empty batch (found by make check-api).
        let empty = service.handle(HTTPRequest(method: "POST", path: "/v1/mrz", contentType: "text/plain"))
        #expect(empty.status == 400)
        #expect(try Self.object(empty)["type"] as? String == "urn:idkit:problem:empty-body")
        let version = try Self.object(service.handle(HTTPRequest(method: "GET", path: "/version")))
        #expect(version["idkit"] as? String == "1.0.0")
        service.beginDraining()
        #expect(service.handle(HTTPRequest(method: "GET", path: "/readyz")).status == 503)
    }

    /// The OpenAPI document names exactly the routes the service answers, with their methods, and
    /// for every route the problem statuses it can answer with.
    @Test func openAPIDescribesEveryRoute() throws {
        let r = service.handle(HTTPRequest(method: "GET", path: "/openapi.json"))
        #expect(r.status == 200)
        let doc = try Self.object(r)
        #expect(doc["openapi"] as? String == "3.1.0")
        let paths = try #require(doc["paths"] as? [String: [String: Any]])
        #expect(Set(paths.keys) == Set(Service.routes.keys))
        for (path, methods) in Service.routes {
            #expect(Set(paths[path]!.keys.map { $0.uppercased() }) == methods, "\(path)")
        }
        func statuses(_ path: String) -> Set<String> {
            Set(((paths[path]?["post"] as? [String: Any])?["responses"] as? [String: Any])?.keys.map { $0 } ?? [])
        }
        for path in ["/v1/mrz", "/v1/aamva", "/v1/barcode", "/v1/scan", "/v1/merge", "/v1/bac"] {
            #expect(statuses(path).isSuperset(of: ["200", "400", "401", "413", "415", "503"]), "\(path)")
        }
        #expect(statuses("/v1/scan").contains("422"))
        // Every $ref points at something the document defines.
        let text = String(decoding: r.body, as: UTF8.self)
        let components = try #require(doc["components"] as? [String: [String: Any]])
        for match in text.matches(of: /"\$ref": "#\/components\/(\w+)\/(\w+)"/) {
            #expect(components[String(match.1)]?[String(match.2)] != nil, "\(match.0)")
        }
    }

    /// `--redaction FILE`: the policy applies to merged answers, chosen per document by its rules;
    /// the routes that cannot redact refuse rather than hand data out.
    @Test func serverWideRedactionPolicy() throws {
        let merge = #"{"mrz": ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"], "referenceDate": "2010-06-01"}"#
        func documentNumber(_ policy: String) throws -> (Any?, Int) {
            var options = ServiceOptions()
            options.redaction = try RedactionRules(json: Array(policy.utf8))
            let guarded = Service(options: options)
            let r = guarded.handle(Self.post("/v1/merge", merge, type: "application/json"))
            #expect(r.status == 200)
            let fields = try #require(try Self.object(r)["fields"] as? [String: Any])
            let mrz = guarded.handle(Self.post("/v1/mrz", Self.specimen, type: "text/plain")).status
            return ((fields["documentNumber"] as? [String: Any])?["value"] as Any?, mrz)
        }
        let everyone = try documentNumber(#"{"default": {"mode": "fullResult", "fields": ["documentNumber"]}}"#)
        #expect(everyone.0 is NSNull)
        #expect(everyone.1 == 403)
        let partly = try documentNumber(#"{"default": {"mode": "fullResult", "fields": ["documentNumber"], "documentNumber": {"suffixVisible": 3}}}"#)
        #expect(partly.0 as? String == "******2C3")
        // A rule for this issuer wins over the default: nothing redacted for UTO documents, but
        // another issuer's would be, so the unredactable routes still refuse.
        let exempt = try documentNumber(#"{"default": {"mode": "fullResult", "fields": ["documentNumber"]}, "rules": [{"country": "UTO", "settings": {"mode": "none"}}]}"#)
        #expect(exempt.0 as? String == "L898902C3")
        #expect(exempt.1 == 403)
        let off = try documentNumber(#"{"default": {"mode": "none"}}"#)
        #expect(off.1 == 200)
        // A request adds redaction of its own (query parameters as the command line's options),
        // and cannot take any from the server's policy.
        func asked(_ query: [String: String], policy: String?) throws -> (Int, Any?) {
            var options = ServiceOptions()
            options.redaction = try policy.map { try RedactionRules(json: Array($0.utf8)) }
            let r = Service(options: options).handle(Self.post("/v1/merge", merge, type: "application/json", query: query))
            guard r.status == 200 else { return (r.status, nil) }
            let fields = try #require(try Self.object(r)["fields"] as? [String: Any])
            return (r.status, (fields["documentNumber"] as? [String: Any])?["value"] as Any?)
        }
        #expect(try asked(["documentNumberVisible": "2,0"], policy: nil).1 as? String == "L8*******")
        #expect(try asked(["redact": "documentNumber"], policy: #"{"default": {"mode": "none"}}"#).1 is NSNull)
        #expect(try asked(["documentNumberVisible": "9,9"], policy: #"{"default": {"mode": "fullResult", "fields": ["documentNumber"]}}"#).1 is NSNull)
        #expect(try asked(["redact": "shoeSize"], policy: nil).0 == 400)
        #expect(try asked(["redactMode": "some"], policy: nil).0 == 400)
        // A policy that cannot be read says where.
        #expect(throws: DocumentError.self) { try RedactionRules(json: Array(#"{"default": {"fields": []}}"#.utf8)) }
        do { _ = try RedactionRules(json: Array(#"{"default": {"mode": "all"}}"#.utf8)) } catch {
            #expect(error.message.contains("default.mode"))
        }
    }

    /// Chip files in the merge input, verified against the server's CSCAs (`idkit serve --csca`),
    /// with `?redactFace` withholding the face (IDKit's test PKI, TestVectors/chip/make_pki.sh).
    @Test func mergeWithChipFilesAgainstTheServersCSCAs() throws {
        let out = try #require(TestPKI.directory, "TestVectors/chip/make_pki.sh failed (it needs openssl and python3)")
        let files = try ["sod/document.bin", "EF_DG1.bin", "EF_DG2.bin"].map { Data(try TestPKI.bytes($0)).base64EncodedString() }
        let body = #"{"referenceDate": "2026-12-01", "chip": ["# + files.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
        var options = ServiceOptions()
        options.cscas = try CSCAStore(contentsOf: out.appendingPathComponent("csca").path)
        let r = Service(options: options).handle(Self.post("/v1/merge", body, type: "application/json", query: ["redactFace": "true"]))
        #expect(r.status == 200)
        let json = try Self.object(r)
        let chip = try #require(json["chip"] as? [String: Any])
        #expect(chip["passiveAuthentication"] as? String == "passed")
        #expect((chip["faces"] as? [[String: Any]])?.first?["image"] is NSNull)
        #expect(((json["fields"] as? [String: Any])?["documentNumber"] as? [String: Any])?["source"] as? String == "chip")
        // Without the server's CSCAs: incomplete, and the face is there.
        let plain = Service(options: ServiceOptions()).handle(Self.post("/v1/merge", body, type: "application/json"))
        let plainChip = try #require(try Self.object(plain)["chip"] as? [String: Any])
        #expect(plainChip["passiveAuthentication"] as? String == "incomplete")
        #expect((plainChip["faces"] as? [[String: Any]])?.first?["image"] is String)
        // A chip file that is no LDS file is a 400 with the merger's kind.
        let bad = Service(options: options).handle(Self.post("/v1/merge", #"{"chip": ["e30="]}"#, type: "application/json"))
        #expect(bad.status == 400)
        #expect(try Self.object(bad)["kind"] as? String == "invalidChip")
    }

    @Test func bearerTokenIsRequiredAndComparedWhole() throws {
        let token = "s3cret-token-0123456789"
        let guarded = Service(options: ServiceOptions(token: token))
        #expect(guarded.handle(Self.post("/v1/mrz", Self.specimen, type: "text/plain")).status == 401)
        let wrong = guarded.handle(Self.post("/v1/mrz", Self.specimen, type: "text/plain", authorization: "Bearer s3cret-token-012345678"))
        #expect(wrong.status == 401)
        #expect(wrong.headers.contains { $0.0 == "WWW-Authenticate" })
        #expect(guarded.handle(Self.post("/v1/mrz", Self.specimen, type: "text/plain", authorization: "Bearer " + token + "x")).status == 401)
        #expect(guarded.handle(Self.post("/v1/mrz", Self.specimen, type: "text/plain", authorization: "Bearer " + token)).status == 200)
        // Probes need no token; everything else does.
        #expect(guarded.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 200)
        #expect(guarded.handle(HTTPRequest(method: "GET", path: "/metrics")).status == 401)
    }

    @Test func accessLogHoldsNoPersonalDataAndMetricsCount() throws {
        let collected = Mutex<[String]>([])
        _ = service.handle(Self.post("/v1/mrz", Self.specimen, type: "text/plain")) { line in collected.withLock { $0.append(line) } }
        _ = service.handle(HTTPRequest(method: "GET", path: "/ERIKSSON-L898902C3")) { line in collected.withLock { $0.append(line) } }
        let lines = collected.withLock { $0 }
        #expect(lines.count == 2)
        for line in lines {
            #expect(!line.contains("ERIKSSON") && !line.contains("L898902C3") && !line.contains("UTO"))
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(o["status"] != nil && o["route"] != nil && o["ms"] != nil)
        }
        #expect(lines[1].contains(#""route":"other""#))
        let metrics = String(decoding: service.handle(HTTPRequest(method: "GET", path: "/metrics")).body, as: UTF8.self)
        #expect(metrics.contains(#"idkit_requests_total{route="/v1/mrz",status="200"} 1"#))
        #expect(metrics.contains(#"idkit_request_seconds_count{route="/v1/mrz"} 1"#))
    }
}
