import Foundation
import Testing
import IDKitImage
import IDKitMRZ
import IDKitScan

/// The capture-condition photos of `../shared/testdata/mrz-conditions` (another generator's, read
/// in place) with their documents' true corners.
struct ConditionPhotos {
    struct Label: Decodable, Sendable {
        var file: String
        var doc_quad: [[Double]]
    }
    static let directory = RealImages.root.deletingLastPathComponent().appendingPathComponent("shared/testdata/mrz-conditions")
    static let available = FileManager.default.fileExists(atPath: directory.appendingPathComponent("labels.jsonl").path)
    static func label(_ prefix: String) throws -> Label {
        let text = try String(contentsOf: directory.appendingPathComponent("labels.jsonl"), encoding: .utf8)
        let labels = try text.split(separator: "\n").map { try JSONDecoder().decode(Label.self, from: Data($0.utf8)) }
        return try #require(labels.first { $0.file.hasPrefix("images/" + prefix) })
    }
}

@Suite(.enabled(if: ConditionPhotos.available, "needs ../shared/testdata/mrz-conditions (another generator's capture-condition photos); absent here"))
struct ConditionOutlineTests {
    let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1))

    /// The worst corner's distance from the truth over the document's diagonal, the corners matched
    /// in turn (the truth's first corner is the page's top-left as drawn).
    static func worstCorner(_ found: Quadrilateral, _ truth: [[Double]]) -> Double {
        let t = truth.map { Point(x: $0[0], y: $0[1]) }, c = found.corners
        let diagonal = hypot(t[0].x - t[2].x, t[0].y - t[2].y)
        return (0..<4).map { k in (0..<4).map { i in hypot(c[(i + k) % 4].x - t[i].x, c[(i + k) % 4].y - t[i].y) }.max()! }.min()! / diagonal
    }

    func scan(_ label: ConditionPhotos.Label) throws -> DocumentScan {
        scanner.scan(try ImageDecoder.decodeFile(atPath: ConditionPhotos.directory.appendingPathComponent(label.file).path).image)
    }

    /// The page's own sides, not the image's border beyond them:
    /// - 040: a TD2 card filling a photo with a 30–60 px margin, its right edge faint against the
    ///   desk, the border 4% beyond the place the MRZ puts that side;
    /// - 045: a TD1 card on a desk of nearly its color (five gray levels apart), rotated, its left
    ///   side too faint for the edge detector: the outline takes the step in gray along that side,
    ///   not the border 20–40 px beyond it.
    @Test(arguments: ["040", "045"])
    func faintSideBeforeTheBorder(_ photo: String) throws {
        let label = try ConditionPhotos.label(photo)
        let scan = try scan(label)
        #expect(scan.reading != nil)
        let corners = try #require(scan.outlineCorners)
        #expect(Self.worstCorner(corners, label.doc_quad) < 0.02)
    }

    /// 095: an open booklet's data page on a desk, its outline found by the search within 0.5% of
    /// the diagonal. The MRZ's placement, confirmed by print near the fold, lies 1.8% off; the
    /// found outline does not give way to it (it did when a found outline out of the placement's
    /// place gave way as a snapped one does).
    @Test func foundOutlineKeepsItsPlaceOnABooklet() throws {
        let label = try ConditionPhotos.label("095")
        let scan = try scan(label)
        #expect(scan.reading != nil)
        let corners = try #require(scan.outlineCorners)
        #expect(Self.worstCorner(corners, label.doc_quad) < 0.006)
    }

    /// A TD3 page on fabric, motion-blurred, whose outline in the edges has its bottom-left corner
    /// pulled 140 px out along the fabric (its bottom side 4.6° off the MRZ's last line): no
    /// outline or the page's own, never that one (0.114 of the diagonal off).
    @Test func bottomSideTurnedFromTheMRZIsNotTheDocuments() throws {
        let label = try ConditionPhotos.label("005")
        let scan = try scan(label)
        #expect(scan.reading != nil)
        if let corners = scan.outlineCorners {
            #expect(Self.worstCorner(corners, label.doc_quad) < 0.02, "corners \(corners.corners)")
        }
    }

    /// A TD3 page on a white desk, its top side on nothing the image shows (no edge, no step
    /// along half of it): the corners are `null`, not the page's print or the border.
    @Test func sideOnNothingIsNoOutline() throws {
        let scan = try scan(try ConditionPhotos.label("035"))
        #expect(scan.reading != nil)
        #expect(scan.outlineCorners == nil)
    }
}
