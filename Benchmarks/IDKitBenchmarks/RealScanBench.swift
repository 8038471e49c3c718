import Foundation
import IDKitScan

/// One line of `../shared/testdata/mrz-real/labels.jsonl` (its README names the keys).
struct RealLabel: Decodable {
    var id: Int
    var file: String
    var format: String
    var mrz: [String]
    var group: String
    var checks_fail: Bool
}

/// `idkit-bench scan-real DIR [-v]`: the whole scan (decode, MRZ, quality, barcodes) on real
/// specimen images, one core: exact, verified, verified-but-wrong, and in-process milliseconds.
/// An image whose printed check digits are wrong counts as verified-but-wrong if it is verified.
func runScanReal(directory: String, verbose: Bool) {
    guard let text = try? String(contentsOfFile: directory + "/labels.jsonl", encoding: .utf8) else {
        print("scan-real: no labels.jsonl in \(directory)"); return
    }
    let labels = text.split(separator: "\n").compactMap { try? JSONDecoder().decode(RealLabel.self, from: Data($0.utf8)) }
    let scanner = DocumentScanner()
    var exact = 0, verified = 0, wrongVerified = 0, chars = 0, correctChars = 0
    var totals: [Double] = [], stages: [String: [Double]] = [:]
    for label in labels {
        let scan = scanner.scan(file: directory + "/" + label.file)
        let lines = scan.reading?.lines ?? []
        let isExact = lines == label.mrz
        let isVerified = scan.reading?.verified == true
        if isExact { exact += 1 }
        if isVerified { verified += 1; if !isExact || label.checks_fail { wrongVerified += 1 } }
        let truth = Array(label.mrz.joined().utf8), read = Array(lines.joined().utf8)
        chars += truth.count
        if truth.count == read.count { correctChars += zip(truth, read).filter { $0 == $1 }.count }
        totals.append(scan.timingsMs["total"] ?? 0)
        for (k, v) in scan.timingsMs { stages[k, default: []].append(v) }
        if verbose {
            let mark = isExact ? (isVerified ? "ok      " : "exact   ") : (isVerified ? "WRONG-V " : "misread ")
            print(mark + label.file + String(format: "  %.0f ms", scan.timingsMs["total"] ?? 0) + " (" + ["locate", "read", "barcodes", "detect"].map { String(format: "%.0f", scan.timingsMs[$0] ?? 0) }.joined(separator: "/") + ")  " + scan.status.rawValue
                  + " " + (scan.reading?.unsureFields ?? []).joined(separator: ","))
            if !isExact {
                for (a, b) in zip(label.mrz, lines + Array(repeating: "", count: max(0, label.mrz.count - lines.count))) where a != b {
                    print("   truth \(a)\n   read  \(b)")
                }
            }
        }
    }
    func pct(_ a: Int, _ n: Int) -> String { String(format: "%.0f%%", 100 * Double(a) / Double(max(n, 1))) }
    func quantile(_ v: [Double], _ q: Double) -> Double {
        let s = v.sorted(); return s.isEmpty ? 0 : s[min(s.count - 1, Int(Double(s.count) * q))]
    }
    print("real images: \(labels.count)  exact \(exact) (\(pct(exact, labels.count)))  verified \(verified) (\(pct(verified, labels.count)))"
          + "  verified-but-wrong \(wrongVerified)  characters \(pct(correctChars, chars))")
    print(String(format: "in-process ms: median %.0f  p90 %.0f", quantile(totals, 0.5), quantile(totals, 0.9))
          + "  (" + stages.keys.sorted().filter { $0 != "total" }.map { String(format: "%@ %.0f", $0, quantile(stages[$0]!, 0.5)) }.joined(separator: ", ") + " median)")
}
