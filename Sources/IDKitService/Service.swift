import Foundation
import IDKitAAMVA
import IDKitCore
import IDKitDocument
public import IDKitChip
import IDKitMRZ
import IDKitScan
import Synchronization

/// What the service answers with, and how it guards the data it is sent.
public struct ServiceOptions: Sendable {
    /// Requests must carry `Authorization: Bearer <token>`; `nil`: no authentication.
    public var token: String?
    /// The day MRZ expiry is judged against when a request gives none (`nil`: today, per request).
    public var referenceDate: CalendarDate?
    public var version = IDKitVersion.string
    /// Image requests (`/v1/scan`, `/v1/barcode`) worked on at once, on the server's worker pool.
    public var workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Image requests that may wait for a worker (their connections suspended, holding no
    /// thread); one more is answered 503 with `Retry-After` (shed load: memory stays bounded).
    public var queue = 64
    /// The server-wide redaction policy (`--redaction FILE`): applied to `/v1/merge` and `/v1/scan`.
    /// When it redacts some document's result, the routes whose contracts carry the data unredacted
    /// (`/v1/mrz`, `/v1/aamva`, `/v1/barcode`) answer 403 rather than hand it out.
    public var redaction: RedactionRules?
    /// The CSCAs a chip sent to `/v1/merge` must chain to (`--csca`, `--masterlist`); without them a
    /// chip's passive authentication is at best `incomplete` and its values come last.
    public var cscas: CSCAStore?
    public init(token: String? = nil, referenceDate: CalendarDate? = nil) {
        (self.token, self.referenceDate) = (token, referenceDate)
    }
}

/// At most `workers + queue` slow requests on the worker pool (working or waiting); the rest
/// refused at once.
final class Admission: Sendable {
    private let admitted = Atomic<Int>(0)
    let limit: Int
    let rejected = Atomic<Int>(0)

    init(workers: Int, queue: Int) {
        limit = max(1, workers) + max(0, queue)
    }

    /// Requests admitted and not finished (working or waiting).
    var depth: Int { admitted.load(ordering: .relaxed) }

    /// Whether one more may go to the pool (then ``release()`` when it is done).
    func admit() -> Bool {
        if admitted.add(1, ordering: .acquiringAndReleasing).newValue > limit {
            admitted.subtract(1, ordering: .relaxed)
            rejected.add(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func release() { admitted.subtract(1, ordering: .relaxed) }
}

/// The routes of `idkit serve`: each answers with exactly the JSON of the matching subcommand
/// (the same encoders: ``MRZRecordValidator``, ``AAMVAReport``), errors as RFC 9457 problem
/// details. Stateless between requests; safe to call from every server thread at once.
public final class Service: Sendable {
    public let options: ServiceOptions
    let metrics = Metrics()
    /// Set once shutdown begins: `/readyz` answers 503 from then on.
    let draining = Atomic<Bool>(false)
    let inFlight = Atomic<Int>(0)

    let admission: Admission

    public init(options: ServiceOptions) {
        self.options = options
        admission = Admission(workers: options.workers, queue: options.queue)
    }

    /// Requests being answered now.
    public var requestsInFlight: Int { inFlight.load(ordering: .acquiring) }

    /// From now on `/readyz` says not ready (a load balancer stops sending).
    public func beginDraining() { draining.store(true, ordering: .releasing) }

    /// Answers one request and writes its access-log line (no personal data: the route, the
    /// status, sizes and time) through `log`.
    public func handle(_ request: HTTPRequest, log: (@Sendable (String) -> Void)? = nil) -> HTTPResponse {
        let t0 = DispatchTime.now().uptimeNanoseconds
        inFlight.add(1, ordering: .relaxed)
        let (route, response) = answer(request)
        if let work = response.work {
            // Counted and logged when the worker has made the answer.
            return .deferred { [self] in
                let r = work()
                return self.finished(request, route: route, response: r, since: t0, log: log)
            }
        }
        return finished(request, route: route, response: response, since: t0, log: log)
    }

    func finished(_ request: HTTPRequest, route: String, response: HTTPResponse, since t0: UInt64, log: (@Sendable (String) -> Void)?) -> HTTPResponse {
        inFlight.subtract(1, ordering: .relaxed)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        metrics.record(route: route, status: response.status, seconds: seconds)
        guard let log else { return response }
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("time"); w.string(Self.utcTimestamp())
        if let id = request.requestID, id.utf8.count <= 64, id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            w.key("requestId"); w.string(id)
        }
        w.key("method"); w.string(String(request.method.prefix(16)))
        w.key("route"); w.string(route)
        w.key("status"); w.int(response.status)
        w.key("bytesIn"); w.int(request.body.count)
        w.key("bytesOut"); if response.stream == nil { w.int(response.body.count) } else { w.null() }   // streamed: not known yet
        w.key("ms"); w.raw(Array(String(format: "%.2f", seconds * 1000).utf8))
        w.endObject()
        log(String(decoding: w.bytes, as: UTF8.self))
        return response
    }

    /// Now as `2026-12-01T02:03:52Z` (gmtime_r: no date formatter per request).
    static func utcTimestamp() -> String {
        var t = time(nil)
        var p = tm()
        gmtime_r(&t, &p)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(p.tm_year + 1900)-\(two(p.tm_mon + 1))-\(two(p.tm_mday))T\(two(p.tm_hour)):\(two(p.tm_min)):\(two(p.tm_sec))Z"
    }

    /// The known routes: method and path. Anything else is logged as `other` (a path may hold
    /// what a client should not have put there).
    static let routes: [String: Set<String>] = [
        "/healthz": ["GET"], "/readyz": ["GET"], "/version": ["GET"], "/metrics": ["GET"], "/openapi.json": ["GET"],
        "/v1/mrz": ["POST"], "/v1/aamva": ["POST"], "/v1/barcode": ["POST"], "/v1/scan": ["POST"], "/v1/merge": ["POST"], "/v1/bac": ["POST"],
    ]

    func answer(_ request: HTTPRequest) -> (route: String, response: HTTPResponse) {
        guard let methods = Self.routes[request.path] else {
            return ("other", Problem.notFound(request.path).response)
        }
        let route = request.path
        guard methods.contains(request.method) else {
            return (route, Problem(status: 405, slug: "method-not-allowed", title: "Method not allowed",
                                   detail: "\(route) answers \(methods.sorted().joined(separator: ", ")), not \(request.method.prefix(16))")
                .response(headers: [("Allow", methods.sorted().joined(separator: ", "))]))
        }
        // Health, readiness and the API's description answer without a token (a load balancer's
        // probe has none; the description holds no personal data).
        switch route {
        case "/healthz": return (route, .json(#"{"status":"ok"}"#))
        case "/openapi.json": return (route, HTTPResponse(status: 200, contentType: "application/json", body: Array(OpenAPI.document.utf8)))
        case "/readyz":
            if draining.load(ordering: .acquiring) {
                return (route, HTTPResponse(status: 503, contentType: "application/json", body: Array(#"{"status":"draining"}"#.utf8) + [0x0A]))
            }
            if let reason = DocumentScanner.modelError {
                var w = JSONWriter(capacity: 256)
                w.beginObject()
                w.key("status"); w.string("modelUnavailable")
                w.key("reason"); w.string(reason)
                w.endObject()
                return (route, HTTPResponse(status: 503, contentType: "application/json", body: Array(w.bytes) + [0x0A]))
            }
            return (route, .json(#"{"status":"ready"}"#))
        default: break
        }
        if let token = options.token, !Self.authorized(request.authorization, token: token) {
            return (route, Problem(status: 401, slug: "unauthorized", title: "Unauthorized",
                                   detail: request.authorization == nil ? "this server needs an Authorization: Bearer token"
                                       : "the bearer token is not this server's")
                .response(headers: [("WWW-Authenticate", "Bearer")]))
        }
        if request.multipartError {
            return (route, Problem(status: 400, slug: "bad-multipart", title: "Bad multipart body",
                                   detail: "the multipart/form-data body cannot be split into parts (boundary missing or broken, or more than 16 parts)").response)
        }
        if request.method == "POST" && request.body.isEmpty && request.parts.isEmpty && !request.bodyTooLarge {
            return (route, Problem(status: 400, slug: "empty-body", title: "Empty body",
                                   detail: "\(route) needs a request body (see /openapi.json)").response)
        }
        if request.bodyTooLarge {
            return (route, Problem(status: 413, slug: "body-too-large", title: "Body too large",
                                   detail: "the request body is larger than this server's limit (--max-body-bytes)").response)
        }
        switch route {
        case "/version": return (route, .json(#"{"idkit":"\#(options.version)"}"#))
        case "/metrics":
            return (route, HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4",
                                        body: Array(metrics.text(inFlight: requestsInFlight, queueDepth: admission.depth,
                                                                 rejected: admission.rejected.load(ordering: .relaxed)).utf8)))
        default: break
        }
        if let rules = options.redaction, rules.redactsAnyResult, ["/v1/mrz", "/v1/aamva", "/v1/barcode"].contains(route) {
            return (route, Problem(status: 403, slug: "redacted-server", title: "Forbidden by the redaction policy",
                                   detail: "this server redacts document data; \(route) answers with it unredacted (use /v1/merge or /v1/scan)").response)
        }
        // Quick routes (microseconds to a millisecond) are answered on the server's own threads;
        // the image routes (tens of milliseconds and more) on the worker pool, admitted while no
        // more than `workers + queue` are there, else refused at once.
        let options = self.options
        let redaction: RedactionPolicy
        do { redaction = try RequestRedaction.policy(server: options.redaction, request: request) } catch { return (route, error.response) }
        switch route {
        case "/v1/mrz": return (route, MRZRoute.answer(request, options: options))
        case "/v1/aamva": return (route, AAMVARoute.answer(request))
        case "/v1/merge": return (route, MergeRoute.answer(request, referenceDate: options.referenceDate, redaction: redaction, cscas: options.cscas))
        case "/v1/bac": return (route, BACRoute.answer(request))
        default: break
        }
        let work: @Sendable () -> HTTPResponse = switch route {
        case "/v1/barcode": { ImageRoutes.barcode(request) }
        case "/v1/scan": { ImageRoutes.scan(request, referenceDate: options.referenceDate, redaction: redaction) }
        default: { Problem.notFound(route).response }
        }
        guard admission.admit() else {
            return (route, Problem(status: 503, slug: "overloaded", title: "Overloaded",
                                   detail: "\(admission.limit) requests are being answered or waiting; try again shortly")
                .response(headers: [("Retry-After", "1")]))
        }
        let admission = self.admission
        return (route, .deferred {
            defer { admission.release() }
            return work()
        })
    }

    /// `Authorization: Bearer <token>` compared in time independent of where it differs.
    static func authorized(_ header: String?, token: String) -> Bool {
        guard let header, header.hasPrefix("Bearer ") else { return false }
        let given = Array(header.utf8.dropFirst(7)), wanted = Array(token.utf8)
        var difference = UInt8(given.count == wanted.count ? 0 : 1)
        for i in 0..<max(given.count, wanted.count) {
            difference |= (i < given.count ? given[i] : 0) ^ (i < wanted.count ? wanted[i] : 0xFF)
        }
        return difference == 0
    }
}

extension HTTPResponse {
    /// A JSON answer of 200, newline-terminated as the command line prints it.
    static func json(_ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "application/json", body: Array(text.utf8) + [0x0A])
    }
}

/// An RFC 9457 problem details answer (`application/problem+json`): `type`, `title`, `status`,
/// `detail`, and members that say where (`line`, `column`, `offset`, `kind`).
struct Problem: Sendable {
    var status: Int
    var slug: String
    var title: String
    var detail: String
    var extra: [(String, Int)] = []
    var strings: [(String, String)] = []
    var kind: String?

    static func notFound(_ path: String) -> Problem {
        Problem(status: 404, slug: "not-found", title: "Not found", detail: "no route \(path.prefix(80)) (see /openapi.json)")
    }

    var response: HTTPResponse { response() }

    func response(headers: [(String, String)] = []) -> HTTPResponse {
        var w = JSONWriter(capacity: 256 + detail.utf8.count)
        w.beginObject()
        w.key("type"); w.string("urn:idkit:problem:" + slug)
        w.key("title"); w.string(title)
        w.key("status"); w.int(status)
        w.key("detail"); w.string(detail)
        if let kind { w.key("kind"); w.string(kind) }
        for (k, v) in extra { w.key(dynamic: k); w.int(v) }
        for (k, v) in strings { w.key(dynamic: k); w.string(v) }
        w.endObject()
        w.newline()
        return HTTPResponse(status: status, contentType: "application/problem+json", body: w.bytes, headers: headers)
    }
}

/// Requests and their latencies by route and status, for `/metrics` (Prometheus text format).
final class Metrics: Sendable {
    static let bounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
    struct Series { var count = 0; var buckets = [Int](repeating: 0, count: Metrics.bounds.count); var sum = 0.0 }
    private let state = Mutex<(requests: [String: Int], latency: [String: Series])>(([:], [:]))

    func record(route: String, status: Int, seconds: Double) {
        state.withLock { s in
            s.requests["route=\"\(route)\",status=\"\(status)\"", default: 0] += 1
            var series = s.latency[route] ?? Series()
            series.count += 1
            series.sum += seconds
            for (i, b) in Self.bounds.enumerated() where seconds <= b { series.buckets[i] += 1 }
            s.latency[route] = series
        }
    }

    func text(inFlight: Int, queueDepth: Int, rejected: Int) -> String {
        state.withLock { s in
            var out = "# HELP idkit_requests_total Requests answered, by route and status.\n# TYPE idkit_requests_total counter\n"
            for (labels, n) in s.requests.sorted(by: { $0.key < $1.key }) { out += "idkit_requests_total{\(labels)} \(n)\n" }
            out += "# HELP idkit_request_seconds Time to answer a request, by route.\n# TYPE idkit_request_seconds histogram\n"
            for (route, series) in s.latency.sorted(by: { $0.key < $1.key }) {
                for (i, b) in Self.bounds.enumerated() { out += "idkit_request_seconds_bucket{route=\"\(route)\",le=\"\(b)\"} \(series.buckets[i])\n" }
                out += "idkit_request_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(series.count)\n"
                out += "idkit_request_seconds_sum{route=\"\(route)\"} \(series.sum)\n"
                out += "idkit_request_seconds_count{route=\"\(route)\"} \(series.count)\n"
            }
            out += "# HELP idkit_requests_in_flight Requests being answered.\n# TYPE idkit_requests_in_flight gauge\n"
            out += "idkit_requests_in_flight \(inFlight)\n"
            out += "# HELP idkit_admitted_requests Requests of the /v1/ routes working or waiting for a worker.\n# TYPE idkit_admitted_requests gauge\n"
            out += "idkit_admitted_requests \(queueDepth)\n"
            out += "# HELP idkit_rejected_total Requests answered 503 because the queue was full.\n# TYPE idkit_rejected_total counter\n"
            out += "idkit_rejected_total \(rejected)\n"
            return out
        }
    }
}

extension Problem {
    /// A library error's problem: the status from its class, the one table every front end uses
    /// (``ErrorClass``), its kind as `kind`; the slug and title say which route's input it was.
    init(_ error: some ClassifiedError, slug: String, title: String, detailPrefix: String = "") {
        self.init(status: error.errorClass.httpStatus, slug: slug, title: title, detail: detailPrefix + error.message)
        kind = error.kindName
    }
}
