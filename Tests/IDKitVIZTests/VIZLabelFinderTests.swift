import IDKitCore
import IDKitDocument
import IDKitVIZ
import Testing

/// The fields the MRZ lacks, by their printed captions, on lines laid out as a data page's columns.
@Suite struct VIZLabelFinderTests {
    /// A word at (x, line k), 20 px per character, 30 px high, 60 px between lines.
    static func word(_ text: String, x: Int, line k: Int, confidence: Double = 0.9) -> VIZWord {
        VIZWord(text: text, confidence: confidence, box: VIZBox(left: x, top: 60 * k, right: x + 20 * text.count, bottom: 60 * k + 30))
    }

    static func line(_ words: [VIZWord]) -> VIZLine {
        VIZLine(text: words.map(\.text).joined(separator: " "), confidence: 0.9,
                box: words.dropFirst().reduce(words[0].box) { $0.union($1.box) }, words: words)
    }

    /// Words at their x positions, spaced as a line of text: `[(x, "Date of issue/")]` splits at spaces.
    static func line(_ k: Int, _ runs: [(Int, String)]) -> VIZLine {
        var words: [VIZWord] = []
        for (x, text) in runs {
            var at = x
            for w in text.split(separator: " ") {
                words.append(word(String(w), x: at, line: k))
                at += 20 * w.count + 15
            }
        }
        return line(words)
    }

    let finder = VIZLabelFinder(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))

    /// The field `name` found in a caption's line and the value's line below it.
    func field(_ name: DocumentFieldName, _ caption: String, _ value: String) -> VIZField? {
        finder.fields(in: [Self.line(0, [(100, caption)]), Self.line(1, [(100, value)])])[name]
    }

    @Test("two captions side by side, each value in its column below")
    func specimenColumns() {
        let lines = [
            Self.line(0, [(100, "Sex/ Sexe"), (400, "Place of birth/ Lieu de naissance")]),
            Self.line(1, [(100, "F"), (400, "ZENITH")]),
            Self.line(2, [(100, "Date of issue/ Date de délivrance"), (1000, "Authority/ Autorité")]),
            Self.line(3, [(100, "16 APR/AVR 07"), (1000, "PASSPORT OFFICE")]),
        ]
        let found = finder.fields(in: lines)
        #expect(found[.placeOfBirth]?.value == "ZENITH")
        #expect(found[.dateOfIssue]?.value == "2007-04-16")
        #expect(found[.dateOfIssue]?.text == "16 APR/AVR 07")
        #expect(found[.issuingAuthority]?.value == "PASSPORT OFFICE")
        #expect(found[.sex]?.value == "F")
        #expect(found[.sex]?.text == "F")
        #expect(found.values.allSatisfy { $0.matchesMRZ == nil })
    }

    /// The sex under its caption: the ICAO letter among the parts of a value in several
    /// languages, the next column's words left out; a short caption only as it is printed.
    @Test("the sex under its caption, in its languages' forms")
    func sexUnderItsCaption() {
        func sex(_ caption: String, _ value: String) -> VIZField? { field(.sex, caption, value) }
        #expect(sex("Kyn/Sex/Sexe", "KVK/F")?.value == "F")
        #expect(sex("Sex", "V/F")?.value == "F")
        #expect(sex("Geschlecht", "M")?.value == "M")
        #expect(sex("Sex", "F 01 JAN")?.text == "F")
        // Two different letters, none, or a caption one letter off a short one: nothing.
        #expect(sex("Sex", "M/F") == nil)
        #expect(sex("Sex", "ZENITH") == nil)
        #expect(sex("Set", "F") == nil)
    }

    /// The nationality under its caption, as printed, without the next column's number (the real
    /// Taiwanese page's `REPUBLIC OF CHINA` beside its passport number); the scan compares it.
    @Test("the nationality under its caption, as printed, the next column's number left out")
    func nationalityUnderItsCaption() {
        func nationality(_ caption: String, _ value: String) -> VIZField? { field(.nationality, caption, value) }
        #expect(nationality("Nationality/Nationalité", "REPUBLIC OF CHINA A234567893")?.text == "REPUBLIC OF CHINA")
        #expect(nationality("Staatsangehörigkeit/Nationality", "DEUTSCH")?.value == "DEUTSCH")
        #expect(nationality("Kodakondsus/Nationality", "EST")?.matchesMRZ == nil)
        #expect(nationality("Nationality", "1234") == nil)
    }

    /// A place of birth or an authority (nothing can check them) read unsurely is no value: the
    /// real Latvian page's `MAROKA / MAR` read `NAR S/F` at 0.65, the sex column's value with it.
    /// A date of issue is still taken: the MRZ's expiry checks it (``VIZIssueDateFinder``).
    @Test("a place of birth or an authority read unsurely is not taken; a date of issue is")
    func unsureTextIsNoValue() {
        let unsure = [
            Self.line(0, [(100, "Place of birth"), (600, "Date of issue")]),
            Self.line([Self.word("NAR", x: 100, line: 1, confidence: 0.65), Self.word("S/F", x: 200, line: 1),
                       Self.word("01.07.2009", x: 600, line: 1, confidence: 0.5)]),
        ]
        let found = finder.fields(in: unsure)
        #expect(found[.placeOfBirth] == nil)
        #expect(found[.dateOfIssue]?.value == "2009-07-01")
        let sure = [
            Self.line(0, [(100, "Place of birth")]),
            Self.line([Self.word("MAROKA", x: 100, line: 1, confidence: 0.93), Self.word("/", x: 260, line: 1), Self.word("MAR", x: 300, line: 1)]),
        ]
        #expect(finder.fields(in: sure)[.placeOfBirth]?.value == "MAROKA / MAR")
    }

    /// A value that starts left of its caption (the caption's other language not read as one):
    /// the words a word space before the column are its start; a word a column away is not.
    @Test("a value printed further left than its caption is taken whole")
    func valueStartingLeftOfItsCaption() {
        let lines = [
            Self.line(0, [(100, "AMAN / Authority")]),
            Self.line(1, [(100, "EMBASSY OF THE REPUBLIC OF CHINA")]),
        ]
        #expect(finder.fields(in: lines)[.issuingAuthority]?.value == "EMBASSY OF THE REPUBLIC OF CHINA")
        let columns = [
            Self.line(0, [(100, "Sex"), (600, "Authority")]),
            Self.line(1, [(100, "F"), (600, "PASSPORT OFFICE")]),
        ]
        #expect(finder.fields(in: columns)[.issuingAuthority]?.value == "PASSPORT OFFICE")
    }

    @Test("captions in other languages, one OCR error in six letters, accents folded")
    func languagesAndNoise() {
        let lines = [
            Self.line(0, [(100, "Ausstelungsdatum")]),      // one letter dropped
            Self.line(1, [(100, "01.11.2010")]),
            Self.line(2, [(100, "Geburtsort")]),
            Self.line(3, [(100, "KÖLN")]),
            Self.line(4, [(100, "Behörde")]),
            Self.line(5, [(100, "STADT KÖLN")]),
        ]
        let found = finder.fields(in: lines)
        #expect(found[.dateOfIssue]?.value == "2010-11-01")
        #expect(found[.placeOfBirth]?.text == "KÖLN")
        #expect(found[.issuingAuthority]?.text == "STADT KÖLN")
    }

    @Test("no value where the line below is another caption row, or not a date for a date")
    func noValue() {
        let lines = [
            Self.line(0, [(100, "Date of issue")]),
            Self.line(1, [(100, "Place of birth")]),
            Self.line(2, [(100, "BERLIN")]),
            Self.line(4, [(100, "Datum van afgifte")]),
            Self.line(5, [(100, "AMSTERDAM")]),
        ]
        let found = finder.fields(in: lines)
        #expect(found[.dateOfIssue] == nil)
        #expect(found[.placeOfBirth]?.value == "BERLIN")
    }

    @Test("the caption of a field the MRZ holds bounds the column beside it")
    func boundedByAnotherCaption() {
        let lines = [
            Self.line(0, [(100, "Ausstellungsdatum / Date of issue"), (800, "Gültig bis / Date of expiry")]),
            Self.line(1, [(100, "03.05.2021"), (800, "02.05.2031")]),
        ]
        #expect(finder.fields(in: lines)[.dateOfIssue]?.value == "2021-05-03")
    }

    @Test("a word far from every caption is no caption")
    func notACaption() {
        #expect(finder.fields(in: [Self.line(0, [(100, "Data")]), Self.line(1, [(100, "12.05.2020")])]).isEmpty)
    }

    /// A Romanian card's captions as Tesseract gives them: three languages joined by slashes with
    /// no spaces, so that `par/Issued` is one word. The authority's caption is found in its parts,
    /// and the validity's caption bounds its column: the range beside it is no part of the value.
    @Test("captions joined by slashes without spaces, and the column a validity caption bounds")
    func captionsJoinedBySlashes() {
        let lines = [
            Self.line(0, [(100, "Emisa de/Delivreé par/Issued by"), (800, "Valabilitate/Validite/Validity")]),
            Self.line(1, [(100, "Mun. Zenith"), (800, "17.10.03-15.04.2012")]),
        ]
        let found = finder.fields(in: lines)
        #expect(found[.issuingAuthority]?.value == "Mun. Zenith")
        #expect(found[.issuingAuthority]?.matchesMRZ == nil)
        // Without a caption beside it, the column runs on to the line's end.
        let unbounded = finder.fields(in: [Self.line(0, [(100, "Emisa de/Delivreé par/Issued by")]), lines[1]])
        #expect(unbounded[.issuingAuthority]?.value == "Mun. Zenith 17.10.03-15.04.2012")
        // A word that is no caption in any of its parts finds nothing.
        #expect(finder.fields(in: [Self.line(0, [(100, "Nume/Nom/Last name")]), lines[1]])[.issuingAuthority] == nil)
    }

    /// A mark OCR read before a value is no part of it, and a date after an authority's name is
    /// the column beside it.
    @Test("marks at a value's ends and a date after a name are left out")
    func marksAndDatesLeftOut() {
        let marked = finder.fields(in: [Self.line(0, [(100, "Authority")]), Self.line(1, [(100, "= STADT ZENITH ~")])])
        #expect(marked[.issuingAuthority]?.value == "STADT ZENITH")
        let dated = finder.fields(in: [Self.line(0, [(100, "Issued by")]), Self.line(1, [(100, "Mun. Zenith 17.10.03")])])
        #expect(dated[.issuingAuthority]?.value == "Mun. Zenith")
        // The date of issue is a date.
        let issue = finder.fields(in: [Self.line(0, [(100, "Date of issue")]), Self.line(1, [(100, "16 APR/AVR 07")])])
        #expect(issue[.dateOfIssue]?.value == "2007-04-16")
    }
}
