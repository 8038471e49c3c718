internal import IDKitCore

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

    func string(_ range: Range<Int>) -> String {
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
        } else if !withJurisdiction, !without, digits(at: q + 8, count: 3) != nil, looksLikeDesignator(at: q + 11) {
            // The number of entries written with one digit ("…09011ID0041…"): a slip some
            // encoders make; the designators still follow.
            jurisdictionVersion = digits(at: q + 8, count: 2)
            designatorStart = q + 11; entries = digits(at: q + 10, count: 1) ?? 0
            warn(.invalidValue, "the number of entries is written with one digit (\(quote(q + 10, 1))) instead of two", at: q + 10)
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
