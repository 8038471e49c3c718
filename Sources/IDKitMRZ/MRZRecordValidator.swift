import Foundation

/// One record of an MRZ stream judged by the rules of `idkit validate` (and of the service's and
/// the C ABI's batch validation): parsed, or corrected when asked, its verdict, and its JSON line.
public struct MRZRecordValidator: Sendable {
    public struct Options: Sendable, Equatable {
        /// Repair OCR errors guided by the check digits (``MRZCorrector``).
        public var correct: Bool
        /// Count a result valid when it is valid accepting the known issuer deviations.
        public var acceptDeviations: Bool
        /// Count a result with warnings as invalid.
        public var strict: Bool
        /// The date two-digit years are resolved against.
        public var referenceDate: CalendarDate

        public init(correct: Bool = false, acceptDeviations: Bool = false, strict: Bool = false,
                    referenceDate: CalendarDate = .today) {
            self.correct = correct
            self.acceptDeviations = acceptDeviations
            self.strict = strict
            self.referenceDate = referenceDate
        }
    }

    /// What became of one record.
    public struct Outcome: Sendable {
        public enum Verdict: Sendable {
            /// Parsed (and corrected, when asked); `accepted` is the record's verdict under the options.
            case result(MRZResult, correction: MRZCorrection?, accepted: Bool)
            /// Not an MRZ: the error, and the record's lines as given.
            case error(MRZError, lines: [String])
        }
        public var verdict: Verdict
        /// The `id` of a JSON record, as given (a number as its decimal text).
        public var id: String?

        public var isAccepted: Bool {
            if case .result(_, _, let accepted) = verdict { return accepted }
            return false
        }
    }

    public let options: Options
    let parser: MRZParser
    let corrector: MRZCorrector

    public init(options: Options) {
        self.options = options
        parser = MRZParser(referenceDate: options.referenceDate)
        corrector = MRZCorrector(parser: parser)
    }

    /// The record judged: text as MRZ lines, a JSON object by its `mrz` or `lines` (and `id`).
    public func validate(_ record: MRZRecord) -> Outcome {
        switch record.kind {
        case .tooLong:
            let error = MRZError(kind: .invalidRecord, line: nil, column: nil,
                                 expected: "lines of at most \(MRZRecordReader.maxLineBytes) bytes",
                                 found: "a longer line at input line \(record.startLine)")
            return Outcome(verdict: .error(error, lines: []), id: nil)
        case .json:
            return validateJSON(record.bytes)
        case .text:
            return Outcome(verdict: validate(text: record.bytes), id: nil)
        }
    }

    func validateJSON(_ bytes: [UInt8]) -> Outcome {
        var id: String?
        var text: String?
        if let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] {
            if let s = object["id"] as? String { id = s } else if let n = object["id"] as? NSNumber { id = n.stringValue }
            if let s = object["mrz"] as? String { text = s } else if let lines = object["lines"] as? [String] {
                text = lines.joined(separator: "\n")
            }
        }
        guard let text else {
            let error = MRZError(kind: .invalidRecord, line: nil, column: nil,
                                 expected: "a JSON object with \"mrz\" (a string) or \"lines\" (an array of strings)",
                                 found: String(decoding: bytes.prefix(60), as: UTF8.self) + (bytes.count > 60 ? "…" : ""))
            return Outcome(verdict: .error(error, lines: []), id: id)
        }
        return Outcome(verdict: validate(text: Array(text.utf8)), id: id)
    }

    func validate(text bytes: [UInt8]) -> Outcome.Verdict {
        if options.correct {
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let correction = try corrector.correct(text)
                return .result(correction.result, correction: correction, accepted: accepts(correction.result, correction))
            } catch {
                return .error(error, lines: Self.lines(of: bytes))
            }
        }
        let outcome: Result<MRZResult, MRZError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(MRZError) in try parser.parse(utf8: buffer) }
        }
        switch outcome {
        case .success(let result): return .result(result, correction: nil, accepted: accepts(result, nil))
        case .failure(let error): return .error(error, lines: Self.lines(of: bytes))
        }
    }

    func accepts(_ result: MRZResult, _ correction: MRZCorrection?) -> Bool {
        let ok = (options.acceptDeviations ? result.isValidAcceptingDeviations : result.isValid)
            && !(options.strict && !result.warnings.isEmpty)
        return ok && (correction.map { $0.outcome == .unchanged || $0.outcome == .corrected } ?? true)
    }

    static func lines(of bytes: [UInt8]) -> [String] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The record judged and written as one JSON line (``writeJSONLine(_:source:line:into:)``) in
    /// one pass: the hot path of a stream of valid MRZs, with no ``Outcome`` in between. Returns
    /// whether the record is accepted.
    public func writeJSONLine(for record: MRZRecord, source: String, into w: inout JSONWriter) -> Bool {
        guard record.kind == .text, !options.correct else {
            let outcome = validate(record)
            writeJSONLine(outcome, source: source, line: record.startLine, into: &w)
            return outcome.isAccepted
        }
        let parsed: MRZResult
        do {
            parsed = try record.bytes.withUnsafeBufferPointer { buffer throws(MRZError) in try parser.parse(utf8: buffer) }
        } catch {
            writeJSONLine(Outcome(verdict: .error(error, lines: Self.lines(of: record.bytes)), id: nil), source: source,
                          line: record.startLine, into: &w)
            return false
        }
        beginLine(source: source, line: record.startLine, id: nil, into: &w)
        parsed.writeJSONMembers(to: &w)
        w.endObject()
        w.newline()
        return accepts(parsed, nil)
    }

    /// `{"input":{"source":…,"line":…,"id":…}` of a JSON line, its object left open.
    func beginLine(source: String, line: Int, id: String?, into w: inout JSONWriter) {
        w.beginObject()
        w.key("input")
        w.beginObject()
        w.key("source"); w.string(source)
        w.key("line"); w.int(line)
        if let id { w.key("id"); w.string(id) }
        w.endObject()
    }

    /// The outcome as one JSON line (the `validate --json` contract): `input` (`source`, `line`,
    /// `id` when given) first, then the result's members (and `correction`) or the error's.
    public func writeJSONLine(_ outcome: Outcome, source: String, line: Int, into w: inout JSONWriter) {
        beginLine(source: source, line: line, id: outcome.id, into: &w)
        switch outcome.verdict {
        case .result(let result, let correction, _):
            result.writeJSONMembers(to: &w)
            if let correction { w.key("correction"); correction.writeJSON(to: &w) }
        case .error(let error, let lines):
            MRZResult.writeJSONMembers(for: error, lines: lines, to: &w)
        }
        w.endObject()
        w.newline()
    }
}
