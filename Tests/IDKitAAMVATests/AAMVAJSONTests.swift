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

    /// A payload decoded from its JSON has no payload bytes: its report is written from the
    /// subfiles' Strings, and is the same as the report of the payload as read.
    @Test func aDecodedPayloadWritesTheSameReport() throws {
        var compared = 0
        for url in Self.payloads {
            guard let payload = try? AAMVAParser().parse([UInt8](Data(contentsOf: url))) else { continue }
            let decoded = try JSONDecoder().decode(AAMVAPayload.self, from: JSONEncoder().encode(payload))
            #expect(AAMVAReport(decoded).jsonString() == AAMVAReport(payload).jsonString(), "\(url.lastPathComponent)")
            compared += 1
        }
        #expect(compared >= 100)
    }

    /// Values written straight from the payload's bytes (Latin-1 letters, a quote, a backslash, a
    /// control character), also beside an identifier that is not ASCII: the same bytes as the
    /// Codable encoding, the letters as UTF-8, the rest escaped.
    @Test(arguments: [false, true])
    func awkwardBytesAreWrittenAsTheCodableEncodingDoes(oddIdentifier: Bool) throws {
        var bytes = [UInt8](try Data(contentsOf: AAMVAVectors.directory.appendingPathComponent("generated/v10-dl-va.bin")))
        func replace(_ old: String, _ new: [UInt8]) {
            let o = Array(old.utf8)
            let at = (0...(bytes.count - o.count)).first { Array(bytes[$0..<($0 + o.count)]) == o }!
            bytes.replaceSubrange(at..<(at + o.count), with: new)
        }
        replace("DACJAMES", Array("DAC".utf8) + [0x4A, 0xE9, 0x22, 0x5C, 0x01])
        replace("DCSGARCIA", Array("DCS".utf8) + [0x47, 0xC1, 0x52, 0x43, 0xCD, 0x41])
        if oddIdentifier { replace("DDK1", [0x44, 0xD0, 0x4B, 0x31]) }
        let report = AAMVAReport(try AAMVAParser().parse(bytes))
        let json = report.jsonString()
        #expect(json == report.codableJSONString())
        #expect(json.contains(#""DAC":"Jé\"\\\u0001""#))
        #expect(json.contains(#""DCS":"GÁRCÍA""#))
        #expect(json.contains(#""lastName":"GÁRCÍA""#))
        // An identifier that is not ASCII is no element (the parser says what it skipped).
        #expect(json.contains(#""DDK":"1""#) == !oddIdentifier)
        #expect(json.contains(#""code":"unexpectedData""#) == oddIdentifier)
    }
}
