import Foundation
import IDKitMRZ
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

/// The labels of `directory`'s `labels.jsonl`; `nil`, said by `tool`, when there is none.
func realLabels(in directory: String, for tool: String) -> [RealLabel]? {
    guard let text = try? String(contentsOfFile: directory + "/labels.jsonl", encoding: .utf8) else {
        print("\(tool): no labels.jsonl in \(directory)"); return nil
    }
    return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(RealLabel.self, from: Data($0.utf8)) }
}

/// The value below which a share `q` of `values` lies (the nearest rank); 0 for none.
func quantile(_ values: [Double], _ q: Double) -> Double {
    let s = values.sorted()
    return s.isEmpty ? 0 : s[min(s.count - 1, Int(Double(s.count) * q))]
}

/// `idkit-bench scan-real DIR [-v]`: the whole scan (decode, MRZ, quality, barcodes) on real
/// specimen images, one core: exact, verified, verified-but-wrong, and in-process milliseconds.
/// An image whose printed MRZ is not valid (its check digits fail, or it breaks a layout rule such as
/// digits in a country code) counts as verified-but-wrong if it is verified: no reader can verify
/// it rightly. The verified rate is given over all images and over those whose printed MRZ is valid.
func runScanReal(directory: String, verbose: Bool) {
    guard let labels = realLabels(in: directory, for: "scan-real") else { return }
    let scanner = DocumentScanner()
    var exact = 0, verified = 0, wrongVerified = 0, chars = 0, correctChars = 0, verifiable = 0
    var adequate = 0, adequateVerified = 0
    var totals: [Double] = [], stages: [String: [Double]] = [:]
    for label in labels {
        let scan = scanner.scan(file: directory + "/" + label.file)
        let lines = scan.reading?.lines ?? []
        let isExact = lines == label.mrz
        let isVerified = scan.reading?.verified == true
        if isExact { exact += 1 }
        let printedIsValid = !label.checks_fail && (try? MRZParser().parse(lines: label.mrz))?.isValid == true
        if printedIsValid { verifiable += 1 }
        if isVerified { verified += 1; if !isExact || !printedIsValid { wrongVerified += 1 } }
        // What the scan's own quality judgment calls large enough to read (`isAdequateResolution`:
        // the MRZ's characters at least `minimumCharacterHeight` px high), among those whose
        // printed MRZ can be verified at all.
        if printedIsValid, scan.quality?.isAdequateResolution == true {
            adequate += 1
            if isVerified && isExact { adequateVerified += 1 }
        }
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
    print("real images: \(labels.count)  exact \(exact) (\(pct(exact, labels.count)))  verified \(verified) (\(pct(verified, labels.count)))"
          + " — \(pct(verified, verifiable)) of the \(verifiable) whose printed MRZ is valid"
          + "  verified-but-wrong \(wrongVerified)  characters \(pct(correctChars, chars))")
    print("  of the \(adequate) whose printed MRZ is valid and whose characters the scan judges large enough"
          + " (isAdequateResolution): verified \(adequateVerified) (\(pct(adequateVerified, adequate)))")
    print(String(format: "in-process ms: median %.0f  p90 %.0f", quantile(totals, 0.5), quantile(totals, 0.9))
          + "  (" + stages.keys.sorted().filter { $0 != "total" }.map { String(format: "%@ %.0f", $0, quantile(stages[$0]!, 0.5)) }.joined(separator: ", ") + " median)")
}

/// `idkit-bench scan-real-nomrz DIR [-v]`: what a scan costs when the image holds no MRZ, against
/// one that reads, in one run: each real specimen scanned whole and cut above its MRZ (its top 55%,
/// made in process from the decoded image; the Latvian travel document, turned 90°, keeps part
/// of its zone and is left out), barcodes on, one core. The cut images' statuses are counted too:
/// each should be `mrzNotFound`.
func runScanRealWithoutMRZ(directory: String, verbose: Bool) {
    guard let labels = realLabels(in: directory, for: "scan-real-nomrz")?.filter({ !$0.file.contains("016_lva") }) else { return }
    let scanner = DocumentScanner()
    var whole: [Double] = [], cut: [Double] = [], statuses: [String: Int] = [:]
    for label in labels {
        guard let image = try? scanner.uprightImage(file: directory + "/" + label.file) else { continue }
        let top = image.cropped(x: 0, y: 0, width: image.width, height: image.height * 55 / 100)
        let a = scanner.scan(image), b = scanner.scan(top)
        whole.append(a.timingsMs["total"] ?? 0)
        cut.append(b.timingsMs["total"] ?? 0)
        statuses[b.status.rawValue, default: 0] += 1
        if verbose {
            print(label.file + String(format: "  whole %.0f ms, cut %.0f ms (", whole.last!, cut.last!)
                  + ["locate", "read", "barcodes", "detect"].map { String(format: "%.0f", b.timingsMs[$0] ?? 0) }.joined(separator: "/") + ") " + b.status.rawValue)
        }
    }
    let ratios = zip(cut, whole).map { $0 / max($1, 0.001) }
    print("\(labels.count) real specimens, in-process ms, median / p90: whole \(String(format: "%.0f / %.0f", quantile(whole, 0.5), quantile(whole, 0.9)))"
          + ", cut above the MRZ \(String(format: "%.0f / %.0f", quantile(cut, 0.5), quantile(cut, 0.9)))"
          + String(format: " (%.2fx / %.2fx; per image, median %.2fx)", quantile(cut, 0.5) / quantile(whole, 0.5), quantile(cut, 0.9) / quantile(whole, 0.9), quantile(ratios, 0.5)))
    print("statuses of the cut images: " + statuses.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
}

/// `idkit-bench recognizer-windows DIR OUT`: for each labeled real image, the recognizer's input
/// windows of the band the scan read, beside the printed lines, for `scripts/mrz-ocr/eval_real.py`
/// to measure a model on real print (margins, errors) without training on it. OUT/NAME.windows is
/// float32 (lines × positions × 32 × 28, as the network sees them); OUT/NAME.json holds the
/// printed lines and the lines read. Images whose band has another shape than the label's are
/// left out (and named).
func writeRecognizerWindows(directory: String, into out: String) {
    guard let text = try? String(contentsOfFile: directory + "/labels.jsonl", encoding: .utf8) else {
        print("recognizer-windows: no labels.jsonl in \(directory)"); return
    }
    try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let labels = text.split(separator: "\n").compactMap { try? JSONDecoder().decode(RealLabel.self, from: Data($0.utf8)) }
    let scanner = DocumentScanner()
    var written = 0
    for label in labels {
        let name = (label.file as NSString).lastPathComponent
        guard let image = try? scanner.uprightImage(file: directory + "/" + label.file) else { print("unreadable: \(name)"); continue }
        let scan = scanner.scan(image)
        guard let band = scan.band, let lines = scan.reading?.lines,
              lines.map(\.count) == label.mrz.map(\.count) else { print("no band of the label's shape: \(name)"); continue }
        let windows = MRZScanner.recognizerWindows(image, band: band)
        guard windows.count == label.mrz.count else { print("no windows: \(name)"); continue }
        var data = Data()
        for w in windows { w.withUnsafeBytes { data.append(contentsOf: $0) } }
        let meta: [String: [String]] = ["truth": label.mrz, "read": lines]
        do {
            try data.write(to: URL(fileURLWithPath: out + "/" + name + ".windows"))
            try JSONEncoder().encode(meta).write(to: URL(fileURLWithPath: out + "/" + name + ".json"))
            written += 1
        } catch {
            print("cannot write \(name): \(error)")
        }
    }
    print("recognizer-windows: \(written) of \(labels.count) images written to \(out)")
}
