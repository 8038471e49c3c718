/// One character the corrector changed. Line and column are 1-based.
public struct MRZCharacterChange: Sendable, Equatable, Hashable, Codable {
    public var line: Int
    public var column: Int
    public var from: String
    public var to: String

    public init(line: Int, column: Int, from: String, to: String) {
        self.line = line
        self.column = column
        self.from = from
        self.to = to
    }
}

/// The outcome of OCR-error correction.
public struct MRZCorrection: Sendable, Equatable, Hashable, Codable {
    public enum Outcome: String, Sendable, Codable, Hashable, CaseIterable {
        /// The MRZ was valid as read.
        case unchanged
        /// Exactly one correction makes every check digit hold; ``changes`` lists it.
        case corrected
        /// More than one correction fits equally well; ``alternatives`` lists them and none is picked.
        case ambiguous
        /// No correction within reach makes the MRZ valid; ``result`` is the best reading, still invalid.
        case uncorrectable
    }

    public var outcome: Outcome
    /// Every changed position, for ``Outcome/corrected``; for the other outcomes, the changes that the
    /// character classes alone forced (a letter in a date, a digit in a name).
    public var changes: [MRZCharacterChange]
    /// The corrected MRZ when ``outcome`` is `corrected` or `unchanged`; otherwise the reading with the
    /// forced changes applied.
    public var result: MRZResult
    /// For ``Outcome/ambiguous``: the candidate MRZs (lines joined by `\n`), each valid, at most
    /// ``MRZCorrector/maxAlternatives``.
    public var alternatives: [String]
}

/// Corrects typical OCR confusions in MRZ text, guided by each position's character class and the
/// check digits (ICAO 9303-3 §4.9).
///
/// 1. Each position has a class: digits only (dates, check digits), letters only (codes, names, sex) or
///    both (document number, optional data). A character of the wrong class is replaced by its usual
///    confusion partner (`O`→`0`, `I`→`1`, `B`→`8`, `S`→`5`, `Z`→`2`, `G`→`6`, `D`/`Q`→`0`, and back).
/// 2. In the trailing fillers of a field, a `K` after `<<` is read as the filler it usually is.
/// 3. Where a document-number or personal-number check digit (or the composite) still fails, the
///    alphanumeric positions are tried with their confusion partners, fewest changes first. One fitting
///    correction is applied; several are reported as ambiguous.
///
/// The 7-3-1 weights cannot see `<`↔`0`↔`A`/`K`/`U`, nor `G`↔`6` (values 16 and 6): such swaps are
/// never made by the check-digit search.
public struct MRZCorrector: Sendable {
    public var parser: MRZParser
    /// The most changes tried within one check-digit group.
    public var maxChangesPerGroup = 3
    public var maxAlternatives = 8

    public init(parser: MRZParser = MRZParser()) {
        self.parser = parser
    }


    static let toDigit: [UInt8: UInt8] = [
        UInt8(ascii: "O"): UInt8(ascii: "0"), UInt8(ascii: "Q"): UInt8(ascii: "0"), UInt8(ascii: "D"): UInt8(ascii: "0"),
        UInt8(ascii: "U"): UInt8(ascii: "0"), UInt8(ascii: "I"): UInt8(ascii: "1"), UInt8(ascii: "L"): UInt8(ascii: "1"),
        UInt8(ascii: "Z"): UInt8(ascii: "2"), UInt8(ascii: "S"): UInt8(ascii: "5"), UInt8(ascii: "G"): UInt8(ascii: "6"),
        UInt8(ascii: "B"): UInt8(ascii: "8"), UInt8(ascii: "A"): UInt8(ascii: "4"), UInt8(ascii: "T"): UInt8(ascii: "7"),
    ]
    static let toLetter: [UInt8: UInt8] = [
        UInt8(ascii: "0"): UInt8(ascii: "O"), UInt8(ascii: "1"): UInt8(ascii: "I"), UInt8(ascii: "2"): UInt8(ascii: "Z"),
        UInt8(ascii: "4"): UInt8(ascii: "A"), UInt8(ascii: "5"): UInt8(ascii: "S"), UInt8(ascii: "6"): UInt8(ascii: "G"),
        UInt8(ascii: "7"): UInt8(ascii: "T"), UInt8(ascii: "8"): UInt8(ascii: "B"),
    ]
    /// Confusion partners tried in alphanumeric fields.
    static let partners: [UInt8: [UInt8]] = {
        let groups = ["0ODQ", "1IL", "2Z", "5S", "8B", "4A", "7T"]
        var table: [UInt8: [UInt8]] = [:]
        for group in groups {
            let bytes = Array(group.utf8)
            for b in bytes { table[b] = bytes.filter { $0 != b } }
        }
        return table
    }()

    /// Corrects MRZ text; throws only when the text has no MRZ shape at all.
    public func correct(_ text: String) throws(MRZError) -> MRZCorrection {
        // OCR engines sometimes answer in lower case; that is a correction like any other.
        var upper = Array(text.utf8)
        var lowered: [Int] = []
        for i in upper.indices where upper[i] >= 0x61 && upper[i] <= 0x7A { upper[i] -= 0x20; lowered.append(i) }
        // The document code and issuing State (line 1, positions 1–5) are letters in every layout, and
        // the layout is chosen from them: read them as letters before choosing (`1DFRA` is `IDFRA`).
        var codeFixes: [MRZCharacterChange] = []
        if var i = upper.firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) {
            let start = i
            while i < upper.count && i < start + 5 {
                if let letter = MRZCorrector.toLetter[upper[i]] {
                    codeFixes.append(MRZCharacterChange(line: 1, column: i - start + 1,
                                                        from: String(UnicodeScalar(upper[i])), to: String(UnicodeScalar(letter))))
                    upper[i] = letter
                }
                i += 1
            }
        }
        let located: Result<(MRZFormat, [UInt8], [MRZCharacterChange]), MRZError> = upper.withUnsafeBufferPointer { buffer in
            Result { () throws(MRZError) in
                let lines = try MRZLines(buffer)
                let format = try lines.format()
                let canonical = Array(lines.joined().utf8)
                // Map lower-case fixes back to MRZ positions.
                var changes: [MRZCharacterChange] = []
                if !lowered.isEmpty {
                    let base = buffer.baseAddress!
                    for line in 0..<lines.count {
                        let start = lines.start(line)
                        for column in 0..<format.lineLength where lowered.contains(start + column) {
                            let b = base[start + column]
                            changes.append(MRZCharacterChange(line: line + 1, column: column + 1,
                                                              from: String(UnicodeScalar(b + 0x20)), to: String(UnicodeScalar(b))))
                        }
                    }
                }
                return (format, canonical, changes)
            }
        }
        let (format, original, lowerChanges) = try located.get()
        var work = Work(format: format, bytes: original, parser: parser)
        var forced = lowerChanges + codeFixes
        work.applyClassFixes(&forced)
        work.applyTrailingFillerFixes(&forced)

        forced.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        let forcedResult = work.parse()
        if forcedResult.isValid {
            return MRZCorrection(outcome: forced.isEmpty ? .unchanged : .corrected,
                                 changes: forced, result: forcedResult, alternatives: [])
        }
        let candidates = work.search(maxChanges: maxChangesPerGroup, limit: maxAlternatives + 1)
        if candidates.count == 1 {
            var all = forced + work.diff(from: work.bytes, to: candidates[0])
            all.sort { ($0.line, $0.column) < ($1.line, $1.column) }
            work.bytes = candidates[0]
            return MRZCorrection(outcome: .corrected, changes: all, result: work.parse(), alternatives: [])
        }
        if candidates.count > 1 {
            let texts = candidates.prefix(maxAlternatives).map { Work.text(of: $0, format: format) }
            return MRZCorrection(outcome: .ambiguous, changes: forced, result: forcedResult, alternatives: Array(texts))
        }
        return MRZCorrection(outcome: .uncorrectable, changes: forced, result: forcedResult, alternatives: [])
    }

    /// The MRZ being corrected: lines of equal length, one after the other with no separator.
    struct Work {
        let format: MRZFormat
        let layout: MRZLayout
        var bytes: [UInt8]
        let classes: [MRZCharacterClass]
        let parser: MRZParser
        var width: Int { format.lineLength }

        init(format: MRZFormat, bytes canonical: [UInt8], parser: MRZParser) {
            self.format = format
            self.layout = MRZLayout.of(format)
            self.bytes = canonical.filter { $0 != 0x0A }
            self.parser = parser
            self.classes = Work.classes(of: layout)
        }

        static func text(of bytes: [UInt8], format: MRZFormat) -> String {
            var out: [UInt8] = []
            for line in 0..<format.lineCount {
                if line > 0 { out.append(0x0A) }
                out.append(contentsOf: bytes[(line * format.lineLength)..<((line + 1) * format.lineLength)])
            }
            return String(decoding: out, as: UTF8.self)
        }

        func parse() -> MRZResult {
            // The text has the MRZ shape by construction, so parsing cannot throw here.
            (try? parser.parse(Work.text(of: bytes, format: format)))!
        }

        func index(_ p: Position) -> Int { p.line * width + p.column }
        func indices(_ s: Span) -> Range<Int> { (s.line * width + s.start)..<(s.line * width + s.end) }

        /// The layout's character classes (``MRZFormat/characterClasses``), line after line.
        static func classes(of layout: MRZLayout) -> [MRZCharacterClass] {
            layout.characterClasses.flatMap { $0 }
        }

        func change(_ i: Int, _ from: UInt8, _ to: UInt8) -> MRZCharacterChange {
            MRZCharacterChange(line: i / width + 1, column: i % width + 1,
                               from: String(UnicodeScalar(from)), to: String(UnicodeScalar(to)))
        }

        func diff(from a: [UInt8], to b: [UInt8]) -> [MRZCharacterChange] {
            a.indices.filter { a[$0] != b[$0] }.map { change($0, a[$0], b[$0]) }
        }

        /// Step 1: characters of the wrong class take their usual confusion partner.
        mutating func applyClassFixes(_ changes: inout [MRZCharacterChange]) {
            for i in bytes.indices {
                let b = bytes[i]
                let isDigit = b &- 0x30 < 10, isLetter = b &- 0x41 < 26
                var replacement: UInt8?
                switch classes[i] {
                case .digit where isLetter: replacement = MRZCorrector.toDigit[b]
                case .digitOrFiller where isLetter:
                    replacement = b == UInt8(ascii: "K") ? UInt8(ascii: "<") : MRZCorrector.toDigit[b]
                case .letterOrFiller where isDigit, .sex where isDigit: replacement = MRZCorrector.toLetter[b]
                default: break
                }
                if let r = replacement {
                    changes.append(change(i, b, r))
                    bytes[i] = r
                }
            }
        }

        /// Step 2: in the trailing run of `K` and `<` that ends a name or alphanumeric field, the `K`s
        /// after the first `<<` are fillers misread (`K` and `<` also look alike to the check digits).
        mutating func applyTrailingFillerFixes(_ changes: inout [MRZCharacterChange]) {
            var spans: [Span] = [layout.name, layout.primaryName, layout.secondaryName, layout.optionalData1,
                                 layout.optionalData2].compactMap { $0 }
            if layout.name != nil, let n = layout.name { spans = spans.filter { $0 != n } + [n] }
            let k = UInt8(ascii: "K"), filler = UInt8(ascii: "<")
            for span in spans {
                let range = indices(span)
                var runStart = range.upperBound
                while runStart > range.lowerBound && (bytes[runStart - 1] == k || bytes[runStart - 1] == filler) { runStart -= 1 }
                var seenDouble = false
                var i = runStart
                while i < range.upperBound {
                    if !seenDouble, i + 1 < range.upperBound, bytes[i] == filler, bytes[i + 1] == filler { seenDouble = true }
                    if seenDouble && bytes[i] == k {
                        changes.append(change(i, k, filler))
                        bytes[i] = filler
                    }
                    i += 1
                }
            }
        }

        /// A check-digit group: the positions it covers, in order, and where its digit stands.
        struct Group {
            var covered: [Int]
            var check: Int
            /// Positions whose character may be swapped for a confusion partner.
            var free: [Int]
        }

        func groups() -> [Group] {
            var groups: [Group] = []
            let numberCheck = index(layout.documentNumberCheck)
            var numberCovered = Array(indices(layout.documentNumber))
            var check = numberCheck
            if let continuation = layout.longNumberContinuation, bytes[numberCheck] == UInt8(ascii: "<") {
                let range = indices(continuation)
                var end = range.lowerBound
                while end < range.upperBound && bytes[end] != UInt8(ascii: "<") { end += 1 }
                if end > range.lowerBound {
                    numberCovered += Array(range.lowerBound..<(end - 1))
                    check = end - 1
                }
            }
            groups.append(Group(covered: numberCovered, check: check, free: numberCovered.filter { classes[$0] == .alphanumeric }))
            if let span = layout.optionalData1, let p = layout.optionalDataCheck {
                let covered = Array(indices(span))
                groups.append(Group(covered: covered, check: index(p), free: covered))
            }
            return groups
        }

        func checkDigit(_ candidate: [UInt8], _ positions: [Int]) -> UInt8 {
            var sum = 0
            for (n, i) in positions.enumerated() {
                sum += MRZCheckDigit.value(candidate[i]) * MRZCheckDigit.weights[n % 3]
            }
            return UInt8(sum % 10) + 0x30
        }

        /// Fewest-change assignments of confusion partners to `free` that satisfy `accept`.
        func minimalFixes(_ start: [UInt8], free: [Int], maxChanges: Int, limit: Int,
                          accept: ([UInt8]) -> Bool) -> [[UInt8]] {
            if accept(start) { return [start] }
            let options = free.filter { MRZCorrector.partners[start[$0]] != nil }
            guard !options.isEmpty else { return [] }
            for k in 1...min(maxChanges, options.count) {
                var found: [[UInt8]] = []
                var chosen: [Int] = []
                func recurse(_ from: Int, _ candidate: inout [UInt8]) {
                    if found.count >= limit { return }
                    if chosen.count == k {
                        if accept(candidate) { found.append(candidate) }
                        return
                    }
                    guard from < options.count else { return }
                    for j in from..<options.count {
                        let i = options[j]
                        let original = candidate[i]
                        for partner in MRZCorrector.partners[original]! {
                            candidate[i] = partner
                            chosen.append(i)
                            recurse(j + 1, &candidate)
                            chosen.removeLast()
                        }
                        candidate[i] = original
                    }
                }
                var candidate = start
                recurse(0, &candidate)
                if !found.isEmpty { return found }
            }
            return []
        }

        /// Step 3: per group, then the composite, fewest changes first; returns every valid candidate
        /// found at the smallest number of changes (up to `limit`).
        func search(maxChanges: Int, limit: Int) -> [[UInt8]] {
            var partial: [[UInt8]] = [bytes]
            for group in groups() {
                var next: [[UInt8]] = []
                for candidate in partial {
                    let accept: ([UInt8]) -> Bool = { c in
                        c[group.check] == self.checkDigit(c, group.covered)
                            || (c[group.check] == UInt8(ascii: "<") && group.covered.allSatisfy { c[$0] == UInt8(ascii: "<") })
                    }
                    next += minimalFixes(candidate, free: group.free, maxChanges: maxChanges, limit: limit, accept: accept)
                }
                if next.isEmpty { return [] }
                partial = next
            }
            // Positions under the composite only (TD1 and TD2 optional data).
            let compositeOnly: [Int] = {
                guard layout.composite != nil else { return [] }
                let owned = Set(groups().flatMap { $0.covered + [$0.check] })
                return [layout.optionalData1, layout.optionalData2].compactMap { $0 }
                    .flatMap { Array(indices($0)) }.filter { !owned.contains($0) && classes[$0] == .alphanumeric }
            }()
            var results: [[UInt8]] = []
            var best = Int.max
            for candidate in partial {
                let fixes = minimalFixes(candidate, free: compositeOnly, maxChanges: maxChanges, limit: limit) { c in
                    var w = self
                    w.bytes = c
                    return w.parse().isValid
                }
                for fix in fixes {
                    let cost = zip(fix, bytes).filter { $0 != $1 }.count
                    if cost < best { best = cost; results = [fix] } else if cost == best && !results.contains(fix) { results.append(fix) }
                }
            }
            return Array(results.prefix(limit))
        }
    }
}
