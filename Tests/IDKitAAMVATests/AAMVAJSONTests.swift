import Foundation
import IDKitAAMVA
import Testing

/// The `idkit aamva --json` contract written directly (``AAMVAReport/writeJSON(to:)``, what the
/// command line and the service print) is byte for byte the Codable encoding with sorted keys, on
/// every payload the project has: generated (every version, every kind of damage) and public.
@Suite struct AAMVAJSONTests {
    static let payloads: [URL] = ["generated", "public"].flatMap { folder -> [URL] in
        let dir = AAMVAVectors.directory.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { !$0.hasSuffix(".md") && !$0.hasSuffix(".json") }.sorted().map { dir.appendingPathComponent($0) }
    }

    @Test func directWriterEqualsTheCodableEncodingOnEveryPayload() throws {
        var compared = 0
        for url in Self.payloads {
            guard let payload = try? AAMVAParser().parse([UInt8](Data(contentsOf: url))) else { continue }
            let report = AAMVAReport(payload)
            #expect(report.jsonString() == report.codableJSONString(), "\(url.lastPathComponent)")
            compared += 1
        }
        // Most of the vectors parse (the rest are damage that is refused): all of those compared.
        #expect(compared >= 100)
    }
}
