import Foundation
import Testing
import IDKitImage
import IDKitMRZ
@testable import IDKitMRZReading
import IDKitTestSupport
@testable import IDKitDocumentDetection
@testable import IDKitScan

/// `TestVectors/images/sides/manifest.json` (`make_images.py --sides`, seeded): flatbed scans of
/// both sides of one card, cropped close to them, the side with the MRZ first.
/// `TestVectors/images/sides-gap/` (`--sides DIR --count 40 --seed 1 --picks 14`): a scan cropped
/// through the side without the MRZ, a 3.5 mm gap on a dark lid between the two, where the
/// outline first found for that side took the card's edge beyond the gap for its own
/// (``DocumentDetector/stepsAgainstCard(_:_:_:)``; it was 3.8% off).
/// `TestVectors/images/sides-print/` (`--sides DIR --count 40 --seed 5 --picks 5 9`): the side
/// without the MRZ below the card, the frame along its left, right and bottom edges, whose left
/// side the outline first put on the portrait's edge and the text's margin 3 mm inside, the card's
/// plain margin beyond it (``DocumentDetector/hasSideOnPrint(_:_:beside:)``; 3.6% and 4.7% off).
/// `TestVectors/images/sides-cut/` (`--sides DIR --count 40 --seed 17 --picks 4 33`): the side
/// without the MRZ cut by the left border, and by the left and top borders, whose outline the
/// border closed 12–15% narrower than the card (``DocumentDetector/restoredAtCardSize(_:as:beside:)``;
/// 10.3% and 11.0% off).
/// `TestVectors/images/sides-faint/` (`--sides DIR --count 40 --seed 13 --picks 2`): the side
/// without the MRZ wholly in view on a lid of nearly its shade, its faintest side on edges along a
/// third of it (``DocumentScanner/leastWeakestSide(ofCut:width:height:)``; not listed before).
@Suite struct SidesInOneScanTests {
    static let all: [DocumentPhotos.Entry] = manifest("sides")
    static let gap: [DocumentPhotos.Entry] = manifest("sides-gap")
    static let onPrint: [DocumentPhotos.Entry] = manifest("sides-print")
    static let cut: [DocumentPhotos.Entry] = manifest("sides-cut")
    static let faint: [DocumentPhotos.Entry] = manifest("sides-faint")

    static func manifest(_ folder: String) -> [DocumentPhotos.Entry] {
        let url = ImageVectors.directory.appendingPathComponent(folder).appendingPathComponent("manifest.json")
        return try! JSONDecoder().decode(DocumentPhotos.self, from: Data(contentsOf: url)).images.map {
            var entry = $0
            entry.file = folder + "/" + $0.file
            return entry
        }
    }

    let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1))

    /// Both sides listed, each right by the real specimens' judge (`OutlineJudge`: every corner
    /// within 2% of the diagonal, the side without an MRZ up to a half turn) and no other entry,
    /// even where the frame runs along three of a side's edges or cuts a third of it off: the MRZ
    /// side primary and read, the other side `mrzNotFound`, of the card's format by its shape.
    @Test(arguments: all + gap + onPrint + cut + faint)
    func listsBothSides(_ photo: DocumentPhotos.Entry) throws {
        let scan = scanner.scan(file: ImageVectors.directory.appendingPathComponent(photo.file).path)
        let mrzSide = photo.documents[0], otherSide = photo.documents[1]
        #expect(mrzSide.lines != nil && otherSide.lines == nil)
        let label = OutlineLabels.Image(file: photo.file, imageSize: [], documents: photo.documents.map {
            OutlineLabels.Document(corners: $0.corners, hasMRZ: $0.lines != nil, cut: nil)
        })
        let judged = OutlineJudge.judge(label, entries: scan.documents.map { $0.outlineCorners.map { $0.corners.map { [$0.x, $0.y] } } })
        #expect(judged.documents == [.right, .right], "corner errors \(judged.errors)")
        #expect(judged.extra == 0)
        try #require(scan.documents.count == 2)
        #expect(scan.documents[0].reading?.lines == mrzSide.lines)
        #expect(scan.detection == scan.documents[0].detection)
        #expect(scan.documents[1].status == .mrzNotFound)
        #expect(scan.documents[1].detection?.format.rawValue == (otherSide.layout == "TD1" ? "TD1" : "unknown"))
    }

    /// A passport page has no other side: beside a TD3 page, the facing page is never looked for.
    @Test func onlyCardsHaveAnotherSide() throws {
        let photo = try #require(Self.all.first)
        let path = ImageVectors.directory.appendingPathComponent(photo.file).path
        var card = try #require(scanner.scan(file: path).documents.first?.detection)
        let detector = DocumentDetector()
        let edges = try #require(detector.edges(of: try ImageDecoder.decodeFile(atPath: path).image))
        #expect(detector.otherSides(edges: edges, beside: [card]).count == 1)
        card.format = .td3
        #expect(detector.otherSides(edges: edges, beside: [card]).isEmpty)
    }

    /// A card's other side is not kept out by an outline found inside it without an MRZ (its
    /// portrait, 35 × 45 turned a quarter, is 1.3 wide for 1 like a document), which it replaces;
    /// it is by a document with an MRZ there, and by an outline as large as itself.
    @Test func anOutlineInsideGivesWayToTheSide() {
        func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Quadrilateral {
            Quadrilateral(topLeft: Point(x: x, y: y), topRight: Point(x: x + w, y: y), bottomRight: Point(x: x + w, y: y + h),
                          bottomLeft: Point(x: x, y: y + h))
        }
        let side = DetectedDocument(corners: box(0, 0, 856, 540), confidence: 0.9, widthHeightRatio: 1.586, format: .td1, outlineFound: true)
        let portrait = DetectedDocument(corners: box(40, 100, 187, 144), confidence: 0.9, widthHeightRatio: 1.3, format: .unknown, outlineFound: true)
        #expect(DocumentDetector.overlaps(portrait.corners, side.corners))
        #expect(DocumentDetector.isInside(portrait, side))
        #expect(!DocumentDetector.blocks(portrait, side))
        let line = MRZLineGeometry(start: Point(x: 60, y: 480), end: Point(x: 800, y: 480), componentCount: 30)
        var read = portrait
        read.band = MRZBand(lines: [line], characterHeight: 24, pitch: 25.4, format: .td1)
        #expect(DocumentDetector.blocks(read, side))
        let large = DetectedDocument(corners: box(100, 50, 700, 480), confidence: 0.9, widthHeightRatio: 1.46, format: .unknown, outlineFound: true)
        #expect(DocumentDetector.blocks(large, side))
        #expect(!DocumentDetector.blocks(DetectedDocument(corners: box(876, 0, 856, 540), confidence: 0.9, widthHeightRatio: 1.586, format: .td1,
                                                          outlineFound: true), side))
    }

    /// Two documents overlap by the area they share, not by their bounding boxes: a card and its
    /// other side 2 mm apart, both turned 15°, share none, though their boxes share a tenth of a
    /// card; a side moved a third of a card onto the card shares two thirds.
    @Test func overlapIsTheAreaShared() {
        func card(_ dx: Double, turned degrees: Double) -> Quadrilateral {
            let a = degrees * .pi / 180, w = 856.0, h = 540.0
            let points = [(dx, 0.0), (dx + w, 0), (dx + w, h), (dx, h)].map { x, y in
                Point(x: 1000 + x * cos(a) - y * sin(a), y: 1000 + x * sin(a) + y * cos(a))
            }
            return Quadrilateral(points)
        }
        let front = card(0, turned: 15)
        #expect(abs(DocumentDetector.sharedArea(front, front) - front.area) < 1)
        #expect(DocumentDetector.sharedArea(front, card(876, turned: 15)) < 1)
        #expect(!DocumentDetector.overlaps(front, card(876, turned: 15)))
        #expect(abs(DocumentDetector.sharedArea(front, card(285, turned: 15)) / front.area - 571.0 / 856) < 0.01)
        #expect(DocumentDetector.overlaps(front, card(285, turned: 15)))
    }

    /// A document the frame cuts, or a card's other side, may have a faint side only where nearly
    /// all of it lies in the frame: mostly beyond it, the search's placement may be the desk.
    @Test func aFaintSideOnlyWhollyInView() {
        func document(x: Double, y: Double) -> DetectedDocument {
            DetectedDocument(corners: Quadrilateral(topLeft: Point(x: x, y: y), topRight: Point(x: x + 456, y: y),
                                                    bottomRight: Point(x: x + 456, y: y + 288), bottomLeft: Point(x: x, y: y + 288)),
                             confidence: 1, widthHeightRatio: 456.0 / 288, format: .unknown, outlineFound: true)
        }
        #expect(DocumentScanner.leastWeakestSide(ofCut: document(x: 10, y: 10), width: 916, height: 576) == 0.3)
        // 57% of it in view (bench-scan's small-16-td1: the desk's clutter below a card).
        #expect(DocumentScanner.leastWeakestSide(ofCut: document(x: 200, y: 412), width: 916, height: 576) == 0.5)
    }
}
