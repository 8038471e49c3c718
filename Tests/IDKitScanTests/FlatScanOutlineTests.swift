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
}
