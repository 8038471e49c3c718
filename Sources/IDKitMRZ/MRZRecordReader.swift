import IDKitCore

/// One MRZ record from an input: its bytes (lines joined by `\n`) and where it began.
public struct MRZRecord: Sendable {
    /// MRZ text, a JSON object on one line, or a line over ``MRZRecordReader/maxLineBytes`` (skipped).
    public enum Kind: Sendable { case text, json, tooLong }
    public var kind: Kind = .text
    public var bytes: [UInt8] = []
    public var lineCount = 0
    public var firstLineLength = 0
    /// 1-based line of the input where the record starts.
    public var startLine = 0

    public init(kind: Kind = .text, bytes: [UInt8] = [], lineCount: Int = 0, firstLineLength: Int = 0, startLine: Int = 0) {
        self.kind = kind
        self.bytes = bytes
        self.lineCount = lineCount
        self.firstLineLength = firstLineLength
        self.startLine = startLine
    }
}

/// The MRZ record stream of `idkit validate` (and of any front end that reads MRZs in bulk): reads
/// records from a file descriptor in fixed chunks, so memory stays flat however long the stream.
///
/// Records are separated by blank lines (or `#` comment lines); MRZs written back to back are split by
/// line count (3 lines of 30 characters, else 2). A line starting with `{` is one JSON record. A line longer than
/// ``maxLineBytes`` becomes an error record and its bytes are skipped, not stored.
/// A struct, not a class: its fields are touched for every byte, and a class would pay a runtime
/// exclusivity check on each access.
public struct MRZRecordReader {
    public static let maxLineBytes = 1024
    let fd: Int32
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEOF = false
    public private(set) var lineNumber = 0
    /// `errno` of a failed read (0: none); the stream then ends.
    public private(set) var readError: Int32 = 0

    private var line: [UInt8] = []
    private var lineTooLong = false
    private var pending = MRZRecord()

    public init(fd: Int32) {
        self.fd = fd
        buffer = [UInt8](repeating: 0, count: fd >= 0 ? 1 << 16 : 0)
        line.reserveCapacity(MRZRecordReader.maxLineBytes)
        pending.bytes.reserveCapacity(128)
    }

    /// The records of bytes already in memory (a request body), by the same rules.
    public init(bytes: [UInt8]) {
        self.init(fd: -1)
        buffer = bytes
        end = bytes.count
        atEOF = true
    }

    /// Fills `line` with the next line (without `\n`); false at end of input.
    private mutating func nextLine() -> Bool {
        line.removeAll(keepingCapacity: true)
        lineTooLong = false
        var sawAny = false
        while true {
            if start == end {
                if atEOF { return sawAny }
                let result = buffer.withUnsafeMutableBytes { b in Result { () throws(SystemCallError) in try SystemCalls.read(fd, into: b) } }
                guard case .success(let n) = result else {
                    if case .failure(let error) = result { readError = error.code }
                    atEOF = true
                    return sawAny
                }
                if n == 0 { atEOF = true; return sawAny }
                start = 0
                end = n
            }
            sawAny = true
            var i = start
            while i < end && buffer[i] != 0x0A { i += 1 }
            let take = i - start
            if !lineTooLong {
                if line.count + take > MRZRecordReader.maxLineBytes {
                    lineTooLong = true
                } else {
                    line.append(contentsOf: buffer[start..<i])
                }
            }
            if i < end {
                start = i + 1
                lineNumber += 1
                return true
            }
            start = end
        }
    }

    /// The next record, or nil at end of input.
    public mutating func next() -> MRZRecord? {
        if let tooLong = pendingTooLong {
            pendingTooLong = nil
            return MRZRecord(kind: .tooLong, bytes: [], lineCount: 0, firstLineLength: 0, startLine: tooLong)
        }
        while nextLine() {
            // Trim spaces, tabs and a CR at either end.
            var s = 0, e = line.count
            while s < e && (line[s] == 0x20 || line[s] == 0x09 || line[s] == 0x0D) { s += 1 }
            while e > s && (line[e - 1] == 0x20 || line[e - 1] == 0x09 || line[e - 1] == 0x0D) { e -= 1 }
            let currentLine = lineNumber == 0 ? 1 : lineNumber
            if lineTooLong {
                if let done = takePending() { pendingTooLong = currentLine; return done }
                return MRZRecord(kind: .tooLong, bytes: [], lineCount: 0, firstLineLength: 0, startLine: currentLine)
            }
            // Blank lines end a record; lines starting with '#' are comments and do too.
            if e == s || line[s] == UInt8(ascii: "#") {
                if let done = takePending() { return done }
                continue
            }
            if line[s] == UInt8(ascii: "{") && pending.lineCount == 0 {
                return MRZRecord(kind: .json, bytes: Array(line[s..<e]), lineCount: 1, firstLineLength: e - s, startLine: currentLine)
            }
            if pending.lineCount == 0 {
                pending.startLine = currentLine
                pending.firstLineLength = e - s
            } else {
                pending.bytes.append(0x0A)
            }
            pending.bytes.append(contentsOf: line[s..<e])
            pending.lineCount += 1
            let expected = pending.firstLineLength == 30 ? 3 : (pending.firstLineLength == 36 || pending.firstLineLength == 44 ? 2 : 3)
            if pending.lineCount >= expected, let done = takePending() { return done }
        }
        return takePending()
    }

    private var pendingTooLong: Int?

    private mutating func takePending() -> MRZRecord? {
        guard pending.lineCount > 0 else { return nil }
        let record = pending
        pending.bytes.removeAll(keepingCapacity: true)
        pending.lineCount = 0
        return record
    }
}
