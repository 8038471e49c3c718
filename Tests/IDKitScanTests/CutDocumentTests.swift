import Foundation
import Testing
import IDKitImage
import IDKitMRZ
@testable import IDKitMRZReading
@testable import IDKitDocumentDetection
@testable import IDKitScan

/// A second document pushed into a corner of the frame, two of its sides cut, is listed beside
/// the passport; a light band along the whole border is no document.
struct CutDocumentTests {
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
