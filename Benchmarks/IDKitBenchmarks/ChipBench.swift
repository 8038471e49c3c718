import Foundation
import IDKitChip

/// `idkit-bench chip DIR`: passive authentication of the issued documents of
/// ../shared/testdata/emrtd/real-documents (each folder's EF.SOD, data groups and CSCA), in
/// process, on one core: verifications per second and the median time of each, beside what
/// Benchmarks/compare_chip.py measures for asn1crypto + cryptography on the same files.
func runChipBench(directory: String) {
    let fm = FileManager.default
    var cases: [(name: String, sod: [UInt8], groups: [Int: [UInt8]], store: CSCAStore)] = []
    for name in ((try? fm.contentsOfDirectory(atPath: directory)) ?? []).sorted() {
        let folder = (directory as NSString).appendingPathComponent(name)
        guard let sod = fm.contents(atPath: folder + "/EF_SOD.bin") else { continue }
        let trusted = name == "NZ-2011" ? (directory as NSString).appendingPathComponent("NZ/CSCA.der")
            : (fm.fileExists(atPath: folder + "/CSCA.der") ? folder + "/CSCA.der" : folder)
        guard let store = try? CSCAStore(contentsOf: trusted) else { continue }
        var groups: [Int: [UInt8]] = [:]
        for file in (try? fm.contentsOfDirectory(atPath: folder)) ?? [] where file.hasPrefix("EF_DG") {
            if let n = Int(file.dropFirst(5).dropLast(4)), let data = fm.contents(atPath: folder + "/" + file) { groups[n] = Array(data) }
        }
        cases.append((name, Array(sod), groups, store))
    }
    guard !cases.isEmpty else { print("chip: no EF_SOD.bin under \(directory)"); return }
    var outcomes: [String: Int] = [:]
    var times: [Double] = []
    let rounds = 20
    let t0 = Date()
    for _ in 0..<rounds {
        for c in cases {
            let t = Date()
            let pa = PassiveAuthentication(sod: c.sod, dataGroups: c.groups, cscas: c.store, referenceDate: "2026-12-01")
            times.append(Date().timeIntervalSince(t) * 1000)
            outcomes[pa.result.rawValue, default: 0] += 1
        }
    }
    let total = Date().timeIntervalSince(t0)
    times.sort()
    print("documents                        \(cases.count) (\(cases.map(\.name).joined(separator: " ")))")
    print("outcomes per round               " + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value / rounds)" }.joined(separator: ", "))
    print(String(format: "verifications per second         %.0f   (structure, DG hashes, SOD signature, DS → CSCA)", Double(cases.count * rounds) / total))
    print(String(format: "median / p90 ms per document     %.3f / %.3f", times[times.count / 2], times[times.count * 9 / 10]))

    // A typical set read from a passport: EF.SOD, DG1 and a 15 KB DG2 (the BSI TR-03105-5 test
    // passport, JPEG 2000 face; its test PKI publishes no CSCA, so the chain is not performed).
    let bsi = ((directory as NSString).deletingLastPathComponent as NSString).appendingPathComponent("bsi-tr03105-5-refdata")
    if let sod = fm.contents(atPath: bsi + "/EF_SOD.bin"), let dg1 = fm.contents(atPath: bsi + "/EF_DG1.bin"),
       let dg2 = fm.contents(atPath: bsi + "/EF_DG2.bin") {
        let groups = [1: Array(dg1), 2: Array(dg2)]
        let n = 2000
        var t = Date()
        for _ in 0..<n { _ = PassiveAuthentication(sod: Array(sod), dataGroups: groups) }
        let perSecond = Double(n) / Date().timeIntervalSince(t)
        t = Date()
        let bytes = Array(dg2)
        for _ in 0..<20_000 { _ = try? DataGroup2(bytes) }
        let dg2Micros = Date().timeIntervalSince(t) / 20_000 * 1e6
        print(String(format: "SOD + DG1 + DG2 (%d KB), no CSCA  %.0f per second", (sod.count + dg1.count + dg2.count) / 1024, perSecond))
        print(String(format: "DG2 read (TLV + 19794-5 header)   %.2f µs", dg2Micros))
    }
}
