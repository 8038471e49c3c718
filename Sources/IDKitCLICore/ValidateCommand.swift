import Foundation
import IDKitMRZ

/// `idkit validate`: parse and check MRZs from arguments, files or standard input.
package enum ValidateCommand {
    package struct Options: Sendable {
        package var json = false
        package var correct = false
        package var acceptDeviations = false
        package var strict = false
        package var referenceDate = CalendarDate.today
        package var inputs: [Input] = []
    }

    package enum Input: Equatable {
        case text(String)
        case file(String)
        case stdin
    }

    package static func parseOptions(_ arguments: [String]) throws(UsageError) -> Options? {
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
    package static func isMRZText(_ argument: String) -> Bool {
        if FileManager.default.fileExists(atPath: argument) { return false }
        if argument.contains("/") || argument.contains(".") { return false }
        return argument.utf8.count >= 20 || argument.contains("<")
    }

    package static func run(_ arguments: [String], io: StandardIO) -> IDKitCommand.ExitStatus {
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
    package struct Session {
        package let options: Options
        package let io: StandardIO
        package let processor: RecordProcessor
        package var validCount = 0
        package var invalidCount = 0
        package var unreadable = false

        package init(options: Options, io: StandardIO) {
            self.options = options
            self.io = io
            self.processor = RecordProcessor(options: options)
        }

        package mutating func handle(_ bytes: [UInt8], source: String, line: Int, kind: MRZRecord.Kind) {
            let record = MRZRecord(kind: kind, bytes: bytes, lineCount: 0, firstLineLength: 0, startLine: line)
            let valid = io.out.withWriter { processor.process(record, source: source, into: &$0) }
            if valid { validCount += 1 } else { invalidCount += 1 }
            io.out.flushIfFull()
        }

        /// The records of `fd`, validated on the machine's cores (``MRZParallelStream``) and
        /// written in input order.
        package mutating func stream(fd: Int32, source: String) {
            var reader = MRZRecordReader(fd: fd)
            let processor = self.processor, io = self.io
            var valid = 0, invalid = 0
            MRZParallelStream.run(&reader) { record, w in
                processor.process(record, source: source, into: &w)
            } emit: { bytes, accepted, rejected in
                io.out.withWriter { $0.appendRaw(bytes) }
                io.out.flushIfFull()
                valid += accepted
                invalid += rejected
            }
            validCount += valid
            invalidCount += invalid
            if reader.readError != 0 {
                io.err.write("idkit validate: error reading '\(source)': \(SystemCallError(call: "read", code: reader.readError).message)\n")
                unreadable = true
            }
        }

        package func finish() {
            let total = validCount + invalidCount
            if !options.json && total > 1 {
                io.out.write("\(total) MRZs: \(validCount) valid, \(invalidCount) invalid\n")
            }
        }
    }
}

/// Turns one record into its output (the `validate --json` line, or a human report) and its
/// verdict; the judging and the JSON are IDKitMRZ's ``MRZRecordValidator``.
package struct RecordProcessor: Sendable {
    package let json: Bool
    package let validator: MRZRecordValidator

    package init(options: ValidateCommand.Options) {
        json = options.json
        validator = MRZRecordValidator(options: .init(correct: options.correct, acceptDeviations: options.acceptDeviations,
                                                      strict: options.strict, referenceDate: options.referenceDate))
    }

    /// Writes the record's output into `w`; returns whether it counts as valid.
    package func process(_ record: MRZRecord, source: String, into w: inout JSONWriter) -> Bool {
        if json { return validator.writeJSONLine(for: record, source: source, into: &w) }
        let outcome = validator.validate(record)
        switch outcome.verdict {
        case .result(let result, let correction, _):
            w.appendRaw(HumanReport.render(result, correction: correction, source: source, line: record.startLine, id: outcome.id))
        case .error(let error, let lines):
            w.appendRaw(HumanReport.render(error: error, lines: lines, source: source, line: record.startLine, id: outcome.id))
        }
        return outcome.isAccepted
    }
}
