import Foundation
import Testing
import IDKitImage
import IDKitMRZ
@testable import IDKitDocumentDetection
@testable import IDKitScan

/// `TestVectors/images/sides/manifest.json` (`make_images.py --sides`, seeded): flatbed scans of
/// both sides of one card, cropped close to them, the side with the MRZ first.
@Suite struct SidesInOneScanTests {
    static let directory = ImageVectors.directory.appendingPathComponent("sides")
    static let all: [DocumentPhotos.Entry] = try! JSONDecoder().decode(
        DocumentPhotos.self, from: Data(contentsOf: directory.appendingPathComponent("manifest.json"))).images

    let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1))

    /// The farthest of four corners from the truth, over the document's diagonal.
    static func worstCorner(_ found: Quadrilateral, _ truth: [[Double]]) -> Double {
        let t = truth.map { Point(x: $0[0], y: $0[1]) }
        return zip(found.corners, t).map { hypot($0.x - $1.x, $0.y - $1.y) }.max()! / hypot(t[0].x - t[2].x, t[0].y - t[2].y)
    }

    /// Both sides listed with every corner within 2% of the diagonal, even where the frame runs
    /// along three of a side's edges and the two lie a millimeter apart: the MRZ side primary and
    /// read, the other side `mrzNotFound`, of the card's format by its shape.
    @Test(arguments: all)
    func listsBothSides(_ photo: DocumentPhotos.Entry) throws {
        let scan = scanner.scan(file: Self.directory.appendingPathComponent(photo.file).path)
        try #require(scan.documents.count == 2)
        let mrzSide = photo.documents[0], otherSide = photo.documents[1]
        #expect(mrzSide.lines != nil && otherSide.lines == nil)
        let first = try #require(scan.documents[0].detection), second = try #require(scan.documents[1].detection)
        #expect(Self.worstCorner(first.corners, mrzSide.corners) < 0.02, "MRZ side at \(first.corners)")
        #expect(Self.worstCorner(second.corners, otherSide.corners) < 0.02, "other side at \(second.corners)")
        #expect(scan.documents[0].reading?.lines == mrzSide.lines)
        #expect(scan.detection == first)
        #expect(scan.documents[1].status == .mrzNotFound)
        #expect(second.format.rawValue == (otherSide.layout == "TD1" ? "TD1" : "unknown"))
    }

    /// A passport page has no other side: beside a TD3 page, the facing page is never looked for.
    @Test func onlyCardsHaveAnotherSide() throws {
        let photo = try #require(Self.all.first)
        let path = Self.directory.appendingPathComponent(photo.file).path
        var card = try #require(scanner.scan(file: path).documents.first?.detection)
        let detector = DocumentDetector()
        let edges = try #require(detector.edges(of: try ImageDecoder.decodeFile(atPath: path).image))
        #expect(detector.otherSides(edges: edges, beside: [card]).count == 1)
        card.format = .td3
        #expect(detector.otherSides(edges: edges, beside: [card]).isEmpty)
    }
}
