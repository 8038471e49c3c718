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
            let center = (Int((c[0].x + c[2].x) / 2), Int((c[0].y + c[2].y) / 2))
            let i = 3 * (center.1 * image.width + center.0)
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

    /// Blacking out the MRZ covers its ink: every dark pixel of the printed lines (the generator's
    /// box from the first line's cap tops to the last line's baseline, grown by 15% of a cap
    /// height for blur) is black. The band's own quad hugs the cap height now that the height is
    /// searched for, and left up to 23 such pixels on these images; ``MRZBand/inkQuad`` is blacked out.
    @Test(arguments: ImageVectors.file.images.filter { ["clean", "noise"].contains($0.group) })
    func imageRedactionCoversTheMRZInk(_ v: ImageVectors.Entry) throws {
        let image = ImageVectors.image(v.file)
        let settings = RedactionSettings(mode: .imageOnly, fields: [], redactMRZ: true)
        let scan = DocumentScanner(readBarcodes: false, redaction: .fixed(settings)).scan(image)
        #expect(scan.band != nil)
        let rgb = ScanAnnotation.render(image, scan: scan)
        // The truth box, grown across the lines (cap height 0.945 pitch, the generator's).
        let q = v.quad.map { Point(x: $0[0], y: $0[1]) }
        let length = ["TD1": 30.0, "TD2": 36.0, "TD3": 44.0][v.layout]!
        let pitch = hypot(q[1].x - q[0].x, q[1].y - q[0].y) / length
        let upX = q[0].x - q[3].x, upY = q[0].y - q[3].y, norm = hypot(upX, upY)
        let g = 0.15 * 0.945 * pitch
        let (ux, uy) = (upX / norm * g, upY / norm * g)
        let box = [Point(x: q[0].x + ux, y: q[0].y + uy), Point(x: q[1].x + ux, y: q[1].y + uy),
                   Point(x: q[2].x - ux, y: q[2].y - uy), Point(x: q[3].x - ux, y: q[3].y - uy)]
        func inside(_ x: Double, _ y: Double) -> Bool {
            var sign = 0.0
            for k in 0..<4 {
                let a = box[k], b = box[(k + 1) % 4]
                let c = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)
                if sign == 0 { sign = c } else if (c > 0) != (sign > 0) { return false }
            }
            return true
        }
        var ink = 0, left = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixels[y * image.width + x] < 100 && inside(Double(x) + 0.5, Double(y) + 0.5) {
                ink += 1
                let i = 3 * (y * image.width + x)
                if rgb[i] != 0 || rgb[i + 1] != 0 || rgb[i + 2] != 0 { left += 1 }
            }
        }
        #expect(ink > 1000, "the box holds the MRZ's ink")
        #expect(left == 0, "\(left) of \(ink) MRZ ink pixels not blacked out")
    }

    @Test func imageOnlyBlacksOutTheBandAndResultOnlyLeavesTheImage() {
        // The image half of IDKitDocumentTests' imageOnlyLeavesTheResultAndResultOnlyLeavesTheImage:
        // image redaction is IDKitScan's.
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
