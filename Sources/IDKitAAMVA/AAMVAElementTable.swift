internal import IDKitCore

/// The elements of one subfile as byte ranges of the payload, looked up by packed identifier
/// (three ASCII bytes in a UInt32): the field rules run on bytes, not Strings.
struct ElementTable: Sendable {
    var bytes: [UInt8]
    /// One allocation per table: first `slotCount` slots, element index + 1 by `slot(of:)` for the
    /// standard's `DA?`–`DD?` and `PA?` identifiers (0 = absent), so that the field rules find an
    /// element in one step (others are searched); then four values per element: packed
    /// identifier, value start, value end, offset of the identifier in the original payload.
    private var storage: [Int32]
    private(set) var count = 0

    fileprivate static let slotCount = 110

    @inline(__always) static func code(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
        UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    }

    @inline(__always) static func code(_ id: StaticString) -> UInt32 {
        id.withUTF8Buffer { code($0[0], $0[1], $0[2]) }
    }

    static func code(_ id: String) -> UInt32 {
        let u = Array(id.utf8)
        return u.count >= 3 ? code(u[0], u[1], u[2]) : 0
    }

    /// The three-character identifier of a packed code.
    static func identifier(of code: UInt32) -> String {
        String(unsafeUninitializedCapacity: 3) { buffer in
            buffer[0] = UInt8(truncatingIfNeeded: code >> 16)
            buffer[1] = UInt8(truncatingIfNeeded: code >> 8)
            buffer[2] = UInt8(truncatingIfNeeded: code)
            return 3
        }
    }

    /// `DA?`…`DD?` → 0…103, `PA?` → 104…109.
    @inline(__always) static func slot(of code: UInt32) -> Int? {
        let a = UInt8(code >> 16 & 0xFF), b = UInt8(code >> 8 & 0xFF) &- 0x41, c = UInt8(code & 0xFF) &- 0x41
        guard c < 26 else { return nil }
        if a == 0x44, b < 4 { return Int(b) * 26 + Int(c) }
        if a == 0x50, b == 0, c < 6 { return 104 + Int(c) }
        return nil
    }

    /// A table made in one allocation: `fill` adds at most `capacity` elements through the
    /// writer (the caller knows a bound: an element takes at least four bytes of the payload).
    init(bytes: [UInt8], capacity: Int, fill: (inout Writer) -> Void) {
        self.bytes = bytes
        let capacity = max(0, capacity)
        var count = 0
        storage = [Int32](unsafeUninitializedCapacity: Self.slotCount + 4 * capacity) { buffer, initialized in
            let base = buffer.baseAddress!
            base.initialize(repeating: 0, count: Self.slotCount)
            var writer = Writer(base: base, capacity: capacity)
            fill(&writer)
            count = writer.count
            initialized = Self.slotCount + 4 * count
        }
        self.count = count
    }

    /// A table without elements.
    static let empty = ElementTable(bytes: [], capacity: 0) { _ in }

    /// A table over element values given as Strings (magnetic-stripe tracks).
    init(elements: [AAMVAElement]) {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for e in elements {
            let start = bytes.count
            // Latin-1, as the payload bytes are read (track characters are ASCII).
            for scalar in e.value.unicodeScalars { bytes.append(scalar.value <= 0xFF ? UInt8(scalar.value) : UInt8(ascii: "?")) }
            ranges.append(start..<bytes.count)
        }
        self.init(bytes: bytes, capacity: elements.count) { writer in
            for (e, r) in zip(elements, ranges) { writer.append(code: Self.code(e.id), value: r, offset: e.offset) }
        }
    }

    /// Adds elements to a table being made, through its storage: no copy-on-write checks per
    /// element (the parser's inner loop).
    struct Writer {
        private let base: UnsafeMutablePointer<Int32>
        private let capacity: Int
        private(set) var count = 0

        fileprivate init(base: UnsafeMutablePointer<Int32>, capacity: Int) {
            self.base = base
            self.capacity = capacity
        }

        /// Adds an element; `false` when its identifier was already there (the first one is kept
        /// for lookups, the repeat is still listed). Beyond the capacity nothing is written
        /// (callers size the table so that this cannot happen).
        @inline(__always) @discardableResult
        mutating func append(code: UInt32, value: Range<Int>, offset: Int) -> Bool {
            var isNew = true
            if let s = ElementTable.slot(of: code) {
                isNew = base[s] == 0
                if isNew, count < capacity { base[s] = Int32(count + 1) }
            } else {
                for i in 0..<count where UInt32(bitPattern: base[ElementTable.slotCount + 4 * i]) == code { isNew = false; break }
            }
            guard count < capacity else { return isNew }
            let entry = base + ElementTable.slotCount + 4 * count
            entry[0] = Int32(bitPattern: code)
            entry[1] = Int32(truncatingIfNeeded: value.lowerBound)
            entry[2] = Int32(truncatingIfNeeded: value.upperBound)
            entry[3] = Int32(truncatingIfNeeded: offset)
            count += 1
            return isNew
        }
    }

    @inline(__always) func code(_ i: Int) -> UInt32 { UInt32(bitPattern: storage[Self.slotCount + 4 * i]) }
    @inline(__always) func value(_ i: Int) -> Range<Int> {
        let base = Self.slotCount + 4 * i
        return Int(storage[base + 1])..<Int(storage[base + 2])
    }
    @inline(__always) func offset(_ i: Int) -> Int { Int(storage[Self.slotCount + 4 * i + 3]) }

    /// The elements as the public type: identifier and value as Strings (ISO 8859-1 values).
    func elements() -> [AAMVAElement] {
        (0..<count).map { i in
            let value = latin1(self.value(i))
            return AAMVAElement(id: Self.identifier(of: code(i)), value: value, offset: offset(i))
        }
    }

    /// Values are ISO 8859-1 (AAMVA allows only ASCII; some cards carry Latin-1 letters).
    func latin1(_ r: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { all in
            let value = UnsafeBufferPointer(rebasing: all[r])
            var ascii = true
            for b in value where b >= 0x80 { ascii = false; break }
            if ascii { return String(decoding: value, as: UTF8.self) }
            return String(String.UnicodeScalarView(value.map { UnicodeScalar($0) }))
        }
    }

    /// The first element with this identifier.
    @inline(__always) func index(_ code: UInt32) -> Int? {
        if let s = Self.slot(of: code) {
            let i = Int(storage[s])
            return i == 0 ? nil : i - 1
        }
        for i in 0..<count where self.code(i) == code { return i }
        return nil
    }
}
