import Foundation

/// The built `idkit serve` on an ephemeral port, called over real HTTP with curl: shared by the
/// tests of the routes (IDKitServiceTests) and of the command's flags (IDKitCLITests).
/// `@unchecked Sendable`: its fields are set in `init`; `call` only reads `baseURL`.
public final class RunningServer: @unchecked Sendable {
    public let process = Process()
    public let baseURL: String
    private let errPipe = Pipe()

    public init(_ arguments: [String] = [], environment: [String: String] = [:]) throws {
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

    public struct ServerError: Error { public var message: String }

    public struct Reply: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// One request with curl: the status, the headers (lower-case names), the body.
    public func call(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:], extra: [String] = []) throws -> Reply {
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
    public static func read(_ url: URL) -> Data? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size > 0 else { return nil }
        return FileManager.default.contents(atPath: url.path)
    }

    /// SIGTERM, then the exit status and what it wrote on standard error.
    public func terminate() -> (status: Int32, stderr: String) {
        process.terminate()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }
}
