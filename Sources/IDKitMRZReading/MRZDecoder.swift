import Foundation
import IDKitMRZ

/// Turns per-character evidence into the most probable MRZ that the layout's rules allow, and
/// judges whether it can be trusted.
///
/// 0. Where the recognizer hesitates between a confusable pair in a position that allows both
///    (`0`/`O` in a document number), the glyph is compared with the document's own clear examples
///    of the two (``MRZOwnGlyphs``: its dates' zeros, its name's letters), which adds evidence.
/// 1. Each position's character class (``MRZFormat/characterClasses``: digits in dates and check
///    digits, letters in codes and names, `M F X <` for sex) limits what it can be.
/// 2. The check digits (ICAO 9303-3 §4.9; ``MRZFormat/checkDigitRules``) choose the most probable
///    reading that passes all of them at once: a dynamic program over the characters the
///    composite covers, whose state is the running 7-3-1 sums mod 10 of the open field and of the
///    composite. It is exact: no limit on how many characters, only on how improbable the change.
/// 3. The same program, asked for the best reading that differs from the chosen one in at least
///    one character, tells how close the nearest other valid reading is. The 7-3-1 weights cancel
///    combinations of confusions (`O` for `0` at weights 7 and 3: 24·7 + 24·3 = 240 ≡ 0), so
///    checking one alternative at a time is not enough; the program sees every combination.
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
    /// invalid ("what is printed must be read as printed, then judged"), not silently
    /// "fixed" into a different document that passes them. Without a bound, photos with confusions
    /// injected into their print come out valid and different from it; e^6 stops nearly all of
    /// them and changes the reading of no clean photo and no real specimen.
    static let maximumOverruling: Float = 6

    /// The recognizer may be overconfident on print unlike its training data: the characters real
    /// OCR-B prints are confused with never cost more than −ln 10⁻⁴ ≈ 9.2 nats, whatever it says.
    static let confusionCeiling: Float = 9.2

    /// How much less likely a symbol outside a position's character class is, a priori (nats).
    static let outsideClassPenalty: Float = 4
    static let firstLetters: [MRZFormat: [Int]] = [.td3: [15], .mrvA: [21], .mrvB: [21], .td2: [8, 0, 2], .td1: [8, 0, 2]]

    static let symbols = OCRBTemplates.symbols
    static let filler = 36

    /// Pairs that real prints and cameras confuse (ICAO 9303-3 Appendix on OCR-B, and the misreads
    /// seen on real specimens): `0 O Q D U`, `1 I T L Y`, `2 Z`, `5 S`, `6 G`, `7 Z`,
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
        // a TD2's (a TD2 printed `IDFRA…`, which the parser calls an invalid French
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

    /// How much less likely, a priori, a letter `O` is than the digit `0` where an alphanumeric field
    /// (document number, optional data) holds it between two digits. Issuers' numbers are digit runs:
    /// on the 33 real specimens of `../shared/testdata/mrz-real`, 212 `0`s stand between two digits and
    /// no `O` does, while `O` for `0` is the commonest misread of digit runs. The 7-3-1 weights cannot
    /// tell `O0` from `0O` pairs at weights 7 and 3 (24·7 + 24·3 ≡ 0), so without a prior a faint `0`
    /// read as a likely `O` stays one. e^2: a print that really says `O` there and is read so by more
    /// than that keeps its `O`. The prior only chooses: whether the choice is verified is judged on the
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
        let problem = MRZDecodingInput(format: format, logp: logp, argmax: argmax, evidence: scores.evidence)
        let choice = MRZDecodingInput(format: format, logp: choosing, argmax: choiceArgmax, evidence: scores.evidence)
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
