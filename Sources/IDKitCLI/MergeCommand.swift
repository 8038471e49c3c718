import IDKitCLICore
import Foundation
import IDKitDocument
import IDKitMRZ
import IDKitChip

/// `idkit merge FILE|-`: one document result from a JSON document holding any of `mrz`,
/// `barcode` (base64), `viz.front` / `viz.back` and `chip` (base64 EF files), with chip files also
/// from `--chip FILE|DIR` and their trust anchors from `--csca` or `--masterlist`, with optional
/// redaction.
enum MergeCommand {
    struct Options {
        var json = false
        var input = "-"
        var referenceDate: CalendarDate?
        var chipFiles: [String] = []
        var csca: String?
        var masterList: String?
        var crl: String?
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
            case .option(name: "chip", let v): o.chipFiles.append(try cursor.value(of: "chip", v, expecting: "a chip file (EF.SOD, a data group) or a folder of them"))
            case .option(name: "csca", let v): o.csca = try cursor.value(of: "csca", v, expecting: "a CSCA certificate file or folder")
            case .option(name: "masterlist", let v): o.masterList = try cursor.value(of: "masterlist", v, expecting: "a CSCA master list file")
            case .option(name: "crl", let v): o.crl = try cursor.value(of: "crl", v, expecting: "a CRL file or a folder of them")
            case .option(let name, let v) where RedactionOptions.names.contains(name):
                try o.redactionOptions.accept(name, v, &cursor)
            case .option(let name, _): throw UsageError(message: "unknown option '--\(name)' for 'idkit merge'")
            case .positional(let path): inputs.append(path)
            case .stdin: inputs.append("-")
            }
        }
        guard inputs.count <= 1 else { throw UsageError(message: "one input document at a time; found \(inputs.count)") }
        if o.csca != nil && o.masterList != nil { throw UsageError(message: "give --csca or --masterlist, not both") }
        if o.crl != nil && o.csca == nil && o.masterList == nil { throw UsageError(message: "--crl needs --csca or --masterlist (the CRLs of which CSCAs)") }
        // With chip files and nothing else, there is no input document to wait for on standard input.
        o.input = inputs.first ?? (o.chipFiles.isEmpty ? "-" : "")
        return o
    }

    static func run(_ arguments: [String], io: StandardIO) -> IDKitCommand.ExitStatus {
        let (parsed, exit) = CommandStart.options("merge", help: Help.merge, io: io) { () throws(UsageError) in try parseOptions(arguments) }
        guard let options = parsed else { return exit }
        let name = options.input == "-" ? "<stdin>" : options.input.isEmpty ? options.chipFiles[0] : options.input
        var bytes: [UInt8] = Array("{}".utf8)
        if !options.input.isEmpty {
            switch InputFiles.read(options.input, limit: DocumentInput.maximumJSONSize) {
            case .success(let b): bytes = b
            case .failure(.unreadable(let why)):
                io.err.write("idkit merge: \(name): cannot read: \(why)\n")
                return .unreadableInput
            case .failure(.tooLarge(let limit)):
                return fail(DocumentError(.invalidInput, "input: more than the \(limit)-byte limit for a merge input"), name, options, io)
            }
        }
        var cscas: CSCAStore?
        var files: [[UInt8]] = []
        do {
            cscas = try ChipInput.store(csca: options.csca, masterList: options.masterList, crl: options.crl)
            if !options.chipFiles.isEmpty {
                files = try ChipInput.files(options.chipFiles).all
            }
        } catch {
            io.err.write("idkit merge: \(error.message)\n")
            return error.status
        }
        let result: DocumentResult
        do throws(DocumentError) {
            var input = try DocumentInput(json: bytes)
            if !files.isEmpty {
                guard input.chip == nil else { throw DocumentError(.invalidInput, "chip files both in the input document and from --chip; give them one way") }
                input.chip = files
            }
            let merger = DocumentMerger(referenceDate: options.referenceDate ?? input.referenceDate ?? .today,
                                        redaction: .fixed(options.redaction), cscas: cscas)
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
        if let chip = r.chip {
            out += "  chip                      passive authentication \(chip.passiveAuthentication); " + chip.dataGroups.joined(separator: ", ")
            out += chip.faces.isEmpty ? "\n" : "; " + chip.faces.map { "face \($0.imageType) \($0.width)×\($0.height)" }.joined(separator: ", ") + "\n"
        }
        if !r.redacted.isEmpty { out += "  redacted                  " + r.redacted.joined(separator: ", ") + "\n" }
        for w in r.warnings { out += "  warning: \(w.code.rawValue): \(w.message)\n" }
        return out
    }
}
