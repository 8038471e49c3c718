/// A minimal, fast JSON writer into a growable byte buffer, for streams of results where
/// `JSONEncoder` would cost far more than the parse (IDKitMRZ's `MRZResult` writes through it with the
/// same keys and values as its `Codable` encoding; tests compare the two), and for the command line's
/// contracts.
///
/// A non-copyable struct used through `inout`: the compiler then checks exclusive access statically,
/// where a class would pay a runtime check on every byte.
public struct JSONWriter: ~Copyable {
    @usableFromInline var buffer: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    /// Bytes written so far.
    @usableFromInline var written = 0
    public var count: Int { written }
    @usableFromInline var needsComma = false

    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        buffer = .allocate(capacity: self.capacity)
    }

    deinit { buffer.deallocate() }

    /// A copy of the bytes written.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: buffer, count: written)) }

    /// The bytes written, without copying; valid until the next write.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: buffer, count: written))
    }

    public mutating func reset() { written = 0; needsComma = false }

    @inlinable @inline(__always) mutating func reserve(_ n: Int) {
        if written + n > capacity { grow(written + n) }
    }

    @usableFromInline mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBuffer.update(from: buffer, count: written)
        buffer.deallocate()
        buffer = newBuffer
        capacity = newCapacity
    }

    @inlinable @inline(__always) mutating func put(_ b: UInt8) { reserve(1); buffer[written] = b; written += 1 }

    @inlinable @inline(__always) mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        copy(base, bytes.count)
    }

    /// Copies `n` bytes into reserved space; short runs by hand, where a `memcpy` call costs more.
    @inlinable @inline(__always) mutating func copy(_ source: UnsafePointer<UInt8>, _ n: Int) {
        if n <= 8 {
            var i = 0
            while i < n { buffer[written &+ i] = source[i]; i &+= 1 }
        } else {
            (buffer + written).update(from: source, count: n)
        }
        written &+= n
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
    /// Takes back the newline that ended a JSON line, so that the line's value becomes an element
    /// of an array being written (the next value is separated from it by a comma).
    public mutating func unterminateLine() {
        if written > 0 && buffer[written - 1] == 0x0A { written -= 1 }
        needsComma = true
    }

    /// Writes `"name":`; the value written next belongs to it.
    public mutating func key(_ name: StaticString) {
        let n = name.utf8CodeUnitCount
        reserve(n &+ 4)
        if needsComma { buffer[written] = UInt8(ascii: ","); written &+= 1 }
        buffer[written] = UInt8(ascii: "\""); written &+= 1
        copy(name.utf8Start, n)
        buffer[written] = UInt8(ascii: "\"")
        buffer[written &+ 1] = UInt8(ascii: ":")
        written &+= 2
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
            while n > 0 { n -= 1; buffer[written] = d[n]; written += 1 }
        }
        needsComma = true
    }
    public mutating func int(_ value: Int?) { if let value { int(value) } else { null() } }

    /// Writes `"YYYY-MM-DD"` or `null`.
    public mutating func date(_ value: CalendarDate?) {
        guard let value else { null(); return }
        separate()
        reserve(12)
        buffer[written] = UInt8(ascii: "\"")
        written &+= 1 &+ value.writeISO8601(to: buffer + written + 1)
        buffer[written] = UInt8(ascii: "\"")
        written &+= 1
        needsComma = true
    }

    /// A string whose bytes are known to need no escaping (the MRZ alphabet and spaces).
    public mutating func plainString(_ utf8: UnsafeBufferPointer<UInt8>) {
        let n = utf8.count
        reserve(n &+ 3)
        if needsComma { buffer[written] = UInt8(ascii: ","); written &+= 1 }
        buffer[written] = UInt8(ascii: "\""); written &+= 1
        if n > 0 { copy(utf8.baseAddress!, n) }
        buffer[written] = UInt8(ascii: "\""); written &+= 1
        needsComma = true
    }

    /// Reserves `n` bytes and lets `body` write up to `n` of them at the pointer it gets; `body`
    /// returns how many it wrote.
    @inlinable @inline(__always)
    package mutating func withReservedSpace(_ n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(n)
        written &+= body(buffer + written)
    }

    package var hasPendingMember: Bool { needsComma }

    /// Template writing: a comma if a member came before, then raw bytes, then mark the member written.
    @inlinable @inline(__always) package mutating func startMember() { if needsComma { put(UInt8(ascii: ",")) } }
    @inlinable @inline(__always) package mutating func endMember() { needsComma = true }
    @inlinable @inline(__always) package mutating func appendUnescaped(_ bytes: UnsafeBufferPointer<UInt8>) { put(bytes) }

    /// Appends text as it is (not as a JSON value): for callers that share the buffer with other output.
    public mutating func appendRaw(_ text: String) {
        JSONWriter.withUTF8(text) { put($0) }
    }

    /// Appends bytes as they are.
    public mutating func appendRaw(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        put(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count))
    }

    /// A value already encoded as JSON.
    public mutating func raw(_ json: [UInt8]) { separate(); json.withUnsafeBufferPointer { put($0) }; needsComma = true }

    private mutating func writeString(_ value: String) {
        JSONWriter.withUTF8(value) { writeQuoted($0, latin1: false) }
    }

    /// `bytes` as a quoted JSON string: escaped, and taken as UTF-8 or, with `latin1`, as ISO
    /// 8859-1 (each byte from 0x80 up written as its two-byte UTF-8 sequence).
    private mutating func writeQuoted(_ bytes: UnsafeBufferPointer<UInt8>, latin1: Bool) {
        put(UInt8(ascii: "\""))
        var clean = true
        for b in bytes where b < 0x20 || b == 0x22 || b == 0x5C || (latin1 && b >= 0x80) { clean = false; break }
        if clean {
            put(bytes)
        } else {
            let hex: StaticString = "0123456789abcdef"
            for b in bytes {
                switch b {
                case 0x22: put("\\\"")
                case 0x5C: put("\\\\")
                case 0x0A: put("\\n")
                case 0x0D: put("\\r")
                case 0x09: put("\\t")
                case ..<0x20:
                    put("\\u00")
                    hex.withUTF8Buffer { h in put(h[Int(b >> 4)]); put(h[Int(b & 15)]) }
                case 0x80... where latin1:
                    put(0xC0 | b >> 6); put(0x80 | b & 0x3F)
                default: put(b)
                }
            }
        }
        put(UInt8(ascii: "\""))
    }

    /// A string value given as ISO 8859-1 bytes (an AAMVA payload's), written as the String of
    /// those characters would be.
    public mutating func latin1String(_ bytes: UnsafeBufferPointer<UInt8>) {
        separate(); writeQuoted(bytes, latin1: true); needsComma = true
    }

    /// `"KEY":"value"` for a three-byte key (packed big-endian in the low 24 bits of `key`) and a
    /// value, both ISO 8859-1 bytes: as ``key(latin1:)`` then ``latin1String(_:)``, in one step
    /// when nothing needs escaping or re-encoding (an AAMVA element, nearly always).
    public mutating func latin1Member(key: UInt32, value: UnsafeBufferPointer<UInt8>) {
        @inline(__always) func plain(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x80 && b != 0x22 && b != 0x5C }
        let k0 = UInt8(truncatingIfNeeded: key >> 16), k1 = UInt8(truncatingIfNeeded: key >> 8), k2 = UInt8(truncatingIfNeeded: key)
        var clean = plain(k0) && plain(k1) && plain(k2)
        if clean { for b in value where !plain(b) { clean = false; break } }
        guard clean else {
            withUnsafeBytes(of: key.bigEndian) { self.key(latin1: UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[1...])) }
            latin1String(value)
            return
        }
        let n = value.count
        reserve(n &+ 9)
        if needsComma { buffer[written] = UInt8(ascii: ","); written &+= 1 }
        buffer[written] = UInt8(ascii: "\"")
        buffer[written &+ 1] = k0
        buffer[written &+ 2] = k1
        buffer[written &+ 3] = k2
        buffer[written &+ 4] = UInt8(ascii: "\"")
        buffer[written &+ 5] = UInt8(ascii: ":")
        buffer[written &+ 6] = UInt8(ascii: "\"")
        written &+= 7
        if n > 0 { copy(value.baseAddress!, n) }
        buffer[written] = UInt8(ascii: "\"")
        written &+= 1
        needsComma = true
    }

    /// A key given as ISO 8859-1 bytes.
    public mutating func key(latin1 bytes: UnsafeBufferPointer<UInt8>) {
        separate(); writeQuoted(bytes, latin1: true); put(UInt8(ascii: ":")); needsComma = false
    }

    /// Runs `body` over the UTF-8 of `text`, without copying when the string is native.
    @inlinable
    package static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let r = text.utf8.withContiguousStorageIfAvailable(body) { return r }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
