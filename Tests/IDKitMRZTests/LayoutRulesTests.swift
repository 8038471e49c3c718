import Testing
import IDKitMRZ

/// The layout facts every reader builds its tables from (`MRZFormat.characterClasses`,
/// `MRZFormat.checkDigitRules`), against the data-structure tables of ICAO Doc 9303 Parts 4–7.
@Suite struct LayoutRulesTests {
    func ranges(_ rule: MRZCheckDigitRule) -> [[Int]] { rule.covered.map { [$0.line, $0.column + 1, $0.column + $0.count] } }

    @Test func td1CompositeCoversUpper6To30AndMiddle1To7And9To15And19To29() throws {
        // ICAO 9303-5 §4.2.2 (1-based positions).
        let composite = try #require(MRZFormat.td1.checkDigitRules.last)
        #expect(composite.field == "composite")
        #expect(ranges(composite) == [[0, 6, 30], [1, 1, 7], [1, 9, 15], [1, 19, 29]])
        #expect(composite.checkDigit == MRZCharacterRange(line: 1, column: 29, count: 1))
        #expect(MRZFormat.td1.checkDigitRules.map(\.field) == ["documentNumber", "dateOfBirth", "dateOfExpiry", "composite"])
    }

    @Test func td3RulesAndTheSpecimenCheckDigits() throws {
        // ICAO 9303-4 §4.2.2: number 1–9 / 10, birth 14–19 / 20, expiry 22–27 / 28, personal
        // number 29–42 / 43, composite over 1–10, 14–20, 22–43 / 44.
        let rules = MRZFormat.td3.checkDigitRules
        #expect(rules.map(\.field) == ["documentNumber", "dateOfBirth", "dateOfExpiry", "optionalData", "composite"])
        #expect(rules.map { ranges($0) } == [[[1, 1, 9]], [[1, 14, 19]], [[1, 22, 27]], [[1, 29, 42]], [[1, 1, 10], [1, 14, 20], [1, 22, 43]]])
        #expect(rules.map { $0.checkDigit.column + 1 } == [10, 20, 28, 43, 44])
        // Every rule holds on the ICAO specimen, computed from the rule alone.
        let line = Array("L898902C36UTO7408122F1204159ZE184226B<<<<<10".utf8)
        for rule in rules {
            let bytes = rule.coveredPositions.map { line[$0.column] }
            #expect(MRZCheckDigit.compute(bytes).map { UInt8(0x30 + $0) } == line[rule.checkDigit.column], "\(rule.field)")
        }
    }

    @Test func visasHaveNoCompositeAndMRVAHasNoPersonalNumberCheck() {
        #expect(MRZFormat.mrvA.checkDigitRules.map(\.field) == ["documentNumber", "dateOfBirth", "dateOfExpiry"])
        #expect(MRZFormat.mrvB.checkDigitRules.map(\.field) == ["documentNumber", "dateOfBirth", "dateOfExpiry"])
    }

    @Test func characterClassesFollowTheFields() {
        let td3 = MRZFormat.td3.characterClasses
        #expect(td3.count == 2 && td3.allSatisfy { $0.count == 44 })
        #expect(td3[0][0] == .letterOrFiller && td3[0][20] == .letterOrFiller)      // code, name
        #expect(td3[1][0] == .alphanumeric && td3[1][9] == .digit)                  // number, its check digit
        #expect(td3[1][10] == .letterOrFiller)                                      // nationality
        #expect(td3[1][13] == .digitOrFiller && td3[1][20] == .sex)                 // birth (unknown parts), sex
        #expect(td3[1][21] == .digit && td3[1][42] == .digitOrFiller && td3[1][43] == .digit)
        let td1 = MRZFormat.td1.characterClasses
        #expect(td1[0][14] == .digitOrFiller)       // '<' announces a long document number (9303-5 §4.2.4)
        #expect(td1[0][15] == .alphanumeric && td1[2][0] == .letterOrFiller)
        #expect(MRZCharacterClass.sex.contains(UInt8(ascii: "X")) && !MRZCharacterClass.sex.contains(UInt8(ascii: "Q")))
        #expect(MRZCharacterClass.digitOrFiller.contains(UInt8(ascii: "<")) && !MRZCharacterClass.digit.contains(UInt8(ascii: "<")))
    }
}
