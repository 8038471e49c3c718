import Foundation
import Testing
import IDKitImage
import IDKitMRZ
@testable import IDKitDocumentDetection
@testable import IDKitScan

/// What is not a document is not listed in `documents`: a portrait photo, a block of
/// text, a desk's clutter and a plain box of a card's shape, drawn here with a seeded generator,
/// each alone in the frame; and a card of ID-1 shape with edges on all four sides and print on
/// it, which is.
struct NotADocumentTests {
    /// A seeded scene: a mid-gray desk with fine noise, 900 × 640.
    static func desk(seed: UInt64) -> GrayImage {
        var rng = SeededGenerator(seed: seed)
        var image = GrayImage(width: 900, height: 640, filledWith: 120)
        for k in image.pixels.indices { image.pixels[k] = UInt8(110 + Int(rng.next() % 21)) }
        return image
    }

    static func fill(_ image: inout GrayImage, x0: Int, y0: Int, x1: Int, y1: Int, _ value: (Int, Int) -> UInt8) {
        for y in max(0, y0)..<min(image.height, y1) {
            for x in max(0, x0)..<min(image.width, x1) { image.pixels[y * image.width + x] = value(x, y) }
        }
    }

    /// A portrait print (35 × 45, upright) on the desk: light background, a dark head and shoulders.
    static var portrait: GrayImage {
        var image = desk(seed: 1)
        fill(&image, x0: 300, y0: 120, x1: 580, y1: 480) { _, _ in 225 }
        fill(&image, x0: 300, y0: 120, x1: 580, y1: 480) { x, y in
            let dx = Double(x - 440) / 80, dy = Double(y - 260) / 100
            if dx * dx + dy * dy < 1 { return 70 }
            return y > 380 && abs(x - 440) < 120 ? 50 : 225
        }
        return image
    }

    /// A block of printed text on white paper as wide as the frame: 14 lines of words of random
    /// length, ragged on the right, the paper's edges outside the frame.
    static var textBlock: GrayImage {
        var rng = SeededGenerator(seed: 7)
        var image = GrayImage(width: 900, height: 640, filledWith: 235)
        for line in 0..<14 {
            let y = 120 + line * 28
            var x = 180
            let end = 560 + Int(rng.next() % 160)
            while x < end {
                let word = 20 + Int(rng.next() % 70)
                fill(&image, x0: x, y0: y, x1: min(x + word, end), y1: y + 14) { _, _ in 40 }
                x += word + 12
            }
        }
        return image
    }

    /// A desk's clutter: bars, boxes and strokes of random sizes and grays, no document among them.
    static var clutter: GrayImage {
        var rng = SeededGenerator(seed: 11)
        var image = desk(seed: 3)
        for _ in 0..<40 {
            let x = Int(rng.next() % 860), y = Int(rng.next() % 600)
            let w = 10 + Int(rng.next() % 200), h = 4 + Int(rng.next() % 60)
            let v = UInt8(rng.next() % 250)
            fill(&image, x0: x, y0: y, x1: x + w, y1: y + h) { _, _ in v }
        }
        return image
    }

    /// A light card of ID-1 shape (85.6 × 53.98) on the desk, edges on all four sides, a portrait
    /// and six lines of print on it (the front of a card with neither MRZ nor barcode); `plain`:
    /// nothing on it, a box of the desk's clutter.
    static func card(plain: Bool = false) -> GrayImage {
        var image = desk(seed: 5)
        fill(&image, x0: 180, y0: 150, x1: 180 + 514, y1: 150 + 324) { _, _ in 215 }
        guard !plain else { return image }
        fill(&image, x0: 210, y0: 210, x1: 330, y1: 370) { _, _ in 120 }
        var rng = SeededGenerator(seed: 9)
        for line in 0..<6 {
            let y = 215 + line * 28
            var x = 360
            while x < 640 {
                let word = 15 + Int(rng.next() % 50)
                fill(&image, x0: x, y0: y, x1: min(x + word, 640), y1: y + 10) { _, _ in 50 }
                x += word + 10
            }
        }
        return image
    }

    let scanner = DocumentScanner(readBarcodes: false)

    @Test(arguments: ["portrait", "textBlock", "clutter", "plainBox"])
    func isNotADocument(_ name: String) {
        let image = [("portrait", Self.portrait), ("textBlock", Self.textBlock), ("clutter", Self.clutter), ("plainBox", Self.card(plain: true))]
            .first { $0.0 == name }!.1
        let scan = scanner.scan(image)
        #expect(scan.documents.allSatisfy { $0.outlineCorners == nil }, "\(scan.documents.compactMap(\.detection).map { ($0.widthHeightRatio, $0.weakestSide) })")
    }

    @Test func aCardWithPrintIsADocument() throws {
        let scan = scanner.scan(Self.card())
        let corners = try #require(scan.outlineCorners)
        #expect(abs(corners.area - 514 * 324) < 0.05 * 514 * 324)
        #expect(scan.documents.count == 1)
    }

    /// The rule itself: shape, all four sides and print inside.
    @Test func documentOutlineRule() {
        let q = Quadrilateral(topLeft: Point(x: 0, y: 0), topRight: Point(x: 300, y: 0), bottomRight: Point(x: 300, y: 200), bottomLeft: Point(x: 0, y: 200))
        func d(_ ratio: Double, _ weakest: Double, found: Bool = true) -> DetectedDocument {
            DetectedDocument(corners: q, confidence: 0.9, widthHeightRatio: ratio, format: .unknown, band: nil, outlineFound: found, weakestSide: weakest)
        }
        #expect(DocumentScanner.isDocumentOutline(d(1.586, 0.9), printShare: 0.1))
        #expect(!DocumentScanner.isDocumentOutline(d(1.586, 0.3), printShare: 0.1))          // a side on nothing
        #expect(!DocumentScanner.isDocumentOutline(d(1.29, 0.9), printShare: 0.1))           // a 35 × 45 portrait
        #expect(!DocumentScanner.isDocumentOutline(d(1.586, 0.9, found: false), printShare: 0.1))
        #expect(!DocumentScanner.isDocumentOutline(d(1.586, 0.9), printShare: 0.01))         // a plain box
    }
}
