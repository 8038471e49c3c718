import Foundation
import IDKitImage
import IDKitScan

/// `idkit-bench conditions DIR [-v] [--write-expected FILE]`: MRZ reading under hard capture
/// conditions, per condition: exact, verified, verified but wrong, and the in-process time. DIR
/// holds either a `manifest.json` of TestVectors/images/conditions.py or a `labels.jsonl` of
/// ../shared/testdata/mrz-conditions (another generator's photos). `--write-expected` writes the
/// ratchet file of CaptureConditionTests (each image: exact, verified).
func runConditions(_ arguments: [String]) -> Bool {
    guard let directory = arguments.first(where: { !$0.hasPrefix("-") }) else { return false }
    let verbose = arguments.contains("-v")
    let writeTo = arguments.firstIndex(of: "--write-expected").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    struct Photo { var file: String; var group: String; var lines: [String] }
    var photos: [Photo] = []
    if let data = FileManager.default.contents(atPath: directory + "/manifest.json"),
       let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let images = json["images"] as? [[String: Any]] {
        photos = images.compactMap { e in
            guard let f = e["file"] as? String, let g = e["group"] as? String, let l = e["lines"] as? [String] else { return nil }
            return Photo(file: f, group: g, lines: l)
        }
    } else if let text = try? String(contentsOfFile: directory + "/labels.jsonl", encoding: .utf8) {
        photos = text.split(separator: "\n").compactMap { line in
            guard let e = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let f = e["file"] as? String, let g = e["group"] as? String, let l = e["mrz"] as? [String] else { return nil }
            return Photo(file: f, group: g, lines: l)
        }
    }
    guard !photos.isEmpty else { print("conditions: no manifest.json or labels.jsonl in \(directory)"); return false }
    struct Tally { var n = 0, exact = 0, verified = 0, wrong = 0; var ms: [Double] = [] }
    var tallies: [String: Tally] = [:], order: [String] = []
    var expected: [String: [String: Bool]] = [:]
    let scanner = DocumentScanner()
    for photo in photos {
        let start = now()
        let scan = scanner.scan(file: directory + "/" + photo.file)
        let ms = Double(now() - start) / 1e6
        let exact = scan.reading?.lines == photo.lines, verified = scan.reading?.verified == true
        if tallies[photo.group] == nil { order.append(photo.group) }
        tallies[photo.group, default: Tally()].n += 1
        tallies[photo.group]!.exact += exact ? 1 : 0
        tallies[photo.group]!.verified += verified ? 1 : 0
        tallies[photo.group]!.wrong += verified && !exact ? 1 : 0
        tallies[photo.group]!.ms.append(ms)
        expected[photo.file] = ["exact": exact, "verified": verified]
        if verbose && (!exact || !verified) {
            print("\(photo.file): \(exact ? "exact" : "not exact"), \(verified ? "verified" : "unverified") (\(scan.status.rawValue))")
            if !exact { for (t, r) in zip(photo.lines, (scan.reading?.lines ?? []) + Array(repeating: "", count: photo.lines.count)) where t != r { print("   truth \(t)\n   read  \(r)") } }
        }
    }
    print("condition          n  exact      verified   verified-but-wrong  median-ms")
    var all = Tally()
    for g in order + ["all"] {
        let t = g == "all" ? all : tallies[g]!
        let ms = t.ms.sorted()
        print(g.padding(toLength: 15, withPad: " ", startingAt: 0) + String(format: "%4d  %3d (%3.0f%%)  %3d (%3.0f%%)  %-18d  %.0f", t.n, t.exact, 100 * Double(t.exact) / Double(t.n),
                                                                          t.verified, 100 * Double(t.verified) / Double(t.n), t.wrong, ms[ms.count / 2]))
        if g != "all" { all.n += t.n; all.exact += t.exact; all.verified += t.verified; all.wrong += t.wrong; all.ms += t.ms }
    }
    if let writeTo {
        let body = expected.keys.sorted().map { k in "  \"\(k)\": {\"exact\": \(expected[k]!["exact"]!), \"verified\": \(expected[k]!["verified"]!)}" }
        let text = "{\n \"source\": \"idkit-bench conditions \(directory) --write-expected: each image of manifest.json read by DocumentScanner\",\n \"images\": {\n"
            + body.joined(separator: ",\n") + "\n }\n}\n"
        try? text.write(toFile: writeTo, atomically: true, encoding: .utf8)
        print("wrote \(writeTo)")
    }
    return true
}
