import Foundation
import Testing
import IDKitMRZ
@testable import IDKitMRZReading

/// A band that only the half-resolution search finds, and not cleanly, is still read.
@Suite struct FaintPrintTests {
    /// `faint-00-td2.jpg` (make_images.py's `faint_vector`: photo 1261 of the stress set): thin
    /// faint print whose fillers break into specks at full resolution. At half resolution, with
    /// the ink thickened, one line is found whole and the other in pieces; that band was dropped
    /// as not clean and the image read as having no MRZ.
    @Test func aRoughHalfResolutionBandIsReadWhenNothingElseIsFound() throws {
        let v = ImageVectors.file.faint
        let image = ImageVectors.image(v.file)
        let looks = MRZScanner.looks(image)
        // The plain look finds nothing at either resolution.
        #expect(looks[0].bands().isEmpty)
        let outcome = MRZScanner().scan(image)
        let reading = try #require(outcome.reading)
        #expect(reading.lines == v.lines)
        #expect(outcome.parsed?.format == .td2)
    }
}
