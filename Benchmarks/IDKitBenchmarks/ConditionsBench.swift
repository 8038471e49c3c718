import Foundation
import IDKitImage
import IDKitScan

/// `idkit-bench conditions DIR [-v] [--write-expected FILE]`: MRZ reading under hard capture
/// conditions, per condition: exact, verified, verified but wrong, and the in-process time; and
/// "shown": exact on every character the photo shows, where a finger covers some
/// (`params.covered_cells` of conditions.py): each character read wrong is a covered one, reported
/// unsure (confidence under 0.5), and the reading is not verified. No reader can know a covered
/// name's letter; flagging it is what a backend needs to ask for another photo. DIR
/// holds either a `manifest.json` of TestVectors/images/conditions.py or a `labels.jsonl` of
/// ../shared/testdata/mrz-conditions (another generator's photos). `--write-expected` writes the
/// ratchet file of CaptureConditionTests (each image: exact, verified).
func runConditions(_ arguments: [String]) -> Bool {
    guard let directory = arguments.first(where: { !$0.hasPrefix("-") }) else { return false }
    let verbose = arguments.contains("-v")
    let writeTo = arguments.firstIndex(of: "--write-expected").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    struct Photo { var file: String; var group: String; var lines: [String]; var covered: Set<[Int]> = [] }
    var photos: [Photo] = []
    if let data = FileManager.default.contents(atPath: directory + "/manifest.json"),
       let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let images = json["images"] as? [[String: Any]] {
        photos = images.compactMap { e in
            guard let f = e["file"] as? String, let g = e["group"] as? String, let l = e["lines"] as? [String] else { return nil }
            let covered = ((e["params"] as? [String: Any])?["covered_cells"] as? [[Int]]) ?? []
            return Photo(file: f, group: g, lines: l, covered: Set(covered))
        }
    } else if let text = try? String(contentsOfFile: directory + "/labels.jsonl", encoding: .utf8) {
        photos = text.split(separator: "\n").compactMap { line in
            guard let e = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let f = e["file"] as? String, let g = e["group"] as? String, let l = e["mrz"] as? [String] else { return nil }
            return Photo(file: f, group: g, lines: l)
        }
    }
    guard !photos.isEmpty else { print("conditions: no manifest.json or labels.jsonl in \(directory)"); return false }
    if let data = FileManager.default.contents(atPath: directory + "/manifest.json"),
       case let text = String(decoding: data, as: UTF8.self), text.contains("\"finger\""), !text.contains("covered_cells") {
        print("conditions: \(directory)/manifest.json predates params.covered_cells: 'shown' counts exact readings only (draw the photos again)")
    }
    struct Tally { var n = 0, exact = 0, shown = 0, verified = 0, wrong = 0; var ms: [Double] = [] }
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
        let shown = exact || flagsOnlyCovered(scan.reading, photo.lines, photo.covered)
        tallies[photo.group]!.shown += shown ? 1 : 0
        tallies[photo.group]!.verified += verified ? 1 : 0
        tallies[photo.group]!.wrong += verified && !exact ? 1 : 0
        tallies[photo.group]!.ms.append(ms)
        expected[photo.file] = ["exact": exact, "verified": verified]
        if verbose && (!exact || !verified) {
            print("\(photo.file): \(exact ? "exact" : shown ? "not exact, shown" : "not exact"), \(verified ? "verified" : "unverified") (\(scan.status.rawValue))")
            if !exact { for (t, r) in zip(photo.lines, (scan.reading?.lines ?? []) + Array(repeating: "", count: photo.lines.count)) where t != r { print("   truth \(t)\n   read  \(r)") } }
        }
    }
    print("condition          n  exact      shown      verified   verified-but-wrong  median-ms")
    var all = Tally()
    for g in order + ["all"] {
        let t = g == "all" ? all : tallies[g]!
        let ms = t.ms.sorted()
        print(g.padding(toLength: 15, withPad: " ", startingAt: 0) + String(format: "%4d  %3d (%3.0f%%)  %3d (%3.0f%%)  %3d (%3.0f%%)  %-18d  %.0f", t.n, t.exact, 100 * Double(t.exact) / Double(t.n),
                                                                          t.shown, 100 * Double(t.shown) / Double(t.n), t.verified, 100 * Double(t.verified) / Double(t.n), t.wrong, ms[ms.count / 2]))
        if g != "all" { all.n += t.n; all.exact += t.exact; all.shown += t.shown; all.verified += t.verified; all.wrong += t.wrong; all.ms += t.ms }
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

/// Whether `reading` is right on every character but covered ones (`covered`: [line, index]),
/// each of those it gets wrong reported with confidence under 0.5, and is not verified.
private func flagsOnlyCovered(_ reading: MRZReading?, _ truth: [String], _ covered: Set<[Int]>) -> Bool {
    guard let reading, !covered.isEmpty, !reading.verified, reading.lines.count == truth.count else { return false }
    for (j, (read, true_)) in zip(reading.lines, truth).enumerated() {
        let r = Array(read), t = Array(true_)
        guard r.count == t.count else { return false }
        for i in t.indices where r[i] != t[i] {
            guard covered.contains([j, i]), j < reading.confidence.count, i < reading.confidence[j].count, reading.confidence[j][i] < 0.5 else { return false }
        }
    }
    return true
}
