import IDKitCLICore
import Foundation
internal import IDKitCore
import IDKitDocument
import IDKitMRZ
import IDKitScan
import IDKitService
#if canImport(Glibc)
import Glibc
#endif

/// `idkit serve`: the HTTP service on libmicrohttpd, answering with the command line's
/// JSON contracts. Runs until SIGTERM or SIGINT, then stops accepting, answers the requests in
/// flight (up to `--shutdown-timeout-s`) and exits 0.
enum ServeCommand {
    struct Options {
        var server = HTTPServerConfiguration()
        var tokenFile: String?
        var insecureNoAuth = false
        var tlsCert: String?
        var tlsKey: String?
        var referenceDate: CalendarDate?
        var shutdownTimeout = 10
        var accessLog = true
        var queue = 64
        var redactionFile: String?
        var csca: String?
        var masterList: String?
        var crl: String?
    }

    static func parseOptions(_ arguments: [String]) throws(UsageError) -> Options? {
        var o = Options()
        var cursor = TokenCursor(arguments)
        func number(_ name: String, _ inline: String?, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
            let text = try cursor.value(of: name, inline, expecting: "a number")
            guard let n = Int(text), range.contains(n) else {
                throw UsageError(message: "option --\(name): '\(text)' is not a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }
        while let token = cursor.next() {
            switch token {
            case .option(name: "listen", let v):
                let text = try cursor.value(of: "listen", v, expecting: "HOST:PORT")
                guard let (host, port) = splitHostPort(text) else {
                    throw UsageError(message: "option --listen: '\(text)' is not HOST:PORT (an IP address and a port; [::1]:8080 for IPv6)")
                }
                o.server.host = host
                o.server.port = port
            case .option(name: "threads", let v): o.server.threads = try number("threads", v, 1...256)
            case .option(name: "queue", let v): o.queue = try number("queue", v, 0...4096)
            case .option(name: "max-body-bytes", let v): o.server.maxBodyBytes = try number("max-body-bytes", v, 1...(1 << 30))
            case .option(name: "timeout-s", let v): o.server.timeoutSeconds = try number("timeout-s", v, 1...3600)
            case .option(name: "max-connections", let v): o.server.maxConnections = try number("max-connections", v, 1...100_000)
            case .option(name: "shutdown-timeout-s", let v): o.shutdownTimeout = try number("shutdown-timeout-s", v, 0...3600)
            case .option(name: "token-file", let v): o.tokenFile = try cursor.value(of: "token-file", v, expecting: "a file holding the bearer token")
            case .option(name: "insecure-no-auth", nil): o.insecureNoAuth = true
            case .option(name: "tls-cert", let v): o.tlsCert = try cursor.value(of: "tls-cert", v, expecting: "a PEM certificate file")
            case .option(name: "tls-key", let v): o.tlsKey = try cursor.value(of: "tls-key", v, expecting: "a PEM key file")
            case .option(name: "reference-date", let v): o.referenceDate = try cursor.referenceDate(v)
            case .option(name: "no-access-log", nil): o.accessLog = false
            case .option(name: "redaction", let v): o.redactionFile = try cursor.value(of: "redaction", v, expecting: "a redaction policy file (JSON)")
            case .option(name: "csca", let v): o.csca = try cursor.value(of: "csca", v, expecting: "a CSCA certificate file or folder")
            case .option(name: "masterlist", let v): o.masterList = try cursor.value(of: "masterlist", v, expecting: "a CSCA master list file")
            case .option(name: "crl", let v): o.crl = try cursor.value(of: "crl", v, expecting: "a CRL file or a folder of them")
            case .option(name: "help", nil), .option(name: "h", nil): return nil
            case .option(let name, _): throw UsageError(message: "unknown option '--\(name)' for 'idkit serve'")
            case .positional(let p): throw UsageError(message: "unexpected argument '\(p)' ('idkit serve' takes options only)")
            case .stdin: throw UsageError(message: "unexpected argument '-' ('idkit serve' takes options only)")
            }
        }
        if (o.tlsCert == nil) != (o.tlsKey == nil) { throw UsageError(message: "--tls-cert and --tls-key go together") }
        if o.csca != nil && o.masterList != nil { throw UsageError(message: "give --csca or --masterlist, not both") }
        if o.crl != nil && o.csca == nil && o.masterList == nil { throw UsageError(message: "--crl needs --csca or --masterlist (the CRLs of which CSCAs)") }
        if o.tokenFile != nil && o.insecureNoAuth { throw UsageError(message: "--token-file and --insecure-no-auth contradict each other") }
        // Personal data: a server others can reach needs a token, unless the operator says otherwise.
        if !isLoopback(o.server.host) && o.tokenFile == nil && !o.insecureNoAuth {
            throw UsageError(message: "--listen \(o.server.host) is reachable from other machines: give --token-file FILE "
                + "(clients send Authorization: Bearer <token>), or --insecure-no-auth to serve personal data without one")
        }
        return o
    }

    /// `127.0.0.1:8080`, `[::1]:8080`; the port 0–65535.
    static func splitHostPort(_ text: String) -> (String, UInt16)? {
        let host: Substring, port: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            port = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let p = UInt16(port) else { return nil }
        return (String(host), p)
    }

    static func isLoopback(_ host: String) -> Bool { host == "::1" || host.hasPrefix("127.") }

    static func run(_ arguments: [String], io: StandardIO) -> IDKitCommand.ExitStatus {
        let (parsed, exit) = CommandStart.options("serve", help: Help.serve, io: io) { () throws(UsageError) in try parseOptions(arguments) }
        guard var options = parsed else { return exit }
        func read(_ path: String, _ what: String) -> String? {
            guard let data = FileManager.default.contents(atPath: path) else {
                io.err.write("idkit serve: cannot read the \(what) '\(path)'\n")
                return nil
            }
            return String(decoding: data, as: UTF8.self)
        }
        var token: String?
        if let file = options.tokenFile {
            guard let text = read(file, "token file") else { return .unreadableInput }
            token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let t = token, t.utf8.count >= 16, t.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                io.err.write("idkit serve: the token in '\(file)' must be at least 16 printable characters without spaces\n")
                return .usage
            }
        }
        if let cert = options.tlsCert, let key = options.tlsKey {
            guard let c = read(cert, "TLS certificate"), let k = read(key, "TLS key") else { return .unreadableInput }
            options.server.tlsCertificate = c
            options.server.tlsKey = k
        }
        var serviceOptions = ServiceOptions(token: token, referenceDate: options.referenceDate)
        if let file = options.redactionFile {
            guard let data = FileManager.default.contents(atPath: file) else {
                io.err.write("idkit serve: cannot read the redaction policy '\(file)'\n")
                return .unreadableInput
            }
            do { serviceOptions.redaction = try RedactionRules(json: Array(data)) } catch {
                io.err.write("idkit serve: \(file): \(error.message)\n")
                return .usage
            }
        }
        do {
            serviceOptions.cscas = try ChipInput.store(csca: options.csca, masterList: options.masterList, crl: options.crl)
        } catch {
            io.err.write("idkit serve: \(error.message)\n")
            return error.status
        }
        serviceOptions.workers = options.server.threads
        serviceOptions.queue = options.queue
        let service = Service(options: serviceOptions)
        // Loaded now, not on the first scan: a model that cannot be loaded is said at start, and
        // /readyz answers 503 with the reason while the text routes go on answering.
        if let reason = DocumentScanner.modelError {
            io.err.write("idkit serve: \(reason); /readyz answers 503 and POST /v1/scan fails until it is fixed\n")
        }
        // SIGTERM and SIGINT are taken by this thread's sigwait, not by the server's threads
        // (which inherit the mask when the daemon starts them).
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let log = options.accessLog
        let server: HTTPServer
        do {
            server = try HTTPServer(options.server, workers: serviceOptions.workers) { request in
                log ? service.handle(request) { AccessLog.write($0) } : service.handle(request)
            }
        } catch {
            io.err.write("idkit serve: \(error.message)\n")
            return .unreadableInput
        }
        let scheme = options.server.tlsCertificate == nil ? "http" : "https"
        let shown = options.server.host.contains(":") ? "[\(options.server.host)]" : options.server.host
        io.out.write("idkit serve: listening on \(scheme)://\(shown):\(server.port)\n")
        io.out.flush()
        var received: Int32 = 0
        sigwait(&signals, &received)
        // Graceful: not ready, no new connections, the requests in flight answered.
        service.beginDraining()
        server.quiesce()
        let deadline = Date().addingTimeInterval(Double(options.shutdownTimeout))
        while server.activeRequests > 0 && Date() < deadline { usleep(10_000) }
        let unfinished = server.activeRequests
        // Stopping the daemon with connections still suspended (image requests whose work is not
        // done) is not allowed by libmicrohttpd; past the deadline the process just exits.
        if unfinished == 0 { server.stop() }
        io.err.write("idkit serve: stopped (signal \(received))" + (unfinished > 0 ? ", \(unfinished) request(s) cut off at the deadline" : "") + "\n")
        return .valid
    }
}

/// Access-log lines on standard error, one `write(2)` each (whole lines from every thread).
enum AccessLog {
    static func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { raw in _ = Result { () throws(SystemCallError) in try SystemCalls.writeAll(2, raw) } }
    }
}
