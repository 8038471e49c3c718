import Foundation
import Testing
import IDKitImage
import IDKitMRZ
@testable import IDKitMRZReading
@testable import IDKitDocumentDetection

/// Outlines at the image's border: a frame drawn around an image (an export's or a screenshot's
/// border) is not a document's outline; a document's side is not snapped onto the border when its
/// MRZ places that side well inside the image.
struct OutlineBorderTests {
    /// `TestVectors/images`: the generated MRZ photos (`make_images.py`, seeded).
    static let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors/images")

    /// `image` inside a border `width` pixels wide of one gray on the sides named.
    static func framed(_ image: GrayImage, width: Int, gray: UInt8, sides: Set<String> = ["top", "bottom", "left", "right"]) -> GrayImage {
        let left = sides.contains("left") ? width : 0, right = sides.contains("right") ? width : 0
        let top = sides.contains("top") ? width : 0, bottom = sides.contains("bottom") ? width : 0
        var out = GrayImage(width: image.width + left + right, height: image.height + top + bottom, filledWith: gray)
        for y in 0..<image.height {
            for x in 0..<image.width { out.pixels[(y + top) * out.width + x + left] = image.pixels[y * image.width + x] }
        }
        return out
    }

    /// An ID-1 card (`clean-01-td1.jpg`: its outline (43, 26)–(772, 486) on an 817 × 515 desk) with
    /// its top cut by the frame, as a scan of a page larger than the scanner's glass.
    static func cutCard() throws -> GrayImage {
        let path = Self.images.appendingPathComponent("clean-01-td1.jpg").path
        let card = try ImageDecoder.decodeFile(atPath: path).image
        return card.cropped(x: 0, y: 60, width: card.width, height: card.height - 60)
    }

    @Test func frameOnEverySideIsCutAway() throws {
        let cut = try Self.cutCard()
        let box = DocumentDetector.content(of: Self.framed(cut, width: 2, gray: 255))
        #expect(box.x == 2 && box.y == 2 && box.width == cut.width && box.height == cut.height)
        // On two sides only, in two grays, or wider than 0.5% of the image: the background the
        // document lies on, searched with the rest.
        let whole = DocumentDetector.content(of: Self.framed(cut, width: 2, gray: 255, sides: ["top", "bottom"]))
        #expect(whole.x == 0 && whole.y == 0 && whole.width == cut.width && whole.height == cut.height + 4)
        let wide = Self.framed(cut, width: 12, gray: 255)
        #expect(DocumentDetector.content(of: wide).width == wide.width)
        // Each side uniform, but in grays 8 apart from one side to another (and the corners of
        // one gray): no frame drawn around the image.
        var twoGrays = Self.framed(cut, width: 2, gray: 240)
        for y in 0..<twoGrays.height {
            for x in 0..<twoGrays.width where x >= twoGrays.width - 2 { twoGrays.pixels[y * twoGrays.width + x] = 248 }
        }
        for x in twoGrays.width - 2..<twoGrays.width {
            for y in [0, 1, twoGrays.height - 2, twoGrays.height - 1] { twoGrays.pixels[y * twoGrays.width + x] = 240 }
        }
        #expect(DocumentDetector.content(of: twoGrays).width == twoGrays.width)
        // The same frame in one gray is cut away.
        #expect(DocumentDetector.content(of: Self.framed(cut, width: 2, gray: 240)).width == cut.width)
    }

    /// The card's left and right sides are its own, not the frame's (the frame's outline, closed on
    /// all four sides where the card's is open at the top, was taken for the card's).
    @Test func framedCardKeepsItsOwnSides() throws {
        let image = Self.framed(try Self.cutCard(), width: 2, gray: 255)
        let band = try #require(MRZScanner().scan(image).band)
        let document = try #require(DocumentDetector().detect(image, bands: [band]).first { $0.band != nil })
        let c = document.corners
        // Truth: x 43 and 772 in the card's image, 2 px further right in the framed one; 1% of the
        // card's diagonal is 8.7 px.
        for p in [c.topLeft, c.bottomLeft] { #expect(abs(p.x - 45) < 8.7, "left side at \(p.x)") }
        for p in [c.topRight, c.bottomRight] { #expect(abs(p.x - 774) < 8.7, "right side at \(p.x)") }
    }

    /// A side placed 4% of the diagonal inside the image is not moved onto the border, which the
    /// snapping draws into the edges (a card on a desk whose right edge is faint: the border's long
    /// straight line 30 px beyond it won); placed 1% inside, a scan cropped to the card, it is.
    @Test func sidePlacedInsideStaysOffTheBorder() throws {
        // A light card from x 100 running off the right border, y 100–400, on a darker desk: its
        // left, top and bottom sides are edges, its right side is the frame's.
        var image = GrayImage(width: 800, height: 500, filledWith: 90)
        for y in 100..<400 { for x in 100..<800 { image.pixels[y * 800 + x] = 210 } }
        let detector = DocumentDetector()
        let edges = try #require(detector.edges(of: image))
        func snappedRight(placedAt x: Double) throws -> Double {
            let placed = [Point(x: 104, y: 104), Point(x: x, y: 104), Point(x: x, y: 396), Point(x: 104, y: 396)]
            // Keep-out: a small box in the card's middle, where the MRZ would be.
            let keep = [Point(x: 400, y: 240), Point(x: 410, y: 240), Point(x: 410, y: 250), Point(x: 400, y: 250)]
            let snapped = try #require(detector.snap(edges, [placed], keepingOut: [keep])[0])
            return (snapped.points[1].x + snapped.points[2].x) / 2
        }
        #expect(try snappedRight(placedAt: 770) < 790)          // 30 px inside of a 767 px diagonal
        #expect(try abs(snappedRight(placedAt: 792) - 800) < 3)  // 8 px inside: onto the border
    }
}
