import Foundation
import Testing
import IDKitImage
@testable import IDKitMRZReading

/// The recognizer trained for hard captures (``MRZGlyphModel/degraded``), which reads a band only
/// where the main model's reading settles nothing: it loads, and it is a recognizer in its own right.
@Suite struct SecondOpinionTests {
    static let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors/images")

    @Test func degradedModelReadsACleanScanAsTheMainModelDoes() throws {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.images.appendingPathComponent("manifest.json"))) as! [String: Any]
        let entry = try #require((manifest["images"] as! [[String: Any]]).first { ($0["group"] as? String) == "clean" })
        let image = try ImageDecoder.decodeFile(atPath: Self.images.appendingPathComponent(entry["file"] as! String).path).image
        let scanner = MRZScanner()
        let band = try #require(scanner.probed(image, bands: scanner.locate(image).bands).first?.band)
        let degraded = try #require(MRZGlyphModel.degraded, "the compiled-in second model does not load")
        let main = MRZDecoder().decode(MRZLineReader().read(image, band: band))
        let second = MRZDecoder().decode(MRZLineReader().read(image, band: band, model: degraded))
        #expect(main.lines == entry["lines"] as! [String])
        #expect(second.lines == main.lines)
        #expect(second.recognizer == .network)
    }
}
