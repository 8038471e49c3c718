import Testing
import Foundation
import IDKitImage
import IDKitMRZ
@testable import IDKitMRZReading

/// A two-line MRZ of thin, faint print of which only a middle run of characters became
/// components, some of them broken into strokes: the band the locator gives is short, and the
/// walk along its components miscounts, as on the generated `print` photos of `make bench-scan`
/// (`.build/scan-bench-ext/print-06-td3.jpg`).
@Suite struct FragmentedBandTests {
    static let pitch = 21.0, height = 18.0
    /// Center of character `i` of line `k` of a TD3 whose first character is at (328, 845), 0.4° turned.
    static func center(_ k: Int, _ i: Double) -> Point {
        let a = -0.4 * Double.pi / 180, x = i * pitch, y = Double(k) * 35
        return Point(x: 328 + x * cos(a) - y * sin(a), y: 845 + x * sin(a) + y * cos(a))
    }

    /// Characters 8-35 of line 1 and 10-30 of line 2 found; every fourth of line 1 also as a stroke
    /// 0.55 pitch to its right (a `W` or `M` in two halves).
    static var band: MRZBand {
        var first: [Point] = []
        for i in 8...35 {
            first.append(center(0, Double(i)))
            if i % 4 == 0 { first.append(center(0, Double(i) + 0.55)) }
        }
        let second = (10...30).map { center(1, Double($0)) }
        return MRZBand(lines: [MRZLineGeometry(start: first[0], end: first[first.count - 1], componentCount: first.count, componentCenters: first),
                               MRZLineGeometry(start: second[0], end: second[second.count - 1], componentCount: second.count, componentCenters: second)],
                       characterHeight: height, pitch: pitch, format: .td2)
    }

    @Test func widenedLinesAreLevelAndCenteredOnWhatWasFound() throws {
        let wide = Self.band.widened(to: .td3)
        #expect(wide.format == .td3 && wide.lineLength == 44)
        for line in wide.lines {
            #expect(abs(hypot(line.end.x - line.start.x, line.end.y - line.start.y) - 43 * Self.pitch) < 0.01)
        }
        // Both lines start at the same position along the text (left-aligned), one line apart.
        let d = (x: wide.lines[0].end.x - wide.lines[0].start.x, y: wide.lines[0].end.y - wide.lines[0].start.y)
        let along = ((wide.lines[1].start.x - wide.lines[0].start.x) * d.x + (wide.lines[1].start.y - wide.lines[0].start.y) * d.y) / hypot(d.x, d.y)
        #expect(abs(along) < 0.5)
        // Centered on the found extent (positions 8-35 of line 1): cell 0 on character 0.
        let start = Self.center(0, 0)
        #expect(hypot(wide.lines[0].start.x - start.x, wide.lines[0].start.y - start.y) < 0.5)
    }

    @Test func strokesOfOneCharacterDoNotMiscountTheWalk() throws {
        // The rectification of the widened band, fitted to the components found: every cell center
        // lands on its character (a stroke half a pitch on is part of its character, not the next
        // one; counted as the next, every fourth character pushed the rest one cell on).
        let band = Self.band.widened(to: .td3)
        let geometry = try #require(MRZLineReader.rectification(band))
        let w = Double(OCRBClassifier.width)
        for i in [0, 8, 20, 35, 43] {
            let cell = geometry.transform.apply(Point(x: geometry.left + Double(i) * w, y: geometry.top))
            let truth = Self.center(0, Double(i))
            #expect(hypot(cell.x - truth.x, cell.y - truth.y) < Self.pitch / 3, "cell \(i) at \(cell), character at \(truth)")
        }
    }
}
