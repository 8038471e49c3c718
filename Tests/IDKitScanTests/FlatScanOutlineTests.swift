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
    static let faint = manifest("flatbed")

    /// `TestVectors/images/flatbed-placed/` (`make_images.py --bench DIR --groups flatscan --count
    /// 40 --seed 4 --picks 0 10 15 17 34`): pages whose faint sides the snapping's search leaves
    /// for a header line or the portrait's edge, while the image shows all four along a third of
    /// them or more where the MRZ places them (``DocumentDetector/confirmed(_:placed:reach:sibling:beside:margin:faintSideByShape:)``; the
    /// outline was `null` on all five; on 15 and 34 a side lies beyond the first reach).
    static let placed = manifest("flatbed-placed")

    /// `TestVectors/images/flatbed-shaped/` (`make_images.py --bench DIR --groups flatscan --count
    /// 40 --seed 4 --picks 29 32`): TD2 cards on a lid of nearly their shade whose top side the image
    /// shows along a quarter of it (24–26%) where the MRZ places the card, the three others along
    /// 39–100%, while the snapping sees no outline: the faint side is taken where the format's
    /// shape puts it (``DocumentDetector/confirmed(_:placed:reach:sibling:beside:margin:faintSideByShape:)``;
    /// the corners were `null`).
    static let shaped = manifest("flatbed-shaped")

    /// `TestVectors/images/flatbed-shifted/` (`make_images.py --bench DIR --groups flatscan --count
    /// 40 --seed 5 --picks 9 21`): TD3 pages whose MRZ lies higher or lower on the page than the
    /// format's nominal place: the image shows the placement once it is moved along the page's
    /// height (``DocumentDetector/shiftedPlacement(_:_:band:faintSideByShape:)``; the corners were
    /// `null`). On 09 a move the other way, with its bottom side on the frame, is as well
    /// supported on the sides it shows, and must not win.
    static let shifted = manifest("flatbed-shifted")

    static func manifest(_ folder: String) -> [Vector] {
        struct Manifest: Decodable { var images: [ImageVectors.FlatScan] }
        let url = ImageVectors.directory.appendingPathComponent(folder).appendingPathComponent("manifest.json")
        return try! JSONDecoder().decode(Manifest.self, from: Data(contentsOf: url)).images.map { Vector(folder: folder, photo: $0) }
    }

    /// A photo of one of the folders above.
    struct Vector: Sendable, CustomTestStringConvertible {
        var folder: String
        var photo: ImageVectors.FlatScan
        var testDescription: String { folder + "/" + photo.file }
    }

    /// One document, its MRZ read, its corners within 2% of its diagonal.
    @Test(arguments: faint + placed + shaped + shifted)
    func outlineWhereTheImageShowsIt(_ vector: Vector) throws {
        let photo = vector.photo
        let scan = scanner.scan(file: ImageVectors.directory.appendingPathComponent(vector.folder).appendingPathComponent(photo.file).path)
        #expect(scan.reading?.lines == photo.lines)
        #expect(scan.documents.count == 1)
        let corners = try #require(scan.outlineCorners)
        #expect(ConditionOutlineTests.worstCorner(corners, photo.corners) < 0.02, "\(vector.folder)/\(photo.file): corners \(corners.corners)")
    }
}
