/// Reads AAMVA DL/ID payloads: the PDF417 layout of the AAMVA DL/ID Card Design Standard
/// Annex D (versions 00–11) and, when a card carries them instead, magnetic-stripe tracks.
///
/// Real cards and scanners damage the layout in known ways (Annex D as written versus what
/// jurisdictions print): wrong subfile offsets, lost or replaced separators, CRLF line ends from
/// keyboard-emulating scanners, leading junk, stray C1 bytes. Each is reported as an
/// `AAMVAWarning` and the elements are still read.
public struct AAMVAParser: Sendable {
    /// Payloads longer than this are refused (a PDF417 holds at most about 1.1 kB of bytes).
    public static let maximumPayloadSize = 64 * 1024

    public init() {}

    public func parse(_ bytes: some Collection<UInt8>) throws(AAMVAError) -> AAMVAPayload {
        let data = (bytes as? [UInt8]) ?? Array(bytes)
        guard !data.isEmpty else { throw AAMVAError(.empty, offset: 0, "the payload is empty") }
        guard data.count <= Self.maximumPayloadSize else {
            throw AAMVAError(.tooLarge, offset: Self.maximumPayloadSize,
                             "the payload has \(data.count) bytes; the limit is \(Self.maximumPayloadSize)")
        }
        var reader = PayloadReader(original: data)
        return try reader.read()
    }

    public func parse(_ text: String) throws(AAMVAError) -> AAMVAPayload {
        try parse(Array(text.utf8))
    }
}

// MARK: - Bytes

enum Byte {
    static let lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, rs: UInt8 = 0x1E, fs: UInt8 = 0x1C
    static let at: UInt8 = 0x40, space: UInt8 = 0x20

    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
    @inline(__always) static func isUpper(_ b: UInt8) -> Bool { b &- 0x41 < 26 }
    @inline(__always) static func isUpperOrDigit(_ b: UInt8) -> Bool { isUpper(b) || isDigit(b) }
}

/// One read of one payload. `data` is the payload with stray C1 bytes removed; `origin` maps its
/// indices back to offsets in the original bytes (empty when nothing was removed).
struct PayloadReader {
    var data: [UInt8]
    var origin: [Int32] = []
    var warnings: [AAMVAWarning] = []

    init(original: [UInt8]) {
        data = original
        removeStrayControlBytes()
    }

    func originalOffset(_ index: Int) -> Int {
        if origin.isEmpty { return index }
        if index >= origin.count { return origin.isEmpty ? index : Int(origin[origin.count - 1]) + 1 }
        return Int(origin[index])
    }

    mutating func warn(_ code: AAMVAWarning.Code, _ message: String, at index: Int?) {
        warnings.append(AAMVAWarning(code, message, offset: index.map(originalOffset)))
    }

    /// Bytes 0x80–0x9F are C1 controls that no AAMVA element holds; they come from scanners and
    /// from payloads re-encoded as UTF-8 (`C2 90`). Dropped with one warning at the first.
    private mutating func removeStrayControlBytes() {
        // Most payloads are ASCII: look for any byte ≥ 0x80, eight at a time.
        let hasHighBytes = data.withUnsafeBytes { raw -> Bool in
            var i = 0
            while i + 8 <= raw.count {
                if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return true }
                i += 8
            }
            while i < raw.count { if raw[i] >= 0x80 { return true }; i += 1 }
            return false
        }
        guard hasHighBytes, data.contains(where: { $0 >= 0x80 && $0 <= 0x9F }) else { return }
        var cleaned: [UInt8] = []
        var map: [Int32] = []
        cleaned.reserveCapacity(data.count)
        map.reserveCapacity(data.count)
        var first: Int?
        var count = 0
        var i = 0
        while i < data.count {
            let b = data[i]
            if b == 0xC2, i + 1 < data.count, data[i + 1] >= 0x80, data[i + 1] <= 0x9F {
                first = first ?? i; count += 1; i += 2; continue
            }
            if b >= 0x80, b <= 0x9F {
                first = first ?? i; count += 1; i += 1; continue
            }
            cleaned.append(b)
            map.append(Int32(i))
            i += 1
        }
        data = cleaned
        origin = map
        warnings.append(AAMVAWarning(.strayControlBytes,
                                     "\(count) stray C1 control byte(s) (0x80–0x9F) dropped", offset: first))
    }

    mutating func read() throws(AAMVAError) -> AAMVAPayload {
        if let header = try readHeader() {
            return try readLayout(header)
        }
        if let stripe = MagneticStripeReader(data: data).read() {
            warn(.magneticStripe, "the payload is magnetic-stripe track data, not the PDF417 layout", at: 0)
            var payload = stripe
            payload.warnings = warnings + payload.warnings
            return payload
        }
        throw AAMVAError(.notAAMVA, offset: 0,
                         "no AAMVA header (\"@\" then \"ANSI \" or \"AAMVA\", IIN and version) and no magnetic-stripe tracks")
    }
}

// MARK: - Header (Annex D, D.12.3)

struct Header {
    var complianceIndex: Int
    var elementSeparator: UInt8
    var segmentTerminator: UInt8
    var fileType: String
    var iin: String
    var version: Int
    var jurisdictionVersion: Int?
    var entries: Int
    var designators: [(type: String, offset: Int?, length: Int?, at: Int)]
    var designatorStart: Int
    var endOfHeader: Int
}

extension PayloadReader {
    private func find(_ needle: StaticString, from: Int, to: Int) -> Int? {
        let n = needle.utf8CodeUnitCount
        guard n <= data.count else { return nil }
        let last = min(to, data.count - n)
        guard from <= last else { return nil }
        return needle.withUTF8Buffer { pattern -> Int? in
            data.withUnsafeBufferPointer { d -> Int? in
                var i = from
                outer: while i <= last {
                    for k in 0..<n where d[i + k] != pattern[k] { i += 1; continue outer }
                    return i
                }
                return nil
            }
        }
    }

    private func digits(at index: Int, count: Int) -> Int? {
        guard index >= 0, index + count <= data.count else { return nil }
        var value = 0
        for k in 0..<count {
            let b = data[index + k]
            guard Byte.isDigit(b) else { return nil }
            value = value * 10 + Int(b - 0x30)
        }
        return value
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: data[range], as: UTF8.self)
    }

    /// A subfile designator: two letters, then offset and length as four digits each.
    private func looksLikeDesignator(at i: Int) -> Bool {
        guard i + 10 <= data.count, Byte.isUpper(data[i]), Byte.isUpperOrDigit(data[i + 1]) else { return false }
        return digits(at: i + 2, count: 8) != nil
    }

    /// File types, in the order they are looked for; "ANSI" without its space counts only before a digit.
    private static let fileTypes: [StaticString] = ["ANSI ", "AAMVA", "AMVA ", "ANSI"]

    /// Finds and reads the header; `nil` when the payload has no AAMVA header at all.
    mutating func readHeader() throws(AAMVAError) -> Header? {
        let window = min(data.count, 96)
        var typeIndex: Int?
        var typeLength = 5
        for (n, candidate) in Self.fileTypes.enumerated() {
            if let i = find(candidate, from: 0, to: window) {
                // "ANSI" without its space only counts when digits follow.
                if n == 3 && !(i + 4 < data.count && Byte.isDigit(data[i + 4])) { continue }
                typeIndex = i
                typeLength = candidate.utf8CodeUnitCount
                break
            }
        }
        guard let p = typeIndex else { return nil }
        let fileType = string(p..<p + typeLength)
        if fileType != "ANSI " && fileType != "AAMVA" {
            warn(.nonStandardFileType, "file type \"\(fileType)\" is neither \"ANSI \" nor \"AAMVA\"", at: p)
        }

        // The compliance indicator and the three separators before the file type.
        var at = -1
        var k = p - 1
        while k >= 0 { if data[k] == Byte.at { at = k; break }; k -= 1 }
        var elementSeparator = Byte.lf
        var terminator = Byte.cr
        if at < 0 {
            warn(.leadingJunk, "no \"@\" compliance indicator before the file type", at: 0)
            at = max(0, p - 4)
        } else {
            if at > 0 { warn(.leadingJunk, "\(at) byte(s) before the \"@\" compliance indicator", at: 0) }
            let standard = p - at == 4 && data[at + 1] == Byte.lf && data[at + 2] == Byte.rs && data[at + 3] == Byte.cr
            let separators = standard ? [] : Array(data[(at + 1)..<p])
            if standard {
                // The standard header (checked without making an array: the common case).
            } else if separators == [Byte.lf, Byte.cr] {
                warn(.missingRecordSeparator, "the header has no record separator (0x1E) between LF and CR", at: at + 1)
            } else if separators == [Byte.lf, Byte.fs, Byte.cr] {
                warn(.fileSeparatorInHeader, "the header has a file separator (0x1C) where the record separator (0x1E) belongs", at: at + 2)
            } else if separators == [Byte.lf, Byte.rs, Byte.lf] || separators == [Byte.lf, Byte.lf] {
                warn(.carriageReturnsLost, "the header's CR became LF: carriage returns were lost", at: at + 1)
                terminator = Byte.lf
            } else if separators.count == 3, !Byte.isUpperOrDigit(separators[0]), separators[0] >= 0x20 {
                // Printable separators (a piped payload): use what the header declares.
                elementSeparator = separators[0]
                terminator = separators[2]
                warn(.nonStandardSeparators, "the header declares separators \(separators.map(hex)) instead of LF, RS, CR", at: at + 1)
            } else {
                warn(.nonStandardSeparators, "the header has \(separators.map(hex)) between \"@\" and the file type instead of LF, RS, CR", at: at + 1)
            }
        }

        let q = p + typeLength
        guard q + 8 <= data.count else {
            throw AAMVAError(.invalidHeader, offset: originalOffset(min(q, data.count)), "the header ends before the IIN and version")
        }
        guard digits(at: q, count: 6) != nil else {
            throw AAMVAError(.invalidHeader, offset: originalOffset(q), "the IIN (6 digits) is expected after the file type; found \(quote(q, 6))")
        }
        let iin = string(q..<q + 6)
        guard let version = digits(at: q + 6, count: 2) else {
            throw AAMVAError(.invalidHeader, offset: originalOffset(q + 6), "the AAMVA version (2 digits) is expected after the IIN; found \(quote(q + 6, 2))")
        }
        if version > 11 { warn(.unknownVersion, "AAMVA version \(version) is not defined (the latest is 11, 2025); read as version 11", at: q + 6) }

        // Version 01 (and 00) headers have no jurisdiction version; trust the data over the number.
        let withJurisdiction = looksLikeDesignator(at: q + 12) && digits(at: q + 8, count: 4) != nil
        let without = looksLikeDesignator(at: q + 10) && digits(at: q + 8, count: 2) != nil
        var jurisdictionVersion: Int?
        var designatorStart: Int
        var entries: Int
        if version <= 1 {
            if without || !withJurisdiction {
                designatorStart = q + 10; entries = digits(at: q + 8, count: 2) ?? 0
            } else {
                jurisdictionVersion = digits(at: q + 8, count: 2)
                designatorStart = q + 12; entries = digits(at: q + 10, count: 2) ?? 0
                warn(.jurisdictionVersionMismatch, "version \(version) header carries a jurisdiction version", at: q + 8)
            }
        } else {
            if withJurisdiction || !without {
                jurisdictionVersion = digits(at: q + 8, count: 2)
                designatorStart = q + 12; entries = digits(at: q + 10, count: 2) ?? 0
                if jurisdictionVersion == nil {
                    warn(.invalidValue, "the jurisdiction version is not two digits: \(quote(q + 8, 2))", at: q + 8)
                }
            } else {
                designatorStart = q + 10; entries = digits(at: q + 8, count: 2) ?? 0
                warn(.jurisdictionVersionMismatch, "version \(version) header has no jurisdiction version", at: q + 8)
            }
        }

        var designators: [(type: String, offset: Int?, length: Int?, at: Int)] = []
        designators.reserveCapacity(4)
        var d = designatorStart
        let wanted = max(entries, 1)
        while designators.count < min(wanted, 16), d + 10 <= data.count {
            guard Byte.isUpper(data[d]), Byte.isUpperOrDigit(data[d + 1]) else { break }
            let type = string(d..<d + 2)
            let offset = digits(at: d + 2, count: 4)
            let length = digits(at: d + 6, count: 4)
            if offset == nil || length == nil {
                // A damaged designator ("DLabac"): its type still tells what to look for.
                if !(type == "DL" || type == "ID" || type.hasPrefix("Z")) { break }
                warn(.invalidDesignator, "subfile designator \(quote(d, 10)) has no numeric offset and length", at: d)
            }
            designators.append((type, offset, length, d))
            d += 10
        }
        if designators.count != entries {
            warn(.entryCountMismatch, "the header declares \(entries) entr\(entries == 1 ? "y" : "ies") but \(designators.count) designator(s) were found", at: designatorStart - 2)
        }
        return Header(complianceIndex: at, elementSeparator: elementSeparator, segmentTerminator: terminator,
                      fileType: fileType, iin: iin, version: version, jurisdictionVersion: jurisdictionVersion,
                      entries: entries, designators: designators, designatorStart: designatorStart, endOfHeader: d)
    }

    private func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 15)])
    }

    func quote(_ i: Int, _ n: Int) -> String {
        let end = min(data.count, i + n)
        guard i < end else { return "the end of the payload" }
        let text = data[i..<end].map { b -> String in
            (b >= 0x20 && b < 0x7F) ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16, uppercase: true)
        }.joined()
        return "\"\(text)\""
    }
}

// MARK: - Subfiles and elements

extension PayloadReader {
    /// Where the elements begin when a subfile of `type` plausibly starts at `i`: the type, an
    /// optional separator, then an element identifier (`DAQ`, `DCA`, ... for DL/ID; the subfile's
    /// own letters for jurisdiction subfiles). `nil` when no subfile starts there.
    private func subfileContent(_ type: [UInt8], at i: Int) -> Int? {
        guard i >= 0, i + 5 <= data.count, data[i] == type[0], data[i + 1] == type[1] else { return nil }
        var c = i + 2
        if data[c] == Byte.lf || data[c] == Byte.cr { c += 1 }
        guard c + 3 <= data.count else { return nil }
        return isElementStart(at: c, subfileType: type) ? c : nil
    }

    private func isElementStart(at c: Int, subfileType type: [UInt8]) -> Bool {
        guard c >= 0, c + 3 <= data.count else { return false }
        if type[0] == UInt8(ascii: "Z") {
            return data[c] == type[0] && data[c + 1] == type[1] && Byte.isUpperOrDigit(data[c + 2])
        }
        return AAMVAElementCatalog.allCodes.contains(ElementTable.code(data[c], data[c + 1], data[c + 2]))
    }

    mutating func readLayout(_ header: Header) throws(AAMVAError) -> AAMVAPayload {
        // Locate every designated subfile: at its offset, near it, or anywhere after the header.
        var starts: [(index: Int, content: Int, type: String, designator: Int)] = []
        starts.reserveCapacity(header.designators.count)
        let searchFrom = header.designatorStart + 2
        for (n, designator) in header.designators.enumerated() {
            let type = Array(designator.type.utf8)
            let expected = designator.offset.map { header.complianceIndex + $0 }
            var found: (Int, Int)?
            if let e = expected, let c = subfileContent(type, at: e) {
                found = (e, c)
            } else {
                var candidates: [Int] = []
                if let e = expected {
                    for delta in 1...12 { candidates.append(e - delta); candidates.append(e + delta) }
                }
                for i in candidates where i >= searchFrom {
                    if let c = subfileContent(type, at: i) { found = (i, c); break }
                }
                if found == nil {
                    var i = searchFrom
                    while i + 5 <= data.count {
                        if let c = subfileContent(type, at: i), !starts.contains(where: { $0.index == i }) { found = (i, c); break }
                        i += 1
                    }
                }
                // Some version 01 cards (Connecticut, West Virginia) leave out the subfile type:
                // the first element follows the designators directly.
                if found == nil, n == 0, !designator.type.hasPrefix("Z"),
                   isElementStart(at: header.endOfHeader, subfileType: type) {
                    found = (header.endOfHeader, header.endOfHeader)
                    warn(.subfileOffsetWrong, "subfile \(designator.type) has no \"\(designator.type)\" type before its first element", at: header.endOfHeader)
                } else if let (f, _) = found {
                    if let e = expected {
                        let delta = f - e
                        warn(.subfileOffsetWrong, "subfile \(designator.type) is designated at offset \(designator.offset!) but starts at \(f - header.complianceIndex) (\(delta > 0 ? "+" : "")\(delta))", at: designator.at)
                    }
                } else {
                    warn(.subfileMissing, "subfile \(designator.type) designated in the header was not found", at: designator.at)
                }
            }
            if let (f, c) = found { starts.append((f, c, designator.type, n)) }
        }
        // Without designators (or when none was found), the first DL/ID subfile after the header.
        if starts.isEmpty {
            for type in ["DL", "ID"] {
                var i = searchFrom
                while i + 5 <= data.count, subfileContent(Array(type.utf8), at: i) == nil { i += 1 }
                if let c = subfileContent(Array(type.utf8), at: i) { starts.append((i, c, type, -1)); break }
            }
            if starts.isEmpty, isElementStart(at: header.endOfHeader, subfileType: Array("DL".utf8)) {
                starts.append((header.endOfHeader, header.endOfHeader, "DL", -1))
            }
        }
        guard !starts.isEmpty else {
            throw AAMVAError(.noElements, offset: originalOffset(header.endOfHeader), "no DL, ID or jurisdiction subfile follows the header")
        }

        var raws: [AAMVAContent.RawSubfile] = []
        raws.reserveCapacity(starts.count)
        var sawCRLF = false
        var sawWedge = false
        for (index, content, type, designatorNumber) in starts {
            var nextStart = data.count
            for other in starts where other.index > index && other.index < nextStart { nextStart = other.index }
            let designator = designatorNumber >= 0 ? header.designators[designatorNumber] : nil
            let (table, end) = readElements(from: content, to: nextStart, header: header, subfileType: type,
                                            sawCRLF: &sawCRLF, sawWedge: &sawWedge)
            if let length = designator?.length, designator?.offset != nil {
                let actual = end - index
                // The designated length may or may not count the terminator; both are accepted.
                if abs(actual - length) > 1 {
                    warn(.subfileLengthWrong, "subfile \(type) is designated \(length) bytes long but is \(actual)", at: designator!.at + 6)
                }
            }
            raws.append(AAMVAContent.RawSubfile(type: type, designatedOffset: designator?.offset, designatedLength: designator?.length,
                                                offset: originalOffset(index), table: table))
        }
        if sawCRLF { warn(.crlfLineEnds, "elements end in CR LF: the scanner rewrote the line ends", at: nil) }
        if raws.allSatisfy({ $0.table.count == 0 }) {
            throw AAMVAError(.noElements, offset: originalOffset(starts[0].index), "the subfiles hold no data elements")
        }

        let jurisdiction = AAMVAJurisdiction.forIIN(header.iin)
        if jurisdiction == nil { warn(.unknownIIN, "IIN \(header.iin) is not assigned to a jurisdiction", at: nil) }
        let primary = AAMVASubfile.primaryIndex(ofTypes: raws.map(\.type))
        if let primary { checkMandatory(version: header.version, subfile: raws[primary].type, table: raws[primary].table) }
        let interpreter = FieldInterpreter(table: primary.map { raws[$0].table } ?? ElementTable(bytes: []),
                                           version: header.version, subfileType: primary.map { raws[$0].type },
                                           jurisdiction: jurisdiction)
        interpreter.validate()
        let content = AAMVAContent(raw: raws, primary: primary, version: header.version,
                                   primaryType: primary.map { raws[$0].type }, jurisdiction: jurisdiction)
        return AAMVAPayload(encoding: .pdf417, fileType: header.fileType, version: header.version,
                            jurisdictionVersion: header.jurisdictionVersion, iin: header.iin, jurisdiction: jurisdiction,
                            country: interpreter.country, numberOfEntries: header.entries,
                            warnings: warnings + interpreter.warnings, content: content)
    }

    private mutating func checkMandatory(version: Int, subfile: String, table: ElementTable) {
        for (id, code) in AAMVAElementCatalog.mandatoryCodes(version: min(version, 11), subfile: subfile)
        where table.index(code) == nil {
            // (The name is looked up only for the warning.)
            let name = AAMVAElementCatalog.name(of: id, version: version) ?? id
            warnings.append(AAMVAWarning(.mandatoryElementMissing, "\(id) (\(name)) is mandatory in version \(version) but absent", offset: nil))
        }
        if version == 1, table.index(ElementTable.code("DAA")) == nil, table.index(ElementTable.code("DAB")) == nil {
            warnings.append(AAMVAWarning(.mandatoryElementMissing, "DAA (Driver license name) is mandatory in version 1 (or DAB/DAC) but absent", offset: nil))
        }
    }

    /// Splits a subfile's bytes into elements. Separators: the declared element separator, LF,
    /// and CR (a CR LF pair is one separator). A CR not followed by LF ends the subfile.
    private mutating func readElements(from start: Int, to limit: Int, header: Header, subfileType: String,
                                       sawCRLF: inout Bool, sawWedge: inout Bool) -> (ElementTable, Int) {
        // Pass 1: token boundaries (cheap byte scan, no allocation beyond one array).
        var bounds: [Int] = []       // start, end, start, end, ...
        bounds.reserveCapacity(96)
        var end = limit
        let separator = header.elementSeparator
        let otherTerminator = header.segmentTerminator != Byte.cr && header.segmentTerminator != separator
            ? header.segmentTerminator : Byte.cr
        data.withUnsafeBufferPointer { d in
            var tokenStart = start
            var i = start
            while i < limit {
                let b = d[i]
                if b > 0x1E && b != separator {                        // the common case: a value byte
                    i += 1
                    if separator <= 0x1E {
                        // Skip eight value bytes at a time while none is a control byte (< 0x1F).
                        let raw = UnsafeRawPointer(d.baseAddress!)
                        while i + 8 <= limit {
                            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                            if (word &- 0x1F1F_1F1F_1F1F_1F1F) & ~word & 0x8080_8080_8080_8080 != 0 { break }
                            i += 8
                        }
                    }
                    while i < limit, d[i] > 0x1E, d[i] != separator { i += 1 }
                    continue
                }
                if b == Byte.cr {
                    bounds.append(tokenStart); bounds.append(i)
                    if i + 1 < limit, d[i + 1] == Byte.lf {
                        sawCRLF = true
                        i += 2; tokenStart = i; continue
                    }
                    end = i + 1; tokenStart = limit; break
                }
                if b == otherTerminator {
                    bounds.append(tokenStart); bounds.append(i); end = i + 1; tokenStart = limit; break
                }
                if b == separator || b == Byte.lf || b == Byte.rs {
                    bounds.append(tokenStart); bounds.append(i)
                    i += 1; tokenStart = i; continue
                }
                i += 1
            }
            if tokenStart < min(limit, end) { bounds.append(tokenStart); bounds.append(min(limit, end)) }
        }

        // Pass 2: elements.
        let tokenCount = bounds.count / 2
        var table = ElementTable(bytes: data, capacity: tokenCount)
        let isJurisdiction = subfileType.hasPrefix("Z")
        // A keyboard wedge leaves one long token; a long address is not a reason to split.
        let wedgeSuspected = !isJurisdiction && tokenCount <= 3
        // The payload's bytes are borrowed once; problems are collected and reported after the
        // loop (reporting needs `self` mutable).
        var notElements: [Range<Int>] = []
        var repeated: [Int] = []
        let origin = self.origin
        let version = min(max(header.version, 1), 11)
        data.withUnsafeBufferPointer { d in
            for k in 0..<tokenCount {
                var lo = bounds[2 * k]
                let hi = bounds[2 * k + 1]
                // Drop spaces that some printers put after a separator (indented sample files).
                while lo < hi, d[lo] == Byte.space { lo += 1 }
                guard lo < hi else { continue }
                guard hi - lo >= 3, Byte.isUpper(d[lo]), Byte.isUpperOrDigit(d[lo + 1]), Byte.isUpperOrDigit(d[lo + 2]) else {
                    notElements.append(lo..<hi)
                    continue
                }
                if wedgeSuspected, hi - lo > 24, let cuts = Self.wedgeCuts(d, lo..<hi, version: version) {
                    sawWedge = true
                    for (n, c) in cuts.enumerated() {
                        Self.record(d, c..<(n + 1 < cuts.count ? cuts[n + 1] : hi), origin: origin, into: &table, repeated: &repeated)
                    }
                } else {
                    Self.record(d, lo..<hi, origin: origin, into: &table, repeated: &repeated)
                }
            }
        }
        for r in notElements {
            warn(.unexpectedData, "skipped \(quote(r.lowerBound, min(r.count, 20))) which is not an element (identifier of 3 letters then the value)", at: r.lowerBound)
        }
        for p in repeated {
            warn(.duplicateElement, "element \(string(p..<p + 3)) appears again; the first is used", at: p)
        }
        if sawWedge, !warnings.contains(where: { $0.code == .separatorsMissing }) {
            warn(.separatorsMissing, "elements are not separated (keyboard wedge?); split on known element identifiers", at: start)
        }
        return (table, end)
    }

    /// Records one element (identifier and value range); a repeated identifier is noted.
    @inline(__always) private static func record(_ d: UnsafeBufferPointer<UInt8>, _ piece: Range<Int>, origin: [Int32],
                                                 into table: inout ElementTable, repeated: inout [Int]) {
        let lo = piece.lowerBound
        let code = ElementTable.code(d[lo], d[lo + 1], d[lo + 2])
        if table.index(code) != nil { repeated.append(lo) }
        table.append(code: code, value: (lo + 3)..<piece.upperBound, offset: origin.isEmpty ? lo : Int(origin[lo]))
    }

    /// Splits a run of elements that lost their separators, at identifiers the standard defines
    /// that have not appeared yet in the run (so a value such as "DAKOTA" is split at most once).
    private static func wedgeCuts(_ d: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, version: Int) -> [Int]? {
        var cuts = [range.lowerBound]
        var seen: Set<UInt32> = [ElementTable.code(d[range.lowerBound], d[range.lowerBound + 1], d[range.lowerBound + 2])]
        var i = range.lowerBound + 3
        while i + 3 <= range.upperBound {
            if d[i] == UInt8(ascii: "D") || d[i] == UInt8(ascii: "P"), Byte.isUpper(d[i + 1]), Byte.isUpper(d[i + 2]) {
                let code = ElementTable.code(d[i], d[i + 1], d[i + 2])
                if AAMVAElementCatalog.isDefined(code, version: version), !seen.contains(code) {
                    cuts.append(i); seen.insert(code); i += 3; continue
                }
            }
            i += 1
        }
        return cuts.count > 1 ? cuts : nil
    }

}
