import Testing
import IDKitImage
import IDKitMRZ
@testable import IDKitMRZReading
@testable import IDKitDocumentDetection

/// A document's corners in reading order, taken from the MRZ inside it.
struct ReadingOrderTests {
    /// Corners in reading order from the MRZ's direction: a card upside down in the image has its
    /// top-left corner at the image's bottom right.
    @Test func readingOrderFollowsTheMRZ() throws {
        // An ID-1 outline 856 × 540 px, and its TD1 band at the bottom, read left to right.
        let outline = DocumentDetector.Outline(points: [Point(x: 100, y: 100), Point(x: 956, y: 100), Point(x: 956, y: 640), Point(x: 100, y: 640)],
                                               support: 1, weakestSide: 1)
        func line(_ y: Double, _ reversed: Bool) -> MRZLineGeometry {
            let a = Point(x: 160, y: y), b = Point(x: 896, y: y)
            return MRZLineGeometry(start: reversed ? b : a, end: reversed ? a : b, componentCount: 30)
        }
        let upright = MRZBand(lines: [line(520, false), line(562, false), line(604, false)], characterHeight: 24, pitch: 25.4, format: .td1)
        let d = try #require(DocumentDetector.document(outline, band: upright))
        #expect(d.format == .td1)
        #expect(d.band != nil)
        #expect(d.corners.topLeft == Point(x: 100, y: 100))
        // The same band turned half round (its lines run right to left, the last line on top): the
        // document is upside down, its MRZ at the image's top.
        let turned = MRZBand(lines: [line(220, true), line(178, true), line(136, true)], characterHeight: 24, pitch: 25.4, format: .td1)
        let t = try #require(DocumentDetector.document(outline, band: turned))
        #expect(t.band != nil)
        #expect(t.corners.topLeft == Point(x: 956, y: 640))
        #expect(t.corners.bottomRight == Point(x: 100, y: 100))
    }
}
