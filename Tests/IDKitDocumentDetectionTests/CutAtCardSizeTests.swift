import Testing
import IDKitImage
import IDKitMRZ
@testable import IDKitMRZReading
@testable import IDKitDocumentDetection

/// A document the frame cuts beside an ID-1 card with its MRZ, put back at the card's size
/// (``DocumentDetector/restoredAtCardSize(_:as:beside:)``).
struct CutAtCardSizeTests {
    /// The card: 856 × 540 px at x 1000–1856, y 100–640, its TD1 band at the bottom.
    static func card() throws -> DetectedDocument {
        let outline = DocumentDetector.Outline(points: [Point(x: 1000, y: 100), Point(x: 1856, y: 100), Point(x: 1856, y: 640), Point(x: 1000, y: 640)],
                                               support: 1, weakestSide: 1)
        func line(_ y: Double) -> MRZLineGeometry {
            MRZLineGeometry(start: Point(x: 1060, y: y), end: Point(x: 1796, y: y), componentCount: 30)
        }
        let band = MRZBand(lines: [line(520), line(562), line(604)], characterHeight: 24, pitch: 25.4, format: .td1)
        return try #require(DocumentDetector.document(outline, band: band))
    }

    /// A cut outline to the card's left from x = 0 (the border, side 3) to `right`, y `top`–`bottom`.
    static func cut(right: Double, top: Double = 100, bottom: Double = 640, cutSides: Int = 0b1000) -> DocumentDetector.Outline {
        DocumentDetector.Outline(points: [Point(x: 0, y: top), Point(x: right, y: top), Point(x: right, y: bottom), Point(x: 0, y: bottom)],
                                 support: 1, weakestSide: 1, cutSides: cutSides)
    }

    /// The outline's document (as found, or its corners as they are where its shape is no
    /// document's), restored.
    static func restored(_ outline: DocumentDetector.Outline, beside card: DetectedDocument) throws -> DetectedDocument {
        let d = DocumentDetector.oriented(outline, band: nil)
            ?? DetectedDocument(corners: Quadrilateral(outline.points), confidence: 1, widthHeightRatio: 1, format: .unknown, outlineFound: true)
        return DocumentDetector.restoredAtCardSize(outline, as: d, beside: [card])
    }

    /// Seen to 760 of the card's 856 px, as tall as the card: the side on the border moves out to
    /// 856 px from the side across, beyond the frame.
    @Test func aCutSideMovesOutToTheCardsWidth() throws {
        let d = try Self.restored(Self.cut(right: 760), beside: Self.card())
        let xs = d.corners.corners.map(\.x).sorted()
        #expect(abs(xs[0] - -96) < 0.01 && abs(xs[1] - -96) < 0.01)
        #expect(abs(xs[2] - 760) < 0.01 && abs(xs[3] - 760) < 0.01)
        #expect(abs(d.widthHeightRatio - 856.0 / 540) < 0.001)
    }

    /// Cut at the left and the top (the corner beyond the frame), 760 × 480 px in view: both cut
    /// sides out to the card's size, the corner between them where the two meet.
    @Test func aCutCornerMovesOutOnBothSides() throws {
        let outline = Self.cut(right: 760, top: 0, bottom: 480, cutSides: 0b1001)
        let d = try Self.restored(outline, beside: Self.card())
        let xs = d.corners.corners.map(\.x), ys = d.corners.corners.map(\.y)
        #expect(abs(xs.min()! - -96) < 0.01 && abs(ys.min()! - -60) < 0.01)
        #expect(abs(xs.max()! - 760) < 0.01 && abs(ys.max()! - 480) < 0.01)
        #expect(d.corners.corners.contains { abs($0.x - -96) < 0.01 && abs($0.y - -60) < 0.01 })
    }

    /// Left as found: a document showing under three quarters of the card's width (it may be
    /// another of another size), one as wide as the card already, one shorter than the card along
    /// its seen side, and one turned against the card.
    @Test func otherDocumentsAreLeftAsFound() throws {
        let card = try Self.card()
        for outline in [Self.cut(right: 600), Self.cut(right: 850), Self.cut(right: 760, top: 200)] {
            let d = try Self.restored(outline, beside: card)
            #expect(d.corners.corners.map(\.x).min()! == 0)
        }
        let turned = DocumentDetector.Outline(points: [Point(x: 0, y: 100), Point(x: 760, y: 40), Point(x: 788, y: 600), Point(x: 0, y: 640)],
                                              support: 1, weakestSide: 1, cutSides: 0b1000)
        #expect(try Self.restored(turned, beside: card).corners.corners.map(\.x).min()! == 0)
    }
}
