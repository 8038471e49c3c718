import IDKitCore
import IDKitDocument
import IDKitMRZ
@testable import IDKitVIZ
import Testing

/// The MRZ's fields among visual-zone lines, on lines made here (no OCR: the finder alone).
@Suite struct VIZFieldFinderTests {
    /// A German passport's MRZ built for these tests (check digits computed): the name
    /// transliterated (`ÖSTERGÅRD-MÜLLER` → `OESTERGAARD<MUELLER`) and cut at the field's end.
    static let german = try! MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1)).parse(lines: [
        "P<D<<OESTERGAARD<MUELLER<<ZOE<LUCJA<STEFAN<<",
        "C01X00T478D<<7408122F3105021<<<<<<<<<<<<<<06",
    ])
    static let specimen = try! MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1)).parse(lines: [
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
        "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
    ])

    /// Lines as Tesseract gives them: words split at spaces, each word 20 px per character wide.
    static func lines(_ texts: [String], confidence: Double = 0.95) -> [VIZLine] {
        texts.enumerated().map { k, text in
            var x = 10
            let words = text.split(separator: " ").map { w -> VIZWord in
                defer { x += 20 * w.count + 15 }
                return VIZWord(text: String(w), confidence: confidence, box: VIZBox(left: x, top: 40 * k, right: x + 20 * w.count, bottom: 40 * k + 30))
            }
            return VIZLine(text: text, confidence: confidence, box: words.dropFirst().reduce(words[0].box) { $0.union($1.box) }, words: words)
        }
    }

    let finder = VIZFieldFinder(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))

    @Test("names under ICAO transliteration, dates in printed forms, the number with its spaces")
    func germanPage() throws {
        #expect(Self.german.isValid)
        let found = finder.fields(in: Self.lines([
            "Name / Surname / Nom", "ÖSTERGÅRD-MÜLLER", "Vornamen / Given names / Prénoms", "ZOË ŁUCJA ȘTEFAN",
            "Geburtstag / Date of birth", "12.08.1974", "Gültig bis / Date of expiry", "02 MAI/MAY 2031", "C01X 00T47",
        ]), mrz: Self.german)
        #expect(found[.lastName]?.text == "ÖSTERGÅRD-MÜLLER")
        #expect(found[.firstName]?.text == "ZOË ŁUCJA ȘTEFAN")
        #expect(found[.dateOfBirth]?.value == "1974-08-12")
        #expect(found[.dateOfBirth]?.text == "12.08.1974")
        #expect(found[.dateOfExpiry]?.value == "2031-05-02")
        #expect(found[.documentNumber]?.value == "C01X00T47")
        #expect(found[.documentNumber]?.text == "C01X 00T47")
        #expect(found.values.allSatisfy { $0.matchesMRZ == true })
        // The box of a run spans its words.
        let number = try #require(found[.documentNumber])
        #expect(number.box == VIZBox(left: 10, top: 320, right: 10 + 80 + 15 + 100, bottom: 350))
    }

    @Test("the specimen's page: a name the MRZ holds whole, a spaced personal number, dates with two languages")
    func specimenPage() {
        let found = finder.fields(in: Self.lines([
            "Surname/ Nom", "ERIKSSON", "Given names/ Prénoms", "ANNA MARIA", "Date of Birth/ Date de naissance Personal No./ N° personnel",
            "12 AUGUST/AOUT 74 Z E 184226 B", "Date of expiry/ Date d'expiration", "15 APR/AVR 12", "P UTO L898902C3",
        ]), mrz: Self.specimen)
        #expect(found[.lastName]?.value == "ERIKSSON")
        #expect(found[.firstName]?.value == "ANNA MARIA")
        #expect(found[.dateOfBirth]?.text == "12 AUGUST/AOUT 74")
        #expect(found[.dateOfExpiry]?.value == "2012-04-15")
        #expect(found[.personalIdNumber]?.value == "ZE184226B")
        #expect(found[.documentNumber]?.value == "L898902C3")
    }

    @Test("a VIZ that says otherwise is never reported as matching: the field is not found")
    func noFalseMatch() {
        let found = finder.fields(in: Self.lines([
            "ERIKSON", "ANNA", "13 AUG 74", "15 APR 13", "L898902C8",
        ]), mrz: Self.specimen)
        #expect(found[.lastName] == nil)            // one S short
        #expect(found[.firstName] == nil)           // the MRZ says ANNA MARIA and is not cut
        #expect(found[.dateOfBirth] == nil)
        #expect(found[.dateOfExpiry] == nil)
        #expect(found[.documentNumber] == nil)
    }

    @Test("a year that OCR split before its last digit is joined; no other space is taken out")
    func splitYear() {
        // The real Estonian specimen (064) reads its expiry `22.05.201 2`.
        let found = finder.fields(in: Self.lines(["Date of expiry", "15.04.201 2"]), mrz: Self.specimen)
        #expect(found[.dateOfExpiry]?.value == "2012-04-15")
        #expect(found[.dateOfExpiry]?.text == "15.04.201 2")
        // A stray digit before an unpadded day is not joined into it: the page prints 2 August 1974,
        // the MRZ says the 12th.
        let stray = finder.fields(in: Self.lines(["1 2.08.1974", "1 2 AUG/AOUT 74", "1974 08 1 2"]), mrz: Self.specimen)
        #expect(stray[.dateOfBirth] == nil)
        #expect(VIZFieldFinder.yearJoined("22.05.201 2") == "22.05.2012")
        #expect(VIZFieldFinder.yearJoined("12/08/7 4") == nil)      // a two-digit year is not completed
        #expect(VIZFieldFinder.yearJoined("1 2.08.1974") == nil)
        #expect(VIZFieldFinder.yearJoined("12 08 197 4") == nil)    // no separator before the year
    }

    @Test("a name the MRZ cut is found printed whole")
    func truncatedName() throws {
        let cut = try MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1)).parse(lines: [
            "I<UTOD231458907<<<<<<<<<<<<<<<",
            "7408122F1204159UTO<<<<<<<<<<<6",
            "VANDERBERGHE<TSCHIRSCHNITZ<<MA",
        ])
        #expect(cut.nameMayBeTruncated)
        let found = finder.fields(in: Self.lines(["VANDERBERGHE TSCHIRSCHNITZ", "MAXIMILIANE"]), mrz: cut)
        #expect(found[.lastName]?.text == "VANDERBERGHE TSCHIRSCHNITZ")
        #expect(found[.firstName]?.text == "MAXIMILIANE")
    }

    @Test("the least confident word gives the field's confidence")
    func confidence() {
        var lines = Self.lines(["ANNA MARIA"])
        lines[0].words[1].confidence = 0.41
        #expect(finder.fields(in: lines, mrz: Self.specimen)[.firstName]?.confidence == 0.41)
    }

    /// A page of a holder born in 1911: the MRZ's `110101` is 2011 by the century rule, and the
    /// page's four-digit year says otherwise. Made for this test: the specimen's MRZ with that
    /// birth date (its check digits no longer hold, which the finder does not look at).
    static let centenarian = try! MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1)).parse(lines: [
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
        "L898902C36UTO1101018F1204159ZE184226B<<<<<10",
    ])

    @Test("a four-digit year printed in the other century is the MRZ's date with the print's century")
    func thePrintGivesTheCentury() throws {
        #expect(Self.centenarian.dateOfBirth?.description == "2011-01-01")
        let found = try #require(finder.fields(in: Self.lines(["01.01.1911"]), mrz: Self.centenarian)[.dateOfBirth])
        #expect(found.value == "1911-01-01")
        #expect(found.matchesMRZ == true)
        // A two-digit year says nothing of the century, a year 1000 off is a misread, and a birth
        // after the reference date is none.
        #expect(finder.fields(in: Self.lines(["01.01.11"]), mrz: Self.centenarian)[.dateOfBirth]?.value == "2011-01-01")
        #expect(finder.fields(in: Self.lines(["01.01.3011"]), mrz: Self.centenarian)[.dateOfBirth] == nil)
        #expect(finder.fields(in: Self.lines(["01.01.2111"]), mrz: Self.centenarian)[.dateOfBirth] == nil)
        // A century read unsurely may be two digits misread: not taken.
        #expect(finder.fields(in: Self.lines(["01.01.1911"], confidence: 0.8), mrz: Self.centenarian)[.dateOfBirth] == nil)
        // Nor with the day and month swapped as well: 1 February 1911 is not the MRZ's 2 January.
        #expect(finder.fields(in: Self.lines(["01.02.1911"]), mrz: Self.centenarian)[.dateOfBirth] == nil)
        // An expiry has no other century: 1912 for the MRZ's 2012 is a misread.
        #expect(finder.fields(in: Self.lines(["15.04.1912"]), mrz: Self.specimen)[.dateOfExpiry] == nil)
        #expect(finder.fields(in: Self.lines(["15.04.2012"]), mrz: Self.specimen)[.dateOfExpiry]?.value == "2012-04-15")
    }

    @Test("a validity printed as one range is read as its two dates")
    func aRangeIsTwoDates() throws {
        let line = Self.lines(["17.10.03-15.04.2012"])[0].splittingDateRanges
        #expect(line.words.map(\.text) == ["17.10.03", "15.04.2012"])
        #expect(line.words[0].box.left == line.box.left && line.words[1].box.right == line.box.right)
        #expect(line.words[0].box.right < line.words[1].box.left)
        let found = try #require(finder.fields(in: [line], mrz: Self.specimen)[.dateOfExpiry])
        #expect(found.value == "2012-04-15" && found.text == "15.04.2012")
        // An em dash, or two hyphens, split the same way.
        #expect(Self.lines(["17.10.03\u{2014}15.04.2012"])[0].splittingDateRanges.words.map(\.text) == ["17.10.03", "15.04.2012"])
        #expect(Self.lines(["17.10.03--15.04.2012"])[0].splittingDateRanges.words.map(\.text) == ["17.10.03", "15.04.2012"])
        // A hyphen inside one date or a name splits nothing.
        for word in ["1974-08-12", "CHIEN-SHENG", "12-08-1974", "A-15.04.2012", "15.04.2012-"] {
            #expect(Self.lines([word])[0].splittingDateRanges.words.map(\.text) == [word])
        }
    }
}
