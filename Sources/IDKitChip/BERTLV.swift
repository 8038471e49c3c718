/// What an LDS file or its security object cannot be read as: the kind, the byte offset, the tag
/// being read (when there is one) and what was expected there.
public struct LDSError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A TLV runs past the end of its file or of the TLV that contains it.
        case truncated
        /// A length in a form LDS files do not use (indefinite, or more than four bytes).
        case invalidLength
        /// A tag other than the one the structure has at that place.
        case unexpectedTag
        /// A value of the right tag whose content is wrong (a version, an OID, a number).
        case invalidContent
        /// Bytes after the file's one top-level TLV.
        case trailingBytes
        /// Nesting deeper than any LDS structure.
        case tooDeep
        /// The CMS SignedData of EF.SOD cannot be read (the message carries OpenSSL's reason).
        case invalidSignedData
    }

    public let kind: Kind
    public let offset: Int
    public let tag: UInt32?
    public let message: String

    public init(_ kind: Kind, offset: Int, tag: UInt32? = nil, _ message: String) {
        self.kind = kind
        self.offset = offset
        self.tag = tag
        self.message = message
    }

    public var description: String {
        "byte \(offset)" + (tag.map { " (tag \(BERTLV.hex($0)))" } ?? "") + ": " + message
    }
}

/// One BER-TLV (ISO/IEC 7816-4 §5.2, X.690 §8.1) of an LDS file: its tag, where its value lies in
/// the file, and whether it is constructed.
public struct BERTLV: Sendable, Equatable {
    /// The tag as its bytes read big-endian (`0x5F1F`, `0x61`, `0x30`).
    public let tag: UInt32
    /// Offset of the tag's first byte in the file.
    public let offset: Int
    /// The value's bytes in the file.
    public let value: Range<Int>
    /// Where the TLV ends: after its value, or after the end-of-contents octets of an indefinite length.
    public let end: Int

    init(tag: UInt32, offset: Int, value: Range<Int>, end: Int? = nil) {
        self.tag = tag
        self.offset = offset
        self.value = value
        self.end = end ?? value.upperBound
    }

    /// The TLV's extent: tag, length and value.
    public var range: Range<Int> { offset..<end }
    /// Bit 6 of the tag's first byte.
    public var isConstructed: Bool {
        let first = tag > 0xFFFF ? tag >> 16 : (tag > 0xFF ? tag >> 8 : tag)
        return first & 0x20 != 0
    }

    static func hex(_ tag: UInt32) -> String {
        let digits = String(tag, radix: 16, uppercase: true)
        return (digits.count % 2 == 1 ? "0" : "") + digits
    }

    /// The deepest nesting any LDS structure has (CMS certificates nest about ten deep).
    public static let maximumDepth = 24

    /// The TLV that starts at `offset`, within `bounds` (its container's value, or the file).
    /// Lengths in at most four bytes; an indefinite length (X.690 §8.1.3.6: constructed, ended by
    /// `00 00`) only where `indefinite` allows it — the CMS of EF.SOD is BER and some issuers use
    /// it there; the LDS files themselves are definite.
    public static func read(_ bytes: [UInt8], at offset: Int, within bounds: Range<Int>, indefinite: Bool = false,
                            depth: Int = 0) throws(LDSError) -> BERTLV {
        var i = offset
        func next(_ what: String) throws(LDSError) -> UInt8 {
            guard i < bounds.upperBound else {
                throw LDSError(.truncated, offset: i, "the data ends inside a TLV's \(what) (its TLV starts at byte \(offset))")
            }
            defer { i += 1 }
            return bytes[i]
        }
        var tag = UInt32(try next("tag"))
        if tag & 0x1F == 0x1F {
            // Subsequent tag bytes: bit 8 set on all but the last; LDS tags have at most three bytes.
            for count in 1...3 {
                let b = try next("tag")
                guard count < 3 else { throw LDSError(.invalidContent, offset: offset, "a tag longer than three bytes") }
                tag = tag << 8 | UInt32(b)
                if b & 0x80 == 0 { break }
            }
        }
        let first = try next("length")
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else if first == 0x80 {
            let constructed = BERTLV(tag: tag, offset: offset, value: i..<i).isConstructed
            guard indefinite, constructed else {
                throw LDSError(.invalidLength, offset: i - 1, tag: tag, constructed ? "an indefinite length (0x80): LDS files use definite lengths"
                                                                                    : "an indefinite length on a primitive value")
            }
            guard depth < maximumDepth else { throw LDSError(.tooDeep, offset: offset, tag: tag, "nested more than \(maximumDepth) deep") }
            // The children up to the end-of-contents octets.
            let start = i
            while true {
                guard bounds.upperBound - i >= 2 else {
                    throw LDSError(.truncated, offset: offset, tag: tag, "an indefinite length without its end-of-contents octets (00 00)")
                }
                if bytes[i] == 0 && bytes[i + 1] == 0 { return BERTLV(tag: tag, offset: offset, value: start..<i, end: i + 2) }
                i = try read(bytes, at: i, within: i..<bounds.upperBound, indefinite: true, depth: depth + 1).end
            }
        } else {
            let count = Int(first & 0x7F)
            guard count <= 4 else {
                throw LDSError(.invalidLength, offset: i - 1, tag: tag, "a length of \(count) bytes (at most 4)")
            }
            for _ in 0..<count { length = length << 8 | Int(try next("length")) }
        }
        guard length <= bounds.upperBound - i else {
            throw LDSError(.truncated, offset: offset, tag: tag,
                           "the value is \(length) bytes long but only \(bounds.upperBound - i) remain")
        }
        return BERTLV(tag: tag, offset: offset, value: i..<(i + length))
    }

    /// The file's one top-level TLV, which must have tag `expected` and fill the file exactly.
    public static func file(_ bytes: [UInt8], tag expected: UInt32, name: String) throws(LDSError) -> BERTLV {
        let tlv = try read(bytes, at: 0, within: 0..<bytes.count)
        guard tlv.tag == expected else {
            throw LDSError(.unexpectedTag, offset: 0, tag: tlv.tag, "\(name) starts with tag \(hex(expected)), this file with \(hex(tlv.tag))")
        }
        guard tlv.value.upperBound == bytes.count else {
            throw LDSError(.trailingBytes, offset: tlv.value.upperBound, tag: tlv.tag,
                           "\(bytes.count - tlv.value.upperBound) bytes after \(name)'s TLV")
        }
        return tlv
    }

    /// The TLVs that fill this one's value, in order (it must be constructed). `depth` counts
    /// the containers above, against ``maximumDepth``.
    public func children(_ bytes: [UInt8], depth: Int = 0, indefinite: Bool = false) throws(LDSError) -> [BERTLV] {
        guard depth < Self.maximumDepth else { throw LDSError(.tooDeep, offset: offset, tag: tag, "nested more than \(Self.maximumDepth) deep") }
        var out: [BERTLV] = []
        var i = value.lowerBound
        while i < value.upperBound {
            let child = try Self.read(bytes, at: i, within: value, indefinite: indefinite, depth: depth + 1)
            out.append(child)
            i = child.end
        }
        return out
    }

    /// The one child with `tag`; an error naming the structure when it is missing.
    public func child(_ tag: UInt32, in bytes: [UInt8], of structure: String) throws(LDSError) -> BERTLV {
        guard let found = try children(bytes).first(where: { $0.tag == tag }) else {
            throw LDSError(.unexpectedTag, offset: offset, tag: self.tag, "\(structure) has no TLV with tag \(Self.hex(tag))")
        }
        return found
    }

    /// A DER INTEGER's value as an Int (at most eight bytes, two's complement).
    public func integer(_ bytes: [UInt8], of what: String) throws(LDSError) -> Int {
        guard tag == 0x02 else { throw LDSError(.unexpectedTag, offset: offset, tag: tag, "\(what) must be an INTEGER (tag 02)") }
        guard !value.isEmpty, value.count <= 8 else { throw LDSError(.invalidContent, offset: offset, tag: tag, "\(what) has \(value.count) bytes") }
        var n = Int(Int8(bitPattern: bytes[value.lowerBound]))
        for k in value.dropFirst() { n = n << 8 | Int(bytes[k]) }
        return n
    }

    /// A DER OBJECT IDENTIFIER in dotted form (X.690 §8.19).
    public func objectIdentifier(_ bytes: [UInt8], of what: String) throws(LDSError) -> String {
        guard tag == 0x06 else { throw LDSError(.unexpectedTag, offset: offset, tag: tag, "\(what) must be an OBJECT IDENTIFIER (tag 06)") }
        var arcs: [UInt64] = []
        var current: UInt64 = 0, started = false
        for k in value {
            let b = bytes[k]
            guard current >> 57 == 0, !(b == 0x80 && !started) else {
                throw LDSError(.invalidContent, offset: k, tag: tag, "\(what): a malformed arc")
            }
            current = current << 7 | UInt64(b & 0x7F)
            started = true
            if b & 0x80 == 0 {
                arcs.append(current)
                current = 0
                started = false
            }
        }
        guard let first = arcs.first, !started else { throw LDSError(.invalidContent, offset: offset, tag: tag, "\(what): an empty or cut identifier") }
        let head = first < 80 ? [first / 40, first % 40] : [2, first - 80]
        return (head + arcs.dropFirst()).map(String.init).joined(separator: ".")
    }
}
