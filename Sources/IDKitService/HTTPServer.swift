internal import CHTTPShim
import Foundation

/// One HTTP request as the service sees it: the whole body, read by libmicrohttpd up to the limit.
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    public var contentType: String?
    public var authorization: String?
    public var requestID: String?
    /// The query's parameters, decoded (a key without `=` has the value `""`).
    public var query: [String: String]
    public var body: [UInt8]
    /// The body was larger than the server's limit and was not kept.
    public var bodyTooLarge: Bool
    /// A `multipart/form-data` body's parts, in order (then ``body`` is empty).
    public var parts: [Part] = []
    /// A `multipart/form-data` body libmicrohttpd could not split.
    public var multipartError = false

    public struct Part: Sendable {
        public var name: String
        public var filename: String?
        public var contentType: String?
        public var data: [UInt8]
        public init(name: String, filename: String? = nil, contentType: String? = nil, data: [UInt8]) {
            (self.name, self.filename, self.contentType, self.data) = (name, filename, contentType, data)
        }
    }

    public init(method: String, path: String, contentType: String? = nil, authorization: String? = nil, requestID: String? = nil,
                query: [String: String] = [:], body: [UInt8] = [], bodyTooLarge: Bool = false) {
        (self.method, self.path, self.contentType, self.authorization, self.requestID) = (method, path, contentType, authorization, requestID)
        (self.query, self.body, self.bodyTooLarge) = (query, body, bodyTooLarge)
    }

    /// The media type without parameters, lower case (`application/json` of
    /// `application/json; charset=utf-8`).
    public var mediaType: String? {
        guard let contentType else { return nil }
        // ASCII by RFC 9110; bytes, not Foundation's Unicode trimming (a tenth of a small request).
        var bytes = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
        while bytes.last == 0x20 || bytes.last == 0x09 { bytes.removeLast() }
        return String(decoding: bytes.drop { $0 == 0x20 || $0 == 0x09 }, as: UTF8.self)
    }
}

/// A body written piece by piece while it is sent (chunked), so that a large answer never sits
/// whole in memory: ``next(max:)`` gives the next bytes, empty at the end. Called from one server
/// thread at a time.
public protocol ResponseStream: AnyObject, Sendable {
    func next(max: Int) -> [UInt8]
}

/// The answer to a request.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    public var headers: [(String, String)]
    /// When set, the body is this stream's (``body`` is ignored).
    public var stream: (any ResponseStream)?
    /// When set, the answer is this work's, done on the server's worker pool while the connection
    /// waits without holding a thread (slow routes: a scan takes tens of milliseconds).
    public var work: (@Sendable () -> HTTPResponse)?

    /// An answer made later by `work` on the worker pool.
    public static func deferred(_ work: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse {
        var r = HTTPResponse(status: 0, contentType: "", body: [])
        r.work = work
        return r
    }

    /// The answer itself: deferred work done here and now (for tests and in-process callers).
    public func resolved() -> HTTPResponse { work.map { $0() } ?? self }

    public init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        (self.status, self.contentType, self.body, self.headers) = (status, contentType, body, headers)
    }

    public init(status: Int, contentType: String, stream: any ResponseStream) {
        (self.status, self.contentType, self.body, self.headers, self.stream) = (status, contentType, [], [], stream)
    }

    /// The whole body (a stream read to its end, once): for tests and in-process callers.
    public func collected() -> [UInt8] {
        guard let stream else { return body }
        var out: [UInt8] = []
        while true {
            let piece = stream.next(max: 65536)
            if piece.isEmpty { return out }
            out += piece
        }
    }
}

/// Where and how the server listens.
public struct HTTPServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port: UInt16 = 8080
    public var threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
    public var maxBodyBytes = 32 << 20
    public var timeoutSeconds = 30
    public var maxConnections = 1024
    /// PEM text of the certificate and its key: HTTPS when both are given.
    public var tlsCertificate: String?
    public var tlsKey: String?
    public init() {}
}

/// The server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// libmicrohttpd's daemon (through `CHTTPShim`) answering every request with one handler.
///
/// `@unchecked Sendable`: the daemon pointer is written in `init` and freed in `stop()`; the
/// handler is immutable and `Sendable`. The daemon's threads call back through an unretained
/// reference, which the server outlives (``stop()`` stops the daemon before the server goes).
public final class HTTPServer: @unchecked Sendable {
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private var server: OpaquePointer?
    /// The port the server listens on (the one the system chose when asked for port 0).
    public private(set) var port: UInt16 = 0

    /// Where deferred answers (``HTTPResponse/work``) are made: `workers` at a time.
    let pool = OperationQueue()

    public init(_ configuration: HTTPServerConfiguration, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(HTTPServerError) {
        self.handler = handler
        pool.maxConcurrentOperationCount = max(1, workers)
        var error = [CChar](repeating: 0, count: 256)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started: OpaquePointer? = configuration.host.withCString { host in
            Self.withOptionalCString(configuration.tlsCertificate) { cert in
                Self.withOptionalCString(configuration.tlsKey) { key in
                    var c = idk_http_config(host: host, port: configuration.port, threads: UInt32(max(1, configuration.threads)),
                                            max_body_bytes: configuration.maxBodyBytes, timeout_s: UInt32(max(1, configuration.timeoutSeconds)),
                                            max_connections: UInt32(max(1, configuration.maxConnections)), tls_cert_pem: cert, tls_key_pem: key)
                    return idk_http_start(&c, httpTrampoline, context, &error, error.count)
                }
            }
        }
        guard let started else {
            throw HTTPServerError(message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        server = started
        port = idk_http_port(started)
    }

    /// Requests begun and not yet completed, bodies still arriving included.
    public var activeRequests: Int { server.map { Int(idk_http_active($0)) } ?? 0 }

    /// Stops accepting new connections; requests in flight are answered.
    public func quiesce() {
        if let server { idk_http_quiesce(server) }
    }

    /// Stops the daemon. Call once, after ``quiesce()`` and the requests in flight.
    public func stop() {
        if let server { idk_http_stop(server) }
        server = nil
    }

    deinit { stop() }

    static func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let s else { return body(nil) }
        return s.withCString { body($0) }
    }
}

/// The C handler: the request into Swift values, the answer back into the shim.
private func httpTrampoline(_ context: UnsafeMutableRawPointer?, _ request: UnsafePointer<idk_http_request>?,
                            _ response: OpaquePointer?) {
    guard let context, let request, let response else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    let r = request.pointee
    func text(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
    var query: [String: String] = [:]
    for i in 0..<r.query_count {
        let pair = r.query[i]
        guard let key = text(pair.key) else { continue }
        query[key] = pair.value.map { value in
            value.withMemoryRebound(to: UInt8.self, capacity: pair.value_length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: pair.value_length), as: UTF8.self)
            }
        } ?? ""
    }
    let body = r.body_length > 0 && r.body != nil ? Array(UnsafeBufferPointer(start: r.body, count: r.body_length)) : []
    var parsed = HTTPRequest(method: text(r.method) ?? "", path: text(r.path) ?? "/", contentType: text(r.content_type),
                             authorization: text(r.authorization), requestID: text(r.request_id), query: query,
                             body: body, bodyTooLarge: r.body_too_large != 0)
    parsed.multipartError = r.multipart_error != 0
    for i in 0..<r.part_count {
        let p = r.parts[i]
        parsed.parts.append(HTTPRequest.Part(name: text(p.name) ?? "", filename: text(p.filename), contentType: text(p.content_type),
                                             data: p.length > 0 && p.data != nil ? Array(UnsafeBufferPointer(start: p.data, count: p.length)) : []))
    }
    let answer = server.handler(parsed)
    if let work = answer.work, let token = idk_http_defer(response) {
        nonisolated(unsafe) let token = token
        server.pool.addOperation {
            fill(idk_http_deferred_response(token), with: work())
            idk_http_finish(token)
        }
        return
    }
    fill(response, with: answer.work.map { $0() } ?? answer)
}

/// The shim's answer from ours: headers, then a stream or the body.
private func fill(_ response: OpaquePointer?, with answer: HTTPResponse) {
    for (name, value) in answer.headers { idk_http_add_header(response, name, value) }
    if let stream = answer.stream {
        let box = Unmanaged.passRetained(StreamBox(stream)).toOpaque()
        idk_http_respond_stream(response, UInt32(answer.status), answer.contentType, streamProduce, streamRelease, box)
        return
    }
    answer.body.withUnsafeBufferPointer { b in
        idk_http_respond(response, UInt32(answer.status), answer.contentType, b.baseAddress, b.count)
    }
}

/// A stream handed to C: retained until libmicrohttpd releases the answer.
private final class StreamBox {
    let stream: any ResponseStream
    init(_ stream: any ResponseStream) { self.stream = stream }
}

private func streamProduce(_ context: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ max: Int) -> Int {
    guard let context, let buffer else { return -1 }
    let piece = Unmanaged<StreamBox>.fromOpaque(context).takeUnretainedValue().stream.next(max: max)
    piece.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: min(max, $0.count)) }
    return min(max, piece.count)
}

private func streamRelease(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<StreamBox>.fromOpaque(context).release()
}
