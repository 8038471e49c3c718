import Foundation
import IDKitMRZ

/// A position of the MRZ.
struct MRZPosition: Hashable, Sendable {
    var line: Int
    var column: Int
}

/// One character in a chain of check-digit-covered characters, in weight order.
struct CheckDigitChainItem: Sendable {
    enum Role: Sendable { case data, fieldCheck, compositeCheck, fixed }
    var position: MRZPosition
    /// 7, 3 or 1 in its own field, 0 outside one.
    var fieldWeight: Int
    /// 7, 3 or 1 in the composite, 0 outside it.
    var compositeWeight: Int
    var role: Role
}

/// The characters one set of check digits ties together: the fields the composite covers and the
/// composite itself, or one field of a layout without a composite.
struct CheckDigitChain: Sendable {
    var items: [CheckDigitChainItem]
    var hasComposite: Bool
}

/// The decoding problem of one reading: its evidence, the chains of its layout, and the field each
/// position belongs to.
struct MRZDecodingInput: Sendable {
    var format: MRZFormat
    var logp: [[[Float]]]
    var argmax: [[Int]]
    /// The recognizer's own evidence, before the layout's priors (``MRZScores/evidence``).
    var evidence: [[[Float]]]
    var chains: [CheckDigitChain] = []
    /// Positions no check digit covers.
    var unprotected: [MRZPosition] = []
    /// Positions whose structure the check digits cannot judge (a long number's `<` and the filler
    /// that ends its continuation): kept as read, unsure if an alternative is plausible.
    var structural: [MRZPosition] = []
    /// The contract field name of each position.
    var fieldNames: [MRZPosition: String] = [:]

    init(format: MRZFormat, logp: [[[Float]]], argmax: [[Int]], evidence: [[[Float]]]) {
        self.format = format
        self.logp = logp
        self.argmax = argmax
        self.evidence = evidence
        for field in MRZFieldName.allCases {
            // A document number's ranges are the number and its check digit, then the optional
            // data that may continue it: that continuation is named only when read as one.
            let ranges = format.characterRanges(of: field)
            for r in field == .documentNumber ? Array(ranges.prefix(2)) : ranges {
                for c in r.column..<(r.column + r.count) { fieldNames[MRZPosition(line: r.line, column: c)] = field.rawValue }
            }
        }
        buildChains()
    }

    private mutating func buildChains() {
        var rules = format.checkDigitRules
        // TD1/TD2 long document number read as such (ICAO 9303-5 §4.2.4): `<` in the check-digit
        // position, the rest of the number and its check digit in the optional data, then `<`.
        if format == .td1 || format == .td2, let i = rules.firstIndex(where: { $0.field == "documentNumber" }) {
            let cd = rules[i].checkDigit
            if argmax[cd.line][cd.column] == MRZDecoder.filler, let cont = format.characterRanges(of: .optionalData1).first {
                var extent = 0
                while extent < cont.count && argmax[cont.line][cont.column + extent] != MRZDecoder.filler { extent += 1 }
                structural.append(MRZPosition(line: cd.line, column: cd.column))
                if extent < cont.count { structural.append(MRZPosition(line: cont.line, column: cont.column + extent)) }
                for k in 0...min(extent, cont.count - 1) { fieldNames[MRZPosition(line: cont.line, column: cont.column + k)] = "documentNumber" }
                if extent >= 2 {
                    rules[i].covered.append(MRZCharacterRange(line: cont.line, column: cont.column, count: extent - 1))
                    rules[i].checkDigit = MRZCharacterRange(line: cont.line, column: cont.column + extent - 1, count: 1)
                } else {
                    rules.remove(at: i)          // nothing to check: the parser reports it
                }
            }
        }
        let fieldRules = rules.filter { $0.field != "composite" }
        let composite = rules.first { $0.field == "composite" }
        // Where each field's characters and check digit stand.
        var fieldWeight: [MRZPosition: Int] = [:], fieldCheck = Set<MRZPosition>()
        for rule in fieldRules {
            for (k, p) in rule.coveredPositions.enumerated() { fieldWeight[MRZPosition(line: p.line, column: p.column)] = [7, 3, 1][k % 3] }
            fieldCheck.insert(MRZPosition(line: rule.checkDigit.line, column: rule.checkDigit.column))
        }
        let fixed = Set(structural)
        var covered = Set<MRZPosition>()
        func item(_ p: MRZPosition, composite w: Int) -> CheckDigitChainItem {
            covered.insert(p)
            if fixed.contains(p) { return CheckDigitChainItem(position: p, fieldWeight: 0, compositeWeight: w, role: .fixed) }
            if fieldCheck.contains(p) { return CheckDigitChainItem(position: p, fieldWeight: 0, compositeWeight: w, role: .fieldCheck) }
            return CheckDigitChainItem(position: p, fieldWeight: fieldWeight[p] ?? 0, compositeWeight: w, role: .data)
        }
        if let composite {
            var items = composite.coveredPositions.enumerated().map { k, p in item(MRZPosition(line: p.line, column: p.column), composite: [7, 3, 1][k % 3]) }
            let c = MRZPosition(line: composite.checkDigit.line, column: composite.checkDigit.column)
            covered.insert(c)
            items.append(CheckDigitChainItem(position: c, fieldWeight: 0, compositeWeight: 0, role: .compositeCheck))
            chains.append(CheckDigitChain(items: items, hasComposite: true))
        }
        for rule in fieldRules {
            let cd = MRZPosition(line: rule.checkDigit.line, column: rule.checkDigit.column)
            guard !covered.contains(cd) else { continue }
            let items = rule.coveredPositions.map { item(MRZPosition(line: $0.line, column: $0.column), composite: 0) } + [item(cd, composite: 0)]
            chains.append(CheckDigitChain(items: items, hasComposite: false))
        }
        for l in 0..<format.lineCount {
            for c in 0..<format.lineLength {
                let p = MRZPosition(line: l, column: c)
                if !covered.contains(p) { unprotected.append(p) }
            }
        }
    }

    /// The cost in nats of reading symbol `s` at `p` rather than the recognizer's first choice.
    @inline(__always) func cost(_ p: MRZPosition, _ s: Int) -> Float {
        let lp = logp[p.line][p.column]
        return lp[argmax[p.line][p.column]] - lp[s]
    }

    /// The cost of `s` at `p` with the ceiling for confusable pairs: what the reading must treat as
    /// possible even if the recognizer rules it out.
    @inline(__always) func doubtingCost(_ p: MRZPosition, _ s: Int, against current: Int) -> Float {
        let c = cost(p, s)
        if s != current, c.isFinite, MRZDecoder.confusable.contains(current * 64 + s) {
            return min(c, cost(p, current) + MRZDecoder.confusionCeiling)
        }
        return c
    }

    /// How far a repair that sets `assignment` in `reading` goes against the recognizer: the nats by
    /// which each symbol it changes falls short of the recognizer's own first choice there, summed
    /// (``MRZDecoder/maximumOverruling``).
    func overruling(_ assignment: [(MRZPosition, Int)], from reading: [[Int]]) -> Float {
        assignment.reduce(Float(0)) { total, change in
            let (p, s) = change
            guard s != reading[p.line][p.column], p.line < evidence.count, p.column < evidence[p.line].count else { return total }
            let e = evidence[p.line][p.column]
            return total + (e.max() ?? e[s]) - e[s]
        }
    }

    struct Solution {
        var cost: Float
        var assignment: [(MRZPosition, Int)]
    }

    /// The least costly assignment of the chain's characters that passes every check digit in it.
    /// With `requireChange`, the least costly one that differs from `around` somewhere, costed
    /// relative to `around` with confusable pairs doubted (``doubtingCost(_:_:against:)``).
    func search(_ chain: CheckDigitChain, around reading: [[Int]], requireChange: Bool) -> Solution? {
        let states = 200                                 // field sum mod 10 × composite sum mod 10 × changed
        let limit = requireChange ? MRZDecoder.verificationMargin + MRZDecoder.confusionCeiling : MRZDecoder.maximumRepairCost
        var table = [Float](repeating: .infinity, count: states)
        table[0] = 0
        var back: [[(Int32, Int8)]] = []
        back.reserveCapacity(chain.items.count)
        for item in chain.items {
            let p = item.position
            let current = reading[p.line][p.column]
            let base = requireChange ? cost(p, current) : 0
            var candidates: [(Int, Float)] = []
            if item.role == .fixed {
                candidates = [(current, 0)]
            } else {
                for s in 0..<37 {
                    let c = (requireChange ? doubtingCost(p, s, against: current) : cost(p, s)) - base
                    if c.isFinite, c <= limit || s == current { candidates.append((s, c)) }
                }
            }
            var next = [Float](repeating: .infinity, count: states)
            var from = [(Int32, Int8)](repeating: (-1, -1), count: states)
            for state in 0..<states where table[state].isFinite {
                let f = state / 20, k = (state / 2) % 10, changed = state % 2
                for (s, c) in candidates {
                    let v = MRZDecoder.value(s)
                    var nf = f
                    switch item.role {
                    case .data, .fixed: nf = (f + item.fieldWeight * v) % 10
                    case .fieldCheck: guard v == f, s != MRZDecoder.filler || f == 0 else { continue }; nf = 0
                    case .compositeCheck: guard v == k, s != MRZDecoder.filler else { continue }
                    }
                    let nk = (k + item.compositeWeight * v) % 10
                    let nc = requireChange ? (changed | (s != current ? 1 : 0)) : 0
                    let ns = nf * 20 + nk * 2 + nc
                    let total = table[state] + c
                    if total < next[ns] { next[ns] = total; from[ns] = (Int32(state), Int8(s)) }
                }
            }
            table = next
            back.append(from)
        }
        // Valid ends: no open field (its check digit was met); with a composite, its check digit met too.
        var best: (Int, Float)?
        for state in 0..<states where table[state].isFinite && state / 20 == 0 && (!requireChange || state % 2 == 1) {
            if !chain.hasComposite || chain.items.last!.role == .compositeCheck {
                if best == nil || table[state] < best!.1 { best = (state, table[state]) }
            }
        }
        guard let (end, total) = best else { return nil }
        var assignment: [(MRZPosition, Int)] = []
        var state = end
        for (i, item) in chain.items.enumerated().reversed() {
            let (prev, s) = back[i][state]
            assignment.append((item.position, Int(s)))
            state = Int(prev)
        }
        return Solution(cost: total, assignment: assignment.reversed())
    }

    // MARK: Grammar of the fields no check digit covers

    /// ICAO 9303-3 §4.6: primary identifier, `<<`, secondary identifier, components joined by one
    /// `<`, then fillers to the end. A letter after three fillers, or after a second `<<`, is not a name.
    static func isGrammaticalName(_ field: [Int]) -> Bool {
        var run = 0, doubles = 0, seenLetter = false
        for s in field {
            if s == MRZDecoder.filler { run += 1; continue }
            guard s < 26 else { return false }
            if run >= 3 || (run == 1 && !seenLetter) { return false }
            if run == 2 { doubles += 1 }
            run = 0
            seenLetter = true
        }
        return doubles <= 1
    }

    /// A country or document code: letters, then only fillers.
    static func isGrammaticalCode(_ field: [Int]) -> Bool {
        var ended = false
        for s in field {
            if s == MRZDecoder.filler { ended = true } else if ended { return false }
        }
        return true
    }

    var nameRanges: [MRZCharacterRange] { format == .franceID1988 ? [] : format.characterRanges(of: .name) }

    /// A name read with letters after its trailing fillers (an occluded or smudged end of line):
    /// the tail set back to fillers where the recognizer finds `<` possible at all.
    func repairNames(_ chosen: inout [[Int]]) {
        for r in nameRanges {
            var field = Array(chosen[r.line][r.column..<(r.column + r.count)])
            guard !Self.isGrammaticalName(field) else { continue }
            // The longest grammatical prefix followed by fillers.
            for cut in stride(from: field.count, through: 0, by: -1) {
                let trial = Array(field[0..<cut]) + Array(repeating: MRZDecoder.filler, count: field.count - cut)
                let tail = (cut..<field.count).filter { field[$0] != MRZDecoder.filler }
                    .map { (MRZPosition(line: r.line, column: r.column + $0), MRZDecoder.filler) }
                let affordable = tail.allSatisfy { cost($0.0, $0.1) <= MRZDecoder.maximumRepairCost }
                    && overruling(tail, from: chosen) <= MRZDecoder.maximumOverruling
                if Self.isGrammaticalName(trial) && affordable { field = trial; break }
            }
            for i in 0..<r.count { chosen[r.line][r.column + i] = field[i] }
        }
    }

    /// Whether reading `s` at `p` (everything else as `chosen`) is something a document could hold,
    /// as far as the grammar of unprotected fields can tell.
    func isGrammatical(_ chosen: [[Int]], at p: MRZPosition, _ s: Int) -> Bool {
        var trial = chosen
        trial[p.line][p.column] = s
        for r in nameRanges where r.line == p.line && (r.column..<(r.column + r.count)).contains(p.column) {
            return Self.isGrammaticalName(Array(trial[r.line][r.column..<(r.column + r.count)]))
        }
        return true
    }

    var codeRanges: [MRZCharacterRange] { format.characterRanges(of: .issuingState) + format.characterRanges(of: .nationality) }

    static func isKnownCode(_ code: [Int]) -> Bool {
        isGrammaticalCode(code) && CountryCodes.isKnown(String(decoding: code.filter { $0 != MRZDecoder.filler }.map { MRZDecoder.symbols[$0] }, as: UTF8.self))
    }

    /// The cheapest reading of the country code at `r` — any combination of its characters —
    /// other than the one in `chosen` that `accept` takes, if one costs less than `margin` (the
    /// changed characters' costs summed; `doubting`: confusable pairs capped, ``doubtingCost``).
    /// Both the verifier and the repair of unknown codes ask this.
    func cheapestCodeReading(_ chosen: [[Int]], _ r: MRZCharacterRange, margin: Float, doubting: Bool,
                             accept: ([Int]) -> Bool) -> [Int]? {
        let current = Array(chosen[r.line][r.column..<(r.column + r.count)])
        // Per position: the symbols within the margin.
        let options: [[(Int, Float)]] = (0..<r.count).map { i in
            let p = MRZPosition(line: r.line, column: r.column + i)
            return (0..<37).compactMap { s in
                if s == current[i] { return (s, 0) }
                let c = (doubting ? doubtingCost(p, s, against: current[i]) : cost(p, s)) - cost(p, current[i])
                return c.isFinite && c < margin ? (s, c) : nil
            }
        }
        var best: (code: [Int], cost: Float)?
        func walk(_ i: Int, _ code: [Int], _ total: Float) {
            guard total < (best?.cost ?? margin) else { return }
            if i == code.count {
                if code != current, accept(code) { best = (code, total) }
                return
            }
            for (s, c) in options[i] {
                var next = code
                next[i] = s
                walk(i + 1, next, total + c)
            }
        }
        walk(0, current, 0)
        return best?.code
    }

    /// Country codes read as no known code set to the likeliest known one within
    /// ``MRZDecoder/unknownCodeRepairCost``. It only chooses: the recognizer read something else
    /// there, so the field stays unsure (``MRZDecoder/overruledEvidence``).
    func repairCodes(_ chosen: inout [[Int]]) {
        for r in codeRanges where !Self.isKnownCode(Array(chosen[r.line][r.column..<(r.column + r.count)])) {
            guard let code = cheapestCodeReading(chosen, r, margin: MRZDecoder.unknownCodeRepairCost, doubting: false,
                                                 accept: Self.isKnownCode),
                  overruling(code.enumerated().map { (MRZPosition(line: r.line, column: r.column + $0), $1) }, from: chosen)
                    <= MRZDecoder.maximumOverruling else { continue }
            for i in 0..<r.count { chosen[r.line][r.column + i] = code[i] }
        }
    }

    /// Whether another reading of the whole country code is within `margin`: a known code (ICAO
    /// 9303-3 §5), or anything at all when the code as read is not a known one.
    func codeIsUnsure(_ chosen: [[Int]], _ r: MRZCharacterRange, margin: Float) -> Bool {
        let known = Self.isKnownCode(Array(chosen[r.line][r.column..<(r.column + r.count)]))
        return cheapestCodeReading(chosen, r, margin: margin, doubting: true) { !known || Self.isKnownCode($0) } != nil
    }

    // MARK: Verification

    /// The fields that hold a character the reading cannot vouch for (empty: verified).
    func unsureFields(_ chosen: [[Int]]) -> [String] {
        var unsure = Set<String>()
        // Every combination within the check digits' reach.
        for chain in chains {
            if let other = search(chain, around: chosen, requireChange: true), other.cost < MRZDecoder.verificationMargin {
                for (p, s) in other.assignment where s != chosen[p.line][p.column] { unsure.insert(fieldNames[p] ?? "composite") }
            }
        }
        // Characters outside them, and the structure of a long number.
        for r in codeRanges where codeIsUnsure(chosen, r, margin: MRZDecoder.unprotectedMargin) {
            unsure.insert(fieldNames[MRZPosition(line: r.line, column: r.column)] ?? "unknown")
        }
        let inCodes = Set(codeRanges.flatMap { r in (r.column..<(r.column + r.count)).map { MRZPosition(line: r.line, column: $0) } })
        for p in unprotected + structural where !inCodes.contains(p) {
            let current = chosen[p.line][p.column]
            let margin = structural.contains(p) ? MRZDecoder.verificationMargin : MRZDecoder.unprotectedMargin
            for s in 0..<37 where s != current {
                let c = doubtingCost(p, s, against: current) - cost(p, current)
                if c.isFinite, c < margin, isGrammatical(chosen, at: p, s) {
                    unsure.insert(fieldNames[p] ?? "unknown")
                    break
                }
            }
        }
        if !nameRanges.allSatisfy({ r in Self.isGrammaticalName(Array(chosen[r.line][r.column..<(r.column + r.count)])) }) {
            unsure.insert("name")
        }
        return unsure.sorted()
    }
}
