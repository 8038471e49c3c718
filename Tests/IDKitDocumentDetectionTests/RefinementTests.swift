import Testing
import IDKitImage
import IDKitDocumentDetection

/// `DocumentDetector.refined(_:in:beside:)` on a drawn card: light (220) on a mid-gray desk (100),
/// 600 × 380 px from (50, 40), its right part beyond the frame (the image is 620 wide), with a
/// dark printed rule (30) from 10 to 13 px inside its top edge.
struct RefinementTests {
    static let card: GrayImage = {
        var image = GrayImage(width: 620, height: 480, filledWith: 100)
        for y in 40..<420 { for x in 50..<620 { image[x, y] = 220 } }
        for y in 50..<53 { for x in 70..<600 { image[x, y] = 30 } }
        return image
    }()

    static func outline(top: Double, left: Double = 50, right: Double = 650, bottom: Double = 420) -> DetectedDocument {
        DetectedDocument(corners: Quadrilateral(topLeft: Point(x: left, y: top), topRight: Point(x: right, y: top),
                                                bottomRight: Point(x: right, y: bottom), bottomLeft: Point(x: left, y: bottom)),
                         confidence: 1, widthHeightRatio: (right - left) / (bottom - top), format: .td1, outlineFound: true)
    }

    @Test("a side a few pixels off moves onto the card's edge, not onto the print inside it")
    func sideMovesOntoTheEdge() {
        for top in [36.0, 40, 44, 47] {
            let refined = DocumentDetector.refined(Self.outline(top: top), in: Self.card)
            let c = refined.corners
            #expect(abs(c.topLeft.y - 40) <= 1.5, "top at \(top): \(c)")
            #expect(abs(c.topRight.y - 40) <= 1.5, "top at \(top): \(c.topRight)")
            // The left side and the bottom were right; the right side, beyond the frame, keeps the width.
            #expect(abs(c.topLeft.x - 50) <= 1.5 && abs(c.bottomLeft.y - 420) <= 1.5, "\(c)")
            #expect(abs(c.topRight.x - 650) <= 1.5, "\(c)")
            #expect(abs(refined.widthHeightRatio - 600.0 / 380) < 0.01)
        }
    }

    @Test("another document's outline is not crossed into, and an outline wholly in view or placed from an MRZ is left alone")
    func whatIsLeftAlone() {
        // The desk above the card covered by another document's outline: the top may not go there.
        let other = Quadrilateral(topLeft: Point(x: 0, y: 0), topRight: Point(x: 620, y: 0), bottomRight: Point(x: 620, y: 41), bottomLeft: Point(x: 0, y: 41))
        let beside = DocumentDetector.refined(Self.outline(top: 44), in: Self.card, beside: [other])
        #expect(beside.corners.topLeft.y > 41)
        // Wholly in view (its right side at 600, far from the frame): unchanged.
        let inView = Self.outline(top: 44, right: 560)
        #expect(DocumentDetector.refined(inView, in: Self.card) == inView)
        var placed = Self.outline(top: 44)
        placed.outlineFound = false
        #expect(DocumentDetector.refined(placed, in: Self.card) == placed)
    }

    /// A card's other side (232) from the frame's left to x = 1004, with a portrait (110) 45 px in,
    /// a light lid (243) in the gap to x = 1040, and the card (228) beyond: the image's full height
    /// (500 px). `gap` false: the two touch at 1040, the other side's ground running up to it.
    static func sides(gap: Bool) -> GrayImage {
        var image = GrayImage(width: 1400, height: 500, filledWith: 243)
        for y in 0..<500 {
            for x in 0..<1400 {
                image[x, y] = x >= 1040 ? 228 : (gap && x >= 1004) ? 243 : (45..<300).contains(x) && (100..<350).contains(y) ? 110 : 232
            }
        }
        return image
    }

    static let theCard = Quadrilateral(topLeft: Point(x: 1040, y: 0), topRight: Point(x: 1400, y: 0),
                                    bottomRight: Point(x: 1400, y: 500), bottomLeft: Point(x: 1040, y: 500))

    @Test("a side that took the card's edge across the gap moves onto its own, and the side at the frame follows at the card's size")
    func sideAcrossTheGap() {
        // As found: the right side on the card's edge, the left put back 1,004 px from it.
        let found = Self.outline(top: 0, left: 35, right: 1039, bottom: 500)
        let refined = DocumentDetector.refined(found, in: Self.sides(gap: true), beside: [Self.theCard])
        let c = refined.corners
        #expect(abs(c.topRight.x - 1004) <= 1.5 && abs(c.bottomRight.x - 1004) <= 1.5, "\(c)")
        #expect(abs(c.topLeft.x) <= 1.5 && abs(c.bottomLeft.x) <= 1.5, "\(c)")
        // Without a gap the side is on the other side's own edge already: it stays.
        let touching = Self.outline(top: 0, left: 0, right: 1040, bottom: 500)
        let kept = DocumentDetector.refined(touching, in: Self.sides(gap: false), beside: [Self.theCard]).corners
        #expect(abs(kept.topRight.x - 1040) <= 1.5 && abs(kept.bottomRight.x - 1040) <= 1.5, "\(kept)")
        // Nor is a gap looked across without the other document beside it.
        let alone = DocumentDetector.refined(found, in: Self.sides(gap: true)).corners
        #expect(alone.topRight.x > 1030, "\(alone)")
    }

    @Test("outlines a few dozen pixels across beside another, at every size, are refined without reading past the search")
    func smallOutlinesBesideAnother() {
        // A tiny card's other side beside the card, both cut by the frame's right: the gap search's
        // windows (2 px at least) against its millimeters (a pixel or less).
        for width in stride(from: 30.0, through: 130.0, by: 1) {
            let height = (width / 1.586).rounded()
            var image = GrayImage(width: Int(2 * width) + 4, height: Int(height) + 8, filledWith: 243)
            for y in 4..<(Int(height) + 4) { for x in 0..<image.width where x < Int(width) || x > Int(width) + 3 { image[x, y] = x < Int(width) ? 232 : 228 } }
            let card = Quadrilateral(topLeft: Point(x: width + 4, y: 4), topRight: Point(x: 2 * width + 4, y: 4),
                                     bottomRight: Point(x: 2 * width + 4, y: height + 4), bottomLeft: Point(x: width + 4, y: height + 4))
            let side = Self.outline(top: 4, left: 0, right: width + 3.9, bottom: height + 4)
            let refined = DocumentDetector.refined(side, in: image, beside: [card])
            #expect(refined.corners.corners.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        }
    }
}
