#if canImport(Glibc)
import Glibc
#endif

/// One MRZ record from an input: its bytes (lines joined by `\n`) and where it began.
struct Record: Sendable {
    enum Kind: Sendable { case text, json, tooLong }
    var kind: Kind = .text
    var bytes: [UInt8] = []
    var lineCount = 0
    var firstLineLength = 0
    /// 1-based line of the input where the record starts.
    var startLine = 0
}

/// Reads records from a file descriptor in fixed chunks, so memory stays flat however long the stream.
///
/// Records are separated by blank lines (or `#` comment lines); MRZs written back to back are split by
/// line count (3 lines of 30 characters, else 2). A line starting with `{` is one JSON record. A line longer than
/// ``maxLineBytes`` becomes an error record and its bytes are skipped, not stored.
/// A struct, not a class: its fields are touched for every byte, and a class would pay a runtime
/// exclusivity check on each access.
struct RecordReader {
    static let maxLineBytes = 1024
    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var atEOF = false
    private(set) var lineNumber = 0
    private(set) var readError: Int32 = 0

    private var line: [UInt8] = []
    private var lineTooLong = false
    private var pending = Record()

    init(fd: Int32) {
        self.fd = fd
        line.reserveCapacity(RecordReader.maxLineBytes)
        pending.bytes.reserveCapacity(128)
    }

    /// Fills `line` with the next line (without `\n`); false at end of input.
    private mutating func nextLine() -> Bool {
        line.removeAll(keepingCapacity: true)
        lineTooLong = false
        var sawAny = false
        while true {
            if start == end {
                if atEOF { return sawAny }
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    readError = errno
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
                if line.count + take > RecordReader.maxLineBytes {
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
    mutating func next() -> Record? {
        if let tooLong = pendingTooLong {
            pendingTooLong = nil
            return Record(kind: .tooLong, bytes: [], lineCount: 0, firstLineLength: 0, startLine: tooLong)
        }
        while nextLine() {
            // Trim spaces, tabs and a CR at either end.
            var s = 0, e = line.count
            while s < e && (line[s] == 0x20 || line[s] == 0x09 || line[s] == 0x0D) { s += 1 }
            while e > s && (line[e - 1] == 0x20 || line[e - 1] == 0x09 || line[e - 1] == 0x0D) { e -= 1 }
            let currentLine = lineNumber == 0 ? 1 : lineNumber
            if lineTooLong {
                if let done = takePending() { pendingTooLong = currentLine; return done }
                return Record(kind: .tooLong, bytes: [], lineCount: 0, firstLineLength: 0, startLine: currentLine)
            }
            // Blank lines end a record; lines starting with '#' are comments and do too.
            if e == s || line[s] == UInt8(ascii: "#") {
                if let done = takePending() { return done }
                continue
            }
            if line[s] == UInt8(ascii: "{") && pending.lineCount == 0 {
                return Record(kind: .json, bytes: Array(line[s..<e]), lineCount: 1, firstLineLength: e - s, startLine: currentLine)
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

    private mutating func takePending() -> Record? {
        guard pending.lineCount > 0 else { return nil }
        let record = pending
        pending.bytes.removeAll(keepingCapacity: true)
        pending.lineCount = 0
        return record
    }
}
