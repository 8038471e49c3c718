import Foundation
import IDKitMRZ

/// What the image says the MRZ is: the lines, a confidence per character, and whether the
/// reading is verified.
///
/// Verified means: the reading passes every check digit and every rule of its layout, and no other
/// reading that the recognizer finds plausible — one character or any combination of them, within
/// a field and across the fields the composite check digit covers — would pass them too; and every
/// character that no check digit covers was read without a plausible grammatical alternative.
public struct MRZReading: Sendable, Equatable, Codable {
    public var format: MRZFormat
    public var lines: [String]
    /// Per line, per character: the probability of the character chosen (0…1).
    public var confidence: [[Double]]
    public var verified: Bool
    /// Characters that the check digits changed from the recognizer's first choice.
    public var checkDigitCorrections: Int
    /// The fields (JSON contract names: `documentCode`, `issuingState`, `name`, `documentNumber`,
    /// `nationality`, `dateOfBirth`, `sex`, `dateOfExpiry`, `optionalData1`, `optionalData2`,
    /// `composite`) that hold a character the reading is not sure of: another reading of it is
    /// plausible and would pass every check digit, or no check digit covers it. Empty when verified.
    /// For a reading that breaks a rule, empty means the reading is sure of every character: the
    /// document as printed breaks it (``isSure``).
    public var unsureFields: [String]
    /// The one predicate for "sure" (the scan's `mrzInvalid` against `mrzUncertain`, `verified`):
    /// no field holds a character another plausible reading would change.
    public var isSure: Bool { unsureFields.isEmpty }
    /// Which recognizer read the characters.
    public var recognizer: MRZRecognizer
}

/// Turns per-character evidence into the most probable MRZ that the layout's rules allow, and
/// judges whether it can be trusted.
///
/// 0. Where the recognizer hesitates between a confusable pair in a position that allows both
///    (`0`/`O` in a document number), the glyph is compared with the document's own clear examples
///    of the two (``MRZOwnGlyphs``: its dates' zeros, its name's letters), which adds evidence.
/// 1. Each position's character class (``MRZFormat/characterClasses``: digits in dates and check
///    digits, letters in codes and names, `M F X <` for sex) limits what it can be.
/// 2. The check digits (ICAO 9303-3 §4.9; ``MRZFormat/checkDigitRules``) choose the most probable
///    reading that passes all of them at once: a dynamic programme over the characters the
///    composite covers, whose state is the running 7-3-1 sums mod 10 of the open field and of the
///    composite. It is exact: no limit on how many characters, only on how improbable the change.
/// 3. The same programme, asked for the best reading that differs from the chosen one in at least
///    one character, tells how close the nearest other valid reading is. The 7-3-1 weights cancel
///    combinations of confusions (`O` for `0` at weights 7 and 3: 24·7 + 24·3 = 240 ≡ 0), so
///    checking one alternative at a time is not enough; the programme sees every combination.
/// 4. Characters no check digit covers (names, codes, sex) are judged by the field's grammar
///    (letters only in codes and names; nothing but fillers after a name's trailing fillers) and by
///    how plausible their alternatives are.
struct MRZDecoder: Sendable {
    /// Template correlation → log-probability scale: a 0.1 better correlation is e^6 ≈ 400 times
    /// likelier (the fallback recognizer only).
    static let beta: Float = 60
    /// The most a check-digit repair may cost, in nats, over the whole chain of fields the
    /// composite covers (a few plausible second choices, not a rewrite).
    static let maximumRepairCost: Float = 12
    /// A reading is verified only if every other reading that passes the check digits is at least
    /// e^6 ≈ 400 times less probable. (Measured: on the real specimens the nearest other valid
    /// reading is most often one same-value swap the check digits cannot see — `0` for `U`, `6` for
    /// `G`, `8` for `S` — at 5–7 nats, and wrong readings that passed the check digits had the
    /// printed one at 0.6–2.4; on 300 generated photos a margin of 5 let one motion-blurred `OO`
    /// for `00` through at 5.2 nats, 6 none.)
    static let verificationMargin: Float = 6
    /// A reading is not verified where it overrules the recognizer at a position: the symbol chosen
    /// (by class, grammar or check digits) less likely, to the recognizer alone, than the one it
    /// saw (beyond rounding). Measured on 5,000 generated photos, half with confusions injected
    /// into the print: overruling by up to e^2 or e^4 let 3 readings through verified that differ
    /// from the print (an `O` the check digit preferred where a `0` was printed and the recognizer
    /// leaned to `0`; a covered check digit), any overruling none — at 1 point of verified rate.
    static let overruledEvidence: Float = 0.001
    /// A character no check digit covers is unsure when a grammatical alternative is within e^4 ≈ 55.
    /// (Measured on 5,000 generated photos, half with confusions injected into the print: e^3
    /// already let no wrong reading through; e^4 keeps a nat of slack. On the real specimens e^5
    /// left two exact readings unverified for a name letter at 0.95.)
    static let unprotectedMargin: Float = 4
    /// The most a country code's repair may cost, in nats, over its three characters: a code the
    /// recognizer read as an unknown one (`UTQ`) is read as the likeliest known code (ICAO 9303-3
    /// §5) within e^6 of it (`UTO`), the check-digit repairs' measure of a plausible second choice
    /// per character. A code printed as digits (a Romanian ID's `132`) pays the letters' class
    /// penalty at every character and stays as printed; a well-formed code no list knows yet,
    /// read clearly, stays too.
    static let unknownCodeRepairCost: Float = 6

    /// The most that the layout's knowledge — the check digits, a name's grammar, the list of
    /// country codes — may overrule the recognizer, in nats of its own evidence summed over the
    /// characters a repair changes. Beyond it the characters are read as printed and the reading is
    /// judged as it stands: a `T` printed in a date, a `K` among a name's fillers, a `0` in a
    /// country code, a check digit printed wrong fail the check digits or the rules and come out
    /// invalid (issue 12: "what is printed must be read as printed, then judged"), not silently
    /// "fixed" into a different document that passes them. (Measured on 5,000 generated photos,
    /// half with 1–3 confusions injected into the print: without this bound 263 of the 2,535
    /// confused ones came out valid and different from the print, none verified; e^6 leaves 17 and
    /// changes none of the other photos, the 300 of bench-scan or the real specimens at full size.)
    static let maximumOverruling: Float = 6

    /// The recognizer may be overconfident on print unlike its training data: the characters real
    /// OCR-B prints are confused with never cost more than −ln 10⁻⁴ ≈ 9.2 nats, whatever it says.
    static let confusionCeiling: Float = 9.2

    /// How much less likely a symbol outside a position's character class is, a priori (nats).
    static let outsideClassPenalty: Float = 4
    static let firstLetters: [MRZFormat: [Int]] = [.td3: [15], .mrvA: [21], .mrvB: [21], .td2: [8, 0, 2], .td1: [8, 0, 2]]

    static let symbols = OCRBTemplates.symbols
    static let filler = 36

    /// Pairs that real prints and cameras confuse (ICAO 9303-3 Appendix on OCR-B; the misreads
    /// measured on real specimens in issue 12): `0 O Q D U`, `1 I T L Y`, `2 Z`, `5 S`, `6 G`, `7 Z`,
    /// `8 B`, `K <`, and `E F`, `4 7`, `8 6`, `3 8`, `< W`, `< M`.
    static let confusable: Set<Int> = {
        let groups = ["0OQDU", "1ITLY", "2Z", "5S", "6G", "7Z", "8B", "K<", "EF", "47", "86", "38", "<W", "<M"]
        var pairs = Set<Int>()
        for g in groups {
            let members = g.utf8.map { b in symbols.firstIndex(of: b)! }
            for a in members { for b in members where a != b { pairs.insert(a * 64 + b) } }
        }
        return pairs
    }()

    /// The check-digit value of a symbol index (ICAO 9303-3 §4.9: letters 10–35, `<` 0).
    @inline(__always) static func value(_ s: Int) -> Int { s < 26 ? s + 10 : (s < 36 ? s - 26 : 0) }

    /// The symbol indices of a character class, from ``MRZCharacterClass/contains(_:)`` (the class
    /// is stated once, in IDKitMRZ).
    static let classSymbols: [MRZCharacterClass: Set<Int>] = classSymbolList.mapValues { Set($0) }

    /// The same in symbol order, for walking a class: a `Set`'s order changes with the process's
    /// hash seed, and a sum or a tie-break taken in that order made the same image read with
    /// probabilities a few thousandths apart from one run to the next.
    static let classSymbolList: [MRZCharacterClass: [Int]] = Dictionary(uniqueKeysWithValues:
        [MRZCharacterClass.letterOrFiller, .digit, .digitOrFiller, .sex, .alphanumeric].map { c in
            (c, symbols.indices.filter { c.contains(symbols[$0]) })
        })

    /// 2×44 is a passport (TD3) or an MRV-A visa, 2×36 a TD2 card or an MRV-B visa: the first
    /// character decides (ICAO 9303-7 §4), and a smudged or curved line end can hide it. The layout
    /// whose first letter reads better is decoded; when the other's is within the unprotected
    /// margin, the reading is not verified (the check digits of both layouts may hold).
    func decode(_ scores: MRZScores) -> MRZReading {
        // The French national ID of 1988–2021: two lines of 36 whose first begins `IDFRA` have that
        // card's layout (``MRZFormat/isFrenchID(firstLine:)``, as the parser reads them), not a
        // TD2's: its card number, names, birth date and the composite over both lines stand
        // elsewhere. Decoded as a TD2, a French card's check digits fail wherever it is read right.
        // The card's layout is taken when its reading is valid; otherwise the lines are decoded as
        // a TD2's, as before (a TD2 printed `IDFRA…`, which the parser calls an invalid French
        // card, is read as printed).
        if scores.format == .td2 || scores.format == .mrvB, let first = scores.evidence.first, first.count >= 5 {
            let start = first.prefix(5).map { e in Self.symbols[e.indices.max { e[$0] < e[$1] }!] }
            if start.withUnsafeBufferPointer({ MRZFormat.isFrenchID(firstLine: $0.baseAddress!) }) {
                let french = decode(scores, as: .franceID1988)
                if Self.isValid(french.lines, as: .franceID1988) { return french }
            }
        }
        let alternatives: [MRZFormat] = switch scores.format {
        case .td3, .mrvA: [.td3, .mrvA]
        case .td2, .mrvB: [.td2, .mrvB]
        default: [scores.format]
        }
        let first = scores.evidence[0][0]
        func firstScore(_ f: MRZFormat) -> Float { (Self.firstLetters[f] ?? []).map { first[$0] }.max() ?? 0 }
        let chosen = alternatives.max { firstScore($0) < firstScore($1) }!
        var reading = decode(scores, as: chosen)
        // The layout rests on one character no check digit covers: unless the other layout's first
        // letter is implausible, the document code is in doubt. Where the first letter was not seen
        // at all (covered, or cut off by the photo's edge), the other layout is decoded too when
        // this one's reading is invalid, and taken when its reading is valid: a visa's lines read
        // as a passport's fail the composite check digit a visa has not. Only there: the first 36
        // characters of a passport's lines (a band found short) pass every check digit of an
        // MRV-B visa, and a `P` seen there must keep them the invalid TD2 they are.
        if let other = alternatives.first(where: { $0 != chosen }), firstScore(chosen) - firstScore(other) < Self.unprotectedMargin {
            let unseen = scores.blank.first?.first.map { $0 > 0.5 } ?? false
            if unseen, !Self.isValid(reading.lines, as: chosen) {
                let second = decode(scores, as: other)
                if Self.isValid(second.lines, as: other) { reading = second }
            }
            reading.verified = false
            reading.unsureFields = Array(Set(reading.unsureFields + ["documentCode"])).sorted()
        }
        return reading
    }

    /// Whether `lines` parse as a valid MRZ of `format` (not another layout's).
    static func isValid(_ lines: [String], as format: MRZFormat) -> Bool {
        guard let parsed = try? MRZParser().parse(lines: lines) else { return false }
        return parsed.isValid && parsed.format == format
    }

    /// How much likelier, a priori, the commonest of a layout's first letters is (the first of
    /// ``firstLetters``: `I` for cards, of `I`, `A` and `C`). It only breaks a tie, where nothing
    /// tells the letters apart: a first character cut off by the photo's edge or covered.
    static let commonestFirstLetter: Float = 0.1

    /// How much likelier a filler is, a priori, in a cell the recognizer says nothing about (covered
    /// by a finger or a sticker) right after a filler: fields are left-aligned and padded with
    /// fillers to their end (ICAO 9303-3 §4.3), so a filler run continues under the cover. After
    /// anything else a covered cell still leans a little to the filler (a name's end is padding
    /// more often than letters), and the check digit of an optional field that reads as fillers
    /// only is a filler too (ICAO 9303-4 §4.2.2: `<` when the personal number is empty).
    static let fillerRunPrior: Float = 2
    static let coveredFillerPrior: Float = 0.5

    /// How much less likely, a priori, a letter `O` is than the digit `0` where an alphanumeric
    /// field (document number, optional data) holds it between two digits. Issuers' numbers are
    /// digit runs: on the 33 real specimens of `../shared/testdata/mrz-real`, 212 `0`s stand between
    /// two digits and no `O` does, while `O` for `0` is the commonest misread of digit runs (29 of
    /// the 234 wrong characters measured in issue 12). The 7-3-1 weights cannot tell `O0` from
    /// `0O` pairs at weights 7 and 3 (24·7 + 24·3 ≡ 0), so without a prior a faint `0` read as a
    /// likely `O` stays one. e^2: a print that really says `O` there and is read so by more than
    /// that keeps its `O`. The prior only chooses: whether the choice is verified is judged on the
    /// recognizer's evidence alone, and a choice against the recognizer's own first choice is never
    /// verified (``overruledEvidence``).
    static let letterOAmongDigits: Float = 2

    /// `logp` with ``letterOAmongDigits`` taken off the `O` of alphanumeric positions whose
    /// neighbors on the line both read as digits, then renormalized.
    static func withDigitContext(_ logp: [[[Float]]], classes: [[MRZCharacterClass]]) -> [[[Float]]] {
        let o = symbols.firstIndex(of: UInt8(ascii: "O"))!
        func isDigit(_ lp: [Float]) -> Bool { (26..<36).contains(lp.indices.max { lp[$0] < lp[$1] }!) }
        var out = logp
        for (l, line) in logp.enumerated() where l < classes.count {
            for p in line.indices.dropFirst().dropLast() where classes[l][p] == .alphanumeric {
                guard isDigit(line[p - 1]), isDigit(line[p + 1]) else { continue }
                var v = line[p]
                v[o] -= letterOAmongDigits
                let m = v.max()!
                let lse = m + log(v.reduce(Float(0)) { $0 + exp($1 - m) })
                out[l][p] = v.map { $0 - lse }
            }
        }
        return out
    }

    /// The evidence with those priors added where a cell's evidence is flat (all symbols within a
    /// nat) and its class allows a filler. Other check digits get none: a covered check digit is
    /// what its field makes it.
    static func fillerRuns(_ evidence: [[[Float]]], _ format: MRZFormat) -> [[[Float]]] {
        let classes = format.characterClasses
        var out = evidence
        func reads(_ l: Int, _ p: Int) -> Int? {
            guard l < out.count, p < out[l].count else { return nil }
            let e = out[l][p]
            return e.indices.max { e[$0] < e[$1] }
        }
        func isFlat(_ e: [Float]) -> Bool {
            guard let top = e.max(), let bottom = e.min() else { return false }
            return top - bottom < 1
        }
        var checks = Set<MRZPosition>(), emptyFieldChecks = Set<MRZPosition>()
        for rule in format.checkDigitRules {
            let at = MRZPosition(line: rule.checkDigit.line, column: rule.checkDigit.column)
            checks.insert(at)
            if rule.field == "optionalData", rule.coveredPositions.allSatisfy({ reads($0.line, $0.column) == filler }) {
                emptyFieldChecks.insert(at)
            }
        }
        // A field that is never empty starts with a character, not a filler: fields are
        // left-aligned (ICAO 9303-3 §4.3), so a cell not seen there (cut off by the photo's edge)
        // gets no filler prior. A date's unknown parts are `<` pairs, never its first character alone.
        let starts = Set(([.documentNumber, .name, .dateOfBirth, .dateOfExpiry] as [MRZFieldName])
            .compactMap { format.characterRanges(of: $0).first }.map { MRZPosition(line: $0.line, column: $0.column) })
        for l in out.indices where l < classes.count {
            for p in out[l].indices where p < classes[l].count && classes[l][p].contains(UInt8(ascii: "<")) && isFlat(out[l][p]) {
                let at = MRZPosition(line: l, column: p)
                if starts.contains(at) { continue }
                if checks.contains(at) {
                    if emptyFieldChecks.contains(at) { out[l][p][filler] += fillerRunPrior }
                    continue
                }
                out[l][p][filler] += p > 0 && reads(l, p - 1) == filler ? fillerRunPrior : coveredFillerPrior
            }
        }
        return out
    }

    func decode(_ scores: MRZScores, as format: MRZFormat) -> MRZReading {
        let classes = format.characterClasses
        // The recognizer's evidence, sharpened where the document's own glyphs tell a pair apart.
        var scores = scores
        scores.evidence = MRZOwnGlyphs.adapted(scores, classes: classes)
        // Log-probabilities over all 37 symbols, each position's class (ICAO 9303-3 §4.2) a prior,
        // not a wall: what is printed is read as printed (the digits "132" in a Romanian ID's
        // nationality stay digits, and the parser then judges the MRZ), but a symbol outside the
        // class must look e^4 likelier than every one inside it to be read.
        var logp: [[[Float]]] = []
        for (l, line) in Self.fillerRuns(scores.evidence, format).enumerated() where l < classes.count {
            logp.append(line.enumerated().map { p, e in
                // The document code's first letter decides the layout: the layout's letters there
                // are as strong a prior as the layout's knowledge may be (``maximumOverruling``). A
                // letter ICAO does not allow, printed clearly, is read as printed, and the parser
                // warns of the document code.
                let layoutLetters = l == 0 && p == 0 ? Self.firstLetters[format] : nil
                let inClass = layoutLetters.map { Set($0) } ?? Self.classSymbols[classes[l][p]]!
                let outside = layoutLetters == nil ? -Self.outsideClassPenalty : -Self.maximumOverruling
                let v = e.indices.map { e[$0] + (inClass.contains($0) ? 0 : outside) }
                let m = v.max()!
                let lse = m + log(v.reduce(Float(0)) { $0 + exp($1 - m) })
                return v.map { $0 - lse }
            })
        }
        // Choosing weighs what documents hold (``letterOAmongDigits``); judging the choice does not.
        var choosing = Self.withDigitContext(logp, classes: classes)
        if let commonest = Self.firstLetters[format]?.first, !choosing.isEmpty, !choosing[0].isEmpty {
            choosing[0][0][commonest] += Self.commonestFirstLetter
        }
        let choiceArgmax = choosing.map { $0.map { lp in lp.indices.max { lp[$0] < lp[$1] }! } }
        let argmax = logp.map { $0.map { lp in lp.indices.max { lp[$0] < lp[$1] }! } }
        let problem = MRZDecodingProblem(format: format, logp: logp, argmax: argmax, evidence: scores.evidence)
        let choice = MRZDecodingProblem(format: format, logp: choosing, argmax: choiceArgmax, evidence: scores.evidence)
        var chosen = choiceArgmax
        // The check digits choose, chain by chain.
        for chain in choice.chains {
            if let best = choice.search(chain, around: choiceArgmax, requireChange: false),
               best.cost <= (chain.hasComposite ? Self.maximumRepairCost : Self.maximumRepairCost * 2 / 3),
               choice.overruling(best.assignment, from: choiceArgmax) <= Self.maximumOverruling {
                for (pos, s) in best.assignment { chosen[pos.line][pos.column] = s }
            }
        }
        choice.repairNames(&chosen)
        choice.repairCodes(&chosen)
        let lines = chosen.map { String(decoding: $0.map { Self.symbols[$0] }, as: UTF8.self) }
        let confidence = chosen.enumerated().map { l, line in line.enumerated().map { p, s in Double(exp(logp[l][p][s])) } }
        let changes = zip(chosen, argmax).reduce(0) { $0 + zip($1.0, $1.1).filter { $0 != $1 }.count }
        // Sure or not, valid or not: an invalid reading with no field in doubt is the print as it
        // is (a check digit the issuer got wrong, a date that does not exist), not a misreading,
        // where an invalid reading with one is a photo to retake (``MRZReading/unsureFields``).
        // For an invalid reading, the other readings searched are those that would pass the
        // failing check digits: a field is in doubt when one of them is within the margin.
        var unsure = problem.unsureFields(chosen)
        // Verified is the recognizer's own reading. What is printed is read as printed: a
        // character the recognizer itself reads as another symbol, which the layout's classes,
        // the grammar or the check digits then overrule, is a guess about a print that may
        // really say what the recognizer saw (a `B` printed in a date, a `K` among a name's
        // fillers, a `0` printed for an `O`). A cell the recognizer could not see (covered)
        // was filled in by the layout and the check digits, not read: a check digit there
        // checks nothing. Either leaves the field unsure.
        for (l, line) in chosen.enumerated() where l < scores.evidence.count {
            for (p, s) in line.enumerated() where p < scores.evidence[l].count {
                let e = scores.evidence[l][p]
                let covered = l < scores.blank.count && p < scores.blank[l].count && scores.blank[l][p] > 0.5
                if let top = e.max(), covered || top - e[s] > Self.overruledEvidence {
                    unsure = Array(Set(unsure).union([problem.fieldNames[MRZPosition(line: l, column: p)] ?? "composite"])).sorted()
                }
            }
        }
        let verified = Self.isValid(lines, as: format) && unsure.isEmpty
        return MRZReading(format: format, lines: lines, confidence: confidence, verified: verified,
                          checkDigitCorrections: changes, unsureFields: unsure, recognizer: scores.recognizer)
    }
}

/// A position of the MRZ.
struct MRZPosition: Hashable, Sendable {
    var line: Int
    var column: Int
}

/// One character in a chain of check-digit-covered characters, in weight order.
struct ChainItem: Sendable {
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
struct Chain: Sendable {
    var items: [ChainItem]
    var hasComposite: Bool
}

/// The decoding problem of one reading: its evidence, the chains of its layout, and the field each
/// position belongs to.
struct MRZDecodingProblem: Sendable {
    var format: MRZFormat
    var logp: [[[Float]]]
    var argmax: [[Int]]
    /// The recognizer's own evidence, before the layout's priors (``MRZScores/evidence``).
    var evidence: [[[Float]]]
    var chains: [Chain] = []
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
        func item(_ p: MRZPosition, composite w: Int) -> ChainItem {
            covered.insert(p)
            if fixed.contains(p) { return ChainItem(position: p, fieldWeight: 0, compositeWeight: w, role: .fixed) }
            if fieldCheck.contains(p) { return ChainItem(position: p, fieldWeight: 0, compositeWeight: w, role: .fieldCheck) }
            return ChainItem(position: p, fieldWeight: fieldWeight[p] ?? 0, compositeWeight: w, role: .data)
        }
        if let composite {
            var items = composite.coveredPositions.enumerated().map { k, p in item(MRZPosition(line: p.line, column: p.column), composite: [7, 3, 1][k % 3]) }
            let c = MRZPosition(line: composite.checkDigit.line, column: composite.checkDigit.column)
            covered.insert(c)
            items.append(ChainItem(position: c, fieldWeight: 0, compositeWeight: 0, role: .compositeCheck))
            chains.append(Chain(items: items, hasComposite: true))
        }
        for rule in fieldRules {
            let cd = MRZPosition(line: rule.checkDigit.line, column: rule.checkDigit.column)
            guard !covered.contains(cd) else { continue }
            let items = rule.coveredPositions.map { item(MRZPosition(line: $0.line, column: $0.column), composite: 0) } + [item(cd, composite: 0)]
            chains.append(Chain(items: items, hasComposite: false))
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
    func search(_ chain: Chain, around reading: [[Int]], requireChange: Bool) -> Solution? {
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
