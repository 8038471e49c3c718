import Foundation
import Testing
import IDKitImage
import IDKitMRZ
@testable import IDKitMRZReading
@testable import IDKitDocumentDetection
@testable import IDKitScan

/// Outlines at the image's border: a frame drawn around an image (an export's or a screenshot's
/// border) is not a document's outline; a document's side is not snapped onto the border when its
/// MRZ places that side well inside the image; a second document pushed into a corner of the
/// frame, two of its sides cut, is listed.
struct OutlineBorderTests {
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
        let path = ImageVectors.directory.appendingPathComponent("clean-01-td1.jpg").path
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

    /// The passport page of `pair-03.jpg` (its outline (141, 137)–(1016, 759)) on its desk, 1700 ×
    /// 900, the desk to the right of the page continued flat, and a light card `cardHeight` px
    /// high (600 px wide, ID-1: 378 px) with lines of print in the top-right corner, 18 px of it
    /// beyond the right border and 12 px beyond the top.
    static func passportAndCornerCard(cardHeight: Int) throws -> GrayImage {
        let path = DocumentPhotos.directory.appendingPathComponent("pair-03.jpg").path
        let photo = try ImageDecoder.decodeFile(atPath: path).image
        var image = photo.cropped(x: 0, y: 0, width: 1700, height: 900)
        for y in 0..<image.height {
            let desk = image.pixels[y * image.width + 1090]
            for x in 1100..<image.width { image.pixels[y * image.width + x] = desk }
        }
        let x0 = 1700 - 582
        for y in 0..<min(image.height, cardHeight - 12) {
            for x in x0..<1700 {
                // Six lines of print across the card's middle (a document carries print).
                let print = (y - 60) % 40 < 12 && y >= 60 && y < 300 && x > x0 + 40 && x < 1640 && (x / 23) % 4 != 3
                image.pixels[y * image.width + x] = print ? 60 : UInt8(225 + (x * 7 + y * 13) % 9)
            }
        }
        return image
    }

    @Test func cardInTheCornerIsASecondDocument() throws {
        let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
        let scan = scanner.scan(try Self.passportAndCornerCard(cardHeight: 378))
        #expect(scan.reading?.format == .td3)
        try #require(scan.documents.count == 2)
        let card = scan.documents[1]
        #expect(card.band == nil)
        let corners = try #require(card.outlineCorners)
        // Its visible sides: left x 1118, bottom y 366; the cut ones on the border (1% of the
        // card's diagonal is 7 px).
        let truth = [Point(x: 1118, y: 0), Point(x: 1700, y: 0), Point(x: 1700, y: 366), Point(x: 1118, y: 366)]
        for (found, expected) in zip(corners.corners, truth) {
            #expect(hypot(found.x - expected.x, found.y - expected.y) < 7, "corner \(found), expected \(expected)")
        }
    }

    /// A light band down the whole right side (the card's bottom beyond the frame too: three sides
    /// cut) has one side on edges: a desk's edge or a sheet of paper, no document.
    @Test func bandAlongTheBorderIsNoDocument() throws {
        let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
        let scan = scanner.scan(try Self.passportAndCornerCard(cardHeight: 1000))
        #expect(scan.reading?.format == .td3)
        // The passport's own outline is found (what starts the search for cut documents).
        #expect(scan.outlineCorners != nil)
        #expect(scan.documents.count == 1)
    }
}

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

    /// A TD2 card filling a photo with a 30–60 px margin, its right edge faint against the desk:
    /// the page's own edges, not the image's border 4% beyond the place the MRZ puts its side.
    @Test func faintEdgeBeforeTheBorder() throws {
        let label = try ConditionPhotos.label("040")
        let scan = scanner.scan(try ImageDecoder.decodeFile(atPath: ConditionPhotos.directory.appendingPathComponent(label.file).path).image)
        let corners = try #require(scan.outlineCorners)
        #expect(Self.worstCorner(corners, label.doc_quad) < 0.02)
    }

    /// A TD1 card on a desk of nearly its color, rotated, its left edge lost: the outline snapped
    /// from the MRZ's placement has a side on nothing, and the corners are `null`, not the border.
    @Test func sideOnNothingIsNoOutline() throws {
        let label = try ConditionPhotos.label("045")
        let scan = scanner.scan(try ImageDecoder.decodeFile(atPath: ConditionPhotos.directory.appendingPathComponent(label.file).path).image)
        #expect(scan.reading != nil)
        #expect(scan.outlineCorners == nil)
    }
}
