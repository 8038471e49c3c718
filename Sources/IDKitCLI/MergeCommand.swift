import Foundation
import IDKitDocument
import IDKitMRZ

/// `idkit merge FILE|-`: one document result from a JSON document holding any of `mrz`,
/// `barcode` (base64) and `viz.front` / `viz.back`, with optional redaction.
enum MergeCommand {
    struct Options {
        var json = false
        var input = "-"
        var referenceDate: CalendarDate?
        var redactionOptions = RedactionOptions()
        var redaction: RedactionSettings { redactionOptions.settings }
    }

    static func parseOptions(_ arguments: [String]) throws(UsageError) -> Options? {
        var o = Options()
        var inputs: [String] = []
        var cursor = TokenCursor(arguments)
        while let token = cursor.next() {
            switch token {
            case .option(name: "json", value: nil): o.json = true
            case .option(name: "help", value: nil), .option(name: "h", value: nil): return nil
            case .option(name: "reference-date", let v): o.referenceDate = try cursor.referenceDate(v)
            case .option(let name, let v) where RedactionOptions.names.contains(name):
                try o.redactionOptions.accept(name, v, &cursor)
            case .option(let name, _): throw UsageError(message: "unknown option '--\(name)' for 'idkit merge'")
            case .positional(let path): inputs.append(path)
            case .stdin: inputs.append("-")
            }
        }
        guard inputs.count <= 1 else { throw UsageError(message: "one input document at a time; found \(inputs.count)") }
        o.input = inputs.first ?? "-"
        return o
    }

    static func run(_ arguments: [String], io: StandardIO) -> IDKitCommand.ExitStatus {
        let (parsed, exit) = CommandStart.options("merge", help: Help.merge, io: io) { () throws(UsageError) in try parseOptions(arguments) }
        guard let options = parsed else { return exit }
        let name = options.input == "-" ? "<stdin>" : options.input
        let bytes: [UInt8]
        switch InputFiles.read(options.input, limit: DocumentInput.maximumJSONSize) {
        case .success(let b): bytes = b
        case .failure(.unreadable(let why)):
            io.err.write("idkit merge: \(name): cannot read: \(why)\n")
            return .unreadableInput
        case .failure(.tooLarge(let limit)):
            return fail(DocumentError(.invalidInput, "input: more than the \(limit)-byte limit for a merge input"), name, options, io)
        }
        let result: DocumentResult
        do {
            let input = try DocumentInput(json: bytes)
            let merger = DocumentMerger(referenceDate: options.referenceDate ?? input.referenceDate ?? .today,
                                        redaction: .fixed(options.redaction))
            result = try merger.merge(input)
        } catch {
            return fail(error, name, options, io)
        }
        if options.json {
            io.out.write(result.jsonString() + "\n")
        } else {
            io.out.write(HumanDocument.describe(result, file: name))
        }
        return result.dataMatch.wholeDocument == .mismatch ? .invalid : .valid
    }

    static func fail(_ error: DocumentError, _ name: String, _ options: Options, _ io: StandardIO) -> IDKitCommand.ExitStatus {
        if options.json {
            io.out.write(ErrorJSON.line(file: name, kind: error.kind.rawValue, message: error.message))
        } else {
            io.err.write("idkit merge: \(name): \(error.message)\n")
        }
        return .invalid
    }
}

/// The merged result for people: one line per field that any source has, then the checks.
enum HumanDocument {
    static func describe(_ r: DocumentResult, file: String) -> String {
        var out = "\(file):"
        if let c = r.documentClass {
            out += " " + [c.country, c.region, c.type?.rawValue].compactMap { $0 }.joined(separator: " ")
        }
        out += "\n"
        for name in DocumentFieldName.allCases {
            let f = r[name]
            guard f.value != nil || !f.readings.isEmpty || r.redacted.contains(name.rawValue) else { continue }
            var line = "  " + name.rawValue.padding(toLength: 26, withPad: " ", startingAt: 0)
            if r.redacted.contains(name.rawValue) && f.value == nil {
                line += "(redacted)"
            } else {
                line += f.value.map { $0.isEmpty ? "(empty)" : $0 } ?? "—"
                if let s = f.source { line += "  [\(s.rawValue)]" }
                let others = f.readings.all.filter { $0.source != f.source && $0.value != f.value }
                if !others.isEmpty { line += "  also " + others.map { "\($0.source.rawValue): \($0.value)" }.joined(separator: ", ") }
            }
            out += line + "\n"
        }
        let m = r.dataMatch
        out += "  data match                documentNumber \(m.documentNumber.rawValue), dateOfBirth \(m.dateOfBirth.rawValue), "
            + "dateOfExpiry \(m.dateOfExpiry.rawValue) → \(m.wholeDocument.rawValue)\n"
        let d = r.derived
        var derived: [String] = []
        if let age = d.age { derived.append("age \(age)") }
        if d.isUnder18 == true { derived.append("under 18") } else if d.isUnder21 == true { derived.append("under 21") }
        if d.isPermanentExpiry == true { derived.append("never expires") } else if let e = d.isExpired { derived.append(e ? "expired" : "not expired") }
        if !derived.isEmpty { out += "  on \(d.referenceDate)             " + derived.joined(separator: ", ") + "\n" }
        if let chip = r.chipAccess { out += "  chip (BAC)                \(chip.bacReady ? "ready" : "not ready")\n" }
        if !r.redacted.isEmpty { out += "  redacted                  " + r.redacted.joined(separator: ", ") + "\n" }
        for w in r.warnings { out += "  warning: \(w.code.rawValue): \(w.message)\n" }
        return out
    }
}
