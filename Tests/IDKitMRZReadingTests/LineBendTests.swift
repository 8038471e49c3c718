import Foundation
import Testing
import IDKitImage
@testable import IDKitMRZReading

/// The straightening of a bent MRZ line (a curved page): the quadratic the reader fits to where
/// the character centers fall in the strip.
@Suite struct LineBendTests {
    @Test func quadraticFitRecoversItsCoefficients() throws {
        let samples = (0..<20).map { i -> (Double, Double) in let t = Double(i) / 19; return (t, 1.5 - 2 * t + 4 * t * t) }
        let (a, b, c) = try #require(MRZLineReader.fitQuadratic(samples))
        #expect(abs(a - 1.5) < 1e-9 && abs(b + 2) < 1e-9 && abs(c - 4) < 1e-9)
    }

    @Test func straightLineIsLeftAlone() {
        // Centers within half a pixel of the nominal row: no correction.
        let centers = (0..<40).map { i in Point(x: 14 + Double(i) * 20, y: 17 + (i % 2 == 0 ? 0.4 : -0.4)) }
        #expect(MRZLineReader.bend(centers, centerRow: 17, width: 808) == nil)
    }

    @Test func bentLineIsFollowedAndASpeckIgnored() throws {
        // An arc 4 px deep in the middle, and one stray center 8 px off (a speck, a merged pair).
        var centers = (0..<40).map { i -> Point in
            let x = 14 + Double(i) * 20, t = x / 808
            return Point(x: x, y: 17 + 16 * t * (1 - t))
        }
        centers[7].y += 8
        let offsets = try #require(MRZLineReader.bend(centers, centerRow: 17, width: 808))
        #expect(abs(offsets[404] - 4) < 0.3)
        #expect(abs(offsets[20] - 16 * (20.0 / 808) * (1 - 20.0 / 808)) < 0.3)
    }

    @Test func bendHoldsBeyondTheCentersFound() throws {
        // Only the last 25 characters were found (the first 15 too faint): the quadratic through
        // them would run 8 px off at the line's start; the correction holds its value at the first
        // center found instead of cutting the faint characters from above them.
        let centers = (15..<40).map { i -> Point in
            let x = 14 + Double(i) * 20, t = x / 808
            return Point(x: x, y: 17 + 16 * t * (1 - t))
        }
        let offsets = try #require(MRZLineReader.bend(centers, centerRow: 17, width: 808))
        let firstFound = 14 + 15 * 20
        #expect(abs(offsets[firstFound] - 16 * (Double(firstFound) / 808) * (1 - Double(firstFound) / 808)) < 0.3)
        #expect(offsets[0] == offsets[firstFound])
        #expect(offsets[100] == offsets[firstFound])
        #expect(abs(offsets[404] - 4) < 0.3)
    }

    @Test func shiftedMovesEachColumn() {
        // A tall strip whose row r holds the value r: shifting column 1 by +2 reads two rows lower.
        let width = 3, height = 10
        let tall = GrayImage(width: width, height: height, pixels: (0..<(width * height)).map { UInt8($0 / width) })
        let out = MRZLineReader.shifted(tall, rows: 4, margin: 3, by: [0, 2, -1.5])
        #expect((0..<4).map { out[0, $0] } == [3, 4, 5, 6])
        #expect((0..<4).map { out[1, $0] } == [5, 6, 7, 8])
        #expect((0..<4).map { out[2, $0] } == [2, 3, 4, 5].map { UInt8($0) })
    }
}

/// A strip cut to a line's first characters (the probes of orientation and height read 8) is
/// straightened as the whole line is: the bend is fitted to all of the line's centers.
@Suite struct PartialStripBendTests {
    @Test func aLinesFirstCharactersAreStraightenedAsTheWholeLineIs() throws {
        // Two lines of 44 dark blocks on white, 20 px apart along x, the first bent 16 px deep.
        let width = 1000, height = 220
        var pixels = [UInt8](repeating: 255, count: width * height)
        func center(_ line: Int, _ i: Int) -> Point {
            let t = Double(i) / 43
            return Point(x: 40 + Double(i) * 20, y: 60 + Double(line) * 60 + (line == 0 ? 64 * t * (1 - t) : 0))
        }
        for line in 0..<2 {
            for i in 0..<44 {
                let c = center(line, i)
                for y in Int(c.y) - 8..<Int(c.y) + 8 { for x in Int(c.x) - 6..<Int(c.x) + 6 { pixels[y * width + x] = 0 } }
            }
        }
        let image = GrayImage(width: width, height: height, pixels: pixels)
        let lines = (0..<2).map { l in
            MRZLineGeometry(start: center(l, 0), end: center(l, 43), componentCount: 44, componentCenters: (0..<44).map { center(l, $0) })
        }
        let band = MRZBand(lines: lines, characterHeight: 16, pitch: 20, format: .td3)
        let reader = MRZLineReader()
        let whole = try #require(reader.strips(image, band: band).first)
        let probe = try #require(reader.strips(image, band: band, lineLimit: 1, positionLimit: 8).first)
        // The probe's strip is the whole strip's first columns, pixel for pixel (within rounding).
        var largest = 0
        for y in 0..<probe.height {
            for x in 0..<probe.width { largest = max(largest, abs(Int(probe[x, y]) - Int(whole[x, y]))) }
        }
        #expect(probe.width == 8 * OCRBClassifier.width + 2 * MRZLineReader.pad)
        #expect(largest <= 1)
    }
}

/// Lines followed along their own curves (``MRZLineCurve``): a page bent so far that no homography
/// of the band and no straightening within the strip follows its lines.
@Suite struct LineCurveTests {
    /// A TD3 band whose two lines arc by `sagitta` pixels (pitch 20, lines 50 apart), as the
    /// locator would report it: every character's center a component.
    static func band(sagitta: Double) -> MRZBand {
        let lines = (0..<2).map { k -> MRZLineGeometry in
            let centers = (0..<44).map { i -> Point in
                let t = Double(i) / 43
                return Point(x: 100 + 20 * Double(i), y: 300 + 50 * Double(k) + 4 * sagitta * t * (1 - t))
            }
            return MRZLineGeometry(start: centers[0], end: centers[43], componentCount: 44, componentCenters: centers)
        }
        return MRZBand(lines: lines, characterHeight: 19, pitch: 20, format: .td3)
    }

    @Test func cubicFitRecoversItsCoefficients() throws {
        let samples = (0..<15).map { i -> (Double, Double) in let t = Double(i) / 14; return (t, 2 - t + 3 * t * t - 5 * t * t * t) }
        let c = try #require(MRZLineCurve.cubic(samples))
        for (got, want) in zip(c, [2.0, -1, 3, -5]) { #expect(abs(got - want) < 1e-8) }
    }

    @Test func flatBandIsCutByItsHomography() throws {
        let band = Self.band(sagitta: 0.5)
        let geometry = try #require(MRZLineReader.rectification(band))
        #expect(MRZLineReader.curves(band, geometry) == nil)
    }

    @Test func bentBandIsFollowedThroughEveryCenter() throws {
        let band = Self.band(sagitta: 30)          // 1.5 pitches: beyond what the strip's straightening holds
        let geometry = try #require(MRZLineReader.rectification(band))
        #expect(MRZLineReader.residual(band, geometry, MRZLineReader.cells(band)) > MRZLineReader.curvedResidual)
        let curves = try #require(MRZLineReader.curves(band, geometry))
        #expect(curves.count == 2)
        for (k, line) in band.lines.enumerated() {
            for (i, center) in line.componentCenters.enumerated() {
                let p = curves[k].point(Double(i))
                #expect(hypot(p.x - center.x, p.y - center.y) < 0.6, "line \(k) position \(i)")
            }
        }
        // Beyond the last center found the line runs straight on, along its direction there.
        let end = curves[0].point(43), past = curves[0].point(45), slope = curves[0].tangent(43)
        #expect(abs(past.x - (end.x + 2 * slope.x)) < 1e-9 && abs(past.y - (end.y + 2 * slope.y)) < 1e-9)
    }

    @Test func walkStartedTooFarInIsCountedFromItsFirstCharacter() {
        // The second line standing 12 px (0.6 pitch) left of the first, as the ends of a bent
        // page's lines curve away from the first line's direction: the common start projected
        // from it puts the first line's first character at position 1, and its walk would end at
        // 44, past the line; it is moved back by one instead of being left out.
        var band = Self.band(sagitta: 30)
        let second = band.lines[1].componentCenters.map { Point(x: $0.x - 12, y: $0.y) }
        band.lines[1] = MRZLineGeometry(start: second[0], end: second[43], componentCount: 44, componentCenters: second)
        let cells = MRZLineReader.cells(band)
        #expect(cells[0].count == 44 && cells[0].first?.index == 0 && cells[0].last?.index == 43)
        #expect(cells[1].count == 44 && cells[1].first?.index == 0 && cells[1].last?.index == 43)
    }


    @Test func lineCountedAPositionOffIsMovedIntoTheColumns() {
        // The second line's walk counted from one position late: its columns would slant by a
        // pitch over the line spacing (22 degrees); aligned, each of its centers stands at the
        // position of the first line's center above it.
        let walked = MRZLineReader.cells(Self.band(sagitta: 30))
        let late = [walked[0], walked[1].dropLast().map { ($0.index + 1, $0.center) }]
        let aligned = MRZLineReader.aligned(late, lineLength: 44)
        #expect(aligned[1].map(\.index) == Array(0..<43))
        // Both lines moved back together when the first runs past the zone's end.
        let both = walked.map { $0.map { ($0.index + 1, $0.center) } }
        let moved = MRZLineReader.aligned(both, lineLength: 44)
        #expect(moved.map { $0.first?.index } == [0, 0] && moved.map { $0.last?.index } == [43, 43])
    }
}

