/// Counts of the values 0…255 (grey levels, grey differences) and their percentiles.
public struct Histogram256: Sendable {
    public private(set) var counts = [Int](repeating: 0, count: 256)
    public private(set) var total = 0

    public init() {}

    public init(_ values: some Sequence<UInt8>) {
        for v in values { counts[Int(v)] += 1 }
        total = counts.reduce(0, +)
    }

    /// The same for an array of pixels, counted through its buffer: the generic initialiser is not
    /// specialised across modules and walks a sequence at ~90 instructions a value (184M on the two
    /// straightened views of a failed PDF417 attempt).
    public init(_ values: [UInt8]) {
        var counts = [Int](repeating: 0, count: 256)
        counts.withUnsafeMutableBufferPointer { c in
            values.withUnsafeBufferPointer { v in for x in v { c[Int(x)] &+= 1 } }
        }
        self.counts = counts
        total = values.count
    }

    /// A histogram of counts already made (`counts` has 256 entries).
    public init(counts: [Int]) {
        precondition(counts.count == 256, "a histogram of 0…255 has 256 counts")
        self.counts = counts
        total = counts.reduce(0, +)
    }

    public mutating func add(_ value: Int) {
        counts[max(0, min(255, value))] += 1
        total += 1
    }

    /// The smallest value with at least the fraction `q` of the counts at or below it.
    public func percentile(_ q: Double) -> Int {
        var seen = 0
        for (v, n) in counts.enumerated() {
            seen += n
            if Double(seen) >= q * Double(total) { return v }
        }
        return 255
    }
}
