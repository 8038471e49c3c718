import Testing
@testable import IDKitMRZ

@Suite struct ParserBehaviorTests {
    let parser = MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
    let td3 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10"

    @Test func errorMessagesArePrecise() {
        #expect(throws: MRZError(kind: .lowercaseCharacter, line: 1, column: 1, expected: "A–Z, 0–9 or '<'", found: "lower-case 'p'")) {
            try parser.parse("p" + td3.dropFirst())
        }
        do {
            _ = try parser.parse(String(td3.dropLast()))
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "line 2: expected 44 characters, as line 1, found 43 characters")
        }
        do {
            _ = try parser.parse("")
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "expected 2 or 3 MRZ lines, found no text")
        }
    }

    @Test func toleratesWhitespaceAroundLines() throws {
        let messy = "\n  " + td3.replacingOccurrences(of: "\n", with: " \r\n\t") + "  \n\n"
        let result = try parser.parse(messy)
        #expect(result.isValid)
        #expect(result.text == td3)
        let single = try parser.parse(td3.replacingOccurrences(of: "\n", with: ""))
        #expect(single.text == td3)
    }

    @Test func invalidCheckDigitNamesThePosition() throws {
        let bad = td3.replacingOccurrences(of: "L898902C36", with: "L898902C37")
        let result = try parser.parse(bad)
        #expect(!result.isValid)
        let error = try #require(result.errors.first)
        #expect(error.code == .invalidCheckDigit && error.field == "documentNumber")
        #expect(error.line == 2 && error.column == 10 && error.expected == "'6'" && error.found == "'7'")
        #expect(result.checkDigits.documentNumber == .invalid)
        #expect(result.checkDigits.composite == .invalid)
        #expect(result.checkDigits.dateOfBirth == .valid)
    }

    @Test func centuryRule() throws {
        let result = try parser.parse(td3)
        #expect(result.dateOfBirth == CalendarDate(year: 1974, month: 8, day: 12))
        #expect(result.dateOfExpiry == CalendarDate(year: 2012, month: 4, day: 15))
        #expect(MRZCenturyRule.birthYear(yy: 25, month: 1, day: 2, reference: CalendarDate(year: 2025, month: 1, day: 1)) == 1925)
        #expect(MRZCenturyRule.birthYear(yy: 25, month: 1, day: 1, reference: CalendarDate(year: 2025, month: 1, day: 1)) == 2025)
        #expect(MRZCenturyRule.expiryYear(yy: 74, reference: CalendarDate(year: 2025, month: 1, day: 1)) == 2074)
        #expect(MRZCenturyRule.expiryYear(yy: 75, reference: CalendarDate(year: 2025, month: 1, day: 1)) == 1975)
    }

    @Test func belgianDeviationIsReportedNotAccepted() throws {
        let c = try #require(TestVectors.tricky.cases.first { $0.id == "gen-bel-deviation" })
        let result = try parser.parse(lines: c.lines)
        #expect(!result.isValid)
        #expect(result.isValidAcceptingDeviations)
        #expect(result.deviations.map(\.code) == [.longNumberCheckDigitIncludesFiller])
        #expect(result.fields.documentNumber == "000590240601")
    }

    @Test func concurrentParsesAgree() async throws {
        let inputs = (TestVectors.specimens.cases + TestVectors.invalid.cases).map { $0.lines.joined(separator: "\n") }
        let serial = try inputs.map { try parser.parse($0) }
        let shared = parser
        let parallel = try await withThrowingTaskGroup(of: (Int, MRZResult).self) { group in
            for (i, text) in inputs.enumerated() { group.addTask { (i, try shared.parse(text)) } }
            var out = [MRZResult?](repeating: nil, count: inputs.count)
            for try await (i, r) in group { out[i] = r }
            return out.map { $0! }
        }
        #expect(parallel == serial)
    }
}

@Suite struct CorrectorTests {
    let corrector = MRZCorrector(parser: MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1)))
    let td3 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10"

    @Test func validInputIsUnchanged() throws {
        let c = try corrector.correct(td3)
        #expect(c.outcome == .unchanged && c.changes.isEmpty && c.result.isValid)
    }

    /// `0`→`O` in the document number: the only single confusion that satisfies its check digit.
    @Test func documentNumberConfusionGuidedByCheckDigit() throws {
        let c = try corrector.correct(td3.replacingOccurrences(of: "L898902C3", with: "L8989O2C3"))
        #expect(c.outcome == .corrected)
        #expect(c.changes == [MRZCharacterChange(line: 2, column: 6, from: "O", to: "0")])
        #expect(c.result.text == td3)
    }

    /// `8`→`B`: three single confusions fit the check digit (and so the composite, which covers the
    /// document number with the same weights). The corrector lists them and picks none.
    @Test func ambiguityIsReported() throws {
        let c = try corrector.correct(td3.replacingOccurrences(of: "L898902C3", with: "L89B902C3"))
        #expect(c.outcome == .ambiguous)
        #expect(c.alternatives.count == 3)
        #expect(c.alternatives.contains(td3))
        #expect(c.alternatives.contains(td3.replacingOccurrences(of: "L898902C3", with: "I89B902C3")))
        for alternative in c.alternatives {
            #expect(try corrector.parser.parse(alternative).isValid)
        }
        #expect(!c.result.isValid)
    }

    @Test func trailingKsInNamesBecomeFillers() throws {
        let noisy = td3.replacingOccurrences(of: "MARIA<<<<<<<<<<<<<<<<<<<", with: "MARIA<<KK<<K<<<<<<<<<<<<")
        let c = try corrector.correct(noisy)
        #expect(c.outcome == .corrected)
        #expect(c.result.text == td3)
        #expect(c.changes.count == 3)
    }

    @Test func lowerCaseIsCorrected() throws {
        let c = try corrector.correct(td3.lowercased())
        #expect(c.outcome == .corrected)
        #expect(c.result.text == td3)
    }

    @Test func uncorrectableSaysSo() throws {
        let c = try corrector.correct(td3.replacingOccurrences(of: "7408122", with: "7408123"))
        #expect(c.outcome == .uncorrectable)
        #expect(!c.result.isValid)
    }
}

@Suite struct GeneratorTests {
    @Test func icaoSpecimenIsReproduced() throws {
        let fields = MRZFields(documentCode: "P", issuingState: "UTO", documentNumber: "L898902C3",
                               primaryIdentifier: "ERIKSSON", secondaryIdentifier: "ANNA MARIA", nationality: "UTO",
                               dateOfBirth: "740812", sex: "F", dateOfExpiry: "120415",
                               optionalData1: "ZE184226B", optionalData2: nil)
        #expect(try MRZGenerator.generate(fields, format: .td3)
                == "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10")
    }

    @Test func longNumberRule() throws {
        let fields = MRZFields(documentCode: "I", issuingState: "UTO", documentNumber: "D23145890734",
                               primaryIdentifier: "STEVENSON", secondaryIdentifier: "PETER JOHN", nationality: "UTO",
                               dateOfBirth: "340712", sex: "M", dateOfExpiry: "950712", optionalData1: "", optionalData2: "")
        #expect(try MRZGenerator.generate(fields, format: .td1).hasPrefix("I<UTOD23145890<7349<<<<<<<<<<<\n"))
    }

    @Test func namesAreTransliteratedAndTruncated() {
        #expect(MRZGenerator.transliterate("Müller-Lüdenscheidt") == "MUELLER<LUEDENSCHEIDT")
        #expect(MRZGenerator.transliterate("O'Brien") == "OBRIEN")
        #expect(MRZGenerator.transliterate("Straße Øre") == "STRASSE<OERE")
        let name = MRZGenerator.encodeName(primary: "NILAVADHANANANDA", secondary: "CHAYAPA DEJTHAMRONG KRASUANG", width: 30)
        #expect(name.count == 30)
        #expect(name.hasPrefix("NILAVADHANANANDA<<CHAYAPA<"))
        #expect(name.hasSuffix("<K"))
    }

    @Test func refusesWhatDoesNotFit() {
        let fields = MRZFields(documentCode: "P", issuingState: "UTO", documentNumber: "1234567890",
                               primaryIdentifier: "A", secondaryIdentifier: "", nationality: "UTO",
                               dateOfBirth: "800101", sex: "F", dateOfExpiry: "300101", optionalData1: "", optionalData2: nil)
        #expect(throws: MRZError.self) { try MRZGenerator.generate(fields, format: .td3) }
    }
}
