import Foundation
import Testing
import IDKitImage
@testable import IDKitMRZReading

/// The recognizer trained for hard captures (``MRZGlyphModel/degraded``), which reads a band only
/// where the main model's reading is not verified: it loads, it is a recognizer in its own right,
/// and its evidence averages with the main model's.
@Suite struct SecondOpinionTests {
    static let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors/images")

    /// The first clean photo of TestVectors/images, its band as the probes turn and scale it, and
    /// the lines printed on it.
    static func cleanScan() throws -> (image: GrayImage, band: MRZBand, lines: [String]) {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: images.appendingPathComponent("manifest.json"))) as! [String: Any]
        let entry = try #require((manifest["images"] as! [[String: Any]]).first { ($0["group"] as? String) == "clean" })
        let image = try ImageDecoder.decodeFile(atPath: images.appendingPathComponent(entry["file"] as! String).path).image
        let scanner = MRZScanner()
        let band = try #require(scanner.probed(image, bands: scanner.locate(image).bands).first?.band)
        return (image, band, entry["lines"] as! [String])
    }

    @Test func degradedModelReadsACleanScanAsTheMainModelDoes() throws {
        let (image, band, lines) = try Self.cleanScan()
        let degraded = try MRZGlyphModel.degraded.get()
        let main = MRZDecoder().decode(MRZLineReader().read(image, band: band))
        let second = MRZDecoder().decode(MRZLineReader().read(image, band: band, model: degraded))
        // The second network reading the first one's windows reads what it reads from the image.
        let rescored = try #require(MRZLineReader().read(image, band: band).rescored(by: degraded))
        #expect(rescored.evidence == MRZLineReader().read(image, band: band, model: degraded).evidence)
        #expect(main.lines == lines)
        #expect(second.lines == main.lines)
        #expect(second.recognizer == .network)
    }

    @Test func averagedEvidenceIsTheMeanOfTheTwo() throws {
        let a = MRZScores(format: .td1, evidence: [[[0, -4, -8]], [[-2, -2, 0]]], recognizer: .network, blank: [[0.2], [0.0]])
        let b = MRZScores(format: .td1, evidence: [[[-2, 0, -6]], [[-2, -4, 0]]], recognizer: .network, blank: [[0.4], [1.0]])
        let mean = try #require(MRZScanner.averaged(a, b))
        #expect(mean.evidence == [[[-1, -2, -7]], [[-2, -3, 0]]])
        #expect(mean.blank == [[0.3 as Float], [0.5]])
        // The templates' correlations are no log-likelihoods to average with the network's.
        let templates = MRZScores(format: .td1, evidence: b.evidence, recognizer: .templates)
        #expect(MRZScanner.averaged(a, templates) == nil)
    }

    @Test func bothModelsTogetherReadACleanScanAsPrinted() throws {
        let (image, band, lines) = try Self.cleanScan()
        let fused = try #require(MRZScanner.fused(band, MRZLineReader().read(image, band: band)))
        #expect(fused.reading?.lines == lines)
        #expect(fused.reading?.verified == true)
    }
}
