import Foundation
import Testing
import IDKitImage
@testable import IDKitMRZReading
@testable import IDKitDocumentDetection

/// A frame drawn around an image (an export's or a screenshot's border) is not a document's
/// outline, and a document's side is not snapped onto the image's border when its MRZ places that
/// side well inside the image.
struct OutlineFrameTests {
    /// `image` inside a border `width` pixels wide of one grey on the sides named.
    static func framed(_ image: GrayImage, width: Int, grey: UInt8, sides: Set<String> = ["top", "bottom", "left", "right"]) -> GrayImage {
        let left = sides.contains("left") ? width : 0, right = sides.contains("right") ? width : 0
        let top = sides.contains("top") ? width : 0, bottom = sides.contains("bottom") ? width : 0
        var out = GrayImage(width: image.width + left + right, height: image.height + top + bottom, filledWith: grey)
        for y in 0..<image.height {
            for x in 0..<image.width { out.pixels[(y + top) * out.width + x + left] = image.pixels[y * image.width + x] }
        }
        return out
    }

    /// An ID-1 card (`clean-01-td1.jpg`: its outline (43, 26)–(772, 486) on an 817 × 515 desk) with
    /// its top cut by the frame, as a scan of a page larger than the scanner's glass.
    static func cutCard() throws -> GrayImage {
        let path = ImageVectors.directory.appendingPathComponent("clean-01-td1.jpg").path
        let card = try ImageDecoder.decodeFile(atPath: path).image
        return card.cropped(x: 0, y: 60, width: card.width, height: card.height - 60)
    }

    @Test func frameOnEverySideIsCutAway() throws {
        let cut = try Self.cutCard()
        let box = DocumentDetector.content(of: Self.framed(cut, width: 2, grey: 255))
        #expect(box.x == 2 && box.y == 2 && box.width == cut.width && box.height == cut.height)
        // On two sides only, in two greys, or wider than 0.5% of the image: the background the
        // document lies on, searched with the rest.
        let whole = DocumentDetector.content(of: Self.framed(cut, width: 2, grey: 255, sides: ["top", "bottom"]))
        #expect(whole.x == 0 && whole.y == 0 && whole.width == cut.width && whole.height == cut.height + 4)
        let wide = Self.framed(cut, width: 12, grey: 255)
        #expect(DocumentDetector.content(of: wide).width == wide.width)
        let twoGreys = Self.framed(Self.framed(cut, width: 1, grey: 255, sides: ["top", "bottom"]), width: 1, grey: 200, sides: ["left", "right"])
        #expect(DocumentDetector.content(of: twoGreys).width == twoGreys.width)
    }

    /// The card's left and right sides are its own, not the frame's (the frame's outline, closed on
    /// all four sides where the card's is open at the top, was taken for the card's).
    @Test func framedCardKeepsItsOwnSides() throws {
        let image = Self.framed(try Self.cutCard(), width: 2, grey: 255)
        let band = try #require(MRZScanner().scan(image).band)
        let document = try #require(DocumentDetector().detect(image, bands: [band]).first { $0.band != nil })
        let c = document.corners
        // Truth: x 43 and 772 in the card's image, 2 px further right in the framed one; 1% of the
        // card's diagonal is 8.7 px.
        for p in [c.topLeft, c.bottomLeft] { #expect(abs(p.x - 45) < 8.7, "left side at \(p.x)") }
        for p in [c.topRight, c.bottomRight] { #expect(abs(p.x - 774) < 8.7, "right side at \(p.x)") }
    }

    /// A side the MRZ places 4% of the diagonal inside the image is not moved onto the border (a
    /// card on a desk, its right side faint: the border's long straight line 34 px beyond it won).
    @Test func sidePlacedInsideStaysOffTheBorder() throws {
        let cut = try Self.cutCard()
        let edges = try #require(DocumentDetector().edges(of: cut))
        let w = Double(cut.width), h = Double(cut.height)
        let placed = [Point(x: 48, y: 0), Point(x: 772, y: 0), Point(x: 772, y: 400), Point(x: 48, y: 400)]
        let onBorder = [Point(x: 45, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 45, y: h)]
        #expect(!DocumentDetector.bordersAllowed(onBorder, placed: placed, within: edges))
        // Placed 2% inside the border, or 1% beyond it: a scan cropped to the card.
        let near = placed.map { Point(x: $0.x == 772 ? w - 17 : $0.x, y: $0.y) }
        #expect(DocumentDetector.bordersAllowed(onBorder, placed: near, within: edges))
        let beyond = placed.map { Point(x: $0.x == 772 ? w + 8 : $0.x, y: $0.y) }
        #expect(DocumentDetector.bordersAllowed(onBorder, placed: beyond, within: edges))
    }
}
