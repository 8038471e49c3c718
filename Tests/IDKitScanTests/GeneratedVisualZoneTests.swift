import Foundation
import IDKitCore
import IDKitDocument
import IDKitImage
import IDKitScan
import IDKitVIZ
import Testing

/// The visual zone of generated passport pages (TestVectors/viz/make_viz_pages.py): captions in the
/// issuer's language, national characters the MRZ transliterates, a surname the MRZ cuts, dates in
/// each issuer's printed form, and the fields the MRZ lacks.
@Suite struct GeneratedVisualZoneTests {
    struct Page: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var mrz: [String]
        var surname: String
        var given: String
        var values: [String: String]
        var testDescription: String { file }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors/viz")
    static let pages: [Page] = {
        struct Manifest: Decodable { var pages: [Page] }
        let data = try! Data(contentsOf: folder.appendingPathComponent("viz-pages.json"))
        return try! JSONDecoder().decode(Manifest.self, from: data).pages
    }()

    /// Case and accents folded: Tesseract reads some capitals' marks in bold print as bare letters.
    static func folded(_ s: String) -> String { s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }

    @Test("the MRZ's fields found printed and matching, the captioned fields, and the merge", arguments: pages)
    func page(_ page: Page) throws {
        let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1), readVIZ: true)
        let scan = scanner.scan(file: Self.folder.appendingPathComponent(page.file).path)
        #expect(scan.status == .ok)
        #expect(scan.reading?.lines == page.mrz)
        let viz = try #require(scan.viz)
        let parsed = try #require(scan.parsed)
        // Every field the MRZ holds is found printed, with the MRZ's meaning; the surname with its
        // national characters as printed, whole where the MRZ cut it.
        for name in VIZFieldFinder.anchoredFields(of: parsed) {
            #expect(viz.fields[name]?.matchesMRZ == true, "\(name)")
        }
        #expect(viz.fields[.lastName]?.text == page.surname)
        if !parsed.fields.secondaryIdentifier.isEmpty {
            #expect(viz.fields[.firstName].map { Self.folded($0.text) } == Self.folded(page.given))
        }
        // The fields the MRZ lacks, under their captions.
        #expect(viz.fields[.dateOfIssue]?.value == page.values["dateOfIssue"])
        #expect(viz.fields[.placeOfBirth].map { Self.folded($0.value) } == page.values["placeOfBirth"].map(Self.folded))
        #expect(viz.fields[.issuingAuthority].map { Self.folded($0.value) } == page.values["issuingAuthority"].map(Self.folded))
        for name: DocumentFieldName in [.dateOfIssue, .placeOfBirth, .issuingAuthority] { #expect(viz.fields[name]?.matchesMRZ == nil) }
        // The merge takes them in as the front's visual zone and finds it agrees with the MRZ.
        let document = try #require(scan.document)
        #expect(document.dataMatch.wholeDocument == .match)
        #expect(document.dataMatch.lastName == .match)
        #expect(document[.dateOfIssue].value == page.values["dateOfIssue"])
        #expect(document[.dateOfIssue].source == .vizFront)
        #expect(document[.placeOfBirth].source == .vizFront)
    }

    @Test("a surname the MRZ cuts is found printed whole; the given names it cut away are not looked for")
    func cutName() throws {
        let page = try #require(Self.pages.first { $0.file == "page-esp.png" })
        let scan = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1), readVIZ: true)
            .scan(file: Self.folder.appendingPathComponent(page.file).path)
        let parsed = try #require(scan.parsed)
        #expect(parsed.nameMayBeTruncated)
        #expect(parsed.fields.primaryIdentifier == "FERNANDEZ DE CORDOBA Y ALVAREZ DE TOLED")
        #expect(scan.viz?.fields[.lastName]?.text == "FERNÁNDEZ DE CÓRDOBA Y ÁLVAREZ DE TOLEDO")
        #expect(scan.viz?.fields[.firstName] == nil)
    }

    /// A Code 128 beside the captioned fields of a card's back (make_viz_cards.py): Tesseract's
    /// layout joins the symbol to the caption beside it and cut it short (`Date o!`). The symbol
    /// is read, and the visual zone is read as on the same back without it.
    @Test("a barcode is left out of the visual zone")
    func barcodeLeftOut() throws {
        let scanner = DocumentScanner(referenceDate: CalendarDate(year: 2025, month: 1, day: 1), readVIZ: true)
        let plain = scanner.scan(file: Self.folder.appendingPathComponent("card-a-back.png").path)
        let scan = scanner.scan(file: Self.folder.appendingPathComponent("card-a-back-barcode.png").path)
        #expect(plain.barcodes.isEmpty)
        let barcode = try #require(scan.barcodes.first)
        #expect(barcode.format == .code128)
        #expect(barcode.bytes == Array("L01X00T47".utf8))
        let lines = try #require(scan.viz?.lines)
        #expect(lines.map(\.text) == plain.viz?.lines.map(\.text))
        #expect(lines.contains { $0.text == "Ausstellungsdatum / Date of issue" })
        // No line lies on the symbol (the lines' quads in the image, as `--json` gives them).
        struct Output: Decodable { struct VIZ: Decodable { struct Line: Decodable { var text: String; var quad: [[Double]] }; var lines: [Line] }; var viz: VIZ }
        let output = try JSONDecoder().decode(Output.self, from: Data(scan.json(file: "card").utf8))
        #expect(output.viz.lines.count == lines.count)
        for line in output.viz.lines {
            let center = Point(x: line.quad.map { $0[0] }.reduce(0, +) / 4, y: line.quad.map { $0[1] }.reduce(0, +) / 4)
            #expect(!barcode.quad.contains(center), "\(line.text)")
        }
        #expect(scan.viz?.fields[.dateOfIssue]?.value == "2022-03-12")
        #expect(scan.viz?.fields[.issuingAuthority].map { Self.folded($0.value) } == "stadt dusseldorf")
    }

    @Test("image redaction blacks out the printed values of the redacted fields, and only those")
    func imageRedaction() throws {
        let path = Self.folder.appendingPathComponent("page-fra.png").path
        let settings = RedactionSettings(mode: .imageOnly, fields: [.dateOfBirth, .placeOfBirth])
        let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1),
                                      redaction: .fixed(settings), readVIZ: true)
        let (scan, image) = scanner.scanKeepingImage(file: path)
        let gray = try #require(image)
        let viz = try #require(scan.viz)
        let quads = scan.vizQuads(redacting: settings)
        #expect(quads.count == 2)
        let rgb = ScanAnnotation.render(gray, scan: scan)
        func dark(_ q: Quadrilateral) -> Double {
            let c = q.center
            var black = 0, all = 0
            for dy in -3...3 { for dx in -20...20 {
                let i = 3 * ((Int(c.y) + dy) * gray.width + Int(c.x) + dx)
                all += 1; if rgb[i] == 0 && rgb[i + 1] == 0 && rgb[i + 2] == 0 { black += 1 }
            } }
            return Double(black) / Double(all)
        }
        for q in quads { #expect(dark(q) == 1) }
        // The surname, not redacted, stays visible.
        let surname = try #require(viz.fields[.lastName])
        let toImage = try #require(scan.documents.first.flatMap { $0.vizQuads(redacting: RedactionSettings(mode: .imageOnly, fields: [.lastName])).first })
        #expect(dark(toImage) == 0, "\(surname.text)")
    }
}
