import Foundation
import Testing
import IDKitImage
import IDKitMRZ
@testable import IDKitMRZReading

/// Two lines found shorter than a TD3's are read once more as 44-character lines, also when the
/// shorter reading is valid but not verified; the longer reading replaces it only if verified.
@Suite struct WidenedBandTests {
    /// `widened-00-td3.jpg` (make_images.py's `td2_shaped_td3`): the first 36 characters of each
    /// line are a valid TD2, the way a TD3 reads when its line-2 fillers are too small to become
    /// components (the Icelandic specimen at half size).
    @Test func aTD3FoundAsTheTD2OfItsFirst36CharactersIsReadWhole() throws {
        let v = ImageVectors.file.widened
        let image = ImageVectors.image(v.file)
        let scanner = MRZScanner()
        let whole = try #require(scanner.probed(image, bands: scanner.locate(image).bands).first).band
        #expect(whole.format == .td3)
        // The band as a locator that lost the lines' last 8 characters would give it.
        let kept = MRZFormat.td2.lineLength
        let share = Double(kept - 1) / Double(MRZFormat.td3.lineLength - 1)
        var short = whole
        short.format = .td2
        short.lines = whole.lines.map { line in
            MRZLineGeometry(start: line.start,
                            end: Point(x: line.start.x + (line.end.x - line.start.x) * share, y: line.start.y + (line.end.y - line.start.y) * share),
                            componentCount: min(line.componentCount, kept), componentCenters: Array(line.componentCenters.prefix(kept)))
        }
        // Read as found, it is a valid TD2 that is not verified (its document code is overruled).
        let asFound = scanner.read(image, oriented: short)
        #expect(asFound.parsed?.format == .td2)
        #expect(asFound.parsed?.isValid == true)
        #expect(asFound.reading?.verified == false)
        // The scan reads it whole.
        let outcome = scanner.scan(image, located: MRZScanner.Located(bands: [short], looksRun: MRZScanner.looks(image).count))
        #expect(outcome.reading?.lines == v.lines)
        #expect(outcome.reading?.verified == true)
    }
}
