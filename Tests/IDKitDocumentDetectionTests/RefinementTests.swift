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
}
