/// A minimal, fast JSON writer into a growable byte buffer, for streams of results where
/// `JSONEncoder` would cost far more than the parse. Its output for ``MRZResult`` has the same keys and
/// values as the `Codable` encoding (tests compare the two).
///
/// A non-copyable struct used through `inout`: the compiler then checks exclusive access statically,
/// where a class would pay a runtime check on every byte.
public struct JSONWriter: ~Copyable {
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    public private(set) var count = 0
    private var needsComma = false

    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        buffer = .allocate(capacity: self.capacity)
    }

    deinit { buffer.deallocate() }

    /// A copy of the bytes written.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: buffer, count: count)) }

    /// The bytes written, without copying; valid until the next write.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: buffer, count: count))
    }

    public mutating func reset() { count = 0; needsComma = false }

    @inline(__always) private mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBuffer.update(from: buffer, count: count)
        buffer.deallocate()
        buffer = newBuffer
        capacity = newCapacity
    }

    @inline(__always) private mutating func put(_ b: UInt8) { reserve(1); buffer[count] = b; count += 1 }

    @inline(__always) private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        copy(base, bytes.count)
    }

    /// Copies `n` bytes into reserved space; short runs by hand, where a `memcpy` call costs more.
    @inline(__always) private mutating func copy(_ source: UnsafePointer<UInt8>, _ n: Int) {
        if n <= 8 {
            var i = 0
            while i < n { buffer[count &+ i] = source[i]; i &+= 1 }
        } else {
            (buffer + count).update(from: source, count: n)
        }
        count &+= n
    }

    @inline(__always) private mutating func put(_ text: StaticString) {
        reserve(text.utf8CodeUnitCount)
        copy(text.utf8Start, text.utf8CodeUnitCount)
    }

    @inline(__always) private mutating func separate() { if needsComma { put(UInt8(ascii: ",")) } }

    public mutating func beginObject() { separate(); put(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { put(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separate(); put(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { put(UInt8(ascii: "]")); needsComma = true }
    public mutating func newline() { put(0x0A); needsComma = false }

    /// Writes `"name":`; the value written next belongs to it.
    public mutating func key(_ name: StaticString) {
        let n = name.utf8CodeUnitCount
        reserve(n &+ 4)
        if needsComma { buffer[count] = UInt8(ascii: ","); count &+= 1 }
        buffer[count] = UInt8(ascii: "\""); count &+= 1
        copy(name.utf8Start, n)
        buffer[count] = UInt8(ascii: "\"")
        buffer[count &+ 1] = UInt8(ascii: ":")
        count &+= 2
        needsComma = false
    }

    /// A key computed at run time (escaped as needed). Literal keys use the `StaticString` overload.
    public mutating func key(dynamic name: String) {
        separate()
        writeString(name)
        put(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) { separate(); writeString(value); needsComma = true }
    public mutating func string(_ value: String?) { if let value { string(value) } else { null() } }
    /// A string literal known to need no escaping.
    public mutating func string(literal value: StaticString) {
        separate()
        put(UInt8(ascii: "\""))
        put(value)
        put(UInt8(ascii: "\""))
        needsComma = true
    }
    public mutating func null() { separate(); put("null"); needsComma = true }
    public mutating func bool(_ value: Bool) { separate(); if value { put("true") } else { put("false") }; needsComma = true }

    public mutating func int(_ value: Int) {
        separate()
        if value < 0 { put(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { d in
            var n = 0
            repeat {
                d[n] = UInt8(magnitude % 10) + 0x30
                magnitude /= 10
                n += 1
            } while magnitude > 0
            reserve(n)
            while n > 0 { n -= 1; buffer[count] = d[n]; count += 1 }
        }
        needsComma = true
    }
    public mutating func int(_ value: Int?) { if let value { int(value) } else { null() } }

    /// Writes `"YYYY-MM-DD"` or `null`.
    public mutating func date(_ value: CalendarDate?) {
        guard let value else { null(); return }
        separate()
        reserve(12)
        buffer[count] = UInt8(ascii: "\"")
        count &+= 1 &+ value.writeISO8601(to: buffer + count + 1)
        buffer[count] = UInt8(ascii: "\"")
        count &+= 1
        needsComma = true
    }

    /// A string whose bytes are known to need no escaping (the MRZ alphabet and spaces).
    public mutating func plainString(_ utf8: UnsafeBufferPointer<UInt8>) {
        let n = utf8.count
        reserve(n &+ 3)
        if needsComma { buffer[count] = UInt8(ascii: ","); count &+= 1 }
        buffer[count] = UInt8(ascii: "\""); count &+= 1
        if n > 0 { copy(utf8.baseAddress!, n) }
        buffer[count] = UInt8(ascii: "\""); count &+= 1
        needsComma = true
    }

    /// Reserves `n` bytes and lets `body` write up to `n` of them at the pointer it gets; `body`
    /// returns how many it wrote.
    @inline(__always) mutating func withReservedSpace(_ n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(n)
        count &+= body(buffer + count)
    }

    var hasPendingMember: Bool { needsComma }

    /// Template writing: a comma if a member came before, then raw bytes, then mark the member written.
    @inline(__always) mutating func startMember() { if needsComma { put(UInt8(ascii: ",")) } }
    @inline(__always) mutating func endMember() { needsComma = true }
    @inline(__always) mutating func appendUnescaped(_ bytes: UnsafeBufferPointer<UInt8>) { put(bytes) }

    /// Appends text as it is (not as a JSON value): for callers that share the buffer with other output.
    public mutating func appendRaw(_ text: String) {
        MRZResult.withUTF8(text) { put($0) }
    }

    /// Appends bytes as they are.
    public mutating func appendRaw(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        put(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count))
    }

    /// A value already encoded as JSON.
    public mutating func raw(_ json: [UInt8]) { separate(); json.withUnsafeBufferPointer { put($0) }; needsComma = true }

    private mutating func writeString(_ value: String) {
        put(UInt8(ascii: "\""))
        MRZResult.withUTF8(value) { utf8 in
            var clean = true
            for b in utf8 where b < 0x20 || b == 0x22 || b == 0x5C { clean = false; break }
            if clean { put(utf8); return }
            let hex: StaticString = "0123456789abcdef"
            for b in utf8 {
                switch b {
                case 0x22: put("\\\"")
                case 0x5C: put("\\\\")
                case 0x0A: put("\\n")
                case 0x0D: put("\\r")
                case 0x09: put("\\t")
                case ..<0x20:
                    put("\\u00")
                    hex.withUTF8Buffer { h in put(h[Int(b >> 4)]); put(h[Int(b & 15)]) }
                default: put(b)
                }
            }
        }
        put(UInt8(ascii: "\""))
    }
}

extension MRZResult {
    /// Writes the members of this result's JSON object (no braces), in contract order:
    /// `format, valid, validWithDeviations, fields, checkDigits, errors, warnings, deviations,
    /// resolvedDates, lines`.
    public func writeJSONMembers(to w: inout JSONWriter) {
        if writeCleanJSONMembers(to: &w) { return }
        writeGeneralJSONMembers(to: &w)
    }

    /// The general writer, for every result (tests compare it with the template writer).
    func writeGeneralJSONMembers(to w: inout JSONWriter) {
        w.key("format"); w.string(literal: format.jsonName)
        w.key("valid"); w.bool(isValid)
        w.key("validWithDeviations"); w.bool(isValidAcceptingDeviations)
        w.key("fields")
        if let fields = extras?.fields {
            fields.writeJSON(to: &w)
        } else {
            let index = self.index
            MRZResult.withUTF8(text) { index.writeJSON(in: $0, to: &w) }
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
        for key in MRZFields.CodingKeys.allCases { w.key(dynamic: key.stringValue); w.null() }
        w.endObject()
        w.key("checkDigits")
        w.beginObject()
        for key in ["documentNumber", "dateOfBirth", "dateOfExpiry", "optionalData", "composite"] { w.key(dynamic: key); w.null() }
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
            switch s {
            case .absent: w.null()
            case .valid: w.string(literal: "valid")
            case .invalid: w.string(literal: "invalid")
            }
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
