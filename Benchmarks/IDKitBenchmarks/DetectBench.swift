import Foundation
import IDKitImage
import IDKitMRZReading
import IDKitDocumentDetection

/// One generated image's ground truth for detection (`make_images.py` writes `corners` per
/// document; a photo of two documents lists both in `documents`).
struct DetectionManifest: Decodable {
    struct Truth: Decodable {
        var layout: String
        var corners: [[Double]]
    }
    struct Entry: Decodable {
        var file: String
        var group: String
        var layout: String
        var corners: [[Double]]?
        var documents: [Truth]?
    }
    var images: [Entry]
}

/// `idkit-bench detect DIR [-v]`: document detection against the generator's corners. Per group:
/// the share of documents found with a mean corner error within 2% of the diagonal (issue 14's
/// measure), the format right, and the milliseconds of the outline search (one core).
func runDetect(directory: String, verbose: Bool) {
    guard let data = FileManager.default.contents(atPath: directory + "/manifest.json"),
          let manifest = try? JSONDecoder().decode(DetectionManifest.self, from: data) else {
        print("detect: no manifest.json in \(directory)"); return
    }
    struct Tally { var n = 0, within = 0, formatRight = 0; var errors: [Double] = []; var ms: [Double] = [] }
    var groups: [String: Tally] = [:], order: [String] = []
    let detector = DocumentDetector()
    for entry in manifest.images {
        let truths = entry.documents ?? entry.corners.map { [DetectionManifest.Truth(layout: entry.layout, corners: $0)] } ?? []
        guard !truths.isEmpty, let image = try? ImageDecoder.decodeFile(atPath: directory + "/" + entry.file).image else { continue }
        let scanner = MRZScanner()
        let outcome = scanner.scan(image)
        let located = scanner.locate(image).bands
        let bands = (outcome.band.map { [$0] } ?? []) + located.filter { b in outcome.band.map { !DocumentDetector.sameBand($0, b) } ?? true }
        let start = now()
        let outlines = detector.outlines(in: image)
        let ms = Double(now() - start) / 1e6
        let documents = detector.documents(in: image, outlines: outlines, bands: bands)
        if groups[entry.group] == nil { order.append(entry.group) }
        var tally = groups[entry.group] ?? Tally()
        tally.ms.append(ms)
        for truth in truths {
            tally.n += 1
            let t = truth.corners.map { Point(x: $0[0], y: $0[1]) }
            let diagonal = hypot(t[0].x - t[2].x, t[0].y - t[2].y)
            let best = documents.map { d in (d, zip(d.corners.corners, t).map { hypot($0.x - $1.x, $0.y - $1.y) }.reduce(0, +) / 4 / diagonal) }
                .min { $0.1 < $1.1 }
            let error = best?.1 ?? 1
            tally.errors.append(error)
            if error <= 0.02 { tally.within += 1 }
            if let d = best?.0, error <= 0.1, d.format.rawValue == truth.layout { tally.formatRight += 1 }
            if verbose {
                let what = best.map { "\($0.0.format.rawValue) conf \(String(format: "%.2f", $0.0.confidence)) outline \($0.0.outlineFound)" } ?? "none"
                print(entry.file, truth.layout, String(format: "err %.3f", error), what, "docs \(documents.count)", String(format: "%.1f ms", ms))
                if ProcessInfo.processInfo.environment["DETECT_DUMP"] != nil {
                    for d in documents { print("  doc", d.corners.corners.map { [Int($0.x), Int($0.y)] }) }
                    for o in outlines { print("  outline", o.points.map { [Int($0.x), Int($0.y)] }, String(format: "%.2f", o.support)) }
                }
            }
        }
        groups[entry.group] = tally
    }
    print("group        n  within-2%  format  median-err  median-ms  p90-ms")
    var all = Tally()
    for g in order {
        let t = groups[g]!
        all.n += t.n; all.within += t.within; all.formatRight += t.formatRight; all.errors += t.errors; all.ms += t.ms
        printDetectRow(g, t.n, t.within, t.formatRight, t.errors, t.ms)
    }
    printDetectRow("all", all.n, all.within, all.formatRight, all.errors, all.ms)
}

private func printDetectRow(_ name: String, _ n: Int, _ within: Int, _ format: Int, _ errors: [Double], _ ms: [Double]) {
    func pct(_ k: Int) -> String { String(format: "%.0f%%", 100 * Double(k) / Double(max(1, n))) }
    func q(_ v: [Double], _ p: Double) -> Double { v.isEmpty ? 0 : v.sorted()[min(v.count - 1, Int(Double(v.count) * p))] }
    print(name.padding(toLength: 10, withPad: " ", startingAt: 0), String(format: "%4d", n), pct(within).padding(toLength: 10, withPad: " ", startingAt: 0),
          pct(format).padding(toLength: 7, withPad: " ", startingAt: 0), String(format: "%.4f", q(errors, 0.5)).padding(toLength: 11, withPad: " ", startingAt: 0),
          String(format: "%.1f", q(ms, 0.5)).padding(toLength: 10, withPad: " ", startingAt: 0), String(format: "%.1f", q(ms, 0.9)))
}
