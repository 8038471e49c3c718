// The per-layout masks and field places the fast path reads, built once per layout.
extension MRZFastPath {
    /// Per-layout byte masks (the top bit of each byte, or all of it, set where a rule applies), built once.
    /// A struct of plain values and pointers, so that using it costs no reference counting.
    /// `@unchecked Sendable`: the masks are written in `init` (of the six static tables, never freed)
    /// and only read afterwards.
    struct Table: @unchecked Sendable {
        /// Words that hold any part of the text.
        let wordCount: Int
        /// Groups: document number, date of birth, date of expiry, optional data, composite (−1: none).
        let slots: (Int, Int, Int, Int, Int)
        /// All masks in one block, per word: free, mustDigit, noDigit, then weight 7, 3, 1 of each group.
        let flat: UnsafeMutablePointer<UInt64>
        /// Per word, a bit for each group covering any of its bytes; and where each check digit stands.
        let activeGroupBits: UnsafeMutablePointer<UInt8>
        let checkPositions: UnsafeMutablePointer<Int>
        let stride: Int

        init(_ format: MRZFormat) {
            let layout = MRZLayout.of(format)
            let width = format.lineLength
            let total = format.lineCount * width + format.lineCount - 1
            let count = MRZFastPath.words * 8
            func offset(_ line: Int, _ column: Int) -> Int { line * (width + 1) + column }
            var freeBytes = [UInt8](repeating: 0, count: count)
            var mustBytes = freeBytes, noneBytes = freeBytes
            for i in 0..<count where i >= total || (i % (width + 1)) == width { freeBytes[i] = 0x80 }
            func mark(_ bytes: inout [UInt8], _ span: Span?) {
                guard let span else { return }
                for c in span.start..<span.end { bytes[offset(span.line, c)] = 0x80 }
            }
            func mark(_ bytes: inout [UInt8], _ p: Position?) {
                guard let p else { return }
                bytes[offset(p.line, p.column)] = 0x80
            }
            for span in [layout.dateOfBirth, layout.dateOfExpiry] { mark(&mustBytes, span) }
            for p in [layout.dateOfBirthCheck, layout.dateOfExpiryCheck, layout.documentNumberCheck, layout.composite] { mark(&mustBytes, p) }
            for span in [layout.documentCode, layout.issuingState, layout.nationality, layout.name, layout.primaryName, layout.secondaryName] {
                mark(&noneBytes, span)
            }
            mark(&noneBytes, layout.sex)
            func words(_ bytes: [UInt8]) -> [UInt64] {
                (0..<MRZFastPath.words).map { w in
                    (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[w * 8 + $1]) << (8 * UInt64($1)) }
                }
            }
            var w7: [[UInt64]] = [], w3: [[UInt64]] = [], w1: [[UInt64]] = []
            var checkOffsets: [Int] = []
            func group(_ spans: [Span], _ check: Position) -> Int {
                var by = [[UInt8]](repeating: [UInt8](repeating: 0, count: count), count: 3)
                var k = 0
                for span in spans {
                    for c in span.start..<span.end {
                        by[k % 3][offset(span.line, c)] = 0xFF
                        k += 1
                    }
                }
                w7.append(words(by[0]))
                w3.append(words(by[1]))
                w1.append(words(by[2]))
                checkOffsets.append(offset(check.line, check.column))
                return checkOffsets.count - 1
            }
            let number = group([layout.documentNumber], layout.documentNumberCheck)
            let birth = group([layout.dateOfBirth], layout.dateOfBirthCheck)
            let expiry = layout.dateOfExpiry.map { group([$0], layout.dateOfExpiryCheck!) } ?? -1
            let optional = layout.optionalDataCheck.map { group([layout.optionalData1!], $0) } ?? -1
            let composite = layout.composite.map { group(Array(layout.compositeSpans), $0) } ?? -1
            self.wordCount = (total + 7) / 8
            let free = words(freeBytes), mustDigit = words(mustBytes), noDigit = words(noneBytes)
            self.slots = (number, birth, expiry, optional, composite)
            let groupCount = checkOffsets.count
            var active = [UInt8](repeating: 0, count: MRZFastPath.words)
            for i in 0..<MRZFastPath.words {
                for g in 0..<groupCount {
                    let any: UInt64 = w7[g][i] | w3[g][i] | w1[g][i]
                    if any != 0 { active[i] |= UInt8(1) << UInt8(g) }
                }
            }
            // Bit 7: a word of letters and fillers only (codes and names), outside every check digit.
            for i in 0..<MRZFastPath.words where active[i] == 0 && (noDigit[i] | free[i]) == MRZFastPath.high {
                active[i] |= 0x80
            }
            activeGroupBits = .allocate(capacity: MRZFastPath.words)
            activeGroupBits.initialize(from: active, count: MRZFastPath.words)
            checkPositions = .allocate(capacity: max(1, checkOffsets.count))
            checkPositions.initialize(from: checkOffsets, count: checkOffsets.count)
            stride = 3 + 3 * groupCount
            func at(_ span: Span) -> Int { offset(span.line, span.start) }
            places.code = at(layout.documentCode)
            places.state = at(layout.issuingState)
            if let n = layout.nationality { places.nationality = at(n) }
            places.sex = offset(layout.sex.line, layout.sex.column)
            places.dob = at(layout.dateOfBirth)
            if let e = layout.dateOfExpiry { places.doe = at(e) }
            places.number = at(layout.documentNumber)
            places.numberCount = layout.documentNumber.count
            if let n = layout.name { places.name = at(n); places.nameCount = n.count }
            if let p = layout.primaryName { places.primary = at(p); places.primaryCount = p.count }
            if let p = layout.secondaryName { places.secondary = at(p); places.secondaryCount = p.count }
            if let o = layout.optionalData1 { places.optional1 = at(o); places.optional1Count = o.count }
            if let o = layout.optionalData2 { places.optional2 = at(o); places.optional2Count = o.count }
            flat = .allocate(capacity: MRZFastPath.words * stride)
            for i in 0..<MRZFastPath.words {
                let row = flat + i * stride
                row[0] = free[i]
                row[1] = mustDigit[i]
                row[2] = noDigit[i]
                for g in 0..<groupCount {
                    row[3 + 3 * g] = w7[g][i]
                    row[4 + 3 * g] = w3[g][i]
                    row[5 + 3 * g] = w1[g][i]
                }
            }
        }

        /// Where each field starts in the text, and its length (−1: the layout has none), computed once.
        struct Places {
            var code = 0, state = 0, nationality = -1, sex = 0, dob = 0, doe = -1
            var number = 0, numberCount = 0
            var name = -1, nameCount = 0
            var primary = -1, primaryCount = 0, secondary = -1, secondaryCount = 0
            var optional1 = -1, optional1Count = 0, optional2 = -1, optional2Count = 0
        }
        var places = Places()

        /// The six tables in one never-freed allocation, in `MRZFormat.allCases` order: read through a
        /// pointer, so that a parse copies nothing from them.
        nonisolated(unsafe) static let all: UnsafeMutablePointer<Table> = {
            let tables = UnsafeMutablePointer<Table>.allocate(capacity: MRZFormat.allCases.count)
            for (i, format) in MRZFormat.allCases.enumerated() { (tables + i).initialize(to: Table(format)) }
            return tables
        }()

        static func of(_ format: MRZFormat) -> UnsafeMutablePointer<Table> {
            switch format {
            case .td1: return all
            case .td2: return all + 1
            case .td3: return all + 2
            case .mrvA: return all + 3
            case .mrvB: return all + 4
            case .franceID1988: return all + 5
            }
        }
    }
}
