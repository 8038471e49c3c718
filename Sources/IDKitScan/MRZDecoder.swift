import Foundation
import IDKitMRZ

/// What the image says the MRZ is: the lines, a confidence per character, and whether the
/// reading is verified (every check digit holds and every character no check digit covers was
/// read with confidence).
public struct MRZReading: Sendable, Equatable, Codable {
    public var format: MRZFormat
    public var lines: [String]
    /// Per line, per character: the probability of the character chosen (0…1).
    public var confidence: [[Double]]
    public var verified: Bool
    /// Characters that the check digits changed from the classifier's first choice.
    public var checkDigitCorrections: Int
}

/// Turns per-character scores into the most probable MRZ that the layout's rules allow: each
/// position's character class (digits in dates and check digits, letters in codes and names,
/// `M F X <` for sex), then the check digits (ICAO 9303-3 §4.9), which pick among the classifier's
/// next choices where a field does not add up.
struct MRZDecoder: Sendable {
    /// Correlation → log-probability scale: a 0.1 better correlation is e^2.5 ≈ 12 times likelier.
    static let beta: Float = 60
    /// The most a check-digit repair may cost, in nats (a few plausible second choices, not a rewrite).
    static let maximumRepairCost: Float = 6
    /// A character outside every check digit (names, codes, sex) whose next choice is at least
    /// this probable makes the reading unverified: nothing could tell the two apart.
    static let unprotectedDoubt: Float = 0.05
    /// A character inside a check digit's field whose next choice is at least this probable makes
    /// the reading unverified when that choice would pass every check digit too.
    static let protectedDoubt: Float = 0.02

    static let symbols = OCRBTemplates.symbols
    static let letters = Set(0..<26), digits = Set(26..<36), filler = 36

    func decode(_ scores: MRZScores) -> MRZReading {
        var format = scores.format
        // 2×44 and 2×36: a passport/ID or a visa, by the first character.
        let first = scores.correlations[0][0]
        let vScore = first[21], pScore = first[15]
        let otherFirst = max(first[8], first[0], first[2])       // I, A, C
        if format == .td3, vScore > pScore { format = .mrvA }
        if format == .td2, vScore > otherFirst { format = .mrvB }
        let allowed = Self.classes(format)
        // Log-probabilities within each position's class.
        var logp: [[[Float]]] = []
        for (l, line) in scores.correlations.enumerated() {
            var lineLP: [[Float]] = []
            for (p, corr) in line.enumerated() {
                let set = allowed[l][p]
                var v = [Float](repeating: -Float.infinity, count: corr.count)
                var maxv = -Float.infinity
                for s in set { v[s] = Self.beta * corr[s]; maxv = max(maxv, v[s]) }
                var sum: Float = 0
                for s in set { sum += exp(v[s] - maxv) }
                let lse = maxv + log(sum)
                for s in set { v[s] -= lse }
                lineLP.append(v)
            }
            logp.append(lineLP)
        }
        var chosen = logp.map { $0.map { lp in lp.indices.max { lp[$0] < lp[$1] }! } }
        let original = chosen
        // Check-digit fields: fix each one that fails with the cheapest plausible change.
        for field in Self.checkedFields(format) {
            repair(field.positions, check: field.check, logp: logp, chosen: &chosen)
        }
        if let composite = Self.composite(format) {
            repair(composite.positions, check: composite.check, logp: logp, chosen: &chosen, onlyChange: composite.unprotected)
        }
        let lines = chosen.map { String(decoding: $0.map { Self.symbols[$0] }, as: UTF8.self) }
        let confidence = chosen.enumerated().map { l, line in line.enumerated().map { p, s in Double(exp(logp[l][p][s])) } }
        let changes = zip(chosen, original).reduce(0) { $0 + zip($1.0, $1.1).filter { $0 != $1 }.count }
        var verified = false
        if let parsed = try? MRZParser().parse(lines: lines), parsed.isValid, parsed.format == format {
            verified = !isAmbiguous(chosen, logp: logp, format: format)
        }
        return MRZReading(format: format, lines: lines, confidence: confidence, verified: verified, checkDigitCorrections: changes)
    }

    /// True when a plausible other reading of one character would be just as valid: then the
    /// check digits cannot vouch for the reading, and it must not be called verified.
    func isAmbiguous(_ chosen: [[Int]], logp: [[[Float]]], format: MRZFormat) -> Bool {
        let protected = Self.protectedPositions(format)
        let fields = Self.checkedFields(format)
        let composite = Self.composite(format)
        func allHold(_ c: [[Int]]) -> Bool {
            func holds(_ positions: [(Int, Int)], _ check: (Int, Int)) -> Bool {
                let digit = Self.symbols[c[check.0][check.1]]
                if digit == UInt8(ascii: "<") { return true }       // judged by the parser
                guard let computed = MRZCheckDigit.compute(positions.map { Self.symbols[c[$0.0][$0.1]] }) else { return false }
                return digit == 0x30 + computed
            }
            return fields.allSatisfy { holds($0.positions, $0.check) } && (composite.map { holds($0.positions, $0.check) } ?? true)
        }
        var trial = chosen
        for l in chosen.indices {
            for p in chosen[l].indices {
                let current = chosen[l][p]
                for a in logp[l][p].indices where a != current {
                    let probability = exp(logp[l][p][a])
                    if !protected.contains(l * 64 + p) {
                        if probability >= Self.unprotectedDoubt { return true }
                        continue
                    }
                    guard probability >= Self.protectedDoubt else { continue }
                    trial[l][p] = a
                    let stillValid = allHold(trial)
                    trial[l][p] = current
                    if stillValid { return true }
                }
            }
        }
        return false
    }

    /// Changes at most two characters of `positions` (and the check digit) so that the check
    /// digit holds, at the least cost; leaves them alone when nothing cheap enough does.
    func repair(_ positions: [(Int, Int)], check: (Int, Int), logp: [[[Float]]], chosen: inout [[Int]],
                onlyChange: [(Int, Int)]? = nil) {
        func holds(_ c: [[Int]]) -> Bool {
            let bytes = positions.map { Self.symbols[c[$0.0][$0.1]] }
            let digit = Self.symbols[c[check.0][check.1]]
            guard let computed = MRZCheckDigit.compute(bytes) else { return false }
            return digit == 0x30 + computed
        }
        if holds(chosen) { return }
        // A filler in a check-digit position (a long document number, an empty personal number)
        // is a structure the parser judges; nothing to repair here.
        if Self.symbols[chosen[check.0][check.1]] == UInt8(ascii: "<") { return }
        var alternatives: [(pos: (Int, Int), symbol: Int, cost: Float)] = []
        for pos in (onlyChange ?? positions) + [check] {
            let lp = logp[pos.0][pos.1], current = chosen[pos.0][pos.1]
            for s in lp.indices where s != current && lp[s] > -Float.infinity {
                let cost = lp[current] - lp[s]
                if cost < Self.maximumRepairCost { alternatives.append((pos, s, cost)) }
            }
        }
        alternatives.sort { $0.cost < $1.cost }
        alternatives = Array(alternatives.prefix(24))
        var best: (cost: Float, changes: [((Int, Int), Int)])?
        var trial = chosen
        for a in alternatives {
            trial[a.pos.0][a.pos.1] = a.symbol
            if holds(trial) { best = (a.cost, [(a.pos, a.symbol)]); trial[a.pos.0][a.pos.1] = chosen[a.pos.0][a.pos.1]; break }
            trial[a.pos.0][a.pos.1] = chosen[a.pos.0][a.pos.1]
        }
        for i in alternatives.indices {
            for j in (i + 1)..<alternatives.count {
                let a = alternatives[i], b = alternatives[j]
                // Two changes only between plausible second choices: with many, some pair always
                // adds up, and the check digit would be satisfied rather than confirmed.
                guard a.pos != b.pos, a.cost < 3, b.cost < 3, a.cost + b.cost < (best?.cost ?? Self.maximumRepairCost) else { continue }
                trial[a.pos.0][a.pos.1] = a.symbol
                trial[b.pos.0][b.pos.1] = b.symbol
                if holds(trial) { best = (a.cost + b.cost, [(a.pos, a.symbol), (b.pos, b.symbol)]) }
                trial[a.pos.0][a.pos.1] = chosen[a.pos.0][a.pos.1]
                trial[b.pos.0][b.pos.1] = chosen[b.pos.0][b.pos.1]
            }
        }
        if let best { for (pos, s) in best.changes { chosen[pos.0][pos.1] = s } }
    }

    // MARK: Layout rules

    static func positions(_ ranges: [MRZCharacterRange]) -> [(Int, Int)] {
        ranges.flatMap { r in (r.column..<(r.column + r.count)).map { (r.line, $0) } }
    }

    /// The character class of every position (ICAO 9303-3 §4.2 and the data-structure tables).
    static func classes(_ format: MRZFormat) -> [[Set<Int>]] {
        let all = Set(0..<37)
        var c = [[Set<Int>]](repeating: [Set<Int>](repeating: all, count: format.lineLength), count: format.lineCount)
        func set(_ field: MRZFieldName, _ value: Set<Int>, from: Int = 0, count: Int? = nil) {
            let ranges = format.characterRanges(of: field)
            for r in ranges[from..<min(ranges.count, from + (count ?? ranges.count))] {
                for col in r.column..<(r.column + r.count) { c[r.line][col] = value }
            }
        }
        let lettersFiller = letters.union([filler]), digitsFiller = digits.union([filler])
        set(.documentCode, lettersFiller)
        set(.issuingState, lettersFiller)
        set(.nationality, lettersFiller)
        set(.name, lettersFiller)
        set(.sex, Set([12, 5, 23, filler]))                 // M F X <
        set(.dateOfBirth, digitsFiller)                     // fillers mark unknown parts
        set(.dateOfExpiry, digits)
        set(.composite, digits)
        // Document-number check digit: a digit, or '<' before a long number's tail (TD1/TD2).
        set(.documentNumber, [.td1, .td2].contains(format) ? digitsFiller : digits, from: 1, count: 1)
        if format == .td3 { set(.optionalData1, digitsFiller, from: 1, count: 1) }
        let firstLetters: [MRZFormat: [Int]] = [.td3: [15], .mrvA: [21], .mrvB: [21], .td2: [8, 0, 2], .td1: [8, 0, 2]]
        if let f = firstLetters[format] { c[0][0] = Set(f) }
        return c
    }

    struct Field { var positions: [(Int, Int)]; var check: (Int, Int) }

    static func checkedFields(_ format: MRZFormat) -> [Field] {
        var fields: [Field] = []
        for name in [MRZFieldName.documentNumber, .dateOfBirth, .dateOfExpiry] + (format == .td3 ? [.optionalData1] : []) {
            let r = format.characterRanges(of: name)
            guard r.count >= 2 else { continue }
            fields.append(Field(positions: positions([r[0]]), check: (r[1].line, r[1].column)))
        }
        return fields
    }

    static func composite(_ format: MRZFormat) -> (positions: [(Int, Int)], check: (Int, Int), unprotected: [(Int, Int)])? {
        guard let c = format.characterRanges(of: .composite).first else { return nil }
        let covered: [MRZCharacterRange]
        switch format {
        case .td1:
            covered = [MRZCharacterRange(line: 0, column: 5, count: 25), MRZCharacterRange(line: 1, column: 0, count: 7),
                       MRZCharacterRange(line: 1, column: 8, count: 7), MRZCharacterRange(line: 1, column: 18, count: 11)]
        case .td2:
            covered = [MRZCharacterRange(line: 1, column: 0, count: 10), MRZCharacterRange(line: 1, column: 13, count: 7),
                       MRZCharacterRange(line: 1, column: 21, count: 14)]
        case .td3:
            covered = [MRZCharacterRange(line: 1, column: 0, count: 10), MRZCharacterRange(line: 1, column: 13, count: 7),
                       MRZCharacterRange(line: 1, column: 21, count: 22)]
        default:
            return nil
        }
        let others = Set(checkedFields(format).flatMap { $0.positions.map { $0.0 * 64 + $0.1 } + [$0.check.0 * 64 + $0.check.1] })
        let unprotected = positions(covered).filter { !others.contains($0.0 * 64 + $0.1) }
        return (positions(covered), (c.line, c.column), unprotected)
    }

    /// Positions covered by some check digit (line·64 + column).
    static func protectedPositions(_ format: MRZFormat) -> Set<Int> {
        var s = Set<Int>()
        for f in checkedFields(format) {
            for p in f.positions + [f.check] { s.insert(p.0 * 64 + p.1) }
        }
        if let c = composite(format) {
            for p in c.positions + [c.check] { s.insert(p.0 * 64 + p.1) }
        }
        return s
    }
}
