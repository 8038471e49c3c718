import Foundation
import Testing
import IDKitImage
@testable import IDKitMRZReading

/// A line strip lit unevenly (a shadow over one end of the zone) evened before the recognizer
/// reads it, and a band moved by the blank cells at its ends (a finger over a line's start).
@Suite struct StripLightingTests {
    /// A strip of `count` cells (the reader's geometry: 20 px a character, 4 px of padding), each
    /// holding an upright bar 3 px wide from row 8 to row 25, ink 40 on paper 220.
    static func strip(count: Int = 12) -> GrayImage {
        let w = count * OCRBClassifier.width + 2 * MRZLineReader.pad, h = OCRBClassifier.height + 2 * MRZLineReader.pad
        var pixels = [UInt8](repeating: 220, count: w * h)
        for i in 0..<count {
            let x0 = MRZLineReader.pad + i * OCRBClassifier.width + 9
            for y in 8...25 { for x in x0..<(x0 + 3) { pixels[y * w + x] = 40 } }
        }
        return GrayImage(width: w, height: h, pixels: pixels)
    }

    /// Every pixel from column `from` on multiplied by `factor` (a shadow, or a finger's skin
    /// with `flat`: the cells there replaced by an even tone first).
    static func covering(_ image: GrayImage, from: Int, factor: Double, flat: UInt8? = nil) -> GrayImage {
        var pixels = image.pixels
        for y in 0..<image.height {
            for x in from..<image.width {
                let v = flat.map(Double.init) ?? Double(pixels[y * image.width + x])
                pixels[y * image.width + x] = UInt8((v * factor).rounded())
            }
        }
        return GrayImage(width: image.width, height: image.height, pixels: pixels)
    }

    /// Ink against paper in cell `i`: the brightest minus the darkest pixel of its glyph box.
    static func contrast(_ image: GrayImage, cell i: Int) -> Int {
        let x0 = MRZLineReader.pad + i * OCRBClassifier.width
        var lo = 255, hi = 0
        for y in 6...27 { for x in x0..<(x0 + OCRBClassifier.width) { let v = Int(image.pixels[y * image.width + x]); lo = min(lo, v); hi = max(hi, v) } }
        return hi - lo
    }

    @Test func evenlyLitStripIsLeftAsItIs() {
        let lit = Self.strip()
        #expect(MRZLineReader.evened(lit) == lit)
        // Paper that darkens by a fifth towards one end (a phone's vignetting) is not a shadow.
        let vignetted = Self.covering(lit, from: lit.width / 2, factor: 0.8)
        #expect(MRZLineReader.evened(vignetted) == vignetted)
    }

    @Test func shadowedGlyphsGetTheirContrastBack() {
        let lit = Self.strip()
        let edge = MRZLineReader.pad + 8 * OCRBClassifier.width
        let shaded = Self.covering(lit, from: edge, factor: 0.15)
        #expect(Self.contrast(shaded, cell: 10) < 30)
        let evened = MRZLineReader.evened(shaded)
        // In the shade, the bar stands against its paper nearly as in the light (rounding of the
        // dim pixels costs a few levels); in the light, nothing changes.
        #expect(Self.contrast(evened, cell: 10) >= 160)
        #expect(Self.contrast(evened, cell: 2) == Self.contrast(lit, cell: 2))
        #expect(Array(evened.pixels[0..<(edge - 8)]) == Array(lit.pixels[0..<(edge - 8)]))
    }

    @Test func fingerStaysFlatAndIsStillCovered() {
        // A finger over the last four cells: skin with no ink, darker than the paper. Evened, it
        // stays as flat as it was: no stroke for the recognizer to read.
        let lit = Self.strip()
        let finger = Self.covering(lit, from: MRZLineReader.pad + 8 * OCRBClassifier.width, factor: 0.45, flat: 220)
        let evened = MRZLineReader.evened(finger)
        #expect(Self.contrast(evened, cell: 10) <= 2)
        #expect(Self.contrast(evened, cell: 3) >= 170)
    }

    /// A TD3 band of two straight lines, 20 px a character.
    static func band() -> MRZBand {
        let lines = (0..<2).map { k -> MRZLineGeometry in
            let centers = (0..<44).map { Point(x: 10 + Double($0) * 20, y: 20 + Double(k) * 40) }
            return MRZLineGeometry(start: centers[0], end: centers[43], componentCount: 44, componentCenters: centers)
        }
        return MRZBand(lines: lines, characterHeight: 18, pitch: 20, format: .td3)
    }

    static func scores(leading: Int, trailing: Int) -> MRZScores {
        let line = (0..<44).map { i -> Float in i < leading || i >= 44 - trailing ? 1 : 0 }
        let evidence = [[[Float]]](repeating: [[Float]](repeating: [Float](repeating: 0, count: 37), count: 44), count: 2)
        return MRZScores(format: .td3, evidence: evidence, recognizer: .network, blank: [line, line])
    }

    @Test func blankCellsAtBothEndsGiveBothMovesForABandAsFound() throws {
        let band = Self.band()
        // A finger over the first cell, the paper past the line's end in the last two.
        let moves = MRZScanner.realigned(band, Self.scores(leading: 1, trailing: 2), bothEnds: true)
        #expect(moves.count == 2)
        let back = try #require(moves.first), forward = try #require(moves.last)
        #expect(abs(back.lines[0].start.x - (10 - 40)) < 1e-9)
        #expect(abs(forward.lines[0].start.x - (10 + 20)) < 1e-9)
        // A band that is a guess already (widened, turned) is not moved when both ends are blank,
        // and is moved when one is.
        #expect(MRZScanner.realigned(band, Self.scores(leading: 1, trailing: 2), bothEnds: false).isEmpty)
        #expect(MRZScanner.realigned(band, Self.scores(leading: 0, trailing: 3), bothEnds: false).count == 1)
        // Blank over a third of the line is no misplaced band.
        #expect(MRZScanner.realigned(band, Self.scores(leading: 0, trailing: 15), bothEnds: true).isEmpty)
    }
}
