import Foundation
import IDKitAAMVA
import IDKitChip
import IDKitCore
import IDKitDocument
import IDKitMRZ

/// `POST /v1/mrz`: the records of `idkit validate --json`, judged and written by the same
/// ``MRZRecordValidator``. `text/plain` and `application/x-ndjson` bodies are read as `validate`
/// reads a file (MRZ lines, blank lines between records, a line starting with `{` a JSON record)
/// and answered as NDJSON, one line per record in order; an `application/json` body is one
/// record (`{"mrz"|"lines", "id", "correct", "strict", "acceptDeviations", "referenceDate"}`) and
/// is answered with its one line. Options also come as query parameters (`correct`, `strict`,
/// `acceptDeviations`, `referenceDate`); the body's win. Each record's `input.source` is `-`, as
/// for standard input.
enum MRZRoute {
    static func answer(_ request: HTTPRequest, options service: ServiceOptions) -> HTTPResponse {
        var options = MRZRecordValidator.Options(referenceDate: service.referenceDate ?? .today)
        do {
            try apply(request.query.mapValues { $0 as Any }, to: &options, source: "query parameter")
        } catch {
            return error.response
        }
        switch request.mediaType {
        case "application/json":
            guard let object = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] else {
                return Problem(status: 400, slug: "bad-json", title: "Bad JSON",
                               detail: "the body is not a JSON object (send {\"mrz\": \"…\"} or {\"lines\": […]})").response
            }
            do { try apply(object, to: &options, source: "member") } catch { return error.response }
            // The record's own members, typed as /openapi.json says (the validator reads what it
            // can of a record; a client that sends another type made a mistake worth saying).
            func wrong(_ name: String, _ what: String) -> HTTPResponse {
                Problem(status: 400, slug: "bad-json", title: "Bad JSON", detail: "member \(name) must be \(what)").response
            }
            if let id = object["id"], !(id is String), !(id is NSNumber && !OptionValue.isJSONBool(id)) {
                return wrong("id", "a string or a number")
            }
            if let mrz = object["mrz"], !(mrz is String) { return wrong("mrz", "a string") }
            if let lines = object["lines"], !(lines is [String]) { return wrong("lines", "an array of strings") }
            let validator = MRZRecordValidator(options: options)
            var w = JSONWriter(capacity: 2048)
            _ = validator.writeJSONLine(for: MRZRecord(kind: .json, bytes: request.body, lineCount: 1, firstLineLength: request.body.count, startLine: 1),
                                        source: "-", into: &w)
            return HTTPResponse(status: 200, contentType: "application/json", body: w.bytes)
        case "text/plain", "application/x-ndjson", nil:
            // A batch's answer is several times its body: over 64 KiB of body it is streamed,
            // written as it is sent; a few records are answered whole (no chunking to pay for).
            let stream = RecordStream(validator: MRZRecordValidator(options: options), body: request.body)
            if request.body.count > 65536 { return HTTPResponse(status: 200, contentType: "application/x-ndjson", stream: stream) }
            return HTTPResponse(status: 200, contentType: "application/x-ndjson", body: stream.all())
        case let other?:
            return Problem(status: 415, slug: "unsupported-media-type", title: "Unsupported media type",
                           detail: "/v1/mrz reads text/plain, application/json or application/x-ndjson, not \(other.prefix(60))").response
        }
    }

    /// The `validate --json` lines of a body's records, made as the connection takes them: at most
    /// one piece (64 KiB and a line) beyond the body in memory at a time.
    final class RecordStream: ResponseStream, @unchecked Sendable {
        // @unchecked: libmicrohttpd calls `next` from one thread at a time for one answer.
        let validator: MRZRecordValidator
        var reader: MRZRecordReader
        var pending: [UInt8] = []
        var offset = 0
        var done = false

        init(validator: MRZRecordValidator, body: [UInt8]) {
            self.validator = validator
            reader = MRZRecordReader(bytes: body)
        }

        /// Every line at once (a small batch).
        func all() -> [UInt8] {
            var w = JSONWriter(capacity: 4096)
            while let record = reader.next() { _ = validator.writeJSONLine(for: record, source: "-", into: &w) }
            return w.bytes
        }

        func next(max: Int) -> [UInt8] {
            if offset >= pending.count && !done {
                var w = JSONWriter(capacity: max + 4096)
                while w.count < max, let record = reader.next() { _ = validator.writeJSONLine(for: record, source: "-", into: &w) }
                if w.count == 0 { done = true }
                pending = w.bytes
                offset = 0
            }
            let end = min(pending.count, offset + max)
            defer { offset = end }
            return Array(pending[offset..<end])
        }
    }

    /// The validator's options from query parameters or a JSON body's members.
    static func apply(_ values: [String: Any], to options: inout MRZRecordValidator.Options, source: String) throws(Problem) {
        do { try options.apply(values, text: true) } catch { throw RouteOption.problem(error, source) }
    }
}

extension Problem: Error {}

/// `POST /v1/aamva`: the payload (`application/octet-stream`, as a scanner delivers it) or
/// `{"payload": base64}`; answered with the JSON of `idkit aamva --json` (``AAMVAReport``). A
/// payload that is not AAMVA is a 400 problem with the parser's kind and byte offset.
enum AAMVARoute {
    static func answer(_ request: HTTPRequest) -> HTTPResponse {
        let bytes: [UInt8]
        switch request.mediaType {
        case "application/json":
            guard let object = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any],
                  let text = object["payload"] as? String else {
                return Problem(status: 400, slug: "bad-json", title: "Bad JSON",
                               detail: "the body is not a JSON object with \"payload\" (the payload's bytes in base64)").response
            }
            guard let data = Data(base64Encoded: text) else {
                return Problem(status: 400, slug: "bad-base64", title: "Bad base64", detail: "member payload is not base64").response
            }
            bytes = Array(data)
        case "application/octet-stream", "text/plain", nil:
            bytes = request.body
        case let other?:
            return Problem(status: 415, slug: "unsupported-media-type", title: "Unsupported media type",
                           detail: "/v1/aamva reads application/octet-stream or application/json, not \(other.prefix(60))").response
        }
        guard bytes.count <= AAMVAParser.maximumPayloadSize else {
            return Problem(status: 413, slug: "body-too-large", title: "Payload too large",
                           detail: "the payload is larger than \(AAMVAParser.maximumPayloadSize) bytes").response
        }
        do {
            let payload = try AAMVAParser().parse(bytes)
            return .json(AAMVAReport(payload).jsonString())
        } catch {
            var problem = Problem(error, slug: "not-aamva", title: "Not an AAMVA payload")
            problem.extra = [("offset", error.offset)]
            return problem.response
        }
    }
}

/// `POST /v1/merge`: the JSON document of `idkit merge` (MRZ, barcode and VIZ readings), answered
/// with the merged document result of `idkit merge --json` (``DocumentResult/jsonString()``); the
/// reference date from `?referenceDate=`, else the input's, else the server's, else today. Input
/// that cannot be merged is a 400 problem with the merger's `kind`.
enum MergeRoute {
    static func answer(_ request: HTTPRequest, referenceDate: CalendarDate?, redaction: RedactionPolicy = .fixed(.none), cscas: CSCAStore? = nil) -> HTTPResponse {
        guard request.mediaType == "application/json" || request.mediaType == nil else {
            return Problem(status: 415, slug: "unsupported-media-type", title: "Unsupported media type",
                           detail: "/v1/merge reads application/json (the input document of idkit merge)").response
        }
        let date: CalendarDate?
        do { date = try RouteOption.date(request.query["referenceDate"], "referenceDate") } catch { return error.response }
        do {
            let input = try DocumentInput(json: request.body)
            let result = try DocumentMerger(referenceDate: date ?? input.referenceDate ?? referenceDate ?? .today, redaction: redaction, cscas: cscas).merge(input)
            return .json(result.jsonString())
        } catch {
            return Problem(error, slug: "bad-merge-input", title: "Bad merge input").response
        }
    }
}

/// `POST /v1/bac`: `{"lines": [...]} | {"mrz": "L1\nL2"} | {"documentNumber", "dateOfBirth",
/// "dateOfExpiry"}`, optionally `"can"`, `"rndIC"`, `"rndIFD"`, `"kIFD"`, `"cardResponse"` (hex),
/// answered with the JSON of `idkit bac --json` (``BACReport``). Input the keys cannot be made from
/// is a 400 problem with the chip module's `kind`.
enum BACRoute {
    static func answer(_ request: HTTPRequest) -> HTTPResponse {
        guard request.mediaType == "application/json" || request.mediaType == nil else {
            return Problem(status: 415, slug: "unsupported-media-type", title: "Unsupported media type",
                           detail: "/v1/bac reads application/json").response
        }
        let r: BACRequest
        do {
            r = try BACRequest(json: request.body)
        } catch {
            return (error.kind == .invalidHex ? Problem(error, slug: "bad-hex", title: "Bad hex")
                : Problem(error, slug: "bad-json", title: "Bad JSON")).response
        }
        do {
            let report = try BACReport(r)
            var w = JSONWriter(capacity: 1024)
            report.writeJSON(to: &w)
            return HTTPResponse(status: 200, contentType: "application/json", body: w.bytes)
        } catch {
            return Problem(error, slug: "bad-bac-input", title: "Cannot make the keys").response
        }
    }
}
