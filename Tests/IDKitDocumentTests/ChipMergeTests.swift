import Foundation
import Testing
import IDKitChip
import IDKitMRZ
@testable import IDKitDocument
import IDKitTestSupport

/// The chip as a source of the document result: first for every field it holds when
/// passive authentication passed, last otherwise; its DG1 in the data match with the printed MRZ,
/// the barcode and the VIZ; redaction of its values and its face. The chip files are a whole
/// document of IDKit's own test PKI (TestVectors/chip/make_pki.sh: DG1 with the ICAO 9303-3
/// specimen MRZ, DG2 with a JPEG 2000 face, DG11 and DG12, signed by a Document Signer of the test CSCA).
@Suite struct ChipMergeTests {
    struct Document {
        let files: [String: [UInt8]]
        let store: CSCAStore

        func chipFiles(_ names: [String] = ["sod", "DG1", "DG2", "DG11", "DG12", "DG15"], changing: String? = nil) throws -> ChipFiles {
            var set = ChipFiles()
            for name in names {
                var bytes = files[name]!
                if name == changing { bytes[bytes.count - 1] ^= 0x01 }
                try set.add(bytes, name: name)
            }
            return set
        }
    }

    static let document: Document? = {
        var files: [String: [UInt8]] = [:]
        for (name, file) in [("sod", "sod/document.bin"), ("DG1", "EF_DG1.bin"), ("DG2", "EF_DG2.bin"), ("DG11", "EF_DG11.bin"),
                             ("DG12", "EF_DG12.bin"), ("DG15", "EF_DG15.bin")] {
            guard let bytes = try? TestPKI.bytes(file) else { return nil }
            files[name] = bytes
        }
        guard let csca = TestPKI.directory?.appendingPathComponent("csca"), let store = try? CSCAStore(contentsOf: csca.path) else { return nil }
        return Document(files: files, store: store)
    }()

    static let reference = CalendarDate(year: 2026, month: 12, day: 1)
    static let printed = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]

    func readChip(_ d: Document, trusted: Bool = true, changing: String? = nil) throws -> ChipDocument {
        try ChipDocument(try d.chipFiles(changing: changing), cscas: trusted ? d.store : nil, referenceDate: Self.reference)
    }

    @Test func anAuthenticatedChipComesFirstForEveryFieldItHolds() throws {
        let d = try #require(Self.document, "TestVectors/chip/make_pki.sh failed (it needs openssl and python3)")
        let chip = try readChip(d)
        #expect(chip.isAuthenticated && chip.problems.isEmpty)
        let mrz = try MRZParser(referenceDate: Self.reference).parse(lines: Self.printed)
        // The VIZ says another surname; the barcode-free priority would take it over the MRZ's.
        let result = DocumentMerger(referenceDate: Self.reference).merge(mrz: mrz, vizFront: VIZReading([.lastName: "ERIKSON", .dateOfIssue: "16.04.2002"]), chip: chip)
        #expect(result[.lastName].value == "ERIKSSON" && result[.lastName].source == .chip)
        #expect(result[.lastName].readings == [.mrz: "ERIKSSON", .vizFront: "ERIKSON", .chip: "ERIKSSON"])
        #expect(result[.firstName].value == "ANNA MARIA" && result[.documentNumber].source == .chip)
        // DG11's four-digit year and DG12's date of issue; DG11's `<`-separated address.
        #expect(result[.dateOfBirth].readings.chip == "1974-08-12")
        #expect(result[.dateOfIssue].value == "2002-04-16" && result[.dateOfIssue].source == .chip)
        #expect(result[.address].value == "12 MAIN STREET, ZENITH, UTO")
        #expect(result[.personalIdNumber].value == "ZE184226B")
        #expect(result.dataMatch.documentNumber == .match && result.dataMatch.wholeDocument == .match)
        #expect(result.dataMatch.lastName == .mismatch)   // the VIZ's ERIKSON against the chip and the MRZ
        let summary = try #require(result.chip)
        #expect(summary.passiveAuthentication == "passed" && summary.reasons.isEmpty)
        #expect(summary.dataGroups == ["DG1", "DG2", "DG11", "DG12", "DG15"])
        #expect(summary.faces.count == 1 && summary.faces[0].imageType == "JPEG2000" && summary.faces[0].width == 48 && summary.faces[0].height == 30)
        #expect(summary.faces[0].image.flatMap { Data(base64Encoded: $0) }.map { Array($0.prefix(6)) } == [0, 0, 0, 0x0C, 0x6A, 0x50])
        #expect(!result.warnings.contains { $0.code == .chipNotAuthenticated })
    }

    @Test func aChipWithoutATrustedCSCAComesLast() throws {
        let d = try #require(Self.document, "TestVectors/chip/make_pki.sh failed")
        let chip = try readChip(d, trusted: false)
        #expect(chip.passiveAuthentication.result == .incomplete)
        let mrz = try MRZParser(referenceDate: Self.reference).parse(lines: Self.printed)
        let result = DocumentMerger(referenceDate: Self.reference).merge(mrz: mrz, chip: chip)
        #expect(result[.documentNumber].source == .mrz && result[.lastName].source == .mrz)
        // What only the chip holds is still given, marked as the chip's.
        #expect(result[.address].source == .chip && result[.dateOfIssue].source == .chip)
        #expect(result.chip?.passiveAuthentication == "incomplete" && result.chip?.reasons == ["no CSCA was given"])
        #expect(result.warnings.contains { $0.code == .chipNotAuthenticated && $0.message.contains("incomplete (no CSCA was given)") })
    }

    @Test func anAlteredDataGroupFailsAndIsOutvotedByThePrint() throws {
        let d = try #require(Self.document, "TestVectors/chip/make_pki.sh failed")
        // The last byte of DG11 is the address's: its hash no longer matches the SOD's.
        let chip = try readChip(d, changing: "DG11")
        #expect(chip.passiveAuthentication.result == .failed)
        let result = DocumentMerger(referenceDate: Self.reference)
            .merge(vizBack: VIZReading([.address: "12 MAIN STREET, ZENITH, UTO"]), chip: chip)
        #expect(result[.address].source == .vizBack)
        #expect(result[.address].readings.chip == "12 MAIN STREET, ZENITH, UTN")
        #expect(result[.documentNumber].source == .chip)   // the only source: given, with the warning
        #expect(result.chip?.passiveAuthentication == "failed")
        #expect(result.warnings.first { $0.code == .chipNotAuthenticated }?.message.contains("DG11") == true)
    }

    @Test func theChipsDG1IsMatchedWithThePrintedMRZ() throws {
        let d = try #require(Self.document, "TestVectors/chip/make_pki.sh failed")
        // Another document's valid MRZ: the same holder, another number (a swapped booklet).
        let other = try MRZParser(referenceDate: Self.reference).parse(lines: [Self.printed[0], "L898902C47UTO7408122F1204159ZE184226B<<<<<18"])
        #expect(other.isValid)
        let result = DocumentMerger(referenceDate: Self.reference).merge(mrz: other, chip: try readChip(d))
        #expect(result.dataMatch.documentNumber == .mismatch && result.dataMatch.wholeDocument == .mismatch)
        #expect(result[.documentNumber].value == "L898902C3" && result[.documentNumber].readings.mrz == "L898902C4")
    }

    @Test func redactionReachesTheChipsValuesAndItsFace() throws {
        let d = try #require(Self.document, "TestVectors/chip/make_pki.sh failed")
        let settings = RedactionSettings(mode: .resultFieldsOnly, fields: [.lastName, .dateOfBirth, .address], redactFace: true)
        let mrz = try MRZParser(referenceDate: Self.reference).parse(lines: Self.printed)
        let result = DocumentMerger(referenceDate: Self.reference, redaction: .fixed(settings)).merge(mrz: mrz, chip: try readChip(d))
        let json = result.jsonString()
        for secret in ["ERIKSSON", "ANNA", "1974-08-12", "740812", "19740812", "MAIN STREET", "ZENITH<UTO"] {
            #expect(!json.contains(secret), "\(secret) survives redaction")
        }
        #expect(result.chip?.faces.first?.image == nil && result.chip?.faces.first?.width == 48)
        #expect(result.redacted == ["firstName", "lastName", "fullName", "dateOfBirth", "address", "face"])
        // Without the face setting the face stays.
        let kept = DocumentMerger(referenceDate: Self.reference, redaction: .fixed(RedactionSettings(mode: .resultFieldsOnly, fields: [.lastName])))
            .merge(mrz: mrz, chip: try readChip(d))
        #expect(kept.chip?.faces.first?.image != nil)
    }

    @Test func chipFilesInTheJSONInput() throws {
        let d = try #require(Self.document, "TestVectors/chip/make_pki.sh failed")
        func input(_ files: [String]) -> [UInt8] {
            Array(("{\"chip\": [" + files.map { "\"\($0)\"" }.joined(separator: ",") + "], \"referenceDate\": \"2026-12-01\"}").utf8)
        }
        let b64 = ["sod", "DG1", "DG11"].map { Data(d.files[$0]!).base64EncodedString() }
        let merger = DocumentMerger(referenceDate: Self.reference, cscas: d.store)
        let result = try merger.merge(try DocumentInput(json: input(b64)))
        #expect(result.chip?.passiveAuthentication == "passed" && result.chip?.dataGroups == ["DG1", "DG11"])
        #expect(result[.fullName].value == "ANNA MARIA ERIKSSON" && result[.fullName].source == .chip)
        // Errors say which file.
        func error(_ files: [String]) -> DocumentError? {
            do { _ = try merger.merge(try DocumentInput(json: input(files))) } catch { return error }
            return nil
        }
        #expect(error([b64[0], "not base64!"]) == DocumentError(.invalidChip, "chip[1]: not valid base64"))
        #expect(error([b64[0], Data("{}".utf8).base64EncodedString()])?.message.hasPrefix("chip[1]: not an LDS file (it starts with 7B") == true)
        #expect(error([b64[1]])?.message.hasPrefix("no EF.SOD among the chip files") == true)
        #expect(error([b64[0], b64[0]]) == DocumentError(.invalidChip, "chip[1]: a second EF.SOD"))
        // Every file, EF.CardAccess too, comes back out of a set in an order that makes the same set.
        var set = try d.chipFiles()
        try set.add([0x31, 0x00], name: "EF.CardAccess")
        var again = ChipFiles()
        for (i, file) in set.all.enumerated() { try again.add(file, name: "\(i)") }
        #expect(set.all.count == 7 && again.all == set.all && again.cardAccess == [0x31, 0x00])
        #expect(again.dataGroups.keys.sorted() == [1, 2, 11, 12, 15] && again.sod == d.files["sod"])
        var twice = ChipFiles()
        #expect(throws: ChipError(.duplicateFile, "b: a second EF.DG1")) {
            try twice.add(d.files["DG1"]!, name: "a")
            try twice.add(d.files["DG1"]!, name: "b")
        }
    }

    /// ICAO 9303-10 Appendix A5's EF.DG11 example, as the chip writes it.
    @Test func dg11NamesAndAddressesAsIn9303Part10AppendixA5() {
        #expect(SourceReadings.chipName("SMITH<<JOHN<J")! == ("SMITH", "JOHN J"))
        #expect(SourceReadings.chipName("VAN<DER<BERG<<ANNA")! == ("VAN DER BERG", "ANNA"))
        #expect(SourceReadings.chipName("ONLYNAME")! == ("ONLYNAME", ""))
        #expect(SourceReadings.chipName("<<") == nil)
        #expect(SourceReadings.chipDate("19740812") == "1974-08-12")
        #expect(SourceReadings.chipDate("19741312") == nil && SourceReadings.chipDate("1974081") == nil)
    }
}
