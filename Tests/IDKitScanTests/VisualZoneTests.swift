import Foundation
import IDKitCore
import IDKitDocument
import IDKitImage
import IDKitScan
import IDKitVIZ
import Testing

/// The visual zone of scanned documents: the page straightened from the photo, the MRZ blanked,
/// its lines through Tesseract and the MRZ's fields found among them.
@Suite(.enabled(if: RealImages.available, "needs ../shared/testdata/mrz-real (the shared real specimen images); absent here"))
struct VisualZoneTests {
    func read(_ file: String) throws -> (scan: DocumentScan, viz: VIZPage) {
        let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1), readVIZ: true)
        let scan = scanner.scan(file: RealImages.directory.appendingPathComponent("images/" + file).path)
        return (scan, try #require(scan.viz))
    }

    @Test("ICAO's TD3 specimen: every field its MRZ holds is found printed, and matches")
    func specimenTD3() throws {
        let (scan, viz) = try read("028_uto-td3.jpg")
        #expect(scan.status == .ok)
        #expect(viz.fields[.lastName]?.text == "ERIKSSON")
        #expect(viz.fields[.firstName]?.text == "ANNA MARIA")
        #expect(viz.fields[.documentNumber]?.value == "L898902C3")
        #expect(viz.fields[.dateOfBirth]?.value == "1974-08-12")
        #expect(viz.fields[.dateOfExpiry]?.value == "2012-04-15")
        #expect(viz.fields[.personalIdNumber]?.value == "ZE184226B")
        for name: DocumentFieldName in [.lastName, .firstName, .documentNumber, .dateOfBirth, .dateOfExpiry, .personalIdNumber] { #expect(viz.fields[name]?.matchesMRZ == true, "\(name)") }
        // The page is the data page at 300 dpi (ICAO 9303-4: 125 × 88 mm), the MRZ's lines not among its text.
        #expect(viz.pageWidth == 1476 && viz.pageHeight == 1039)
        #expect(!viz.lines.contains { $0.text.contains("<<") })
        // The fields the MRZ lacks, under their printed captions.
        #expect(viz.fields[.dateOfIssue]?.value == "2007-04-16")
        #expect(viz.fields[.placeOfBirth]?.text == "ZENITH")
        #expect(viz.fields[.issuingAuthority]?.text == "PASSPORT OFFICE")
        #expect(viz.fields[.dateOfIssue]?.matchesMRZ == nil)
        // The merged document takes them in, as the front's VIZ.
        let document = try #require(scan.document)
        #expect(document[.dateOfIssue].value == "2007-04-16")
        #expect(document[.placeOfBirth].value == "ZENITH")
        #expect(document.dataMatch.dateOfBirth == .match)
    }

    @Test("ICAO's TD2 specimen")
    func specimenTD2() throws {
        let (_, viz) = try read("029_uto-td2.jpg")
        for name: DocumentFieldName in [.lastName, .firstName, .documentNumber, .dateOfBirth, .dateOfExpiry] {
            #expect(viz.fields[name]?.matchesMRZ == true, "\(name)")
        }
    }

    func json(_ file: String, redaction: RedactionSettings = .none, viz: Bool = true) throws -> [String: Any] {
        let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1),
                                      redaction: .fixed(redaction), readVIZ: viz)
        let scan = scanner.scan(file: RealImages.directory.appendingPathComponent("images/" + file).path)
        return try #require(try JSONSerialization.jsonObject(with: Data(scan.json(file: file).utf8)) as? [String: Any])
    }

    @Test("the scan's viz member: fields with quads in the image, lines, its cost; null when not asked for")
    func scanJSON() throws {
        let o = try json("028_uto-td3.jpg")
        let viz = try #require(o["viz"] as? [String: Any])
        #expect(viz["side"] as? String == "front")
        let fields = try #require(viz["fields"] as? [String: [String: Any]])
        #expect(fields["dateOfBirth"]?["text"] as? String == "12 AUGUST/AOUT 74")
        #expect(fields["dateOfBirth"]?["value"] as? String == "1974-08-12")
        #expect(fields["dateOfBirth"]?["matchesMRZ"] as? Bool == true)
        // The quad of the surname lies on the document's outline's inside, in image pixels.
        let corners = try #require(o["corners"] as? [[Double]])
        let quad = try #require(fields["lastName"]?["quad"] as? [[Double]])
        let (xs, ys) = (corners.map { $0[0] }, corners.map { $0[1] })
        #expect(quad.count == 4 && quad.allSatisfy { $0[0] > xs.min()! && $0[0] < xs.max()! && $0[1] > ys.min()! && $0[1] < ys.max()! })
        #expect(((viz["lines"] as? [[String: Any]])?.count ?? 0) > 10)
        #expect(((o["timingsMs"] as? [String: Double])?["viz"] ?? 0) > 0)
        #expect((o["documents"] as? [[String: Any]])?.first?["viz"] as? [String: Any] != nil)
        #expect(try json("028_uto-td3.jpg", viz: false)["viz"] is NSNull)
    }

    @Test("under result redaction the lines are withheld and so are the redacted fields, names together")
    func redacted() throws {
        let o = try json("028_uto-td3.jpg", redaction: RedactionSettings(mode: .resultFieldsOnly, fields: [.firstName, .dateOfBirth]))
        let viz = try #require(o["viz"] as? [String: Any])
        let fields = try #require(viz["fields"] as? [String: Any])
        #expect(fields["firstName"] == nil && fields["lastName"] == nil && fields["dateOfBirth"] == nil)
        #expect(fields["documentNumber"] != nil)
        #expect((viz["lines"] as? [Any])?.isEmpty == true)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: viz), as: UTF8.self)
        #expect(!text.contains("ERIKSSON") && !text.contains("AUGUST"))
    }
}
