import Foundation
import Testing
import IDKitImage
import IDKitMRZ
@testable import IDKitMRZReading
@testable import IDKitScan

/// An MRZ whose first characters run off the photo's edge ("a line whose first character
/// is cut off"). What was not seen is filled in by the layout and the check digits, never
/// verified, and the capture hint says the document is cut by the frame.
@Suite struct CutOffMRZTests {
    let scanner = DocumentScanner(readBarcodes: false)

    /// The clean photo of each layout with its left part cut away, `cells` character cells into
    /// the MRZ (the manifest's quad runs half a pitch beyond the end characters).
    static func cut(_ v: ImageVectors.Entry, cells: Double) -> GrayImage {
        let image = ImageVectors.image(v.file)
        let left = v.quad[0][0], right = v.quad[1][0]
        let pitch = (right - left) / Double(v.lines[0].count)
        let x = Int(left + cells * pitch)
        return image.cropped(x: x, y: 0, width: image.width - x, height: image.height)
    }

    static let clean = ImageVectors.file.images.filter { $0.group == "clean" }

    @Test(arguments: clean)
    func aFirstCharacterCutOffWhollyIsFilledInAndDoubted(_ v: ImageVectors.Entry) throws {
        let scan = scanner.scan(Self.cut(v, cells: 1))
        let reading = try #require(scan.reading)
        let band = try #require(scan.band)
        let image = Self.cut(v, cells: 1)
        let outside = band.cellsOutside(width: image.width, height: image.height)
        // The band still holds the cut cells, and knows they are beyond the edge.
        #expect(outside.allSatisfy { $0[0] >= MRZLineReader.mostlyOutside && $0.dropFirst().allSatisfy { $0 < MRZLineReader.partlyOutside } })
        // Everything in view is read as printed.
        for (read, printed) in zip(reading.lines, v.lines) {
            #expect(read.dropFirst() == printed.dropFirst())
        }
        // What was not seen is not vouched for: the document code in doubt, and little
        // confidence in the cells no layout fixes (a passport's first letter is `P`; a card's may
        // be `I`, `A` or `C`, and the second line's first character anything its check digit allows).
        #expect(!reading.verified)
        #expect(reading.unsureFields.contains("documentCode"))
        #expect(reading.confidence.enumerated().allSatisfy { l, line in (l == 0 && v.layout == "TD3") || line[0] < 0.5 })
        #expect(scan.quality?.hints.first == "documentPartiallyVisible")
        // The one layout letter a passport may have, and a card's commonest where a card says `I`.
        if v.layout == "TD3" { #expect(reading.lines[0].first == "P") }
        if v.lines[0].first == "I" { #expect(reading.lines[0].first == "I") }
        // The card's birth date (TD1 line 2) and the passport's document number (TD3 line 2) start
        // in the cut cell too: the check digits set what they can, and the field stays unsure.
        if v.layout == "TD1" {
            #expect(reading.lines[1].first == v.lines[1].first)
            #expect(reading.unsureFields.contains("dateOfBirth"))
        }
    }

    /// Cut through the middle of the first character: the network reads half a glyph as whatever
    /// it looks like (on the real specimens, the right half of `K` as `<` and of `M` as `J`, at
    /// 0.99); the half seen still chooses, but nothing there is verified.
    @Test(arguments: clean)
    func aFirstCharacterCutInHalfIsNotVerified(_ v: ImageVectors.Entry) throws {
        let image = Self.cut(v, cells: 0.5)
        let scan = scanner.scan(image)
        let reading = try #require(scan.reading)
        let band = try #require(scan.band)
        let first = band.cellsOutside(width: image.width, height: image.height).map { $0[0] }
        #expect(first.allSatisfy { $0 >= MRZLineReader.partlyOutside && $0 < MRZLineReader.mostlyOutside })
        for (read, printed) in zip(reading.lines, v.lines) {
            #expect(read.dropFirst() == printed.dropFirst())
        }
        #expect(!reading.verified)
        #expect(reading.unsureFields.contains("documentCode"))
        #expect(scan.quality?.hints.first == "documentPartiallyVisible")
    }

    /// The photo's lower edge a quarter of a character height into the last line: the locator
    /// still takes the cut line for the layout's last (its glyphs shorter than the others'), the
    /// lines above read as printed, and nothing of the cut line is vouched for. Before, a card's
    /// first two lines were read as a TD2's and a passport's first line alone was no MRZ.
    @Test(arguments: clean)
    func aLastLineCutAtItsFootKeepsTheLinesAbove(_ v: ImageVectors.Entry) throws {
        let whole = ImageVectors.image(v.file)
        let cap = try #require(scanner.scan(whole).quality?.mrzCharHeightPx)
        let y = Int(max(v.quad[2][1], v.quad[3][1]) - 0.25 * cap)
        let scan = scanner.scan(whole.cropped(x: 0, y: 0, width: whole.width, height: y))
        let reading = try #require(scan.reading)
        #expect(reading.format.rawValue == v.layout)
        #expect(Array(reading.lines.dropLast()) == Array(v.lines.dropLast()))
        #expect(!reading.verified)
        #expect(scan.quality?.hints.first == "documentPartiallyVisible")
    }

    /// The zone alone, cropped with a margin of a fifth of a character height (what a pipeline
    /// that crops the MRZ before reading it sends): read and verified as the whole photo is.
    /// Before, every character was larger than a tenth of the crop's height and dropped as no
    /// character, and a TD3 zone 20 px of characters high was no MRZ.
    @Test(arguments: clean)
    func theZoneCroppedAloneReadsAsTheWholePhoto(_ v: ImageVectors.Entry) throws {
        let whole = ImageVectors.image(v.file)
        let cap = try #require(scanner.scan(whole).quality?.mrzCharHeightPx)
        let xs = v.quad.map { $0[0] }, ys = v.quad.map { $0[1] }
        let margin = 0.2 * cap
        let x0 = Int(xs.min()! - margin), y0 = Int(ys.min()! - margin)
        let crop = whole.cropped(x: x0, y: y0, width: Int(xs.max()! + margin) - x0, height: Int(ys.max()! + margin) - y0)
        #expect(crop.width > 3 * crop.height)
        let scan = scanner.scan(crop)
        let reading = try #require(scan.reading)
        #expect(reading.lines == v.lines)
        #expect(reading.verified)
    }

    /// The same photos whole: no cell outside, no hint, read and verified as before.
    @Test(arguments: clean)
    func theWholePhotoHasNoCellOutside(_ v: ImageVectors.Entry) throws {
        let image = ImageVectors.image(v.file)
        let scan = scanner.scan(image)
        let band = try #require(scan.band)
        #expect(band.cellsOutside(width: image.width, height: image.height).allSatisfy { $0.allSatisfy { $0 == 0 } })
        #expect(!band.runsOffImage(width: image.width, height: image.height))
        #expect(scan.reading?.verified == true)
        #expect(scan.quality?.hints.contains("documentPartiallyVisible") == false)
    }
}
