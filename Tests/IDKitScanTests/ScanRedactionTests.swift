import Foundation
import Testing
import IDKitDocument
import IDKitImage
import IDKitMRZ
import IDKitScan

/// Redaction through the scanner: for random settings, no redacted value in what the scan
/// reports (MRZ lines, parsed MRZ, document, barcodes), and the annotated image follows the mode.
@Suite struct ScanRedactionTests {
    @Test func randomSettingsLeakNothingFromAScan() throws {
        let entry = ImageVectors.file.images.first { $0.group == "clean" && $0.layout == "TD1" }!
        let image = ImageVectors.image(entry.file)
        let plain = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1)).scan(image)
        let document = try #require(plain.document)
        var rng = SeededGenerator(seed: 0x5CA1)
        let modes: [RedactionMode] = [.fullResult, .resultFieldsOnly, .imageOnly, .fullResult]
        for mode in modes {
            var fields = Set(DocumentFieldName.allCases.filter { _ in Bool.random(using: &rng) })
            fields.insert([DocumentFieldName.lastName, .documentNumber, .dateOfBirth].randomElement(using: &rng)!)
            let settings = RedactionSettings(mode: mode, fields: fields, redactMRZ: Bool.random(using: &rng))
            let scan = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1),
                                       redaction: .fixed(settings)).scan(image)
            let rgb = ScanAnnotation.render(image, scan: scan)
            let band = try #require(scan.band)
            let c = band.quad.corners
            let centre = (Int((c[0].x + c[2].x) / 2), Int((c[0].y + c[2].y) / 2))
            let i = 3 * (centre.1 * image.width + centre.0)
            if settings.redactsImage {
                #expect(rgb[i] == 0 && rgb[i + 1] == 0 && rgb[i + 2] == 0, "\(mode): the band is not blacked out")
            }
            // The reading plate (white, top left) is drawn only when the result is not redacted.
            let plate = 3 * (2 * image.width + 2)
            #expect((rgb[plate] == 255) == (!settings.redactsResult && !settings.redactsImage), "\(mode): reading plate")
            guard settings.redactsResult else {
                #expect(scan.reading?.lines == entry.lines)
                continue
            }
            #expect(scan.parsed == nil)
            var effective = fields
            if !effective.isDisjoint(with: [.firstName, .lastName, .fullName]) { effective.formUnion([.firstName, .lastName, .fullName]) }
            let reported = (scan.reading?.lines ?? []).joined(separator: "\n") + "\n"
                + String(decoding: try JSONEncoder().encode(scan.document), as: UTF8.self)
            for name in effective {
                for (_, value) in document[name].readings.all where value.count >= 3 {
                    for form in [value, value.replacingOccurrences(of: " ", with: "<")] {
                        #expect(!reported.uppercased().contains(form.uppercased()), "\(mode): \(name.rawValue) '\(form)' leaked")
                    }
                }
            }
        }
    }

    @Test func imageOnlyBlacksOutTheBandAndResultOnlyLeavesTheImage() {
        // Moved from IDKitDocumentTests' imageOnlyLeavesTheResultAndResultOnlyLeavesTheImage when
        // image redaction moved to IDKitScan (issue 13); unchanged.
        let imageOnly = RedactionSettings(mode: .imageOnly, fields: [.lastName], redactMRZ: true)
        let band = Quadrilateral(topLeft: Point(x: 20, y: 60), topRight: Point(x: 180, y: 64),
                                 bottomRight: Point(x: 179, y: 84), bottomLeft: Point(x: 19, y: 80))
        var image = GrayImage(width: 200, height: 100)
        imageOnly.redact(&image, regions: DocumentImageRegions(mrz: band))
        #expect(image[100, 72] == 0)
        #expect(image[20, 70] == 0)                 // the band's own edge
        #expect(image[100, 40] == 255)              // the rest of the document
        #expect(image[5, 72] == 255)
        var untouched = GrayImage(width: 200, height: 100)
        RedactionSettings(mode: .resultFieldsOnly, fields: [.lastName]).redact(&untouched, regions: DocumentImageRegions(mrz: band))
        #expect(untouched == GrayImage(width: 200, height: 100))
    }
}
