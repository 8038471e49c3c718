import IDKitCLICore
import IDKitChip
import IDKitMRZ

/// `idkit bac`: BAC keys (and PACE K_π) from MRZ lines or from the three values, and the mutual
/// authentication of ICAO 9303-11 when the challenge values are given.
enum BACCommand {
    struct Options {
        var json = false
        var lines: [String] = []
        var readStdin = false
        var documentNumber: String?
        var birth: String?
        var expiry: String?
        var can: String?
        var rndIC: [UInt8]?
        var rndIFD: [UInt8]?
        var kIFD: [UInt8]?
        var cardResponse: [UInt8]?
    }

    static func parseOptions(_ arguments: [String]) throws(UsageError) -> Options? {
        var o = Options()
        var cursor = TokenCursor(arguments)
        func hex(_ text: String, _ name: String, _ count: Int) throws(UsageError) -> [UInt8] {
            do { return try Hex.decode(text, name: "--\(name)", count: count) } catch { throw UsageError(message: error.message) }
        }
        while let token = cursor.next() {
            switch token {
            case .option(name: "json", value: nil): o.json = true
            case .option(name: "help", value: nil), .option(name: "h", value: nil): return nil
            case .option(name: "document-number", let v): o.documentNumber = try cursor.value(of: "document-number", v, expecting: "a document number")
            case .option(name: "birth", let v): o.birth = try cursor.value(of: "birth", v, expecting: "a date of birth YYMMDD")
            case .option(name: "expiry", let v): o.expiry = try cursor.value(of: "expiry", v, expecting: "a date of expiry YYMMDD")
            case .option(name: "can", let v): o.can = try cursor.value(of: "can", v, expecting: "the card access number")
            case .option(name: "rnd-ic", let v): o.rndIC = try hex(try cursor.value(of: "rnd-ic", v, expecting: "8 bytes of hex"), "rnd-ic", 8)
            case .option(name: "rnd-ifd", let v): o.rndIFD = try hex(try cursor.value(of: "rnd-ifd", v, expecting: "8 bytes of hex"), "rnd-ifd", 8)
            case .option(name: "k-ifd", let v): o.kIFD = try hex(try cursor.value(of: "k-ifd", v, expecting: "16 bytes of hex"), "k-ifd", 16)
            case .option(name: "card-response", let v):
                o.cardResponse = try hex(try cursor.value(of: "card-response", v, expecting: "40 bytes of hex"), "card-response", 40)
            case .option(let name, _): throw UsageError(message: "unknown option '--\(name)' for 'idkit bac'")
            case .positional(let text): o.lines += text.split(whereSeparator: \.isNewline).map(String.init)
            case .stdin: o.readStdin = true
            }
        }
        let fromValues = o.documentNumber != nil || o.birth != nil || o.expiry != nil
        if fromValues && (o.documentNumber == nil || o.birth == nil || o.expiry == nil) {
            throw UsageError(message: "--document-number, --birth and --expiry go together (all three)")
        }
        if fromValues && (!o.lines.isEmpty || o.readStdin) {
            throw UsageError(message: "give either MRZ lines or --document-number/--birth/--expiry, not both")
        }
        if !fromValues && o.lines.isEmpty && !o.readStdin && o.can == nil {
            throw UsageError(message: "no MRZ given; usage: idkit bac [--json] MRZ-LINE… | --document-number N --birth YYMMDD --expiry YYMMDD")
        }
        let challenge = [o.rndIC != nil, o.rndIFD != nil, o.kIFD != nil]
        if challenge.contains(true) && challenge.contains(false) {
            throw UsageError(message: "--rnd-ic, --rnd-ifd and --k-ifd go together (all three)")
        }
        if o.cardResponse != nil && o.rndIC == nil {
            throw UsageError(message: "--card-response needs --rnd-ic, --rnd-ifd and --k-ifd")
        }
        return o
    }

    static func run(_ arguments: [String], io: StandardIO) -> IDKitCommand.ExitStatus {
        let (parsed, exit) = CommandStart.options("bac", help: Help.bac, io: io) { () throws(UsageError) in try parseOptions(arguments) }
        guard var options = parsed else { return exit }
        if options.readStdin {
            switch InputFiles.read("-", limit: 4096) {
            case .success(let bytes): options.lines += String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
            case .failure(.tooLarge(let limit)):
                io.err.write("idkit bac: standard input: more than \(limit) bytes; an MRZ is at most 92\n")
                return .invalid
            case .failure(.unreadable(let why)):
                io.err.write("idkit bac: standard input: cannot read: \(why)\n")
                return .unreadableInput
            }
        }
        var request = BACRequest()
        request.lines = options.lines
        (request.documentNumber, request.dateOfBirth, request.dateOfExpiry, request.can) = (options.documentNumber, options.birth, options.expiry, options.can)
        (request.rndIC, request.rndIFD, request.kIFD, request.cardResponse) = (options.rndIC, options.rndIFD, options.kIFD, options.cardResponse)
        let report: BACReport
        do {
            report = try BACReport(request)
        } catch {
            if options.json {
                io.out.write(ErrorJSON.line(file: nil, kind: error.kind.rawValue, message: error.message))
            } else {
                io.err.write("idkit bac: \(error.message)\n")
            }
            return .invalid
        }
        if options.json {
            var w = JSONWriter(capacity: 1024)
            report.writeJSON(to: &w)
            io.out.write(String(decoding: w.bytes, as: UTF8.self))
        } else {
            io.out.write(human(report))
        }
        return report.bacReady ? .valid : .invalid
    }

    static func human(_ r: BACReport) -> String {
        var out = ""
        func pace() {
            for (cipher, key) in r.pace {
                out += "PACE K_π " + (cipher.rawValue + ":").padding(toLength: 9, withPad: " ", startingAt: 0) + Hex.encode(key) + "\n"
            }
        }
        if r.paceFromCAN { pace() }
        if let information = r.mrzInformation, let keys = r.keys {
            out += "MRZ_information  \(information.text)\nK_seed           \(Hex.encode(keys.kSeed))\n"
            out += "K_enc            \(Hex.encode(keys.kEnc))\nK_mac            \(Hex.encode(keys.kMac))\n"
            out += "BAC ready        \(r.bacReady ? "yes" : "no: a check digit of the document number, birth or expiry date fails")\n"
            if !r.paceFromCAN { pace() }
            if let e = r.externalAuthenticate { out += "EXTERNAL AUTHENTICATE data  \(Hex.encode(e))\n" }
            if let s = r.session {
                out += "card answer verified\nKS_enc           \(Hex.encode(s.ksEnc))\n"
                out += "KS_mac           \(Hex.encode(s.ksMac))\nSSC              \(Hex.encode(s.ssc))\n"
            }
        }
        return out
    }
}
