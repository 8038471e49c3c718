import CIDKit

/// A column of inputs given through the Arrow C Data Interface: utf8 ("u"), large utf8 ("U"),
/// binary ("z") or large binary ("Z"), with its offset, length and validity. Only read, never
/// released: the caller keeps it.
public struct ArrowStringInput {
    let validity: UnsafePointer<UInt8>?
    let offsets32: UnsafePointer<Int32>?
    let offsets64: UnsafePointer<Int64>?
    let data: UnsafePointer<UInt8>?
    let offset: Int
    public let count: Int

    /// Reads the array's layout, or says what is wrong with it.
    public init(array: UnsafePointer<ArrowArray>?, schema: UnsafePointer<ArrowSchema>?) throws(ArrowInputError) {
        guard let array, let schema else { throw ArrowInputError("the input array or its schema is NULL") }
        guard array.pointee.release != nil else { throw ArrowInputError("the input array is released") }
        guard let format = schema.pointee.format else { throw ArrowInputError("the input schema has no format") }
        let f = String(cString: format)
        let large: Bool
        switch f {
        case "u", "z": large = false
        case "U", "Z": large = true
        default:
            throw ArrowInputError("the input column has Arrow type \"\(f.prefix(20))\": give strings (utf8 \"u\", large utf8 \"U\") or binary (\"z\", \"Z\")")
        }
        let a = array.pointee
        guard a.length >= 0, a.offset >= 0, a.n_buffers == 3, let buffers = a.buffers else {
            throw ArrowInputError("the input array's length, offset or buffers do not describe a string column")
        }
        count = Int(a.length)
        offset = Int(a.offset)
        validity = a.null_count == 0 ? nil : buffers[0]?.assumingMemoryBound(to: UInt8.self)
        guard count == 0 || buffers[1] != nil else { throw ArrowInputError("the input array has no offsets buffer") }
        offsets32 = large ? nil : buffers[1]?.assumingMemoryBound(to: Int32.self)
        offsets64 = large ? buffers[1]?.assumingMemoryBound(to: Int64.self) : nil
        data = buffers[2]?.assumingMemoryBound(to: UInt8.self)
        // Offsets that go backwards or below zero would read outside the data: refused here, in
        // one pass, rather than trusted row by row.
        var previous = 0
        for j in offset...(offset + count) where count > 0 {
            let o = offsets32.map { Int($0[j]) } ?? Int(offsets64![j])
            guard o >= previous else { throw ArrowInputError("the input array's offsets go backwards at row \(j - offset)") }
            previous = o
        }
        guard count == 0 || previous == 0 || data != nil else { throw ArrowInputError("the input array has no data buffer") }
    }

    /// Row `i`'s bytes, `nil` when it is null.
    @inline(__always) public func value(_ i: Int) -> UnsafeBufferPointer<UInt8>? {
        let j = i &+ offset
        if let validity, validity[j >> 3] & (1 << UInt8(j & 7)) == 0 { return nil }
        let start: Int, end: Int
        if let offsets32 {
            start = Int(offsets32[j]); end = Int(offsets32[j &+ 1])
        } else {
            start = Int(offsets64![j]); end = Int(offsets64![j &+ 1])
        }
        guard end > start, let data else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: data + start, count: end &- start)
    }
}

/// An input column the tables cannot read.
public struct ArrowInputError: Error, Sendable {
    public var message: String
    init(_ message: String) { self.message = message }
}
