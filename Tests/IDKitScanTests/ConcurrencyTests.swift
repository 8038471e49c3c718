import Foundation
import Testing
import IDKitAAMVA
import IDKitDocument
import IDKitImage
import IDKitMRZ
import IDKitScan

/// Shared values and parsers used from many tasks at once give what they give one at a time.
@Suite struct ConcurrencyTests {
    static let vectorsRoot = ImageVectors.directory.deletingLastPathComponent()

    @Test func sixtyFourTasksParseAsOneDoes() async throws {
        let mrzs = ImageVectors.file.images.map { $0.lines.joined(separator: "\n") }
        let payloads = try ["v10-dl-va.bin", "v11-dl-ca.bin", "v03-id-qc.bin", "damaged-v08-wedge.bin"].map {
            Array(try Data(contentsOf: Self.vectorsRoot.appendingPathComponent("aamva/generated/\($0)")))
        }
        let parser = MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
        let aamva = AAMVAParser()
        let merger = DocumentMerger(referenceDate: CalendarDate(year: 2025, month: 1, day: 1),
                                    redaction: .fixed(RedactionSettings(mode: .fullResult, fields: [.dateOfBirth])))
        func work(_ i: Int) -> String {
            let mrz = try! parser.parse(mrzs[i % mrzs.count])
            let payload = try! aamva.parse(payloads[i % payloads.count])
            let merged = merger.merge(mrz: mrz, barcode: payloads[i % payloads.count])
            return "\(mrz.isValid) \(mrz.fields.documentNumber) \(payload.fields.documentNumber ?? "-") "
                + "\(payload.warnings.count) \(merged[.lastName].value ?? "-") \(merged.dataMatch.wholeDocument)"
        }
        let serial = (0..<64).map(work)
        let concurrent = await withTaskGroup(of: (Int, String).self) { group in
            for i in 0..<64 { group.addTask { (i, work(i)) } }
            var out = [String](repeating: "", count: 64)
            for await (i, s) in group { out[i] = s }
            return out
        }
        #expect(concurrent == serial)
    }

    @Test func scansFromManyTasksMatchSerialScans() async throws {
        // Four images, each scanned from four tasks at once (a debug build reads one in seconds).
        let entries = Array(ImageVectors.onePerGroup.prefix(4))
        let images = entries.map { ImageVectors.image($0.file) }
        let scanner = DocumentScanner(readBarcodes: false)
        let serial = images.map { scanner.scan($0).reading?.lines ?? [] }
        let concurrent = await withTaskGroup(of: (Int, [String]).self) { group in
            for i in 0..<16 { group.addTask { (i, scanner.scan(images[i % 4]).reading?.lines ?? []) } }
            var out = [[String]](repeating: [], count: 16)
            for await (i, lines) in group { out[i] = lines }
            return out
        }
        for i in 0..<16 { #expect(concurrent[i] == serial[i % 4]) }
        #expect(serial == entries.map(\.lines))
    }
}
