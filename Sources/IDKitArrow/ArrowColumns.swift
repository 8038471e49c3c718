import CIDKit
import Glibc

/// A growable byte buffer from `malloc`, handed whole to an exported `ArrowArray`, whose release
/// frees it. An allocation that fails marks the buffer `exhausted` and drops what follows; the
/// table reports it instead of exporting.
struct ArrowBuffer {
    private(set) var base: UnsafeMutableRawPointer?
    private(set) var count = 0
    private var capacity = 0
    private(set) var exhausted = false

    init(capacity: Int) {
        base = malloc(max(capacity, 8))
        self.capacity = base == nil ? 0 : max(capacity, 8)
        exhausted = base == nil
    }

    @inline(__always) mutating func reserve(_ n: Int) -> Bool {
        if count &+ n <= capacity { return true }
        return grow(count &+ n)
    }

    @inline(never) private mutating func grow(_ needed: Int) -> Bool {
        guard !exhausted else { return false }
        let size = max(needed, capacity &* 2, 64)
        guard let bigger = realloc(base, size) else {
            exhausted = true
            return false
        }
        base = bigger
        capacity = size
        return true
    }

    @inline(__always) mutating func append<T: FixedWidthInteger>(_ value: T) {
        guard reserve(MemoryLayout<T>.size) else { return }
        base!.storeBytes(of: value, toByteOffset: count, as: T.self)
        count &+= MemoryLayout<T>.size
    }

    @inline(__always) mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let from = bytes.baseAddress, bytes.count > 0, reserve(bytes.count) else { return }
        let to = base! + count, n = bytes.count
        // Values are a few to 44 bytes: words copied inline beat a call to memmove. The last
        // word overlaps the one before it rather than reading past the value.
        if n >= 8 {
            var k = 0
            while k &+ 8 <= n {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: k, as: UInt64.self), toByteOffset: k, as: UInt64.self)
                k &+= 8
            }
            if k < n {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self), toByteOffset: n &- 8, as: UInt64.self)
            }
        } else if n >= 4 {
            to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self), toByteOffset: n &- 4, as: UInt32.self)
        } else {
            for k in 0..<n { to.storeBytes(of: from.load(fromByteOffset: k, as: UInt8.self), toByteOffset: k, as: UInt8.self) }
        }
        count &+= n
    }

    /// A byte, for bit maps.
    @inline(__always) mutating func appendZeroByte() { append(UInt8(0)) }

    @inline(__always) mutating func setBit(_ index: Int) {
        base!.storeBytes(of: base!.load(fromByteOffset: index >> 3, as: UInt8.self) | (1 << UInt8(index & 7)),
                         toByteOffset: index >> 3, as: UInt8.self)
    }

    /// The memory, now the caller's to free.
    mutating func take() -> UnsafeMutableRawPointer? {
        defer { base = nil; count = 0; capacity = 0 }
        return base
    }

    mutating func free() { Glibc.free(take()) }
}

/// The validity bit map of a column (Arrow: bit set = value present), and its null count. The
/// bits are zeroed when allocated, so a row costs one bit set (or a count for a null).
struct ArrowValidity {
    private(set) var bits: UnsafeMutablePointer<UInt8>?
    private var capacityBits: Int
    private(set) var length = 0
    private(set) var nullCount = 0
    private(set) var exhausted = false

    init(capacity rows: Int) {
        let bytes = max((rows + 7) / 8, 8)
        bits = calloc(bytes, 1)?.assumingMemoryBound(to: UInt8.self)
        capacityBits = bits == nil ? 0 : bytes * 8
        exhausted = bits == nil
    }

    @inline(__always) mutating func append(_ present: Bool) {
        if length >= capacityBits { grow() }
        if present {
            if let bits { bits[length >> 3] |= 1 << UInt8(length & 7) }
        } else {
            nullCount &+= 1
        }
        length &+= 1
    }

    @inline(never) private mutating func grow() {
        let old = capacityBits / 8, bytes = max(old * 2, 64)
        guard !exhausted, let bigger = realloc(bits, bytes)?.assumingMemoryBound(to: UInt8.self) else {
            exhausted = true
            Glibc.free(bits)
            bits = nil
            capacityBits = Int.max
            return
        }
        (bigger + old).initialize(repeating: 0, count: bytes - old)
        bits = bigger
        capacityBits = bytes * 8
    }

    /// The bit map for export: `nil` (allowed by Arrow) when no value is null.
    mutating func take() -> UnsafeMutableRawPointer? {
        defer { bits = nil; capacityBits = 0 }
        if nullCount == 0 { Glibc.free(bits); return nil }
        return UnsafeMutableRawPointer(bits)
    }

    mutating func free() { Glibc.free(bits); bits = nil; capacityBits = 0 }
}

/// A column the table exports: its rows so far, and itself as an Arrow array and schema.
protocol ArrowColumn {
    var length: Int { get }
    var exhausted: Bool { get }
    /// Fills `array` and `schema` (both uninitialized) and leaves the column empty.
    mutating func export(to array: UnsafeMutablePointer<ArrowArray>, _ schema: UnsafeMutablePointer<ArrowSchema>, name: String)
    /// Frees what the column holds (when the table is not exported).
    mutating func discard()
    /// Its bytes passed what int32 offsets address.
    var overflowed: Bool { get }
}

extension ArrowColumn {
    var overflowed: Bool { false }
}

/// `utf8` ("u"): int32 offsets and the bytes. The table keeps each column under 2 GiB
/// (``overflowed``) by the input's row limit; a column that would pass it is reported, not cut.
struct StringColumn: ArrowColumn {
    var validity: ArrowValidity
    var offsets: ArrowBuffer
    var data: ArrowBuffer
    private(set) var overflowed = false

    init(capacity rows: Int, bytesPerRow: Int) {
        validity = ArrowValidity(capacity: rows)
        offsets = ArrowBuffer(capacity: (rows + 1) * 4)
        data = ArrowBuffer(capacity: rows * bytesPerRow)
        offsets.append(Int32(0))
    }

    var length: Int { validity.length }
    var exhausted: Bool { validity.exhausted || offsets.exhausted || data.exhausted || overflowed }

    @inline(__always) mutating func append(_ bytes: UnsafeRawBufferPointer) {
        data.append(bytes)
        if data.count > Int(Int32.max) { overflowed = true }
        offsets.append(Int32(truncatingIfNeeded: data.count))
        validity.append(true)
    }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { append(UnsafeRawBufferPointer(bytes)) }

    mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    @inline(__always) mutating func appendNull() {
        offsets.append(Int32(truncatingIfNeeded: data.count))
        validity.append(false)
    }

    mutating func export(to array: UnsafeMutablePointer<ArrowArray>, _ schema: UnsafeMutablePointer<ArrowSchema>, name: String) {
        ArrowExport.fill(array, length: length, nullCount: validity.nullCount,
                         buffers: [validity.take(), offsets.take(), data.take()])
        ArrowExport.fill(schema, format: "u", name: name)
    }

    mutating func discard() { validity.free(); offsets.free(); data.free() }
}

/// Fixed-width values: `bool` ("b", bit-packed), `int32` ("i"), `date32` ("tdD", days since 1970).
struct FixedColumn: ArrowColumn {
    enum Kind { case bool, int32, date32 }
    let kind: Kind
    var validity: ArrowValidity
    var values: ArrowBuffer

    init(_ kind: Kind, capacity rows: Int) {
        self.kind = kind
        validity = ArrowValidity(capacity: rows)
        values = ArrowBuffer(capacity: kind == .bool ? (rows + 7) / 8 : rows * 4)
    }

    var length: Int { validity.length }
    var exhausted: Bool { validity.exhausted || values.exhausted }

    @inline(__always) mutating func append(_ value: Bool) {
        let row = validity.length
        if row & 7 == 0 { values.appendZeroByte() }
        if value && !values.exhausted { values.setBit(row) }
        validity.append(true)
    }

    @inline(__always) mutating func append(_ value: Int32) {
        values.append(value)
        validity.append(true)
    }

    @inline(__always) mutating func appendNull() {
        if kind == .bool {
            if validity.length & 7 == 0 { values.appendZeroByte() }
        } else {
            values.append(Int32(0))
        }
        validity.append(false)
    }

    mutating func export(to array: UnsafeMutablePointer<ArrowArray>, _ schema: UnsafeMutablePointer<ArrowSchema>, name: String) {
        ArrowExport.fill(array, length: length, nullCount: validity.nullCount, buffers: [validity.take(), values.take()])
        ArrowExport.fill(schema, format: kind == .bool ? "b" : kind == .int32 ? "i" : "tdD", name: name)
    }

    mutating func discard() { validity.free(); values.free() }
}

/// `list<utf8>` ("+l" with an "item" child): int32 offsets into the strings of all rows.
struct StringListColumn: ArrowColumn {
    var validity: ArrowValidity
    var offsets: ArrowBuffer
    var items: StringColumn

    init(capacity rows: Int, itemsPerRow: Int, bytesPerItem: Int) {
        validity = ArrowValidity(capacity: rows)
        offsets = ArrowBuffer(capacity: (rows + 1) * 4)
        items = StringColumn(capacity: rows * itemsPerRow, bytesPerRow: bytesPerItem)
        offsets.append(Int32(0))
    }

    var length: Int { validity.length }
    var exhausted: Bool { validity.exhausted || offsets.exhausted || items.exhausted }
    var overflowed: Bool { items.overflowed }

    /// Ends a row whose items were appended to `items`.
    @inline(__always) mutating func endRow() {
        offsets.append(Int32(truncatingIfNeeded: items.length))
        validity.append(true)
    }

    @inline(__always) mutating func appendEmpty() { endRow() }

    @inline(__always) mutating func appendNull() {
        offsets.append(Int32(truncatingIfNeeded: items.length))
        validity.append(false)
    }

    mutating func export(to array: UnsafeMutablePointer<ArrowArray>, _ schema: UnsafeMutablePointer<ArrowSchema>, name: String) {
        let (childArray, childSchema) = ArrowExport.allocateChildren(1)
        items.export(to: childArray[0]!, childSchema[0]!, name: "item")
        ArrowExport.fill(array, length: length, nullCount: validity.nullCount, buffers: [validity.take(), offsets.take()],
                         children: childArray, count: 1)
        ArrowExport.fill(schema, format: "+l", name: name, children: childSchema, count: 1)
    }

    mutating func discard() { validity.free(); offsets.free(); items.discard() }
}

/// `map<utf8, utf8>` ("+m" with an "entries" struct of "key" and "value").
struct StringMapColumn: ArrowColumn {
    var validity: ArrowValidity
    var offsets: ArrowBuffer
    var keys: StringColumn
    var values: StringColumn

    init(capacity rows: Int, entriesPerRow: Int) {
        validity = ArrowValidity(capacity: rows)
        offsets = ArrowBuffer(capacity: (rows + 1) * 4)
        keys = StringColumn(capacity: rows * entriesPerRow, bytesPerRow: 3)
        values = StringColumn(capacity: rows * entriesPerRow, bytesPerRow: 12)
        offsets.append(Int32(0))
    }

    var length: Int { validity.length }
    var exhausted: Bool { validity.exhausted || offsets.exhausted || keys.exhausted || values.exhausted }
    var overflowed: Bool { keys.overflowed || values.overflowed }

    mutating func append(key: String, value: String) {
        keys.append(key)
        values.append(value)
    }

    @inline(__always) mutating func endRow() {
        offsets.append(Int32(truncatingIfNeeded: keys.length))
        validity.append(true)
    }

    @inline(__always) mutating func appendNull() {
        offsets.append(Int32(truncatingIfNeeded: keys.length))
        validity.append(false)
    }

    mutating func export(to array: UnsafeMutablePointer<ArrowArray>, _ schema: UnsafeMutablePointer<ArrowSchema>, name: String) {
        let entryCount = keys.length
        let (pairArrays, pairSchemas) = ArrowExport.allocateChildren(2)
        keys.export(to: pairArrays[0]!, pairSchemas[0]!, name: "key")
        pairSchemas[0]!.pointee.flags = 0  // map keys are never null
        values.export(to: pairArrays[1]!, pairSchemas[1]!, name: "value")
        let (entryArray, entrySchema) = ArrowExport.allocateChildren(1)
        ArrowExport.fill(entryArray[0]!, length: entryCount, nullCount: 0, buffers: [nil], children: pairArrays, count: 2)
        ArrowExport.fill(entrySchema[0]!, format: "+s", name: "entries", children: pairSchemas, count: 2)
        entrySchema[0]!.pointee.flags = 0
        ArrowExport.fill(array, length: length, nullCount: validity.nullCount, buffers: [validity.take(), offsets.take()],
                         children: entryArray, count: 1)
        ArrowExport.fill(schema, format: "+m", name: name, children: entrySchema, count: 1)
    }

    mutating func discard() { validity.free(); offsets.free(); keys.discard(); values.discard() }
}

/// A column of a few known words, dictionary-encoded ("c": int8 indices into a utf8 dictionary
/// of the words): a row costs one byte, and pandas reads it as a categorical.
struct DictionaryColumn: ArrowColumn {
    let words: [StaticString]
    var validity: ArrowValidity
    var indices: ArrowBuffer

    init(_ words: [StaticString], capacity rows: Int) {
        self.words = words
        validity = ArrowValidity(capacity: rows)
        indices = ArrowBuffer(capacity: rows)
    }

    var length: Int { validity.length }
    var exhausted: Bool { validity.exhausted || indices.exhausted }

    /// Row value `words[index]`.
    @inline(__always) mutating func append(_ index: Int8) {
        indices.append(index)
        validity.append(true)
    }

    @inline(__always) mutating func appendNull() {
        indices.append(Int8(0))
        validity.append(false)
    }

    mutating func export(to array: UnsafeMutablePointer<ArrowArray>, _ schema: UnsafeMutablePointer<ArrowSchema>, name: String) {
        var dictionary = StringColumn(capacity: words.count, bytesPerRow: 8)
        for word in words { dictionary.append(word) }
        let valuesArray = calloc(1, MemoryLayout<ArrowArray>.stride)!.bindMemory(to: ArrowArray.self, capacity: 1)
        let valuesSchema = calloc(1, MemoryLayout<ArrowSchema>.stride)!.bindMemory(to: ArrowSchema.self, capacity: 1)
        dictionary.export(to: valuesArray, valuesSchema, name: "")
        ArrowExport.fill(array, length: length, nullCount: validity.nullCount, buffers: [validity.take(), indices.take()])
        array.pointee.dictionary = valuesArray
        ArrowExport.fill(schema, format: "c", name: name)
        schema.pointee.dictionary = valuesSchema
    }

    mutating func discard() { validity.free(); indices.free() }
}
