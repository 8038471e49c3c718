import Foundation
import Testing
import IDKitScan

/// The scan example of docs/swift.md, as written there (run from the package root).
@Suite struct ScanReadmeExampleTests {
    @Test func readmeExample() throws {
        let path = ImageVectors.directory.appendingPathComponent("tilt-01-td1.jpg").path
        let scan = DocumentScanner().scan(file: path)
        #expect(scan.status == .ok)
        #expect(scan.reading!.lines == ImageVectors.file.images.first { $0.file == "tilt-01-td1.jpg" }!.lines)
        #expect(scan.reading!.verified)
        #expect(scan.quality!.hints.isEmpty)
    }
}
