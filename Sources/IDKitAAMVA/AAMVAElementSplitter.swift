internal import IDKitCore

// MARK: - Elements of a subfile

extension PayloadReader {
    /// Splits a subfile's bytes into elements, in one pass. Separators: the declared element
    /// separator, LF, RS and CR (a CR LF pair is one separator). A CR not followed by LF, or the
    /// declared segment terminator, ends the subfile. Returns the elements and the subfile's end.
    mutating func readElements(from start: Int, to limit: Int, header: Header, subfileType: SubfileType,
                               sawCRLF: inout Bool, sawWedge: inout Bool) -> (ElementTable, Int) {
        let separator = header.elementSeparator
        let terminator = header.segmentTerminator != Byte.cr && header.segmentTerminator != separator
            ? header.segmentTerminator : Byte.cr
        let origin = self.origin
        let version = min(max(header.version, 1), 11)
        let bytes = data
        var splitter = ElementSplitter(origin: origin)
        let table = data.withUnsafeBufferPointer { d -> ElementTable in
            // An element takes at least four bytes (identifier and separator): room for all.
            let table = ElementTable(bytes: bytes, capacity: (limit - start) / 4 + 2) { writer in
                splitter.split(d, from: start, to: limit, separator: separator, terminator: terminator, into: &writer)
            }
            // A keyboard wedge leaves one long token (a long address alone is not a reason to split).
            guard !subfileType.isJurisdiction, let plan = splitter.wedgePlan(d, version: version) else { return table }
            return ElementTable(bytes: bytes, capacity: plan.reduce(0) { $0 + ($1?.count ?? 1) }) { writer in
                splitter.splitWedge(d, plan: plan, into: &writer)
            }
        }
        sawCRLF = sawCRLF || splitter.sawCRLF
        sawWedge = sawWedge || splitter.sawWedge
        for r in splitter.notElements {
            warn(.unexpectedData, "skipped \(quote(r.lowerBound, min(r.count, 20))) which is not an element (identifier of 3 letters then the value)", at: r.lowerBound)
        }
        for p in splitter.repeated {
            warn(.duplicateElement, "element \(string(p..<p + 3)) appears again; the first is used", at: p)
        }
        if sawWedge, !warnings.contains(where: { $0.code == .separatorsMissing }) {
            warn(.separatorsMissing, "elements are not separated (keyboard wedge?); split on known element identifiers", at: start)
        }
        return (table, splitter.end)
    }
}

/// One pass over one subfile's bytes: tokens between separators, each an identifier of three
/// characters and its value, written into an `ElementTable` being made. Problems are collected
/// for the reader to report.
private struct ElementSplitter {
    let origin: [Int32]
    var notElements: [Range<Int>] = []
    var repeated: [Int] = []
    /// The first tokens, kept so that a keyboard-wedge subfile (one to three long tokens) can be
    /// split afterwards.
    var firstTokens = InlineArray<4, Range<Int>>(repeating: 0..<0)
    var tokenCount = 0
    var end = 0
    var sawCRLF = false
    var sawWedge = false

    init(origin: [Int32]) {
        self.origin = origin
    }

    mutating func split(_ d: UnsafeBufferPointer<UInt8>, from start: Int, to limit: Int, separator: UInt8, terminator: UInt8,
                        into table: inout ElementTable.Writer) {
        end = limit
        var tokenStart = start
        var i = start
        guard let raw = d.baseAddress.map(UnsafeRawPointer.init) else { return }
        let controlSeparator = separator <= 0x1E
        while i < limit {
            // Skip the value bytes (≥ 0x1F and not the separator) to the next byte that matters.
            if controlSeparator {
                // Eight bytes at a time: the lowest byte below 0x1F is exactly the first set bit
                // of (w - 0x1F…) & ~w & 0x80… (a borrow can only mark bytes above it).
                while i + 8 <= limit {
                    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    let control = (word &- 0x1F1F_1F1F_1F1F_1F1F) & ~word & 0x8080_8080_8080_8080
                    if control != 0 { i += control.trailingZeroBitCount >> 3; break }
                    i += 8
                }
                while i < limit, d[i] > 0x1E { i += 1 }
            } else {
                while i < limit, d[i] > 0x1E, d[i] != separator { i += 1 }
            }
            guard i < limit else { break }
            let b = d[i]
            if b == Byte.cr {
                token(d, tokenStart, i, into: &table)
                if i + 1 < limit, d[i + 1] == Byte.lf {
                    sawCRLF = true
                    i += 2; tokenStart = i; continue
                }
                end = i + 1; tokenStart = limit; break
            }
            if b == terminator {
                token(d, tokenStart, i, into: &table); end = i + 1; tokenStart = limit; break
            }
            if b == separator || b == Byte.lf || b == Byte.rs {
                token(d, tokenStart, i, into: &table)
                i += 1; tokenStart = i; continue
            }
            i += 1
        }
        if tokenStart < min(limit, end) { token(d, tokenStart, min(limit, end), into: &table) }
    }

    @inline(__always) private mutating func token(_ d: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int,
                                                  into table: inout ElementTable.Writer) {
        if tokenCount < 4 { firstTokens[tokenCount] = lo..<hi }
        tokenCount += 1
        element(d, lo, hi, into: &table)
    }

    /// Leading spaces (indented sample files) dropped, then an identifier and the value.
    @inline(__always) private mutating func element(_ d: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int,
                                                    into table: inout ElementTable.Writer) {
        var lo = lo
        while lo < hi, d[lo] == Byte.space { lo += 1 }
        guard lo < hi else { return }
        guard Self.isIdentifier(d, lo, hi) else {
            notElements.append(lo..<hi)
            return
        }
        record(d, lo..<hi, into: &table)
    }

    @inline(__always) private static func isIdentifier(_ d: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Bool {
        hi - lo >= 3 && Byte.isUpper(d[lo]) && Byte.isUpperOrDigit(d[lo + 1]) && Byte.isUpperOrDigit(d[lo + 2])
    }

    /// Records one element (identifier and value range); a repeated identifier is noted.
    @inline(__always) private mutating func record(_ d: UnsafeBufferPointer<UInt8>, _ piece: Range<Int>,
                                                   into table: inout ElementTable.Writer) {
        let lo = piece.lowerBound
        let code = ElementTable.code(d[lo], d[lo + 1], d[lo + 2])
        if !table.append(code: code, value: (lo + 3)..<piece.upperBound, offset: origin.isEmpty ? lo : Int(origin[lo])) {
            repeated.append(lo)
        }
    }

    /// For a subfile of at most three tokens of which one is a run of elements that lost their
    /// separators (a keyboard wedge): where to cut each token (`nil`: as it is). `nil` otherwise.
    func wedgePlan(_ d: UnsafeBufferPointer<UInt8>, version: Int) -> [[Int]?]? {
        guard tokenCount <= 3 else { return nil }
        var plan: [[Int]?] = []
        for k in 0..<tokenCount {
            var lo = firstTokens[k].lowerBound
            let hi = firstTokens[k].upperBound
            while lo < hi, d[lo] == Byte.space { lo += 1 }
            plan.append(hi - lo > 24 && Self.isIdentifier(d, lo, hi) ? Self.wedgeCuts(d, lo..<hi, version: version) : nil)
        }
        return plan.contains { $0 != nil } ? plan : nil
    }

    /// Reads the subfile again by `plan` (from `wedgePlan`).
    mutating func splitWedge(_ d: UnsafeBufferPointer<UInt8>, plan: [[Int]?], into table: inout ElementTable.Writer) {
        sawWedge = true
        notElements.removeAll()
        repeated.removeAll()
        for (k, cuts) in plan.enumerated() {
            let hi = firstTokens[k].upperBound
            if let cuts {
                for (n, c) in cuts.enumerated() { record(d, c..<(n + 1 < cuts.count ? cuts[n + 1] : hi), into: &table) }
            } else {
                element(d, firstTokens[k].lowerBound, hi, into: &table)
            }
        }
    }

    /// Splits a run of elements that lost their separators, at identifiers the standard defines
    /// that have not appeared yet in the run (so a value such as "DAKOTA" is split at most once).
    private static func wedgeCuts(_ d: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, version: Int) -> [Int]? {
        var cuts = [range.lowerBound]
        var seen: Set<UInt32> = [ElementTable.code(d[range.lowerBound], d[range.lowerBound + 1], d[range.lowerBound + 2])]
        var i = range.lowerBound + 3
        while i + 3 <= range.upperBound {
            if d[i] == UInt8(ascii: "D") || d[i] == UInt8(ascii: "P"), Byte.isUpper(d[i + 1]), Byte.isUpper(d[i + 2]) {
                let code = ElementTable.code(d[i], d[i + 1], d[i + 2])
                if AAMVAElementCatalog.isDefined(code, version: version), !seen.contains(code) {
                    cuts.append(i); seen.insert(code); i += 3; continue
                }
            }
            i += 1
        }
        return cuts.count > 1 ? cuts : nil
    }
}
