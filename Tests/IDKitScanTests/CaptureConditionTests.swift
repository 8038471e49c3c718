import Foundation
import Testing
import IDKitImage
import IDKitScan

/// Hard captures: the photos of `TestVectors/images/conditions` (conditions.py, seeded:
/// curved pages, motion blur, MRZ-like lines beside the zone, a finger or a shadow over characters,
/// other printers), each with the MRZ it was printed with. No reading of any of them may be
/// verified unless it is exactly what is printed; which ones read exactly and which are verified
/// is a ratchet in `conditions-expected.json`: an image that reads worse fails, and so does one
/// that reads better than the file says (update the file; the figures only go up).
/// `make bench-conditions` measures the same conditions on a larger set drawn from another seed.
@Suite struct CaptureConditionTests {
    struct Manifest: Decodable {
        struct Entry: Decodable { var file: String; var group: String; var layout: String; var lines: [String] }
        var images: [Entry]
    }
    struct Expectation: Codable, Equatable { var exact: Bool; var verified: Bool }
    struct Expected: Decodable { var source: String; var images: [String: Expectation] }

    static let directory = ImageVectors.directory.appendingPathComponent("conditions")
    static let manifest = try! JSONDecoder().decode(Manifest.self, from: Data(contentsOf: directory.appendingPathComponent("manifest.json")))
    static let expected = try! JSONDecoder().decode(Expected.self, from: Data(contentsOf: directory.appendingPathComponent("conditions-expected.json")))

    @Test func everyConditionIsThereAndExpected() {
        #expect(Set(Self.manifest.images.map(\.group)) == ["curved", "motion", "distractor", "occlusion", "printer"])
        #expect(Set(Self.manifest.images.map(\.file)) == Set(Self.expected.images.keys))
    }

    @Test(arguments: Self.manifest.images.map(\.file))
    func readsAsExpectedAndNeverVouchesForAWrongReading(_ file: String) throws {
        let entry = try #require(Self.manifest.images.first { $0.file == file })
        let expected = try #require(Self.expected.images[file])
        let scan = DocumentScanner(readBarcodes: false).scan(file: Self.directory.appendingPathComponent(file).path)
        let exact = scan.reading?.lines == entry.lines
        let verified = scan.reading?.verified == true
        #expect(!verified || exact, "verified but wrong: \(scan.reading?.lines ?? []) against \(entry.lines)")
        #expect(exact == expected.exact, exact ? "reads exactly now: update conditions-expected.json" : "no longer reads exactly: \(scan.reading?.lines ?? [])")
        #expect(verified == expected.verified, verified ? "verified now: update conditions-expected.json" : "no longer verified")
        // What a backend acts on: a verified reading is `ok`; an unread or unverified one says why.
        #expect((scan.status == .ok) == verified)
    }
}
