/// A minimal, fast JSON writer into a byte buffer, for streams of results where `JSONEncoder` would
/// cost more than the parse. Its output for ``MRZResult`` has the same keys and values as the
/// `Codable` encoding (tests compare the two).
public struct JSONWriter: Sendable {
    public var bytes: [UInt8] = []
    private var needsComma = false

    public init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Writes `"name":`; the value written next belongs to it.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func key(_ name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) { separate(); writeString(value); needsComma = true }
    public mutating func string(_ value: String?) { if let value { string(value) } else { null() } }
    public mutating func null() { separate(); literal("null"); needsComma = true }
    public mutating func bool(_ value: Bool) {
        separate()
        if value { literal("true") } else { literal("false") }
        needsComma = true
    }
    public mutating func int(_ value: Int) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(magnitude % 10) + 0x30
                magnitude /= 10
                n += 1
            } while magnitude > 0
            while n > 0 { n -= 1; bytes.append(d[n]) }
        }
        needsComma = true
    }
    /// Writes `"YYYY-MM-DD"` or `null`.
    public mutating func date(_ value: CalendarDate?) {
        guard let value else { null(); return }
        separate()
        bytes.append(UInt8(ascii: "\""))
        func two(_ v: Int) { bytes.append(UInt8(v / 10 % 10) + 0x30); bytes.append(UInt8(v % 10) + 0x30) }
        two(value.year / 100)
        two(value.year)
        bytes.append(UInt8(ascii: "-"))
        two(value.month)
        bytes.append(UInt8(ascii: "-"))
        two(value.day)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }
    /// A string whose bytes are known to need no escaping (the MRZ alphabet and spaces).
    public mutating func plainString(_ utf8: UnsafeBufferPointer<UInt8>) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: utf8)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }
    @inline(__always) private mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
    public mutating func int(_ value: Int?) { if let value { int(value) } else { null() } }
    /// A value already encoded as JSON.
    public mutating func raw(_ json: [UInt8]) { separate(); bytes.append(contentsOf: json); needsComma = true }
    public mutating func newline() { bytes.append(0x0A); needsComma = false }
    public mutating func reset() { bytes.removeAll(keepingCapacity: true); needsComma = false }

    @inline(__always) private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var clean = true
            for b in utf8 where b < 0x20 || b == 0x22 || b == 0x5C { clean = false; break }
            if clean { bytes.append(contentsOf: utf8); return }
            for b in utf8 {
                switch b {
                case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
                case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
                case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
                case ..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
                default: bytes.append(b)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension MRZResult {
    /// Writes the members of this result's JSON object (no braces), in contract order:
    /// `format, valid, validWithDeviations, fields, checkDigits, errors, warnings, deviations,
    /// resolvedDates, lines`.
    public func writeJSONMembers(to w: inout JSONWriter) {
        w.key("format"); w.string(format.rawValue)
        w.key("valid"); w.bool(isValid)
        w.key("validWithDeviations"); w.bool(isValidAcceptingDeviations)
        w.key("fields")
        switch storage {
        case .indexed(let index): MRZResult.withUTF8(text) { index.writeJSON(in: $0, to: &w) }
        case .explicit(let fields): fields.writeJSON(to: &w)
        }
        w.key("checkDigits"); checkDigits.writeJSON(to: &w)
        w.key("errors"); MRZIssue.writeJSON(errors, to: &w)
        w.key("warnings"); MRZIssue.writeJSON(warnings, to: &w)
        w.key("deviations"); MRZIssue.writeJSON(deviations, to: &w)
        w.key("resolvedDates")
        w.beginObject()
        w.key("dateOfBirth"); w.date(dateOfBirth)
        w.key("dateOfExpiry"); w.date(dateOfExpiry)
        w.endObject()
        w.key("lines")
        w.beginArray()
        MRZResult.withUTF8(text) { t in
            var start = 0
            for i in 0...t.count where i == t.count || t[i] == 0x0A {
                w.plainString(UnsafeBufferPointer(rebasing: t[start..<i]))
                start = i + 1
            }
        }
        w.endArray()
    }

    /// The members of the result object for text that could not be read as an MRZ: the same keys,
    /// with `format` and every field and check digit `null`, and the error in `errors`.
    public static func writeJSONMembers(for error: MRZError, lines: [String], to w: inout JSONWriter) {
        w.key("format"); w.null()
        w.key("valid"); w.bool(false)
        w.key("validWithDeviations"); w.bool(false)
        w.key("fields")
        w.beginObject()
        for key in MRZFields.CodingKeys.allCases { w.key(key.stringValue); w.null() }
        w.endObject()
        w.key("checkDigits")
        w.beginObject()
        for key in ["documentNumber", "dateOfBirth", "dateOfExpiry", "optionalData", "composite"] { w.key(key); w.null() }
        w.endObject()
        w.key("errors")
        w.beginArray()
        w.beginObject()
        w.key("code"); w.string(error.kind.rawValue)
        w.key("line"); w.int(error.line)
        w.key("column"); w.int(error.column)
        w.key("expected"); w.string(error.expected)
        w.key("found"); w.string(error.found)
        w.key("message"); w.string(error.message)
        w.endObject()
        w.endArray()
        w.key("warnings"); w.beginArray(); w.endArray()
        w.key("deviations"); w.beginArray(); w.endArray()
        w.key("resolvedDates")
        w.beginObject()
        w.key("dateOfBirth"); w.null()
        w.key("dateOfExpiry"); w.null()
        w.endObject()
        w.key("lines")
        w.beginArray()
        for line in lines { w.string(line) }
        w.endArray()
    }
}

extension FieldIndex {
    func writeJSON(in text: UnsafeBufferPointer<UInt8>, to w: inout JSONWriter) {
        func field(_ name: StaticString, _ ref: FieldRef, _ w: inout JSONWriter) {
            w.key(name)
            if ref.mode == .absent { w.null() } else { ref.withBytes(in: text) { w.plainString($0) } }
        }
        w.beginObject()
        field("documentCode", documentCode, &w)
        field("issuingState", issuingState, &w)
        field("documentNumber", documentNumber, &w)
        field("primaryIdentifier", primaryIdentifier, &w)
        field("secondaryIdentifier", secondaryIdentifier, &w)
        field("nationality", nationality, &w)
        field("dateOfBirth", dateOfBirth, &w)
        field("sex", sex, &w)
        field("dateOfExpiry", dateOfExpiry, &w)
        field("optionalData1", optionalData1, &w)
        field("optionalData2", optionalData2, &w)
        w.endObject()
    }
}

extension MRZFields {
    public func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.key("documentCode"); w.string(documentCode)
        w.key("issuingState"); w.string(issuingState)
        w.key("documentNumber"); w.string(documentNumber)
        w.key("primaryIdentifier"); w.string(primaryIdentifier)
        w.key("secondaryIdentifier"); w.string(secondaryIdentifier)
        w.key("nationality"); w.string(nationality)
        w.key("dateOfBirth"); w.string(dateOfBirth)
        w.key("sex"); w.string(sex)
        w.key("dateOfExpiry"); w.string(dateOfExpiry)
        w.key("optionalData1"); w.string(optionalData1)
        w.key("optionalData2"); w.string(optionalData2)
        w.endObject()
    }
}

extension MRZCheckDigits {
    public func writeJSON(to w: inout JSONWriter) {
        func value(_ s: CheckDigitStatus, _ w: inout JSONWriter) {
            if s == .absent { w.null() } else { w.string(s.rawValue) }
        }
        w.beginObject()
        w.key("documentNumber"); value(documentNumber, &w)
        w.key("dateOfBirth"); value(dateOfBirth, &w)
        w.key("dateOfExpiry"); value(dateOfExpiry, &w)
        w.key("optionalData"); value(optionalData, &w)
        w.key("composite"); value(composite, &w)
        w.endObject()
    }
}

extension MRZIssue {
    public static func writeJSON(_ issues: [MRZIssue], to w: inout JSONWriter) {
        w.beginArray()
        for issue in issues {
            w.beginObject()
            w.key("code"); w.string(issue.code.rawValue)
            if let field = issue.field { w.key("field"); w.string(field) }
            w.key("line"); w.int(issue.line)
            w.key("column"); w.int(issue.column)
            if let expected = issue.expected { w.key("expected"); w.string(expected) }
            if let found = issue.found { w.key("found"); w.string(found) }
            w.key("message"); w.string(issue.message)
            w.endObject()
        }
        w.endArray()
    }
}

extension MRZCorrection {
    /// `{"outcome", "changes": [{"line","column","from","to"}], "alternatives": [[String]]}`.
    public func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.key("outcome"); w.string(outcome.rawValue)
        w.key("changes")
        w.beginArray()
        for c in changes {
            w.beginObject()
            w.key("line"); w.int(c.line)
            w.key("column"); w.int(c.column)
            w.key("from"); w.string(c.from)
            w.key("to"); w.string(c.to)
            w.endObject()
        }
        w.endArray()
        w.key("alternatives")
        w.beginArray()
        for alternative in alternatives {
            w.beginArray()
            for line in alternative.split(separator: "\n") { w.string(String(line)) }
            w.endArray()
        }
        w.endArray()
        w.endObject()
    }
}
