import Foundation
import Testing
import IDKitImage
import IDKitMRZ
import IDKitScan

/// Documents scanned on a lid or a desk a few gray levels from their own color, 1–5% of their size
/// from the frame (`TestVectors/images/flatscan-*`, `make_images.py`'s group `flatscan`): too faint
/// for the edge detector on some sides, the image's border close beyond them.
@Suite struct FlatScanOutlineTests {
    let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1))

    /// The document's own corners (within 2% of its diagonal), not the border's, and its MRZ read.
    @Test(arguments: ImageVectors.file.flatscan)
    func outlineOnTheDocumentsOwnSides(_ photo: ImageVectors.FlatScan) throws {
        let scan = scanner.scan(file: ImageVectors.directory.appendingPathComponent(photo.file).path)
        #expect(scan.reading?.lines == photo.lines)
        let corners = try #require(scan.outlineCorners)
        #expect(ConditionOutlineTests.worstCorner(corners, photo.corners) < 0.02, "corners \(corners.corners)")
    }

    /// `TestVectors/images/flatbed/` (`make_images.py --bench DIR --groups flatscan --count 20
    /// --seed 77 --picks 1 5 9`): pages a few pixels from the frame at one corner, one of whose
    /// sides shows a step along a third of its length or runs turned against the border it is
    /// near. That side lies where the format puts it from the three others (the outline was
    /// `null` on two of them and 5% off on the third while the border counted for any side).
    static let faint: [ImageVectors.FlatScan] = {
        struct Manifest: Decodable { var images: [ImageVectors.FlatScan] }
        let url = ImageVectors.directory.appendingPathComponent("flatbed/manifest.json")
        return try! JSONDecoder().decode(Manifest.self, from: Data(contentsOf: url)).images
    }()

    @Test(arguments: faint)
    func faintSideWhereTheFormatPutsIt(_ photo: ImageVectors.FlatScan) throws {
        let scan = scanner.scan(file: ImageVectors.directory.appendingPathComponent("flatbed").appendingPathComponent(photo.file).path)
        #expect(scan.reading?.lines == photo.lines)
        #expect(scan.documents.count == 1)
        let corners = try #require(scan.outlineCorners)
        #expect(ConditionOutlineTests.worstCorner(corners, photo.corners) < 0.02, "corners \(corners.corners)")
    }
}
