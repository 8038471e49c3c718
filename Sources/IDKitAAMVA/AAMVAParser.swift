internal import IDKitCore

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

/// A subfile's two-letter type (`DL`, `ID`, `Z?`) as bytes: compared without making Strings.
struct SubfileType: Equatable {
    var first: UInt8
    var second: UInt8

    static let dl = SubfileType(first: UInt8(ascii: "D"), second: UInt8(ascii: "L"))
    static let id = SubfileType(first: UInt8(ascii: "I"), second: UInt8(ascii: "D"))

    /// A jurisdiction subfile (`Z?`), whose elements are the jurisdiction's own.
    var isJurisdiction: Bool { first == UInt8(ascii: "Z") }

    /// The type as text (a small String: no allocation).
    var string: String {
        String(unsafeUninitializedCapacity: 2) { buffer in
            buffer[0] = first
            buffer[1] = second
            return 2
        }
    }
}

/// A subfile designator of the header (D.12.3): type, offset and length as read (`nil` when not
/// four digits), and where the designator itself stands.
struct Designator {
    var type: SubfileType
    var offset: Int?
    var length: Int?
    var at: Int
}

struct Header {
    /// More designators than this are not read (no card has more than four subfiles).
    static let maximumDesignators = 16

    var complianceIndex: Int
    var elementSeparator: UInt8
    var segmentTerminator: UInt8
    var fileType: String
    var iin: String
    /// The jurisdiction the IIN is assigned to.
    var jurisdiction: AAMVAJurisdiction?
    var version: Int
    var jurisdictionVersion: Int?
    var entries: Int
    var designators: [Designator] = []
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
        var typeNumber: Int?
        var typeLength = 5
        for (n, candidate) in Self.fileTypes.enumerated() {
            if let i = find(candidate, from: 0, to: window) {
                // "ANSI" without its space only counts when digits follow.
                if n == 3 && !(i + 4 < data.count && Byte.isDigit(data[i + 4])) { continue }
                typeIndex = i
                typeNumber = n
                typeLength = candidate.utf8CodeUnitCount
                break
            }
        }
        guard let p = typeIndex, let typeNumber else { return nil }
        // (The standard's two file types without making a String from the bytes.)
        let fileType = typeNumber == 0 ? "ANSI " : typeNumber == 1 ? "AAMVA" : string(p..<p + typeLength)
        if typeNumber > 1 {
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
        guard let iinNumber = digits(at: q, count: 6) else {
            throw AAMVAError(.invalidHeader, offset: originalOffset(q), "the IIN (6 digits) is expected after the file type; found \(quote(q, 6))")
        }
        let jurisdiction = AAMVAJurisdiction.forIIN(number: iinNumber)
        let iin = jurisdiction?.iin ?? string(q..<q + 6)
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

        var header = Header(complianceIndex: at, elementSeparator: elementSeparator, segmentTerminator: terminator,
                            fileType: fileType, iin: iin, jurisdiction: jurisdiction, version: version,
                            jurisdictionVersion: jurisdictionVersion,
                            entries: entries, designatorStart: designatorStart, endOfHeader: designatorStart)
        var d = designatorStart
        let wanted = min(max(entries, 1), Header.maximumDesignators)
        header.designators.reserveCapacity(wanted)
        while header.designators.count < wanted, d + 10 <= data.count {
            guard Byte.isUpper(data[d]), Byte.isUpperOrDigit(data[d + 1]) else { break }
            let type = SubfileType(first: data[d], second: data[d + 1])
            let offset = digits(at: d + 2, count: 4)
            let length = digits(at: d + 6, count: 4)
            if offset == nil || length == nil {
                // A damaged designator ("DLabac"): its type still tells what to look for.
                if !(type == .dl || type == .id || type.isJurisdiction) { break }
                warn(.invalidDesignator, "subfile designator \(quote(d, 10)) has no numeric offset and length", at: d)
            }
            header.designators.append(Designator(type: type, offset: offset, length: length, at: d))
            d += 10
        }
        header.endOfHeader = d
        if header.designators.count != entries {
            warn(.entryCountMismatch, "the header declares \(entries) entr\(entries == 1 ? "y" : "ies") but \(header.designators.count) designator(s) were found", at: designatorStart - 2)
        }
        return header
    }

    private func hex(_ b: UInt8) -> String { "0x" + Hex.encode(CollectionOfOne(b)) }

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

/// Where a designated subfile was found: its type's offset, where its elements begin, and which
/// designator (-1: none) announced it.
struct SubfileStart {
    var index: Int
    var content: Int
    var type: SubfileType
    var designator: Int
}

extension PayloadReader {
    /// Where the elements begin when a subfile of `type` plausibly starts at `i`: the type, an
    /// optional separator, then an element identifier (`DAQ`, `DCA`, ... for DL/ID; the subfile's
    /// own letters for jurisdiction subfiles). `nil` when no subfile starts there.
    private func subfileContent(_ type: SubfileType, at i: Int) -> Int? {
        guard i >= 0, i + 5 <= data.count, data[i] == type.first, data[i + 1] == type.second else { return nil }
        var c = i + 2
        if data[c] == Byte.lf || data[c] == Byte.cr { c += 1 }
        guard c + 3 <= data.count else { return nil }
        return isElementStart(at: c, subfileType: type) ? c : nil
    }

    private func isElementStart(at c: Int, subfileType type: SubfileType) -> Bool {
        guard c >= 0, c + 3 <= data.count else { return false }
        if type.isJurisdiction {
            return data[c] == type.first && data[c + 1] == type.second && Byte.isUpperOrDigit(data[c + 2])
        }
        return AAMVAElementCatalog.allCodes.contains(ElementTable.code(data[c], data[c + 1], data[c + 2]))
    }

    /// Finds designator `n`'s subfile: at its offset, near it (±12 bytes), or anywhere after the
    /// header; warns when it is not where the header says.
    private mutating func locate(_ designator: Designator, number n: Int, header: Header,
                                 besides found: [SubfileStart]) -> SubfileStart? {
        let type = designator.type
        let searchFrom = header.designatorStart + 2
        let expected = designator.offset.map { header.complianceIndex + $0 }
        if let e = expected, let c = subfileContent(type, at: e) {
            return SubfileStart(index: e, content: c, type: type, designator: n)
        }
        var start: SubfileStart?
        if let e = expected {
            for k in 0..<24 {
                let i = k & 1 == 0 ? e - (k / 2 + 1) : e + (k / 2 + 1)
                if i >= searchFrom, let c = subfileContent(type, at: i) {
                    start = SubfileStart(index: i, content: c, type: type, designator: n)
                    break
                }
            }
        }
        if start == nil {
            var i = searchFrom
            search: while i + 5 <= data.count {
                if let c = subfileContent(type, at: i) {
                    if !found.contains(where: { $0.index == i }) { start = SubfileStart(index: i, content: c, type: type, designator: n); break search }
                }
                i += 1
            }
        }
        let name = type.string
        if start == nil, n == 0, !type.isJurisdiction, isElementStart(at: header.endOfHeader, subfileType: type) {
            // Some version 01 cards (Connecticut, West Virginia) leave out the subfile type:
            // the first element follows the designators directly.
            warn(.subfileOffsetWrong, "subfile \(name) has no \"\(name)\" type before its first element", at: header.endOfHeader)
            return SubfileStart(index: header.endOfHeader, content: header.endOfHeader, type: type, designator: n)
        }
        if let start {
            if let e = expected {
                let delta = start.index - e
                warn(.subfileOffsetWrong, "subfile \(name) is designated at offset \(designator.offset!) but starts at \(start.index - header.complianceIndex) (\(delta > 0 ? "+" : "")\(delta))", at: designator.at)
            }
        } else {
            warn(.subfileMissing, "subfile \(name) designated in the header was not found", at: designator.at)
        }
        return start
    }

    mutating func readLayout(_ header: Header) throws(AAMVAError) -> AAMVAPayload {
        // Locate every designated subfile.
        var starts: [SubfileStart] = []
        starts.reserveCapacity(max(1, header.designators.count))
        for (n, designator) in header.designators.enumerated() {
            if let start = locate(designator, number: n, header: header, besides: starts) { starts.append(start) }
        }
        // Without designators (or when none was found), the first DL/ID subfile after the header.
        if starts.isEmpty {
            let searchFrom = header.designatorStart + 2
            search: for type in [SubfileType.dl, .id] {
                var i = searchFrom
                while i + 5 <= data.count {
                    if let c = subfileContent(type, at: i) {
                        starts.append(SubfileStart(index: i, content: c, type: type, designator: -1))
                        break search
                    }
                    i += 1
                }
            }
            if starts.isEmpty, isElementStart(at: header.endOfHeader, subfileType: .dl) {
                starts.append(SubfileStart(index: header.endOfHeader, content: header.endOfHeader, type: .dl, designator: -1))
            }
        }
        guard !starts.isEmpty else {
            throw AAMVAError(.noElements, offset: originalOffset(header.endOfHeader), "no DL, ID or jurisdiction subfile follows the header")
        }

        var raws: [AAMVAContent.RawSubfile] = []
        raws.reserveCapacity(starts.count)
        var sawCRLF = false
        var sawWedge = false
        for start in starts {
            var nextStart = data.count
            for other in starts where other.index > start.index && other.index < nextStart { nextStart = other.index }
            let designator = start.designator >= 0 ? header.designators[start.designator] : nil
            let (table, end) = readElements(from: start.content, to: nextStart, header: header, subfileType: start.type,
                                            sawCRLF: &sawCRLF, sawWedge: &sawWedge)
            if let designator, let length = designator.length, designator.offset != nil {
                let actual = end - start.index
                // The designated length may or may not count the terminator; both are accepted.
                if abs(actual - length) > 1 {
                    warn(.subfileLengthWrong, "subfile \(start.type.string) is designated \(length) bytes long but is \(actual)", at: designator.at + 6)
                }
            }
            raws.append(AAMVAContent.RawSubfile(type: start.type.string, designatedOffset: designator?.offset,
                                                designatedLength: designator?.length,
                                                offset: originalOffset(start.index), table: table))
        }
        if sawCRLF { warn(.crlfLineEnds, "elements end in CR LF: the scanner rewrote the line ends", at: nil) }
        if raws.allSatisfy({ $0.table.count == 0 }) {
            throw AAMVAError(.noElements, offset: originalOffset(starts[0].index), "the subfiles hold no data elements")
        }

        let primary = AAMVASubfile.primaryIndex(ofTypes: raws.lazy.map(\.type))
        // (The jurisdiction is a struct of four Strings: copied once, into the payload.)
        let iinCountry = header.jurisdiction?.country
        if iinCountry == nil { warn(.unknownIIN, "IIN \(header.iin) is not assigned to a jurisdiction", at: nil) }
        if let primary { checkMandatory(version: header.version, isDL: raws[primary].type == "DL", table: raws[primary].table) }
        let primaryType = primary.map { raws[$0].type }
        var interpreter = FieldInterpreter(table: primary.map { raws[$0].table } ?? ElementTable.empty,
                                           version: header.version, subfileType: primaryType, iinCountry: iinCountry)
        interpreter.validate()
        let content = AAMVAContent(raw: raws, primary: primary, version: header.version,
                                   primaryType: primaryType, iinCountry: iinCountry)
        return AAMVAPayload(encoding: .pdf417, fileType: header.fileType, version: header.version,
                            jurisdictionVersion: header.jurisdictionVersion, iin: header.iin, jurisdiction: header.jurisdiction,
                            country: interpreter.country, numberOfEntries: header.entries,
                            warnings: interpreter.warnings.isEmpty ? warnings : warnings + interpreter.warnings,
                            content: content)
    }

    private mutating func checkMandatory(version: Int, isDL: Bool, table: ElementTable) {
        for code in AAMVAElementCatalog.mandatoryCodes(version: min(version, 11), isDL: isDL)
        where table.index(code) == nil {
            // The identifier and its name are made only for the warning.
            let id = ElementTable.identifier(of: code)
            let name = AAMVAElementCatalog.name(of: id, version: version) ?? id
            warnings.append(AAMVAWarning(.mandatoryElementMissing, "\(id) (\(name)) is mandatory in version \(version) but absent", offset: nil))
        }
        if version == 1, table.index(ElementTable.code("DAA")) == nil, table.index(ElementTable.code("DAB")) == nil {
            warnings.append(AAMVAWarning(.mandatoryElementMissing, "DAA (Driver license name) is mandatory in version 1 (or DAB/DAC) but absent", offset: nil))
        }
    }

    /// Splits a subfile's bytes into elements, in one pass. Separators: the declared element
    /// separator, LF, RS and CR (a CR LF pair is one separator). A CR not followed by LF, or the
    /// declared segment terminator, ends the subfile. Returns the elements and the subfile's end.
    private mutating func readElements(from start: Int, to limit: Int, header: Header, subfileType: SubfileType,
                                       sawCRLF: inout Bool, sawWedge: inout Bool) -> (ElementTable, Int) {
        let separator = header.elementSeparator
        let terminator = header.segmentTerminator != Byte.cr && header.segmentTerminator != separator
            ? header.segmentTerminator : Byte.cr
        let origin = self.origin
        let version = min(max(header.version, 1), 11)
        let bytes = data
        var splitter = ElementSplitter(origin: origin)
        let table = data.withUnsafeBufferPointer { d -> ElementTable in
            // An element takes at least four bytes (identifier and separator): room for all.
            let table = ElementTable(bytes: bytes, capacity: (limit - start) / 4 + 2) { writer in
                splitter.split(d, from: start, to: limit, separator: separator, terminator: terminator, into: &writer)
            }
            // A keyboard wedge leaves one long token (a long address alone is not a reason to split).
            guard !subfileType.isJurisdiction, let plan = splitter.wedgePlan(d, version: version) else { return table }
            return ElementTable(bytes: bytes, capacity: plan.reduce(0) { $0 + ($1?.count ?? 1) }) { writer in
                splitter.splitWedge(d, plan: plan, into: &writer)
            }
        }
        sawCRLF = sawCRLF || splitter.sawCRLF
        sawWedge = sawWedge || splitter.sawWedge
        for r in splitter.notElements {
            warn(.unexpectedData, "skipped \(quote(r.lowerBound, min(r.count, 20))) which is not an element (identifier of 3 letters then the value)", at: r.lowerBound)
        }
        for p in splitter.repeated {
            warn(.duplicateElement, "element \(string(p..<p + 3)) appears again; the first is used", at: p)
        }
        if sawWedge, !warnings.contains(where: { $0.code == .separatorsMissing }) {
            warn(.separatorsMissing, "elements are not separated (keyboard wedge?); split on known element identifiers", at: start)
        }
        return (table, splitter.end)
    }
}

/// One pass over one subfile's bytes: tokens between separators, each an identifier of three
/// characters and its value, written into an `ElementTable` being made. Problems are collected
/// for the reader to report.
private struct ElementSplitter {
    let origin: [Int32]
    var notElements: [Range<Int>] = []
    var repeated: [Int] = []
    /// The first tokens, kept so that a keyboard-wedge subfile (one to three long tokens) can be
    /// split afterwards.
    var firstTokens = InlineArray<4, Range<Int>>(repeating: 0..<0)
    var tokenCount = 0
    var end = 0
    var sawCRLF = false
    var sawWedge = false

    init(origin: [Int32]) {
        self.origin = origin
    }

    mutating func split(_ d: UnsafeBufferPointer<UInt8>, from start: Int, to limit: Int, separator: UInt8, terminator: UInt8,
                        into table: inout ElementTable.Writer) {
        end = limit
        var tokenStart = start
        var i = start
        guard let raw = d.baseAddress.map(UnsafeRawPointer.init) else { return }
        let controlSeparator = separator <= 0x1E
        while i < limit {
            // Skip the value bytes (≥ 0x1F and not the separator) to the next byte that matters.
            if controlSeparator {
                // Eight bytes at a time: the lowest byte below 0x1F is exactly the first set bit
                // of (w - 0x1F…) & ~w & 0x80… (a borrow can only mark bytes above it).
                while i + 8 <= limit {
                    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    let control = (word &- 0x1F1F_1F1F_1F1F_1F1F) & ~word & 0x8080_8080_8080_8080
                    if control != 0 { i += control.trailingZeroBitCount >> 3; break }
                    i += 8
                }
                while i < limit, d[i] > 0x1E { i += 1 }
            } else {
                while i < limit, d[i] > 0x1E, d[i] != separator { i += 1 }
            }
            guard i < limit else { break }
            let b = d[i]
            if b == Byte.cr {
                token(d, tokenStart, i, into: &table)
                if i + 1 < limit, d[i + 1] == Byte.lf {
                    sawCRLF = true
                    i += 2; tokenStart = i; continue
                }
                end = i + 1; tokenStart = limit; break
            }
            if b == terminator {
                token(d, tokenStart, i, into: &table); end = i + 1; tokenStart = limit; break
            }
            if b == separator || b == Byte.lf || b == Byte.rs {
                token(d, tokenStart, i, into: &table)
                i += 1; tokenStart = i; continue
            }
            i += 1
        }
        if tokenStart < min(limit, end) { token(d, tokenStart, min(limit, end), into: &table) }
    }

    @inline(__always) private mutating func token(_ d: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int,
                                                  into table: inout ElementTable.Writer) {
        if tokenCount < 4 { firstTokens[tokenCount] = lo..<hi }
        tokenCount += 1
        element(d, lo, hi, into: &table)
    }

    /// Leading spaces (indented sample files) dropped, then an identifier and the value.
    @inline(__always) private mutating func element(_ d: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int,
                                                    into table: inout ElementTable.Writer) {
        var lo = lo
        while lo < hi, d[lo] == Byte.space { lo += 1 }
        guard lo < hi else { return }
        guard Self.isIdentifier(d, lo, hi) else {
            notElements.append(lo..<hi)
            return
        }
        record(d, lo..<hi, into: &table)
    }

    @inline(__always) private static func isIdentifier(_ d: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Bool {
        hi - lo >= 3 && Byte.isUpper(d[lo]) && Byte.isUpperOrDigit(d[lo + 1]) && Byte.isUpperOrDigit(d[lo + 2])
    }

    /// Records one element (identifier and value range); a repeated identifier is noted.
    @inline(__always) private mutating func record(_ d: UnsafeBufferPointer<UInt8>, _ piece: Range<Int>,
                                                   into table: inout ElementTable.Writer) {
        let lo = piece.lowerBound
        let code = ElementTable.code(d[lo], d[lo + 1], d[lo + 2])
        if !table.append(code: code, value: (lo + 3)..<piece.upperBound, offset: origin.isEmpty ? lo : Int(origin[lo])) {
            repeated.append(lo)
        }
    }

    /// For a subfile of at most three tokens of which one is a run of elements that lost their
    /// separators (a keyboard wedge): where to cut each token (`nil`: as it is). `nil` otherwise.
    func wedgePlan(_ d: UnsafeBufferPointer<UInt8>, version: Int) -> [[Int]?]? {
        guard tokenCount <= 3 else { return nil }
        var plan: [[Int]?] = []
        for k in 0..<tokenCount {
            var lo = firstTokens[k].lowerBound
            let hi = firstTokens[k].upperBound
            while lo < hi, d[lo] == Byte.space { lo += 1 }
            plan.append(hi - lo > 24 && Self.isIdentifier(d, lo, hi) ? Self.wedgeCuts(d, lo..<hi, version: version) : nil)
        }
        return plan.contains { $0 != nil } ? plan : nil
    }

    /// Reads the subfile again by `plan` (from `wedgePlan`).
    mutating func splitWedge(_ d: UnsafeBufferPointer<UInt8>, plan: [[Int]?], into table: inout ElementTable.Writer) {
        sawWedge = true
        notElements.removeAll()
        repeated.removeAll()
        for (k, cuts) in plan.enumerated() {
            let hi = firstTokens[k].upperBound
            if let cuts {
                for (n, c) in cuts.enumerated() { record(d, c..<(n + 1 < cuts.count ? cuts[n + 1] : hi), into: &table) }
            } else {
                element(d, firstTokens[k].lowerBound, hi, into: &table)
            }
        }
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
