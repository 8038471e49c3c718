import Foundation
import IDKitMRZ

/// `idkit validate`: parse and check MRZs from arguments, files or standard input.
enum ValidateCommand {
    struct Options: Sendable {
        var json = false
        var correct = false
        var acceptDeviations = false
        var strict = false
        var referenceDate = CalendarDate.today
        var inputs: [Input] = []
    }

    enum Input: Equatable {
        case text(String)
        case file(String)
        case stdin
    }

    static func parseOptions(_ arguments: [String]) throws(UsageError) -> Options? {
        var options = Options()
        var cursor = TokenCursor(arguments)
        var lineArguments: [String] = []
        func flushLines() {
            guard !lineArguments.isEmpty else { return }
            // Consecutive line arguments form MRZs: 3 lines of 30 characters, else 2.
            var i = 0
            while i < lineArguments.count {
                let take = lineArguments[i].count == 30 ? 3 : 2
                let group = lineArguments[i..<min(i + take, lineArguments.count)]
                options.inputs.append(.text(group.joined(separator: "\n")))
                i += take
            }
            lineArguments = []
        }
        while let token = cursor.next() {
            switch token {
            case .option(let name, let value):
                func noValue() throws(UsageError) {
                    if value != nil { throw UsageError(message: "option --\(name) takes no value") }
                }
                switch name {
                case "json": try noValue(); options.json = true
                case "correct": try noValue(); options.correct = true
                case "accept-deviations": try noValue(); options.acceptDeviations = true
                case "strict": try noValue(); options.strict = true
                case "h", "help": return nil
                case "reference-date": options.referenceDate = try cursor.referenceDate(value)
                default:
                    throw UsageError(message: "unknown option '\(name.count == 1 ? "-" : "--")\(name)'")
                }
            case .stdin:
                flushLines()
                options.inputs.append(.stdin)
            case .positional(let argument):
                if isMRZText(argument) {
                    if argument.contains("\n") { flushLines(); options.inputs.append(.text(argument)) } else { lineArguments.append(argument) }
                } else {
                    flushLines()
                    options.inputs.append(.file(argument))
                }
            }
        }
        flushLines()
        if options.inputs.isEmpty { options.inputs = [.stdin] }
        return options
    }

    /// An argument is MRZ text, not a path, when no such file exists and it looks like MRZ lines
    /// (long, no `/` or `.`); lower case and stray characters then get the parser's precise error.
    static func isMRZText(_ argument: String) -> Bool {
        if FileManager.default.fileExists(atPath: argument) { return false }
        if argument.contains("/") || argument.contains(".") { return false }
        return argument.utf8.count >= 20 || argument.contains("<")
    }

    static func run(_ arguments: [String], io: StandardIO) -> IDKitCommand.ExitStatus {
        let options: Options
        do {
            guard let parsed = try parseOptions(arguments) else {
                io.out.write(Help.validate)
                return .valid
            }
            options = parsed
        } catch {
            io.err.write("idkit validate: \(error.message)\nRun 'idkit help validate' for usage.\n")
            return .usage
        }
        var session = Session(options: options, io: io)
        for input in options.inputs {
            switch input {
            case .text(let text):
                session.handle(Array(text.utf8), source: "argument", line: 1, kind: .text)
            case .stdin:
                session.stream(fd: 0, source: "-")
            case .file(let path):
                let fd: Int32
                do { fd = try SystemCalls.openForReading(path) } catch {
                    io.err.write("idkit validate: cannot read '\(path)': \(error.message)\n")
                    session.unreadable = true
                    continue
                }
                session.stream(fd: fd, source: path)
                SystemCalls.close(fd)
            }
        }
        session.finish()
        if session.unreadable { return .unreadableInput }
        return session.invalidCount > 0 ? .invalid : .valid
    }

    /// State across the records of one run.
    struct Session {
        let options: Options
        let io: StandardIO
        let processor: RecordProcessor
        var validCount = 0
        var invalidCount = 0
        var unreadable = false

        init(options: Options, io: StandardIO) {
            self.options = options
            self.io = io
            self.processor = RecordProcessor(options: options)
        }

        mutating func handle(_ bytes: [UInt8], source: String, line: Int, kind: MRZRecord.Kind) {
            let record = MRZRecord(kind: kind, bytes: bytes, lineCount: 0, firstLineLength: 0, startLine: line)
            let valid = io.out.withWriter { processor.process(record, source: source, into: &$0) }
            if valid { validCount += 1 } else { invalidCount += 1 }
            io.out.flushIfFull()
        }

        /// Records are read in batches; each batch is parsed and formatted on every core, its two
        /// halves into their own buffers, which are then written in input order.
        mutating func stream(fd: Int32, source: String) {
            var reader = MRZRecordReader(fd: fd)
            let batchSize = 4096
            var batch: [MRZRecord] = []
            batch.reserveCapacity(batchSize)
            let parts = ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 1
            let outputs = (0..<parts).map { _ in PartOutput() }
            while true {
                batch.removeAll(keepingCapacity: true)
                while batch.count < batchSize, let record = reader.next() { batch.append(record) }
                if batch.isEmpty { break }
                let records = batch
                let processor = self.processor
                let split = parts == 1 || records.count < 64 ? 1 : parts
                DispatchQueue.concurrentPerform(iterations: split) { part in
                    let range = (records.count * part / split)..<(records.count * (part + 1) / split)
                    outputs[part].run { w, valid, invalid in
                        for record in records[range] {
                            if processor.process(record, source: source, into: &w) { valid += 1 } else { invalid += 1 }
                        }
                    }
                }
                for part in 0..<split {
                    outputs[part].drain { bytes, valid, invalid in
                        io.out.withWriter { $0.appendRaw(bytes) }
                        io.out.flushIfFull()
                        validCount += valid
                        invalidCount += invalid
                    }
                }
            }
            if reader.readError != 0 {
                io.err.write("idkit validate: error reading '\(source)': \(SystemCallError(call: "read", code: reader.readError).message)\n")
                unreadable = true
            }
        }

        func finish() {
            let total = validCount + invalidCount
            if !options.json && total > 1 {
                io.out.write("\(total) MRZs: \(validCount) valid, \(invalidCount) invalid\n")
            }
        }
    }
}

/// One worker's output for a batch: its bytes and counts. Each worker touches only its own.
final class PartOutput: @unchecked Sendable {
    private var writer = JSONWriter(capacity: 1 << 20)
    private var valid = 0
    private var invalid = 0

    func run(_ body: (inout JSONWriter, inout Int, inout Int) -> Void) {
        body(&writer, &valid, &invalid)
    }

    func drain(_ body: (UnsafeRawBufferPointer, Int, Int) -> Void) {
        writer.withBytes { body($0, valid, invalid) }
        writer.reset()
        valid = 0
        invalid = 0
    }
}

/// Turns one record into its output (a JSON line or a human report) and its verdict.
struct RecordProcessor: Sendable {
    let options: ValidateCommand.Options
    let parser: MRZParser
    let corrector: MRZCorrector

    init(options: ValidateCommand.Options) {
        self.options = options
        parser = MRZParser(referenceDate: options.referenceDate)
        corrector = MRZCorrector(parser: parser)
    }

    /// Writes the record's output into `w`; returns whether it counts as valid.
    func process(_ record: MRZRecord, source: String, into w: inout JSONWriter) -> Bool {
        switch record.kind {
        case .tooLong:
            let error = MRZError(kind: .invalidRecord, line: nil, column: nil,
                                 expected: "lines of at most \(MRZRecordReader.maxLineBytes) bytes",
                                 found: "a longer line at input line \(record.startLine)")
            report(error: error, lines: [], source: source, line: record.startLine, id: nil, into: &w)
            return false
        case .json:
            return processJSON(record.bytes, source: source, line: record.startLine, into: &w)
        case .text:
            return handle(record.bytes, source: source, line: record.startLine, id: nil, into: &w)
        }
    }

    func processJSON(_ bytes: [UInt8], source: String, line: Int, into w: inout JSONWriter) -> Bool {
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
            report(error: error, lines: [], source: source, line: line, id: id, into: &w)
            return false
        }
        return handle(Array(text.utf8), source: source, line: line, id: id, into: &w)
    }

    func handle(_ bytes: [UInt8], source: String, line: Int, id: String?, into w: inout JSONWriter) -> Bool {
        if options.correct {
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let correction = try corrector.correct(text)
                return report(correction.result, correction: correction, source: source, line: line, id: id, into: &w)
            } catch {
                report(error: error, lines: Self.lines(of: bytes), source: source, line: line, id: id, into: &w)
                return false
            }
        }
        let outcome: Result<MRZResult, MRZError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(MRZError) in try parser.parse(utf8: buffer) }
        }
        switch outcome {
        case .success(let result):
            return report(result, correction: nil, source: source, line: line, id: id, into: &w)
        case .failure(let error):
            report(error: error, lines: Self.lines(of: bytes), source: source, line: line, id: id, into: &w)
            return false
        }
    }

    static func lines(of bytes: [UInt8]) -> [String] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
    }

    func report(_ result: MRZResult, correction: MRZCorrection?, source: String, line: Int, id: String?,
                into w: inout JSONWriter) -> Bool {
        let ok = (options.acceptDeviations ? result.isValidAcceptingDeviations : result.isValid)
            && !(options.strict && !result.warnings.isEmpty)
        let accepted = ok && (correction.map { $0.outcome == .unchanged || $0.outcome == .corrected } ?? true)
        if options.json {
            writeRecord(source: source, line: line, id: id, into: &w) { w in
                result.writeJSONMembers(to: &w)
                if let correction { w.key("correction"); correction.writeJSON(to: &w) }
            }
        } else {
            w.appendRaw(HumanReport.render(result, correction: correction, source: source, line: line, id: id))
        }
        return accepted
    }

    func report(error: MRZError, lines: [String], source: String, line: Int, id: String?, into w: inout JSONWriter) {
        if options.json {
            writeRecord(source: source, line: line, id: id, into: &w) { w in
                MRZResult.writeJSONMembers(for: error, lines: lines, to: &w)
            }
        } else {
            w.appendRaw(HumanReport.render(error: error, lines: lines, source: source, line: line, id: id))
        }
    }

    /// One JSON object per line: `input` first, then the members `body` writes.
    func writeRecord(source: String, line: Int, id: String?, into w: inout JSONWriter, _ body: (inout JSONWriter) -> Void) {
        w.beginObject()
        w.key("input")
        w.beginObject()
        w.key("source"); w.string(source)
        w.key("line"); w.int(line)
        if let id { w.key("id"); w.string(id) }
        w.endObject()
        body(&w)
        w.endObject()
        w.newline()
    }
}
