import Foundation
import IDKitMRZ

/// The MRZ benchmarks: parse and validate by layout, from bytes, correction, the JSON writer, and
/// `idkit validate --json` over a generated stream (throughput and the child's memory).
enum MRZBench {
    static func parse(_ wanted: (String) -> Bool) {
        let parser = benchParser
        for (format, name) in [(MRZFormat.td1, "parse+validate TD1"), (.td2, "parse+validate TD2"), (.td3, "parse+validate TD3")] where wanted(name) {
            let inputs = makeMRZs(format, count: 1024, seed: 1)
            let ns = measure(iterations: 400_000) { i in
                let r = try! parser.parse(inputs[i & 1023])
                return r.isValid ? r.warnings.count + 1 : 0
            }
            report(name, ns, "ns/MRZ", target: format == .td3 ? "≤ 250 ns" : "", fastest: lastFastest)
            if format == .td3 {
                let withFields = measure(iterations: 200_000) { i in
                    let r = try! parser.parse(inputs[i & 1023])
                    return r.fields.documentNumber.utf8.count
                }
                report("  + all fields as Strings", withFields, "ns/MRZ", fastest: lastFastest)
            }
        }
        if wanted("parse+validate TD3 bytes") {
            let inputs = makeMRZs(.td3, count: 1024, seed: 1).map { Array($0.utf8) }
            let ns = measure(iterations: 400_000) { i in
                inputs[i & 1023].withUnsafeBufferPointer { buffer in
                    let r = try! parser.parse(utf8: buffer)
                    return r.isValid ? 1 : 0
                }
            }
            report("parse+validate TD3 bytes", ns, "ns/MRZ", fastest: lastFastest)
        }
    }

    static func correct(_ wanted: (String) -> Bool) {
        let parser = benchParser
        let corrector = MRZCorrector(parser: parser)
        // Each input carries two class-forced OCR confusions and one check-digit-guided one.
        let toLetter: [UInt8: UInt8] = [0x30: UInt8(ascii: "O"), 0x31: UInt8(ascii: "I"), 0x32: UInt8(ascii: "Z"),
                                        0x35: UInt8(ascii: "S"), 0x38: UInt8(ascii: "B")]
        let inputs = makeMRZs(.td3, count: 256, seed: 2).map { text -> String in
            var bytes = Array(text.utf8)
            // Line 2 starts at offset 45: two date digits and one document-number digit read as letters.
            for offset in [45 + 13, 45 + 15, 45 + 3] { if let letter = toLetter[bytes[offset]] { bytes[offset] = letter } }
            return String(decoding: bytes, as: UTF8.self)
        }
        let ns = measure(iterations: 20_000) { i in
            let c = try! corrector.correct(inputs[i & 255])
            return c.outcome == .corrected ? 1 : 0
        }
        report("correct (OCR confusions)", ns, "ns/MRZ", fastest: lastFastest)
        let clean = makeMRZs(.td3, count: 256, seed: 3)
        let nsClean = measure(iterations: 50_000) { i in
            (try! corrector.correct(clean[i & 255])).outcome == .unchanged ? 1 : 0
        }
        report("correct (already valid)", nsClean, "ns/MRZ", fastest: lastFastest)
    }

    static func json(_ wanted: (String) -> Bool) {
        let parser = benchParser
        let inputs = makeMRZs(.td3, count: 1024, seed: 4)
        let results = inputs.map { try! parser.parse($0) }
        var writer = JSONWriter(capacity: 4096)
        let ns = measure(iterations: 200_000) { i in
            writer.reset()
            writer.beginObject()
            results[i & 1023].writeJSONMembers(to: &writer)
            writer.endObject()
            return writer.count
        }
        report("JSON writer (one result)", ns, "ns/MRZ", fastest: lastFastest)
    }

    /// `idkit validate --json -` over a generated stream: throughput and the child's peak memory.
    static func streamBenchmark(count: Int) {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let idkit = me.deletingLastPathComponent().appendingPathComponent("idkit")
        guard FileManager.default.isExecutableFile(atPath: idkit.path) else {
            print("stream: idkit binary not found next to idkit-bench; run swift build -c release"); return
        }
        let path = NSTemporaryDirectory() + "idkit-stream-v2-\(count).txt"
        if !FileManager.default.fileExists(atPath: path) {
            let make = Process()
            make.executableURL = me
            make.arguments = ["make-stream", String(count)]
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                print("stream: cannot create \(path)"); return
            }
            make.standardOutput = FileHandle(forWritingAtPath: path)
            try! make.run()
            make.waitUntilExit()
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var best = Double.infinity
        var childPeak = 0
        for _ in 0..<3 {
            let start = now()
            let (status, peakKiB) = spawnAndWait(idkit.path, ["validate", "--json", "--reference-date", "2025-01-01", "-"],
                                                 stdin: path, stdout: "/dev/null")
            best = min(best, Double(now() - start) / 1e9)
            childPeak = max(childPeak, peakKiB)
            if status != 0 { print("stream: idkit exited with \(status)") }
        }
        report("idkit validate --json, \(count / 1000)k MRZs", Double(count) / best, "MRZs/s", target: "≥ 500,000")
        report("  input size / wall time", Double(size) / 1e6, "MB in \(String(format: "%.2f", best)) s")
        report("  peak RSS of idkit", Double(childPeak) / 1024, "MiB")
    }
}
