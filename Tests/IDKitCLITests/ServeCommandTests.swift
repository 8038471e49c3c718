import Foundation
import Synchronization
import Testing
import IDKitTestSupport

/// `idkit serve`'s own flags and process over real HTTP (``RunningServer``): a bearer token and
/// the refusal of an open address without one, TLS, the worker and queue limits, and shutdown on
/// SIGTERM. The routes themselves are tested in IDKitServiceTests (`ServiceTests` in process,
/// `HTTPRouteTests` over HTTP).
@Suite(.serialized) struct ServeCommandTests {
    static let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors")

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
