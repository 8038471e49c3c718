import Foundation
import IDKitScan
import IDKitTestSupport

/// `idkit-bench detect-real DIR [-v] [--from-json OUT]`: the document outlines of the real
/// specimens of `../shared/testdata/mrz-real` (DIR) against the corners labeled by eye in
/// `TestVectors/mrz-real/document-corners.json`, judged as the ratchet test judges them
/// (``OutlineJudge``): right / loose / missed / wrong per labeled document and the entries of
/// `documents` that are no document, per image group, with the scan's milliseconds (one core).
/// `--from-json OUT` judges the saved `idkit scan --json` output of another binary instead
/// (`OUT/NAME.json` per image), to set two builds side by side in one run. `--write-expected FILE`
/// writes the judgments as the ratchet's expectation file (`TestVectors/mrz-real/document-outlines-expected.json`).
func runDetectReal(_ arguments: [String]) -> Bool {
    guard let directory = arguments.first, !directory.hasPrefix("-") else { return false }
    let verbose = arguments.contains("-v")
    func value(_ flag: String) -> String? { arguments.firstIndex(of: flag).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } }
    let fromJSON = value("--from-json"), expectedFile = value("--write-expected")
    var judgments: [(String, OutlineJudgment)] = []
    let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    guard let labels = try? OutlineLabels.load(root: root),
          let text = try? String(contentsOfFile: directory + "/labels.jsonl", encoding: .utf8) else {
        print("detect-real: needs TestVectors/mrz-real/document-corners.json (run from the repository) and \(directory)/labels.jsonl")
        return true
    }
    let groups = Dictionary(text.split(separator: "\n").compactMap { try? JSONDecoder().decode(RealLabel.self, from: Data($0.utf8)) }
        .map { ($0.file, $0.group) }, uniquingKeysWith: { a, _ in a })
    struct Tally { var images = 0, labeled = 0, extra = 0, extraImages = 0; var verdicts: [OutlineVerdict: Int] = [:]; var total: [Double] = [], detect: [Double] = [] }
    var tallies: [String: Tally] = [:]
    let scanner = DocumentScanner()
    for image in labels.images {
        let name = (image.file as NSString).lastPathComponent
        let entries: [[[Double]]?]
        var timings: [String: Double] = [:]
        if let fromJSON {
            guard let data = FileManager.default.contents(atPath: "\(fromJSON)/\((name as NSString).deletingPathExtension).json"),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                print("detect-real: no \(fromJSON)/\((name as NSString).deletingPathExtension).json"); continue
            }
            entries = (object["documents"] as? [[String: Any]] ?? []).map { $0["corners"] as? [[Double]] }
            timings = object["timingsMs"] as? [String: Double] ?? [:]
        } else {
            let scan = scanner.scan(file: directory + "/" + image.file)
            entries = scan.documents.map { d in d.outlineCorners.map { $0.corners.map { [$0.x, $0.y] } } }
            timings = scan.timingsMs
        }
        let judgment = OutlineJudge.judge(image, entries: entries)
        judgments.append((name, judgment))
        let group = groups[image.file] ?? "other"
        var tally = tallies[group] ?? Tally()
        tally.images += 1
        tally.labeled += judgment.documents.count
        for v in judgment.documents { tally.verdicts[v, default: 0] += 1 }
        tally.extra += judgment.extra
        if judgment.extra > 0 { tally.extraImages += 1 }
        tally.total.append(timings["total"] ?? 0)
        tally.detect.append(timings["detect"] ?? 0)
        tallies[group] = tally
        if verbose {
            let errors = judgment.errors.map { $0.map { String(format: "%.3f", $0) } ?? "-" }.joined(separator: ",")
            print(name.padding(toLength: 28, withPad: " ", startingAt: 0), judgment.documents.map(\.rawValue).joined(separator: ","),
                  "err \(errors)", judgment.extra > 0 ? "extra \(judgment.extra)" : "", String(format: "%.0f ms", timings["total"] ?? 0))
        }
    }
    print("group              images  documents  right  loose  missed  wrong  extra (images)  total-ms median/p90  detect-ms median")
    var all = Tally()
    for group in tallies.keys.sorted() + ["all"] {
        let t: Tally
        if group == "all" { t = all } else {
            t = tallies[group]!
            all.images += t.images; all.labeled += t.labeled; all.extra += t.extra; all.extraImages += t.extraImages
            all.total += t.total; all.detect += t.detect
            for (k, v) in t.verdicts { all.verdicts[k, default: 0] += v }
        }
        print(group.padding(toLength: 18, withPad: " ", startingAt: 0), String(format: "%6d  %9d  %5d  %5d  %6d  %5d  %5d (%d)  %10.0f / %.0f  %10.1f",
              t.images, t.labeled, t.verdicts[.right] ?? 0, t.verdicts[.loose] ?? 0, t.verdicts[.missed] ?? 0, t.verdicts[.wrong] ?? 0,
              t.extra, t.extraImages, quantile(t.total, 0.5), quantile(t.total, 0.9), quantile(t.detect, 0.5)))
    }
    if let expectedFile {
        let source = "IDKit's own outlines on ../shared/testdata/mrz-real judged against TestVectors/mrz-real/document-corners.json (OutlineJudge: right = every corner within 2% of the diagonal, loose within 10%, missed, wrong; extra = entries of documents that are no document), written by `idkit-bench detect-real ../shared/testdata/mrz-real --write-expected` from a release build. Tests/IDKitScanTests/RealOutlineTests.swift fails when an image comes out worse or better than this."
        var text = "{\n \"source\": \"\(source.replacingOccurrences(of: "\"", with: "\\\""))\",\n \"images\": {\n"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        text += judgments.map { "  \"\($0.0)\": " + String(decoding: try! encoder.encode($0.1), as: UTF8.self) }.joined(separator: ",\n")
        text += "\n }\n}\n"
        guard FileManager.default.createFile(atPath: expectedFile, contents: Data(text.utf8)) else {
            print("detect-real: cannot write \(expectedFile)"); return false
        }
        print("wrote \(expectedFile)")
    }
    return true
}
