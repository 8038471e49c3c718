import Foundation
import IDKitAAMVA

/// The AAMVA benchmarks: parse and check, every field made, and damaged payloads.
enum AAMVABench {
    static func parse(_ wanted: (String) -> Bool) {
        // Payloads of about 500 bytes: our version 10/11 licenses and Virginia's published sample.
        let files = ProcessInfo.processInfo.environment["IDKIT_AAMVA_FILES"].map { $0.split(separator: ",").map(String.init) }
            ?? ["TestVectors/aamva/generated/v10-dl-va.bin", "TestVectors/aamva/generated/v11-dl-ca.bin",
                "TestVectors/aamva/public/aamva-rs__VA-21.txt", "TestVectors/aamva/public/py-aamva__PDF417_ca.txt"]
        let payloads = files.compactMap { FileManager.default.contents(atPath: $0).map { Array($0) } }
        if payloads.count == files.count, !payloads.isEmpty {
            let aamva = AAMVAParser()
            let meanSize = payloads.reduce(0) { $0 + $1.count } / payloads.count
            // Parse and check (fields are made on first read), then the same with every field made.
            let ns = measure(iterations: 100_000) { i in
                (try? aamva.parse(payloads[i % payloads.count]))?.warnings.count ?? 0
            }
            report("AAMVA parse (\(meanSize)-byte payloads)", ns, "ns/payload", target: "≤ 3000 ns", fastest: lastFastest)
            let nsFields = measure(iterations: 50_000) { i in
                (try? aamva.parse(payloads[i % payloads.count]))?.fields.documentNumber?.utf8.count ?? 0
            }
            report("  + all fields made", nsFields, "ns/payload", fastest: lastFastest)
            let damaged = ["TestVectors/aamva/generated/damaged-v08-wedge.bin", "TestVectors/aamva/generated/damaged-v08-crlf.bin",
                           "TestVectors/aamva/generated/damaged-v08-offset-sc.bin", "TestVectors/aamva/generated/damaged-v08-stray-c1.bin"]
                .compactMap { FileManager.default.contents(atPath: $0).map { Array($0) } }
            let nsDamaged = measure(iterations: 50_000) { i in
                (try? aamva.parse(damaged[i & 3]))?.warnings.count ?? 0
            }
            report("AAMVA parse (damaged payloads)", nsDamaged, "ns/payload", fastest: lastFastest)
        } else {
            print("AAMVA parse: run from the repository root (TestVectors/aamva not found)")
        }
    }
}
