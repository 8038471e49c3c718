/// Where one field's value stands in a result's text. Strings are made from it only when a caller
/// asks for ``MRZResult/fields``: parsing and validating, and writing JSON, need none.
@usableFromInline
struct FieldRef: Sendable, Hashable {
    @usableFromInline
    enum Mode: UInt8, Sendable {
        /// The layout has no such field: `nil`.
        case absent
        /// The bytes as they stand (trailing fillers already left out of the range).
        case raw
        /// A name: fillers inside the range become single spaces.
        case identifier
        /// The sex field: `<` is the empty string.
        case sex
    }

    @usableFromInline var mode: Mode
    @usableFromInline var start: UInt8
    @usableFromInline var count: UInt8
    /// A second range appended to the first: the continuation of a TD1/TD2 long document number.
    @usableFromInline var start2: UInt8 = 0
    @usableFromInline var count2: UInt8 = 0

    static let absent = FieldRef(mode: .absent, start: 0, count: 0)

    init(mode: Mode, start: Int, count: Int, start2: Int = 0, count2: Int = 0) {
        self.mode = mode
        self.start = UInt8(truncatingIfNeeded: start)
        self.count = UInt8(truncatingIfNeeded: count)
        self.start2 = UInt8(truncatingIfNeeded: start2)
        self.count2 = UInt8(truncatingIfNeeded: count2)
    }

    /// The value's UTF-8 bytes, handed to `body` without building a `String`.
    @inlinable @inline(__always)
    func withBytes<R>(in text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let base = text.baseAddress!
        switch mode {
        case .absent:
            return body(UnsafeBufferPointer(start: base, count: 0))
        case .sex:
            let b = base[Int(start)]
            return body(UnsafeBufferPointer(start: base + Int(start), count: b == UInt8(ascii: "<") ? 0 : 1))
        case .raw where count2 == 0:
            return body(UnsafeBufferPointer(start: base + Int(start), count: Int(count)))
        case .raw, .identifier:
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(count) + Int(count2)) { out in
                var k = 0
                var previousWasFiller = false
                for i in Int(start)..<(Int(start) + Int(count)) {
                    let b = base[i]
                    if mode == .identifier && b == UInt8(ascii: "<") {
                        if !previousWasFiller { out[k] = 0x20; k += 1 }
                        previousWasFiller = true
                    } else {
                        out[k] = b
                        k += 1
                        previousWasFiller = false
                    }
                }
                for i in Int(start2)..<(Int(start2) + Int(count2)) { out[k] = base[i]; k += 1 }
                return body(UnsafeBufferPointer(rebasing: out[0..<k]))
            }
        }
    }

    func string(in text: UnsafeBufferPointer<UInt8>) -> String? {
        if mode == .absent { return nil }
        return withBytes(in: text) { String(decoding: $0, as: UTF8.self) }
    }
}

/// The fields of a parsed MRZ as ranges of its text.
@usableFromInline
struct FieldIndex: Sendable, Hashable {
    @usableFromInline var documentCode = FieldRef.absent
    @usableFromInline var issuingState = FieldRef.absent
    @usableFromInline var documentNumber = FieldRef.absent
    @usableFromInline var primaryIdentifier = FieldRef.absent
    @usableFromInline var secondaryIdentifier = FieldRef.absent
    @usableFromInline var nationality = FieldRef.absent
    @usableFromInline var dateOfBirth = FieldRef.absent
    @usableFromInline var sex = FieldRef.absent
    @usableFromInline var dateOfExpiry = FieldRef.absent
    @usableFromInline var optionalData1 = FieldRef.absent
    @usableFromInline var optionalData2 = FieldRef.absent

    func materialize(_ text: String) -> MRZFields {
        MRZResult.withUTF8(text) { t in
            MRZFields(documentCode: documentCode.string(in: t) ?? "", issuingState: issuingState.string(in: t) ?? "",
                      documentNumber: documentNumber.string(in: t) ?? "",
                      primaryIdentifier: primaryIdentifier.string(in: t) ?? "",
                      secondaryIdentifier: secondaryIdentifier.string(in: t) ?? "",
                      nationality: nationality.string(in: t), dateOfBirth: dateOfBirth.string(in: t) ?? "",
                      sex: sex.string(in: t) ?? "", dateOfExpiry: dateOfExpiry.string(in: t),
                      optionalData1: optionalData1.string(in: t), optionalData2: optionalData2.string(in: t))
        }
    }
}

extension MRZResult {
    /// Runs `body` over the UTF-8 of `text`, without copying when the string is native.
    @inline(__always)
    static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        JSONWriter.withUTF8(text, body)
    }
}
