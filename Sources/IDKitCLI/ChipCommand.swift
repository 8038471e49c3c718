import IDKitCLICore
import Foundation
import IDKitChip
import IDKitImage
internal import IDKitCore
import IDKitMRZ

/// `idkit chip verify`: passive authentication of files read from a chip (EF.SOD and data
/// groups, or a folder of them), chained to trusted CSCAs, with the data groups IDKit reads.
enum ChipCommand {
    struct Options {
        var json = false
        var sod: String?
        var files: [String] = []
        var csca: String?
        var masterList: String?
        var crl: String?
        var referenceDate: CalendarDate = .today
        var faceOut: String?
        var mrz: [String] = []
        var aaChallenge: [UInt8]?
        var aaSignature: [UInt8]?
        var aaHash = "SHA2-256"
    }

    static func hexValue(_ name: String, _ text: String) throws(UsageError) -> [UInt8] {
        do { return try Hex.decode(text.replacingOccurrences(of: " ", with: ""), name: "--\(name)") } catch { throw UsageError(message: error.message) }
    }

    static func parseOptions(_ arguments: [String]) throws(UsageError) -> Options? {
        guard arguments.first == "verify" else {
            if arguments.isEmpty || ["--help", "-h", "help"].contains(arguments[0]) { return nil }
            throw UsageError(message: "unknown chip action '\(arguments[0])' (idkit chip verify … or idkit chip apdu …)")
        }
        var o = Options()
        var cursor = TokenCursor(Array(arguments.dropFirst()))
        while let token = cursor.next() {
            switch token {
            case .option(name: "json", value: nil): o.json = true
            case .option(name: "help", value: nil), .option(name: "h", value: nil): return nil
            case .option(name: "sod", let v): o.sod = try cursor.value(of: "sod", v, expecting: "the EF.SOD file")
            case .option(name: "dg", let v): o.files.append(try cursor.value(of: "dg", v, expecting: "a data group file"))
            case .option(name: "csca", let v): o.csca = try cursor.value(of: "csca", v, expecting: "a CSCA certificate file or folder")
            case .option(name: "masterlist", let v): o.masterList = try cursor.value(of: "masterlist", v, expecting: "a CSCA master list file")
            case .option(name: "crl", let v): o.crl = try cursor.value(of: "crl", v, expecting: "a CRL file or a folder of them")
            case .option(name: "reference-date", let v): o.referenceDate = try cursor.referenceDate(v)
            case .option(name: "face-out", let v): o.faceOut = try cursor.value(of: "face-out", v, expecting: "a file to write the face image to")
            case .option(name: "mrz", let v):
                o.mrz += try cursor.value(of: "mrz", v, expecting: "the printed MRZ (lines separated by newlines)").split(whereSeparator: \.isNewline).map(String.init)
            case .option(name: "aa-challenge", let v): o.aaChallenge = try hexValue("aa-challenge", try cursor.value(of: "aa-challenge", v, expecting: "the 8-byte challenge in hex"))
            case .option(name: "aa-signature", let v): o.aaSignature = try hexValue("aa-signature", try cursor.value(of: "aa-signature", v, expecting: "the chip's signature in hex"))
            case .option(name: "aa-hash", let v):
                let name = try cursor.value(of: "aa-hash", v, expecting: "SHA-1, SHA-224, SHA-256, SHA-384 or SHA-512").uppercased()
                guard let fetch = ["SHA-1": "SHA1", "SHA-224": "SHA2-224", "SHA-256": "SHA2-256", "SHA-384": "SHA2-384", "SHA-512": "SHA2-512"][name] else {
                    throw UsageError(message: "--aa-hash: '\(name)' is not SHA-1, SHA-224, SHA-256, SHA-384 or SHA-512")
                }
                o.aaHash = fetch
            case .option(let name, _): throw UsageError(message: "unknown option '--\(name)' for 'idkit chip verify'")
            case .positional(let path): o.files.append(path)
            case .stdin: throw UsageError(message: "idkit chip verify reads files, not standard input")
            }
        }
        if o.sod == nil && o.files.isEmpty { throw UsageError(message: "no chip files: give --sod FILE and --dg FILE…, or a folder of EF files") }
        if o.csca != nil && o.masterList != nil { throw UsageError(message: "give --csca or --masterlist, not both") }
        if (o.aaChallenge == nil) != (o.aaSignature == nil) { throw UsageError(message: "--aa-challenge and --aa-signature go together") }
        if o.crl != nil && o.csca == nil && o.masterList == nil { throw UsageError(message: "--crl needs --csca or --masterlist (the CRLs of which CSCAs)") }
        return o
    }

    /// `idkit chip apdu`: one command wrapped or one response unwrapped with the session keys and
    /// the send sequence counter, which the caller keeps between calls (the new one is printed).
    struct APDUOptions {
        var json = false
        var cipher = SecureMessaging.Cipher.tdes
        var ksEnc: [UInt8]?
        var ksMac: [UInt8]?
        var ssc: [UInt8]?
        var wrap: [UInt8]?
        var unwrap: [UInt8]?
    }

    static func parseAPDU(_ arguments: [String]) throws(UsageError) -> APDUOptions? {
        var o = APDUOptions()
        var cursor = TokenCursor(arguments)
        func hex(_ name: String, _ v: String?) throws(UsageError) -> [UInt8] {
            let text = try cursor.value(of: name, v, expecting: "hex bytes")
            do { return try Hex.decode(text.replacingOccurrences(of: " ", with: ""), name: "--\(name)") } catch { throw UsageError(message: error.message) }
        }
        while let token = cursor.next() {
            switch token {
            case .option(name: "json", value: nil): o.json = true
            case .option(name: "help", value: nil), .option(name: "h", value: nil): return nil
            case .option(name: "cipher", let v):
                let name = try cursor.value(of: "cipher", v, expecting: "3DES or AES")
                guard let c = SecureMessaging.Cipher(rawValue: name.uppercased()) else { throw UsageError(message: "--cipher: '\(name)' is not 3DES or AES") }
                o.cipher = c
            case .option(name: "ks-enc", let v): o.ksEnc = try hex("ks-enc", v)
            case .option(name: "ks-mac", let v): o.ksMac = try hex("ks-mac", v)
            case .option(name: "ssc", let v): o.ssc = try hex("ssc", v)
            case .option(name: "wrap", let v): o.wrap = try hex("wrap", v)
            case .option(name: "unwrap", let v): o.unwrap = try hex("unwrap", v)
            case .option(let name, _): throw UsageError(message: "unknown option '--\(name)' for 'idkit chip apdu'")
            case .positional(let p): throw UsageError(message: "unexpected argument '\(p.prefix(40))' (give the APDU to --wrap or --unwrap)")
            case .stdin: throw UsageError(message: "idkit chip apdu reads its APDU from --wrap or --unwrap")
            }
        }
        guard o.ksEnc != nil, o.ksMac != nil, o.ssc != nil else { throw UsageError(message: "--ks-enc, --ks-mac and --ssc are needed (the session keys and the counter)") }
        guard (o.wrap == nil) != (o.unwrap == nil) else { throw UsageError(message: "give one of --wrap COMMAND or --unwrap RESPONSE") }
        return o
    }

    static func runAPDU(_ arguments: [String], io: StandardIO) -> IDKitCommand.ExitStatus {
        let (parsed, exit) = CommandStart.options("chip", help: Help.chip, io: io) { () throws(UsageError) in try parseAPDU(arguments) }
        guard let o = parsed, let ksEnc = o.ksEnc, let ksMac = o.ksMac, let ssc = o.ssc else { return exit }
        do {
            var sm = try SecureMessaging(cipher: o.cipher, ksEnc: ksEnc, ksMac: ksMac, ssc: ssc)
            if let command = o.wrap {
                let protected = try sm.wrap(command)
                io.out.write(o.json ? "{\"apdu\":\"\(Hex.encode(protected))\",\"ssc\":\"\(Hex.encode(sm.ssc))\"}\n"
                                    : "apdu \(Hex.encode(protected))\nssc  \(Hex.encode(sm.ssc))\n")
            } else if let response = o.unwrap {
                let (data, status) = try sm.unwrap(response)
                io.out.write(o.json ? "{\"data\":\"\(Hex.encode(data))\",\"status\":\"\(Hex.encode(status))\",\"ssc\":\"\(Hex.encode(sm.ssc))\"}\n"
                                    : "data   \(Hex.encode(data))\nstatus \(Hex.encode(status))\nssc    \(Hex.encode(sm.ssc))\n")
            }
            return .valid
        } catch {
            if o.json { io.out.write(ErrorJSON.line(file: nil, kind: error.kind.rawValue, message: error.message)) } else { io.err.write("idkit chip apdu: \(error.message)\n") }
            return .invalid
        }
    }

    static func run(_ arguments: [String], io: StandardIO) -> IDKitCommand.ExitStatus {
        if arguments.first == "apdu" { return runAPDU(Array(arguments.dropFirst()), io: io) }
        let (parsed, exit) = CommandStart.options("chip", help: Help.chip, io: io) { () throws(UsageError) in try parseOptions(arguments) }
        guard let options = parsed else { return exit }
        func fail(_ message: String, _ status: IDKitCommand.ExitStatus) -> IDKitCommand.ExitStatus {
            io.err.write("idkit chip verify: \(message)\n")
            return status
        }
        // Every file given, folders expanded; each told apart by its first tag, not its name.
        let files: ChipFiles
        let store: CSCAStore?
        do {
            files = try ChipInput.files((options.sod.map { [$0] } ?? []) + options.files)
            store = try ChipInput.store(csca: options.csca, masterList: options.masterList, crl: options.crl)
        } catch {
            return fail(error.message, error.status)
        }
        guard let sod = files.sod else { return fail("no EF.SOD among the files (its first byte is 77)", .usage) }
        let groups = files.dataGroups, com = files.com

        let referenceDate = String(format: "%04d-%02d-%02d", options.referenceDate.year, options.referenceDate.month, options.referenceDate.day)
        let pa = PassiveAuthentication(sod: sod, dataGroups: groups, cscas: store, referenceDate: referenceDate)
        var warnings = pa.warnings
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.key("passiveAuthentication"); pa.writeJSON(to: &w)
        w.key("dataGroups"); w.beginObject()
        if let com {
            w.key("COM")
            do {
                let c = try EFCOM(com)
                w.beginObject()
                w.key("ldsVersion"); w.string(c.ldsVersion)
                w.key("unicodeVersion"); w.string(c.unicodeVersion)
                w.key("dataGroups"); w.beginArray(); for n in c.dataGroups { w.string("DG\(n)") }; w.endArray()
                w.endObject()
            } catch { errorObject(error, &w) }
        }
        var chipMRZ: [String]?
        if let access = files.cardAccess {
            w.key("CardAccess")
            do {
                let infos = try SecurityInfos(access)
                w.beginObject(); w.key("securityInfos"); infos.writeJSON(to: &w); w.endObject()
            } catch { errorObject(error, &w) }
        }
        if let dg1 = groups[1] {
            w.key("DG1")
            do {
                let d = try DataGroup1(dg1, referenceDate: options.referenceDate)
                chipMRZ = d.lines
                w.beginObject(); d.mrz.writeJSONMembers(to: &w); w.endObject()
            } catch { errorObject(error, &w) }
        }
        if let dg2 = groups[2] {
            w.key("DG2")
            do {
                let d = try DataGroup2(dg2)
                images("faces", d.faces.map { ($0.imageType, $0.width, $0.height) }, &w)
                if let out = options.faceOut, let face = d.faces.first {
                    // JPEG as stored; JPEG 2000 (most passports' faces) decoded by OpenJPEG and written as PNG.
                    var bytes = face.image
                    if face.imageType == "JPEG2000" {
                        do { bytes = try ImageEncoder.png(try ImageDecoder.decodeColorPage(face.image).image) } catch {
                            warnings.append("the JPEG 2000 face cannot be decoded: \(error.message); written as stored")
                        }
                    }
                    guard FileManager.default.createFile(atPath: out, contents: Data(bytes)) else {
                        return fail("\(out): cannot write the face image", .cannotCreateOutput)
                    }
                }
            } catch { errorObject(error, &w) }
        }
        if let dg7 = groups[7] {
            w.key("DG7")
            do {
                let d = try DataGroup7(dg7)
                images("images", d.images.map { ($0.imageType, $0.width, $0.height) }, &w)
            } catch { errorObject(error, &w) }
        }
        for number in [11, 12] {
            guard let file = groups[number] else { continue }
            w.key(dynamic: "DG\(number)")
            do { try AdditionalDetails(file, group: number).writeJSON(to: &w, othersKey: number == 11 ? "otherNames" : "otherPersons") } catch { errorObject(error, &w) }
        }
        if let dg14 = groups[14] {
            w.key("DG14")
            do {
                let infos = try SecurityInfos(dg14)
                w.beginObject(); w.key("securityInfos"); infos.writeJSON(to: &w); w.endObject()
            } catch { errorObject(error, &w) }
        }
        var dg15: DataGroup15?
        if let file = groups[15] {
            w.key("DG15")
            do {
                let d = try DataGroup15(file)
                dg15 = d
                w.beginObject(); w.key("algorithm"); w.string(d.algorithm); w.key("bits"); w.int(d.bits); w.key("curve"); w.string(d.curve); w.endObject()
            } catch { errorObject(error, &w) }
        }
        w.endObject()
        // Active authentication: the chip's signature over the challenge with the DG15 key,
        // which means something only when the SOD covers DG15 and passive authentication passed.
        var aa: PassiveAuthentication.Check?
        if let challenge = options.aaChallenge, let signature = options.aaSignature {
            if let dg15 {
                aa = ActiveAuthentication.verify(dg15: dg15, challenge: challenge, signature: signature, ecdsaDigest: options.aaHash)
                if pa.dataGroupHashes.first(where: { $0.number == 15 })?.check != .valid {
                    warnings.append("DG15 is not covered by a valid SOD hash: active authentication proves nothing about this document")
                }
            } else {
                aa = .notPerformed("no EF.DG15 (the active-authentication key) was given")
            }
        }
        // The printed MRZ against the chip's (DG1): any difference is a warning and fails the read.
        var mrzMatches: Bool?
        if !options.mrz.isEmpty {
            let printed = options.mrz.map { $0.trimmingCharacters(in: .whitespaces) }
            mrzMatches = chipMRZ.map { $0 == printed }
            if mrzMatches == false { warnings.append("the printed MRZ differs from the chip's (DG1)") }
            if chipMRZ == nil { warnings.append("--mrz given but no DG1 to compare it with") }
        }
        // EF.CardSecurity: the chip's SecurityInfos signed by a Document Signer, checked as the SOD is.
        let cardSecurity = files.cardSecurity.map { CardSecurity($0, cscas: store, referenceDate: referenceDate) }
        w.key("cardSecurity"); if let cardSecurity { cardSecurity.writeJSON(to: &w) } else { w.null() }
        w.key("mrzMatchesChip"); if let m = mrzMatches { w.bool(m) } else { w.null() }
        w.key("activeAuthentication")
        if let aa {
            w.beginObject(); w.key("result"); w.string(aa.name)
            if let r = aa.reason { w.key("reason"); w.string(r) }
            w.endObject()
        } else {
            w.null()
        }
        w.key("warnings"); w.beginArray(); for x in warnings { w.string(x) }; w.endArray()
        w.endObject()

        if options.json {
            io.out.write(String(decoding: w.bytes, as: UTF8.self) + "\n")
        } else {
            var out = "passive authentication  \(pa.result.rawValue)\n"
            for (number, check) in pa.dataGroupHashes { out += "  DG\(number) hash".padding(toLength: 24, withPad: " ", startingAt: 0) + check.name + "\n" }
            out += "  signature             \(pa.signature.name)\n  certificate chain     \(pa.certificateChain.name)\n"
            if let s = pa.documentSigner { out += "  Document Signer       \(s.subject) (\(s.notBefore ?? "?") to \(s.notAfter ?? "?"))\n" }
            if let c = pa.csca { out += "  CSCA                  \(c.subject)\n" }
            if let lines = chipMRZ { out += "DG1 MRZ\n" + lines.map { "  " + $0 + "\n" }.joined() }
            if let aa { out += "active authentication \(aa.name)\n" }
            if let c = cardSecurity {
                out += "EF.CardSecurity         \(c.result.rawValue) (signature \(c.signature.name), chain \(c.certificateChain.name); "
                    + "\(c.securityInfos?.infos.count ?? 0) SecurityInfos)\n"
                for r in c.reasons + c.warnings { out += "note: EF.CardSecurity: \(r)\n" }
            }
            for r in pa.reasons + warnings { out += "note: \(r)\n" }
            io.out.write(out)
        }
        return pa.result == .passed && mrzMatches != false && (aa == nil || aa == .valid) && (cardSecurity.map { $0.result == .passed } ?? true) ? .valid : .invalid
    }

    /// `{key: [{"imageType", "width", "height"}]}`: DG2's faces, DG7's images.
    static func images(_ key: StaticString, _ list: [(type: String, width: Int, height: Int)], _ w: inout JSONWriter) {
        w.beginObject(); w.key(key); w.beginArray()
        for i in list {
            w.beginObject(); w.key("imageType"); w.string(i.type); w.key("width"); w.int(i.width); w.key("height"); w.int(i.height); w.endObject()
        }
        w.endArray(); w.endObject()
    }

    static func errorObject(_ error: LDSError, _ w: inout JSONWriter) {
        w.beginObject(); w.key("error"); w.beginObject()
        w.key("kind"); w.string(error.kind.rawValue)
        w.key("offset"); w.int(error.offset)
        w.key("tag"); w.string(error.tag.map { String(format: "%02X", $0) })
        w.key("message"); w.string(error.message)
        w.endObject(); w.endObject()
    }
}
