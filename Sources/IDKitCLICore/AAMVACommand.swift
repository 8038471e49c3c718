import IDKitAAMVA
import IDKitMRZ

/// `idkit aamva FILE|-`: parse raw AAMVA payloads as a hardware scanner delivers them.
package enum AAMVACommand {
    package struct Options {
        package var json = false
        package var strict = false
        package var inputs: [String] = []
    }

    package static func parseOptions(_ arguments: [String]) throws(UsageError) -> Options? {
        var options = Options()
        var cursor = TokenCursor(arguments)
        while let token = cursor.next() {
            switch token {
            case .option(name: "json", value: nil): options.json = true
            case .option(name: "strict", value: nil): options.strict = true
            case .option(name: "help", value: nil), .option(name: "h", value: nil): return nil
            case .option(let name, _): throw UsageError(message: "unknown option '--\(name)' for 'idkit aamva'")
            case .positional(let path): options.inputs.append(path)
            case .stdin: options.inputs.append("-")
            }
        }
        if options.inputs.isEmpty { options.inputs = ["-"] }
        return options
    }

    package static func run(_ arguments: [String], io: StandardIO) -> IDKitCommand.ExitStatus {
        let (parsed, exit) = CommandStart.options("aamva", help: Help.aamva, io: io) { () throws(UsageError) in try parseOptions(arguments) }
        guard let options = parsed else { return exit }
        var status = IDKitCommand.ExitStatus.valid
        let parser = AAMVAParser()
        for input in options.inputs {
            let name = input == "-" ? "<stdin>" : input
            let bytes: [UInt8]
            switch InputFiles.read(input, limit: AAMVAParser.maximumPayloadSize) {
            case .success(let b): bytes = b
            case .failure(.unreadable(let why)):
                io.err.write("idkit aamva: \(name): cannot read: \(why)\n")
                status = .unreadableInput
                continue
            case .failure(.tooLarge(let limit)):
                report(AAMVAError(.tooLarge, offset: limit, "the payload is larger than \(limit) bytes"), file: name, options: options, io: io)
                if status == .valid { status = .invalid }
                continue
            }
            do {
                let payload = try parser.parse(bytes)
                if options.json {
                    io.out.write(AAMVAReport(payload).jsonString() + "\n")
                } else {
                    io.out.write(HumanAAMVA.describe(payload, file: name))
                }
                if options.strict && !payload.warnings.isEmpty && status == .valid { status = .invalid }
            } catch {
                report(error, file: name, options: options, io: io)
                if status == .valid { status = .invalid }
            }
        }
        return status
    }

    package static func report(_ error: AAMVAError, file: String, options: Options, io: StandardIO) {
        if options.json {
            io.out.write(ErrorJSON.line(file: file, kind: error.kind.rawValue, offset: error.offset, message: error.message))
        } else {
            io.err.write("\(file): not an AAMVA payload: \(error)\n")
        }
    }
}

/// Human-readable AAMVA output: the fields that people look for, then warnings.
package enum HumanAAMVA {
    package static func describe(_ p: AAMVAPayload, file: String) -> String {
        var out = "\(file): AAMVA "
        if let v = p.version { out += "version \(v)" } else { out += "magnetic stripe" }
        if let j = p.jurisdictionVersion { out += " (jurisdiction version \(j))" }
        out += ", IIN \(p.iin)"
        if let j = p.jurisdiction { out += " \(j.code) \(j.name)" }
        if let c = p.country { out += ", \(c)" }
        out += "\n"
        let f = p.fields
        let rows: [(String, String?)] = [
            ("document", [f.documentType, f.documentNumber].compactMap { $0 }.joined(separator: " ")),
            ("name", f.fullName), ("last name", f.lastName), ("first name", f.firstName), ("middle name", f.middleName),
            ("born", f.dateOfBirth), ("sex", f.sex), ("issued", f.dateOfIssue), ("expires", f.dateOfExpiry),
            ("height", f.heightCm.map { "\($0) cm (\(f.heightIn ?? 0) in)" }),
            ("weight", f.weightKg.map { "\($0) kg (\(f.weightLb ?? 0) lb)" }),
            ("eyes", f.eyeColor), ("hair", f.hairColor),
            ("address", [f.street, f.street2, f.city, f.state, f.postalCode].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")),
            ("discriminator", f.documentDiscriminator),
        ]
        for (label, value) in rows {
            guard let value, !value.isEmpty else { continue }
            out += "  " + label.padding(toLength: 14, withPad: " ", startingAt: 0) + value + "\n"
        }
        for w in p.warnings {
            out += "  warning: \(w.code.rawValue): \(w.message)" + (w.offset.map { " (byte \($0))" } ?? "") + "\n"
        }
        return out
    }
}
