import Foundation
import Testing
import IDKitDocument
import IDKitMRZ
import IDKitAAMVA

/// The rules of the merge one at a time, on the ICAO TD3 specimen and the seeded AAMVA license
/// of `TestVectors/` (the same inputs as `merge-cases.json`).
@Suite struct MergeRuleTests {
    static let td3 = MergeCase.all.first { $0.id == "td3-specimen-with-front-viz" }!
    static let license = MergeCase.all.first { $0.id == "aamva-licence-with-us-viz" }!
    static let reference = CalendarDate(year: 2025, month: 6, day: 1)

    var mrz: MRZResult { try! MRZParser(referenceDate: Self.reference).parse(lines: Self.td3.input.mrz!) }
    var barcode: [UInt8] { Self.license.documentInput.barcode! }

    @Test func everyFieldButTheNumberPrefersBarcodeThenBackThenFrontThenMRZ() throws {
        let merger = DocumentMerger(referenceDate: Self.reference)
        let back = VIZReading([.lastName: "BACKSIDE", .documentNumber: "B1"])
        let front = VIZReading([.lastName: "FRONTSIDE", .documentNumber: "F1"])
        let all = merger.merge(mrz: mrz, barcode: barcode, vizFront: front, vizBack: back)
        #expect(all[.lastName].value == "GARCIA")
        #expect(all[.lastName].source == .barcode)
        #expect(all[.lastName].readings == [.mrz: "ERIKSSON", .barcode: "GARCIA", .vizBack: "BACKSIDE", .vizFront: "FRONTSIDE"])
        #expect(merger.merge(mrz: mrz, vizFront: front, vizBack: back)[.lastName].source == .vizBack)
        #expect(merger.merge(mrz: mrz, vizFront: front)[.lastName].source == .vizFront)
        #expect(merger.merge(mrz: mrz)[.lastName].source == .mrz)
        // The document number: the MRZ's first, then the same order as every other field.
        #expect(all[.documentNumber].value == "L898902C3")
        #expect(all[.documentNumber].source == .mrz)
        #expect(merger.merge(barcode: barcode, vizFront: front, vizBack: back)[.documentNumber].source == .barcode)
        #expect(merger.merge(vizFront: front, vizBack: back)[.documentNumber].value == "B1")
    }

    /// The sex compared, for information as the names: the specimen's MRZ holds `F`.
    @Test func theSexIsComparedButLeavesTheWholeDocumentAlone() throws {
        let merger = DocumentMerger(referenceDate: Self.reference)
        #expect(mrz.fields.sex == "F")
        #expect(merger.merge(mrz: mrz, vizFront: VIZReading([.sex: "F"])).dataMatch.sex == .match)
        #expect(merger.merge(mrz: mrz, vizFront: VIZReading([.sex: "FEMALE"])).dataMatch.sex == .match)
        let other = merger.merge(mrz: mrz, vizFront: VIZReading([.sex: "M", .documentNumber: "L898902C3"]))
        #expect(other.dataMatch.sex == .mismatch)
        #expect(other.dataMatch.wholeDocument == .match)
        #expect(merger.merge(mrz: mrz).dataMatch.sex == .notPerformed)
        // An MRZ's `<` (unspecified; outside TD3's composite check digit) is the printed `X`.
        var lines = Self.td3.input.mrz!
        lines[1] = String(lines[1].prefix(20)) + "<" + String(lines[1].dropFirst(21))
        let unspecified = try MRZParser(referenceDate: Self.reference).parse(lines: lines)
        #expect(unspecified.isValid)
        #expect(merger.merge(mrz: unspecified, vizFront: VIZReading([.sex: "X"])).dataMatch.sex == .match)
        #expect(merger.merge(mrz: unspecified, vizFront: VIZReading([.sex: "F"])).dataMatch.sex == .mismatch)
        #expect(merger.merge(mrz: unspecified).dataMatch.sex == .notPerformed)
        // A result written without the member reads as not compared.
        let old = try JSONDecoder().decode(DataMatch.self, from: Data(#"{"documentNumber":"match","dateOfBirth":"match","dateOfExpiry":"notPerformed","wholeDocument":"match","lastName":"match","firstName":"notPerformed"}"#.utf8))
        #expect(old.sex == .notPerformed)
        #expect(old.wholeDocument == .match)
    }

    @Test func documentNumbersCompareWithoutFillersSpacesOrHyphens() {
        let merger = DocumentMerger(referenceDate: Self.reference)
        for printed in ["L898902C3", "L 898902 C3", "l898902-c3", "L898902C3<"] {
            #expect(merger.merge(mrz: mrz, vizFront: VIZReading([.documentNumber: printed])).dataMatch.documentNumber == .match, "\(printed)")
        }
        #expect(merger.merge(mrz: mrz, vizFront: VIZReading([.documentNumber: "L898902C8"])).dataMatch.documentNumber == .mismatch)
    }

    @Test(arguments: ["1974-08-12", "12.08.1974", "12/08/1974", "12 AUG 1974", "12 AUG/AOUT 74", "19740812"])
    func datesCompareAcrossFormats(_ printed: String) {
        let r = DocumentMerger(referenceDate: Self.reference).merge(mrz: mrz, vizBack: VIZReading([.dateOfBirth: printed]))
        #expect(r.dataMatch.dateOfBirth == .match)
        #expect(r[.dateOfBirth].value == "1974-08-12")
    }

    /// The MRZ holds `740812`, which the century rule puts at 2074 with a reference date in 2080
    /// and at 1974 in 2025. A page printing the other century's four-digit year gives the birth
    /// that century, but only a year between 1900 and 2099, never a birth not yet come, and never
    /// an expiry.
    @Test func aPrintedFourDigitYearGivesTheMRZDateItsCentury() throws {
        let merger = DocumentMerger(referenceDate: CalendarDate(year: 2080, month: 1, day: 1))
        let centenarian = try MRZParser(referenceDate: CalendarDate(year: 2080, month: 1, day: 1)).parse(lines: Self.td3.input.mrz!)
        #expect(centenarian.dateOfBirth?.description == "2074-08-12")
        let r = merger.merge(mrz: centenarian, vizFront: VIZReading([.dateOfBirth: "12.08.1974"]))
        #expect(r[.dateOfBirth].value == "1974-08-12")
        #expect(r[.dateOfBirth].readings[.mrz] == "1974-08-12")
        #expect(r.dataMatch.dateOfBirth == .match)
        #expect(r.derived.age == 105)
        // A two-digit year, or a year a thousand off, leaves the MRZ's century; they do not match.
        for printed in ["12.08.74", "12.08.3074"] {
            let other = merger.merge(mrz: centenarian, vizFront: VIZReading([.dateOfBirth: printed]))
            #expect(other[.dateOfBirth].readings[.mrz] == "2074-08-12", "\(printed)")
        }
        // In 2025 the rule says 1974, 2074 is a birth not yet come, and 1874 lies outside 1900-2099.
        for printed in ["12.08.2074", "12.08.1874"] {
            let now = DocumentMerger(referenceDate: Self.reference).merge(mrz: mrz, vizFront: VIZReading([.dateOfBirth: printed]))
            #expect(now[.dateOfBirth].readings[.mrz] == "1974-08-12", "\(printed)")
            #expect(now.dataMatch.dateOfBirth == .mismatch, "\(printed)")
        }
        // The expiry (2012-04-15) keeps its century whatever the page prints.
        let expiry = DocumentMerger(referenceDate: Self.reference).merge(mrz: mrz, vizFront: VIZReading([.dateOfExpiry: "15.04.1912"]))
        #expect(expiry[.dateOfExpiry].readings[.mrz] == "2012-04-15")
        #expect(expiry.dataMatch.dateOfExpiry == .mismatch)
    }

    @Test func aDateThatCannotBeReadIsKeptAndReported() {
        let r = DocumentMerger(referenceDate: Self.reference).merge(mrz: mrz, vizBack: VIZReading([.dateOfBirth: "around 1974"]))
        #expect(r[.dateOfBirth].value == "around 1974")
        #expect(r.dataMatch.dateOfBirth == .mismatch)
        #expect(r.warnings.map(\.code) == [.unreadableDate])
    }

    @Test func wholeDocumentStates() {
        let merger = DocumentMerger(referenceDate: Self.reference)
        #expect(merger.merge(mrz: mrz).dataMatch.wholeDocument == .notPerformed)
        #expect(merger.merge(mrz: mrz, vizFront: VIZReading([.dateOfExpiry: "15.04.2012"])).dataMatch.wholeDocument == .match)
        let mixed = merger.merge(mrz: mrz, vizFront: VIZReading([.dateOfExpiry: "15.04.2012", .dateOfBirth: "13.08.1974"]))
        #expect(mixed.dataMatch.dateOfExpiry == .match)
        #expect(mixed.dataMatch.wholeDocument == .mismatch)
    }

    @Test(arguments: [("Müller", "MUELLER", true), ("Müller", "MULLER", true), ("MÜLLER", "MILLER", false),
                      ("Großmann", "GROSSMANN", true), ("Sørensen", "SOERENSEN", true), ("Ångström", "AANGSTROEM", true),
                      ("Ångström", "ANGSTROM", true), ("Peña", "PENA", true), ("O'Brien", "OBRIEN", true),
                      ("Smith-Jones", "SMITH JONES", true), ("Иванов", "IVANOV", true), ("Щукин", "SHCHUKIN", true),
                      ("Łukasz", "LUKASZ", true), ("Þór", "THOR", true), ("Jörg", "JORGE", false)])
    func transliteratedNames(viz: String, mrz: String, same: Bool) {
        #expect(MRZTransliteration.matches(viz, mrz) == same)
    }

    @Test func aTruncatedMRZNameMatchesTheFullPrintedName() {
        // JMRTD's Dutch specimen: the name field ends in "MARTI" with no filler left.
        let truncated = try! MRZParser(referenceDate: Self.reference).parse(lines: [
            "P<NLDVAN<NIEUWENHUIZEN<<GERARD<ROBBERT<MARTI", "XN01BC0150NLD7112247M1108268123456782<<<<<02"])
        let r = DocumentMerger(referenceDate: Self.reference).merge(
            mrz: truncated, vizFront: VIZReading([.firstName: "Gerard Robbert Martijn", .lastName: "van Nieuwenhuizen"]))
        #expect(r.dataMatch.firstName == .match)
        #expect(r.dataMatch.lastName == .match)
    }

    @Test func nullAndEmptyStayApartInJSON() throws {
        // TD3 with an empty personal number: present and empty; TD1 has no such field: absent.
        let empty = MergeCase.all.first { $0.id == "td3-empty-personal-number-is-empty-not-absent" }!
        let td1 = MergeCase.all.first { $0.id == "td1-specimen-alone" }!
        func personalNumber(_ c: MergeCase) throws -> Any? {
            let result = try DocumentMerger(referenceDate: Self.reference).merge(c.documentInput)
            let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(result)) as? [String: Any])
            let fields = try #require(json["fields"] as? [String: Any])
            let field = try #require(fields["personalIdNumber"] as? [String: Any])
            return field["value"]
        }
        #expect(try personalNumber(empty) as? String == "")
        #expect(try personalNumber(td1) is NSNull)
    }

    @Test func anInvalidMRZIsUsedButReported() throws {
        var lines = Self.td3.input.mrz!
        lines[1] = "L898902C37" + lines[1].dropFirst(10)
        let bad = try MRZParser(referenceDate: Self.reference).parse(lines: lines)
        let r = DocumentMerger(referenceDate: Self.reference).merge(mrz: bad)
        #expect(r[.documentNumber].value == "L898902C3")
        #expect(r.chipAccess?.bacReady == false)
        #expect(r.warnings.first?.code == .mrzInvalid)
        #expect(r.warnings.first?.message.contains("documentNumber") == true)
    }

    @Test func chipKeysComeWithTheMRZ() throws {
        let appendixD = try MRZParser(referenceDate: Self.reference).parse(lines: [
            "I<UTOL898902C<3<<<<<<<<<<<<<<<", "6908061F9406236UTO<<<<<<<<<<<2", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"])
        let chip = try #require(DocumentMerger(referenceDate: Self.reference).merge(mrz: appendixD).chipAccess)
        #expect(chip.bacReady)
        #expect(chip.mrzInformation == "L898902C<369080619406236")
        #expect(chip.kEnc == "AB94FDECF2674FDFB9B391F85D7F76F2")
    }

    @Test func aParsedPayloadMergesAsItsBytesDo() throws {
        let merger = DocumentMerger(referenceDate: Self.reference)
        let payload = try AAMVAParser().parse(barcode)
        let fromPayload = merger.merge(mrz: mrz, aamva: payload, rawBarcode: barcode)
        #expect(fromPayload == merger.merge(mrz: mrz, barcode: barcode))
        #expect(merger.merge(aamva: payload).raw.barcode == nil)
        #expect(merger.merge(aamva: payload)[.lastName].value == "GARCIA")
    }

    @Test func aBarcodeThatIsNotAAMVAIsKeptRaw() {
        let r = DocumentMerger(referenceDate: Self.reference).merge(mrz: mrz, barcode: Array("https://example.org".utf8))
        #expect(r.raw.barcode == Array("https://example.org".utf8))
        #expect(r.warnings.map(\.code) == [.barcodeNotAAMVA])
        #expect(r[.lastName].source == .mrz)
    }
}

@Suite struct MergeInputTests {
    @Test(arguments: [
        (#"{"mrz": 5}"#, "mrz: expected a string or an array of strings"),
        (#"{"barcode": "@@@"}"#, "barcode: not valid base64"),
        (#"{"viz": {"side": {}}}"#, "viz.side: unknown side; expected \"front\" or \"back\""),
        (#"{"viz": {"back": {"surname": "X"}}}"#, "viz.back.surname: not a field name; expected one of firstName, lastName, fullName, documentNumber, personalIdNumber, additionalDocumentNumber, dateOfBirth, dateOfExpiry, dateOfIssue, sex, nationality, issuingState, issuingJurisdiction, address, placeOfBirth, issuingAuthority"),
        (#"{"viz": {"back": {"lastName": 3}}}"#, "viz.back.lastName: expected a string"),
        (#"{"referenceDate": "2025-02-30"}"#, "referenceDate: expected a date YYYY-MM-DD"),
        (#"{"photo": "x"}"#, "photo: unknown key; expected mrz, barcode, viz, chip, referenceDate"),
        (#"[1, 2]"#, "input: expected a JSON object at the top level"),
    ])
    func badInputSaysWhichKey(json: String, message: String) {
        do {
            _ = try DocumentInput(json: Array(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func oversizedInputIsRefusedBeforeParsing() {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: DocumentInput.maximumJSONSize + 1)
        do {
            _ = try DocumentInput(json: big)
            Issue.record("accepted an oversized input")
        } catch {
            #expect(error.kind == .invalidInput)
            #expect(error.message.contains("limit"))
        }
    }

    @Test func anMRZThatIsNotAnMRZIsAnError() {
        do {
            _ = try DocumentMerger().merge(DocumentInput(mrz: ["HELLO"]))
            Issue.record("merged a non-MRZ")
        } catch {
            #expect(error.kind == .invalidMRZ)
            #expect(error.message.hasPrefix("mrz: "))
        }
    }
}
