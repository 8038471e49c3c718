import Foundation
import Testing
import IDKitMRZ
@testable import IDKitMRZReading

/// `verified` against constructed recognizer scores, not images: every combination of confusions
/// that cancels in the 7-3-1 check digits must leave the reading unverified unless the scores
/// really exclude it.
@Suite struct VerificationTests {
    static let symbols = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<")

    /// Evidence that reads `lines` with certainty (every other symbol e^20 less likely), then the
    /// given symbols at the given positions at the given log-odds against the printed one
    /// (negative: less likely than it; positive: the recognizer prefers it).
    static func scores(_ format: MRZFormat, _ lines: [String], _ doubts: [(line: Int, column: Int, symbol: Character, logOdds: Float)] = []) -> MRZScores {
        var evidence = lines.map { line in
            line.map { ch -> [Float] in
                var v = [Float](repeating: -20, count: 37)
                v[symbols.firstIndex(of: ch)!] = 0
                return v
            }
        }
        for d in doubts { evidence[d.line][d.column][symbols.firstIndex(of: d.symbol)!] = d.logOdds }
        return MRZScores(format: format, evidence: evidence, recognizer: .network)
    }

    static let specimen = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]

    /// A TD3 whose document number `710727745` becomes `Z1OZ2ZZ45` with four Z-for-7 and one
    /// O-for-0: 4·28 weighted 7, 7, 7, 1 and 24 weighted 1 add up to 30 ≡ 0, in the number's check
    /// digit and in the composite alike (the unseen UK passport of the issue, in miniature).
    static let zCase: [String] = {
        let fields = MRZFields(documentCode: "P", issuingState: "UTO", documentNumber: "710727745",
                               primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA MARIA", nationality: "UTO",
                               dateOfBirth: "740812", sex: "F", dateOfExpiry: "320415", optionalData1: "", optionalData2: nil)
        return try! MRZGenerator.generate(fields, format: .td3).split(separator: "\n").map(String.init)
    }()
    static let zSwaps: [(Int, Character)] = [(0, "Z"), (2, "O"), (3, "Z"), (5, "Z"), (6, "Z")]

    @Test func certainReadingIsVerified() {
        let r = MRZDecoder().decode(Self.scores(.td3, Self.specimen))
        #expect(r.lines == Self.specimen)
        #expect(r.verified)
        #expect(r.unsureFields.isEmpty)
        #expect(r.checkDigitCorrections == 0)
    }

    @Test func theConstructedSwapsReallyCancel() throws {
        var swapped = Array(Self.zCase[1])
        for (c, s) in Self.zSwaps { swapped[c] = s }
        let other = try MRZParser().parse(lines: [Self.zCase[0], String(swapped)])
        #expect(other.isValid)
        #expect(other.fields.documentNumber == "Z1OZ2ZZ45")
    }

    /// Five swaps at these log-odds each: 2.5, 4 and 4.75 nats in all, within the e^5 margin.
    @Test(arguments: [Float(-0.5), -0.8, -0.95])
    func cancellingCombinationWithinReachIsNotVerified(_ logOdds: Float) {
        let doubts = Self.zSwaps.map { (line: 1, column: $0.0, symbol: $0.1, logOdds: logOdds) }
        let r = MRZDecoder().decode(Self.scores(.td3, Self.zCase, doubts))
        #expect(r.lines == Self.zCase)
        #expect(!r.verified)
        #expect(r.unsureFields == ["documentNumber"])
    }

    @Test func cancellingCombinationTheScoresExcludeIsVerified() {
        // Each swap e^10 less likely: the ceiling for confusable pairs (e^9.2) still puts the
        // five-swap reading e^46 away.
        let doubts = Self.zSwaps.map { (line: 1, column: $0.0, symbol: $0.1, logOdds: Float(-10)) }
        let r = MRZDecoder().decode(Self.scores(.td3, Self.zCase, doubts))
        #expect(r.lines == Self.zCase)
        #expect(r.verified)
    }

    @Test func recognizerPreferringTheWrongValidReadingIsNotVerified() {
        // The Slovenian ID of the issue: O for 0 at weights 7 and 3 (24·7 + 24·3 = 240 ≡ 0) in the
        // document number, with the recognizer leaning to O.
        // (The lines as printed on the specimen, ../shared/testdata/mrz-real image 004.)
        let truth = ["I<SI<09999100180706966505468<<", "6606079F0807276SI<<<<<<<<<<<<0", "VZOREC<<TINA<<<<<<<<<<<<<<<<<<"]
        let parsed = try? MRZParser().parse(lines: truth)
        #expect(parsed?.isValid == true)
        let doubts = [(line: 0, column: 5, symbol: Character("O"), logOdds: Float(1)), (line: 0, column: 12, symbol: "O", logOdds: 1)]
        let r = MRZDecoder().decode(Self.scores(.td1, truth, doubts))
        #expect(r.lines[0] == "I<SI<O999910O180706966505468<<")
        #expect(!r.verified)
        #expect(r.unsureFields.contains("documentNumber"))
    }

    /// Image 004 of `../shared/testdata/mrz-real` as measured: in the optional data `…180706…` the
    /// recognizer took the first `0` for `O` (by 2.7 nats) and leaned to `0` for the second (by
    /// 0.2); `O` for `0` at weights 7 and 3 cancels in the composite, so only the scores choose.
    /// Between digits the letter `O` is e^2 less likely a priori (``MRZDecoder/letterOAmongDigits``):
    /// the digits are read, and not verified, because the recognizer itself preferred an `O`.
    @Test func letterOBetweenDigitsIsReadAsTheDigitButNotVerified() {
        let truth = ["I<SI<09999100180706966505468<<", "6606079F0807276SI<<<<<<<<<<<<0", "VZOREC<<TINA<<<<<<<<<<<<<<<<<<"]
        let doubts = [(line: 0, column: 15, symbol: Character("O"), logOdds: Float(2.7)), (line: 0, column: 17, symbol: "O", logOdds: -0.2)]
        let r = MRZDecoder().decode(Self.scores(.td1, truth, doubts))
        #expect(r.lines == truth)
        #expect(!r.verified)
        #expect(r.unsureFields == ["optionalData1"])
        // Without the prior the two `O`s would win (2.7 − 0.2 nats): the test fails on the old decoder.
        #expect(MRZDecoder.letterOAmongDigits > 1.25)
    }

    /// The prior is not a wall: an `O` printed between digits that the recognizer reads clearly
    /// (e^5 over `0`) stays an `O`, and is verified when nothing else is in doubt.
    @Test func clearlyPrintedLetterOBetweenDigitsStays() throws {
        let fields = MRZFields(documentCode: "P", issuingState: "UTO", documentNumber: "L898902C3",
                               primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA MARIA", nationality: "UTO",
                               dateOfBirth: "740812", sex: "F", dateOfExpiry: "320415", optionalData1: "12O45", optionalData2: nil)
        let lines = try MRZGenerator.generate(fields, format: .td3).split(separator: "\n").map(String.init)
        #expect(Array(lines[1])[30] == "O")
        let r = MRZDecoder().decode(Self.scores(.td3, lines, [(line: 1, column: 30, symbol: "0", logOdds: -5)]))
        #expect(r.lines == lines)
        #expect(r.verified)
        // Read only a little better than `0` (e^1, under the prior), the `O` is still what the
        // check digits allow: the prior chooses among valid readings, it does not rewrite one.
        let weak = MRZDecoder().decode(Self.scores(.td3, lines, [(line: 1, column: 30, symbol: "0", logOdds: -1)]))
        #expect(weak.lines == lines)
        #expect(weak.verified)
    }

    @Test func twoCancellingConfusionsInThePersonalNumber() throws {
        // TD3 personal number at columns 29–30 (1-based): weights 7 and 3 in its own check digit,
        // and 7 and 3 in the composite too (ICAO 9303-4: the composite runs over 1–10, 14–20,
        // 22–43, so the number's phase is the same): O for 0 in both cancels everywhere.
        let fields = MRZFields(documentCode: "P", issuingState: "UTO", documentNumber: "L898902C3",
                               primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA MARIA", nationality: "UTO",
                               dateOfBirth: "740812", sex: "F", dateOfExpiry: "320415", optionalData1: "00ABC", optionalData2: nil)
        let lines = try MRZGenerator.generate(fields, format: .td3).split(separator: "\n").map(String.init)
        var swapped = Array(lines[1]); swapped[28] = "O"; swapped[29] = "O"
        #expect(try MRZParser().parse(lines: [lines[0], String(swapped)]).isValid)
        let doubts = [(line: 1, column: 28, symbol: Character("O"), logOdds: Float(-2)), (line: 1, column: 29, symbol: "O", logOdds: -2)]
        let r = MRZDecoder().decode(Self.scores(.td3, lines, doubts))
        #expect(r.lines == lines)
        #expect(!r.verified)
        #expect(r.unsureFields == ["optionalData1"])
    }

    @Test func birthDateConfusionsThatCancelEverywhereAreNotVerified() throws {
        // Birth date 740812 at columns 14–19 (1-based): weights 7 3 1 7 3 1 in its own check
        // digit, 3 1 7 3 1 7 in the composite. '4'→'9' (+5 at own 3, composite 1) with '8'→'3'
        // (−5 at own 7, composite 3): own 15 − 35 = −20 ≡ 0, composite 5 − 15 = −10 ≡ 0, and
        // 790312 is a date. Both cancel: a real ambiguity, and the decoder must say so.
        var lines = Self.specimen
        let doubts = [(line: 1, column: 14, symbol: Character("9"), logOdds: Float(-2)), (line: 1, column: 16, symbol: "3", logOdds: -2)]
        var swapped = Array(lines[1]); swapped[14] = "9"; swapped[16] = "3"
        #expect(try MRZParser().parse(lines: [lines[0], String(swapped)]).isValid)
        let r = MRZDecoder().decode(Self.scores(.td3, lines, doubts))
        #expect(!r.verified)
        #expect(r.unsureFields == ["dateOfBirth"])
        // Alone, neither swap passes: one plausible misread is caught by the check digits.
        lines = Self.specimen
        let single = MRZDecoder().decode(Self.scores(.td3, lines, [doubts[0]]))
        #expect(single.verified)
    }

    @Test func fillerAndKInvisibleToCheckDigitsIsNotVerified() {
        // 'K' (20) for '<' (0) changes no 7-3-1 sum: only the scores can tell them apart.
        let r = MRZDecoder().decode(Self.scores(.td3, Self.specimen, [(line: 1, column: 38, symbol: "K", logOdds: -2)]))
        #expect(r.lines == Self.specimen)
        #expect(!r.verified)
        #expect(r.unsureFields == ["optionalData1"])
    }

    @Test func uncertainNameLetterIsNotVerified() {
        let r = MRZDecoder().decode(Self.scores(.td3, Self.specimen, [(line: 0, column: 7, symbol: "F", logOdds: -2)]))
        #expect(r.lines == Self.specimen)
        #expect(!r.verified)
        #expect(r.unsureFields == ["name"])
    }

    @Test func letterAfterTrailingFillersIsSetBackToFiller() {
        // An occluded last character read as 'L' after the name's trailing fillers: no name ends
        // so, and the filler is returned; but the recognizer saw an 'L', so the name is unsure.
        let r = MRZDecoder().decode(Self.scores(.td3, Self.specimen, [(line: 0, column: 43, symbol: "L", logOdds: 2)]))
        #expect(r.lines == Self.specimen)
        #expect(!r.verified)
        #expect(r.unsureFields == ["name"])
    }

    @Test func letterAfterTrailingFillersThatCannotBeAFillerIsNotVerified() {
        var lines = Self.specimen
        lines[0] = String(lines[0].dropLast()) + "L"
        // '<' ruled out entirely at the last position: the name stays ungrammatical.
        var s = Self.scores(.td3, lines)
        s.evidence[0][43][36] = -40
        let r = MRZDecoder().decode(s)
        #expect(!r.verified)
        #expect(r.unsureFields.contains("name"))
    }

    @Test func checkDigitsRepairAPlausibleMisreadButDoNotVerifyIt() {
        // The birth date's '7' read as '3', with '7' a close second: the check digit picks '7'.
        // The recognizer saw a '3', and a misprinted '3' would read the same: repaired, returned,
        // not verified (the date is the unsure field).
        var lines = Self.specimen
        var l2 = Array(lines[1]); l2[13] = "3"; lines[1] = String(l2)
        let r = MRZDecoder().decode(Self.scores(.td3, lines, [(line: 1, column: 13, symbol: "7", logOdds: -1.5)]))
        #expect(r.lines == Self.specimen)
        #expect(r.checkDigitCorrections == 1)
        #expect(!r.verified)
        #expect(r.unsureFields == ["dateOfBirth"])
    }

    @Test func aCoveredCheckDigitIsFilledInButNotVerified() {
        // The composite covered by a thumb: the network says "none" there, the evidence is flat,
        // and the check digits fill it in. Nothing was read, so nothing was checked.
        var scores = Self.scores(.td3, Self.specimen)
        scores.evidence[1][43] = [Float](repeating: 0, count: 37)
        scores.blank = Self.specimen.map { $0.map { _ in Float(0) } }
        scores.blank[1][43] = 0.98
        let r = MRZDecoder().decode(scores)
        #expect(r.lines == Self.specimen)
        #expect(!r.verified)
        #expect(r.unsureFields == ["composite"])
    }

    /// A visa's lines, decoded as a passport's first (its first letter cut off by the photo's edge:
    /// nothing tells `P` from `V`), fail the passport's composite check digit; the visa's layout
    /// reads them valid, and the document code stays in doubt.
    @Test func aVisaWhoseFirstLetterWasNotSeenIsDecodedAsAVisa() throws {
        let fields = MRZFields(documentCode: "V", issuingState: "UTO", documentNumber: "L8988901C",
                               primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA MARIA", nationality: "XXX",
                               dateOfBirth: "400907", sex: "F", dateOfExpiry: "961210", optionalData1: "6ZE184226B", optionalData2: nil)
        let visa = try MRZGenerator.generate(fields, format: .mrvA).split(separator: "\n").map(String.init)
        #expect(try MRZParser().parse(lines: visa).format == .mrvA)
        var withoutCheck = visa
        withoutCheck[0] = "P" + visa[0].dropFirst()
        #expect(try MRZParser().parse(lines: withoutCheck).isValid == false)
        var scores = Self.scores(.td3, visa)
        scores.evidence[0][0] = [Float](repeating: 0, count: 37)
        scores.blank = visa.map { $0.map { _ in Float(0) } }
        scores.blank[0][0] = 1
        let r = MRZDecoder().decode(scores)
        #expect(r.format == .mrvA)
        #expect(r.lines == visa)
        #expect(!r.verified)
        #expect(r.unsureFields.contains("documentCode"))
    }

    /// A passport's lines cut to 36 characters (a band found short) pass every check digit of an
    /// MRV-B visa, which has no composite. With its `P` seen, the lines are not taken for a visa's:
    /// they stay the invalid TD2 they are (and the scanner reads the band wider).
    @Test func aShortPassportWithItsPSeenIsNotTakenForAVisa() throws {
        let short = Self.specimen.map { String($0.prefix(36)) }
        var asVisa = short
        asVisa[0] = "V" + short[0].dropFirst()
        #expect(try MRZParser().parse(lines: asVisa).isValid)
        var scores = Self.scores(.td2, short)
        scores.blank = short.map { $0.map { _ in Float(0) } }
        let r = MRZDecoder().decode(scores)
        #expect(r.format == .td2)
        #expect(r.lines[0].first == "P")
        #expect(!r.verified)
    }

    @Test func fillersContinueUnderACover() throws {
        // The last three cells of a TD1's first line covered: optional data, left-aligned and
        // padded with fillers, so the run of fillers before the cover continues under it.
        let lines = ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]
        #expect(try MRZParser().parse(lines: lines).isValid)
        var scores = Self.scores(.td1, lines)
        for p in 27..<30 { scores.evidence[0][p] = [Float](repeating: 0, count: 37) }
        let r = MRZDecoder().decode(scores)
        #expect(r.lines == lines)
        #expect(!r.verified)
    }

    @Test func printedCheckDigitsThatFailStayInvalid() {
        // The printed composite is wrong and nothing plausible fixes it: not verified, not "fixed".
        var lines = Self.specimen
        lines[1] = String(lines[1].dropLast()) + "3"
        let r = MRZDecoder().decode(Self.scores(.td3, lines))
        #expect(r.lines == lines)
        #expect(!r.verified)
    }

    @Test func unknownCountryCodeIsReadAsTheKnownOneWithinReachButNotVerified() {
        // The tiny specimen's `UTO` read as `UTQ` (the `O` at e^-2.8): no code `UTQ` exists, `UTO`
        // does (ICAO 9303-3 §5), so the code is read as `UTO`, and stays unsure: the recognizer saw `Q`.
        var lines = Self.specimen
        lines[0] = lines[0].replacingOccurrences(of: "P<UTO", with: "P<UTQ")
        let r = MRZDecoder().decode(Self.scores(.td3, lines, [(line: 0, column: 4, symbol: "O", logOdds: -2.8)]))
        #expect(r.lines == Self.specimen)
        #expect(!r.verified)
        #expect(r.unsureFields == ["issuingState"])
        // Out of reach (the `O` at e^-7), the code is read as printed: a well-formed code no list
        // knows yet, read clearly, stays (and the parser warns of it).
        let far = MRZDecoder().decode(Self.scores(.td3, lines, [(line: 0, column: 4, symbol: "O", logOdds: -7)]))
        #expect(far.lines == lines)
        #expect(far.verified)
    }

    @Test func digitsPrintedInACodeStayDigits() throws {
        // A nationality printed `132` (the Romanian ID of ../shared/testdata/mrz-real), read so
        // clearly that letters lose by more than the class penalty: read as printed, and the
        // parser calls the MRZ invalid. The code repair must not turn it into a country.
        var lines = Self.specimen
        var l2 = Array(lines[1]); l2.replaceSubrange(10..<13, with: "132"); lines[1] = String(l2)
        let doubts = [(line: 1, column: 10, symbol: Character("I"), logOdds: Float(-6)), (line: 1, column: 11, symbol: "B", logOdds: -6),
                      (line: 1, column: 12, symbol: "Z", logOdds: -6)]
        let r = MRZDecoder().decode(Self.scores(.td3, lines, doubts))
        #expect(r.lines == lines)
        #expect(!r.verified)
        #expect(try !MRZParser().parse(lines: r.lines).isValid)
    }

    @Test func clearGlyphIsReadAsPrintedNotRepaired() throws {
        // The print says '3' where the data needs '7' (a misprinted birth date, or a page from
        // the stress set's injected confusions); the recognizer sees the '3' clearly and '7' only
        // at e^-8. The check digits could "fix" it, but that overrules the recognizer by more
        // than ``MRZDecoder/maximumOverruling``: the '3' is read as printed and the MRZ is invalid.
        var lines = Self.specimen
        var l2 = Array(lines[1]); l2[13] = "3"; lines[1] = String(l2)
        let r = MRZDecoder().decode(Self.scores(.td3, lines, [(line: 1, column: 13, symbol: "7", logOdds: -8)]))
        #expect(r.lines == lines)
        #expect(r.checkDigitCorrections == 0)
        #expect(!r.verified)
        #expect(try !MRZParser().parse(lines: r.lines).isValid)
        // Within the bound (the '7' at e^-5) the check digits still repair it, unverified.
        let near = MRZDecoder().decode(Self.scores(.td3, lines, [(line: 1, column: 13, symbol: "7", logOdds: -5)]))
        #expect(near.lines == Self.specimen)
        #expect(near.checkDigitCorrections == 1)
        #expect(!near.verified)
        #expect(near.unsureFields == ["dateOfBirth"])
    }

    @Test func clearLetterInADateIsReadAsPrinted() throws {
        // A 'T' printed for the birth date's check digit '2' (the stress set's injected
        // confusions print a 'T' for a '1' so): the recognizer reads 'T' clearly, the '2' at e^-8.
        // Neither the class of the position (a prior of e^4) nor the check digits make it a digit.
        var lines = Self.specimen
        var l2 = Array(lines[1]); l2[19] = "T"; lines[1] = String(l2)
        let r = MRZDecoder().decode(Self.scores(.td3, lines, [(line: 1, column: 19, symbol: "2", logOdds: -8)]))
        #expect(r.lines == lines)
        #expect(!r.verified)
        let parsed = try MRZParser().parse(lines: r.lines)
        #expect(!parsed.isValid)
        #expect(parsed.checkDigits.dateOfBirth == .invalid)
    }

    @Test func clearLetterAfterTheNamesFillersStays() {
        // A 'K' printed among the name's trailing fillers, read clearly ('<' at e^-8): the name's
        // grammar does not overrule that much evidence. Read as printed, the name unsure.
        var lines = Self.specimen
        var l1 = Array(lines[0]); l1[40] = "K"; lines[0] = String(l1)
        let r = MRZDecoder().decode(Self.scores(.td3, lines, [(line: 0, column: 40, symbol: "<", logOdds: -8)]))
        #expect(r.lines == lines)
        #expect(!r.verified)
        #expect(r.unsureFields == ["name"])
    }

    @Test func clearDigitInACountryCodeStays() {
        // The issuing state printed `UT0`, its '0' read clearly ('O' at e^-8): no known code is
        // within the evidence's reach, so the code stays as printed (the parser judges it).
        var lines = Self.specimen
        lines[0] = lines[0].replacingOccurrences(of: "P<UTO", with: "P<UT0")
        let r = MRZDecoder().decode(Self.scores(.td3, lines, [(line: 0, column: 4, symbol: "O", logOdds: -8)]))
        #expect(r.lines == lines)
        #expect(!r.verified)
        // Read less clearly ('O' at e^-3), the known code is chosen, unverified.
        let near = MRZDecoder().decode(Self.scores(.td3, lines, [(line: 0, column: 4, symbol: "O", logOdds: -3)]))
        #expect(near.lines == Self.specimen)
        #expect(!near.verified)
        #expect(near.unsureFields == ["issuingState"])
    }

    @Test func clearFirstLetterOutsideTheLayoutStays() throws {
        // A TD1 whose document code is printed `L<` (not one ICAO allows: A, C or I), read clearly
        // ('I' at e^-8): read as printed, and the parser warns of the document code.
        let lines = ["L<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]
        let r = MRZDecoder().decode(Self.scores(.td1, lines, [(line: 0, column: 0, symbol: "I", logOdds: -8)]))
        #expect(r.lines == lines)
        #expect(!r.verified)
        let parsed = try MRZParser().parse(lines: r.lines)
        #expect(parsed.warnings.contains { $0.code == .unexpectedDocumentCode })
        // An 'I' nearly as likely (e^-3) is what a TD1 allows there: read as 'I', not verified.
        let near = MRZDecoder().decode(Self.scores(.td1, lines, [(line: 0, column: 0, symbol: "I", logOdds: -3)]))
        #expect(near.lines[0].hasPrefix("I<UTO"))
        #expect(!near.verified)
    }
}
