import Foundation
import Testing
import IDKitImage
@testable import IDKitMRZReading

/// A band the probes turned the wrong way up (on bent pages the start of the first line, which
/// they judge by, can read better turned) is read the other way up when its reading is not
/// valid, and that reading is taken when it verifies.
@Suite struct TurnedBandTests {
    @Test(arguments: ImageVectors.file.images.filter { $0.group == "clean" }.prefix(3))
    func aBandTurnedTheWrongWayUpStillReads(_ v: ImageVectors.Entry) throws {
        let image = ImageVectors.image(v.file)
        let scanner = MRZScanner()
        let right = try #require(scanner.probed(image, bands: scanner.locate(image).bands).first).band
        let wrong = right.flipped()
        // Read as given, the wrong way up is no MRZ.
        let asGiven = scanner.read(image, oriented: wrong)
        #expect(asGiven.reading?.lines != v.lines)
        #expect(!asGiven.isSettled)
        let read = scanner.readEitherWay(image, oriented: wrong)
        #expect(read.reading?.lines == v.lines)
        #expect(read.reading?.verified == true)
        #expect(read.band == right)
    }
}
