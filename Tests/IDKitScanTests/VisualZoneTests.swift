import Foundation
import IDKitDocument
import IDKitImage
import IDKitScan
import IDKitVIZ
import Testing

/// The visual zone of scanned documents: the page straightened from the photo, the MRZ blanked,
/// its lines through Tesseract and the MRZ's fields found among them.
@Suite(.enabled(if: RealImages.available, "needs ../shared/testdata/mrz-real (the shared real specimen images); absent here"))
struct VisualZoneTests {
    static let recognizer = Result { () throws(VIZError) in try VIZTextRecognizer() }

    func read(_ file: String) throws -> (scan: DocumentScan, viz: VIZPage) {
        let scanner = DocumentScanner(readBarcodes: false)
        let (scan, image) = scanner.scanKeepingImage(file: RealImages.directory.appendingPathComponent("images/" + file).path)
        let gray = try #require(image)
        let viz = try #require(try scanner.visualZones(of: scan, in: gray, recognizer: Self.recognizer.get()).first ?? nil)
        return (scan, viz)
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
        #expect(viz.fields.values.allSatisfy { $0.matchesMRZ == true })
        // The page is the data page at 300 dpi (ICAO 9303-4: 125 × 88 mm), the MRZ's lines not among its text.
        #expect(viz.pageWidth == 1476 && viz.pageHeight == 1039)
        #expect(!viz.lines.contains { $0.text.contains("<<") })
        // The printed labels of the specimen are read too: they anchor the fields the MRZ lacks.
        #expect(viz.lines.contains { $0.text.contains("Date of issue") })
    }

    @Test("ICAO's TD2 specimen")
    func specimenTD2() throws {
        let (_, viz) = try read("029_uto-td2.jpg")
        for name: DocumentFieldName in [.lastName, .firstName, .documentNumber, .dateOfBirth, .dateOfExpiry] {
            #expect(viz.fields[name]?.matchesMRZ == true, "\(name)")
        }
    }
}
