/// Counts of the values 0…255 (gray levels, gray differences) and their percentiles.
public struct Histogram256: Sendable {
    public private(set) var counts = [Int](repeating: 0, count: 256)
    public private(set) var total = 0

    public init() {}

    /// Contiguous values (an image's pixels) are counted through their buffer: a sequence walked
    /// element by element through this generic, unspecialized across modules, took ~90
    /// instructions a value (184M on the two straightened views of a failed PDF417 attempt).
    public init(_ values: some Sequence<UInt8>) {
        var counts = [Int](repeating: 0, count: 256)
        let counted: Void? = counts.withUnsafeMutableBufferPointer { c in
            values.withContiguousStorageIfAvailable { v in for x in v { c[Int(x)] &+= 1 } }
        }
        if counted == nil { for v in values { counts[Int(v)] += 1 } }
        self.counts = counts
        total = counts.reduce(0, +)
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
