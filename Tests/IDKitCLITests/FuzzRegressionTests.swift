import Foundation
import Testing
import IDKitTestSupport

/// Every input the fuzzers found (TestVectors/fuzz/HARNESS/), replayed through its harness by the
/// `idkit-fuzz` binary built without libFuzzer: no crash, no failed oracle.
@Suite struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors/fuzz")

    static let fuzzBinary: URL = IDKitBinary.url.deletingLastPathComponent().appendingPathComponent("idkit-fuzz")

    @Test(arguments: ["mrz", "aamva", "merge", "image", "scan", "chip"])
    func replaysCleanly(_ harness: String) throws {
        let dir = Self.root.appendingPathComponent(harness)
        let process = Process()
        process.executableURL = Self.fuzzBinary
        process.arguments = ["replay", harness, dir.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(harness): \(text)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.filter { !$0.hasPrefix(".") } ?? []
        #expect(text.contains("\(files.count) inputs replayed, no failure"))
    }

    @Test func theFirstFindingIsKept() {
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("aamva/magstripe-track2-without-equals").path))
    }
}
