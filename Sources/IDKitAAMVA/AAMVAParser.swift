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
