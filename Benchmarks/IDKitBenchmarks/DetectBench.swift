import Foundation
import IDKitImage
import IDKitMRZReading
import IDKitDocumentDetection
import IDKitScan

/// One generated image's ground truth for detection (`make_images.py` writes `corners` per
/// document; a photo of two documents lists both in `documents`).
struct DetectionManifest: Decodable {
    struct Truth: Decodable {
        var layout: String
        var corners: [[Double]]
        var lines: [String]?
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

/// `idkit-bench detect DIR [-v]`: document detection against the generator's corners, through the
/// whole scan (`DocumentScanner`). Per group: the share of documents found with every corner
/// within 2% of the diagonal (the measure the detector is held to; an outline placed from the MRZ
/// alone, which the scan reports as `null`, is not found), the median of the worst
/// corner's error, the format right, and the milliseconds of detection (`timingsMs.detect`: edges,
/// outlines, matching with the MRZ).
func runDetect(directory: String, verbose: Bool) {
    guard let data = FileManager.default.contents(atPath: directory + "/manifest.json"),
          let manifest = try? JSONDecoder().decode(DetectionManifest.self, from: data) else {
        print("detect: no manifest.json in \(directory)"); return
    }
    struct Tally { var n = 0, within = 0, formatRight = 0; var errors: [Double] = []; var ms: [Double] = [] }
    var groups: [String: Tally] = [:], order: [String] = []
    let scanner = DocumentScanner()
    for entry in manifest.images {
        let truths = entry.documents ?? entry.corners.map { [DetectionManifest.Truth(layout: entry.layout, corners: $0)] } ?? []
        guard !truths.isEmpty else { continue }
        // The whole scan, as `idkit scan` runs it (the MRZ reading names the format).
        let scan = scanner.scan(file: directory + "/" + entry.file)
        // The outlines the scan reports (`corners`): one placed from the MRZ alone is `null` there.
        let documents = scan.documents.compactMap(\.detection).filter(\.outlineFound)
        let ms = scan.timingsMs["detect"] ?? 0
        if groups[entry.group] == nil { order.append(entry.group) }
        var tally = groups[entry.group] ?? Tally()
        tally.ms.append(ms)
        for truth in truths {
            tally.n += 1
            let t = truth.corners.map { Point(x: $0[0], y: $0[1]) }
            let diagonal = hypot(t[0].x - t[2].x, t[0].y - t[2].y)
            // Judged as the issues and the real specimens' judge (`OutlineJudge`) do: by the
            // worst corner, not the mean of the four.
            let best = documents.map { d in (d, zip(d.corners.corners, t).map { hypot($0.x - $1.x, $0.y - $1.y) }.max()! / diagonal) }
                .min { $0.1 < $1.1 }
            let error = best?.1 ?? 1
            tally.errors.append(error)
            if error <= 0.02 { tally.within += 1 }
            // A document without an MRZ (a card's front) is judged by its shape alone: an ID-1
            // card's ratio is its own, ID-2 and ID-3 share one (1.42), so "unknown" is right there.
            let expected = truth.lines == nil && truth.layout != "TD1" && entry.documents != nil ? "unknown" : truth.layout
            if let d = best?.0, error <= 0.1, d.format.rawValue == expected { tally.formatRight += 1 }
            if verbose {
                let what = best.map { "\($0.0.format.rawValue) conf \(String(format: "%.2f", $0.0.confidence)) outline \($0.0.outlineFound) weakest side \(String(format: "%.2f", $0.0.weakestSide))" } ?? "none"
                print(entry.file, truth.layout, String(format: "err %.3f", error), what, "docs \(documents.count)", String(format: "%.1f ms", ms))
                if ProcessInfo.processInfo.environment["DETECT_DUMP"] != nil {
                    for d in documents { print("  doc", d.corners.corners.map { [Int($0.x), Int($0.y)] }) }
                }
            }
        }
        groups[entry.group] = tally
    }
    // Photos of several documents: the whole scan, as `idkit scan` runs it.
    let several = manifest.images.filter { ($0.documents?.count ?? 0) > 1 }
    if !several.isEmpty {
        var allRead = 0, primaryRight = 0, bothFound = 0
        let scanner = DocumentScanner()
        for entry in several {
            let truths = entry.documents!
            let scan = scanner.scan(file: directory + "/" + entry.file)
            let read = scan.documents.compactMap { $0.reading?.lines }
            if scan.documents.count >= truths.count { bothFound += 1 }
            let everyOne = truths.allSatisfy { t in t.lines.map { read.contains($0) } ?? true }
            if everyOne { allRead += 1 }
            if scan.reading?.lines == truths[0].lines { primaryRight += 1 }
            if verbose && (!everyOne || scan.reading?.lines != truths[0].lines) {
                print("several:", entry.file, "documents \(scan.documents.count)", "read \(read.count)", everyOne ? "all read" : "NOT all read",
                      scan.reading?.lines == truths[0].lines ? "primary right" : "PRIMARY WRONG")
            }
        }
        let n = Double(several.count)
        print(String(format: "several documents: %d photos, all found %.0f%%, every MRZ read %.0f%%, primary (the larger) right %.0f%%",
                     several.count, 100 * Double(bothFound) / n, 100 * Double(allRead) / n, 100 * Double(primaryRight) / n))
    }
    print("group        n  within-2%  format  worst-err  median-ms  p90-ms")
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

/// `idkit-bench detect-time IMAGE...`: milliseconds of the outline search and of matching the
/// outlines with the MRZ (snapping included), best of five, per image.
func runDetectTime(_ files: [String]) {
    let detector = DocumentDetector()
    for file in files {
        guard let image = try? ImageDecoder.decodeFile(atPath: file).image else { continue }
        let outcome = MRZScanner().scan(image)
        let bands = outcome.band.map { [$0] } ?? []
        var outlineMs = Double.infinity, matchMs = Double.infinity
        var outlines: [DocumentDetector.Outline] = [], documents: [DetectedDocument] = []
        for _ in 0..<5 {
            let t0 = now()
            guard let edges = detector.edges(of: image) else { break }
            outlines = detector.outlines(in: edges)
            let t1 = now()
            documents = detector.documents(edges: edges, outlines: outlines, bands: bands)
            let t2 = now()
            outlineMs = min(outlineMs, Double(t1 - t0) / 1e6)
            matchMs = min(matchMs, Double(t2 - t1) / 1e6)
        }
        print((file as NSString).lastPathComponent, "\(image.width)×\(image.height)", "outlines \(outlines.count)",
              String(format: "%.1f ms, match %.1f ms", outlineMs, matchMs), "documents \(documents.count)",
              documents.first.map { "outline \($0.outlineFound) conf \(String(format: "%.2f", $0.confidence))" } ?? "")
    }
}

/// `idkit-bench decode-time IMAGE...`: milliseconds to decode to gray, and to decode in color and
/// derive the gray (the `--crop` path), best of five.
func runDecodeTime(_ files: [String]) {
    for file in files {
        guard let data = try? ImageDecoder.readFile(atPath: file) else { continue }
        var grayMs = Double.infinity, colorMs = Double.infinity
        for _ in 0..<5 {
            let t0 = now()
            _ = try? ImageDecoder.decodePage(data, page: 0)
            let t1 = now()
            _ = (try? ImageDecoder.decodeColorPage(data, page: 0))?.image.gray
            let t2 = now()
            grayMs = min(grayMs, Double(t1 - t0) / 1e6)
            colorMs = min(colorMs, Double(t2 - t1) / 1e6)
        }
        print((file as NSString).lastPathComponent, String(format: "gray %.1f ms, color + gray %.1f ms", grayMs, colorMs))
    }
}

/// `idkit-bench detect-debug IMAGE`: the outline search step by step: every outline found (corners,
/// support, weakest side, and what it makes with the MRZ read), then each band's placed outline,
/// where snapping moved it, whether its sides may lie on the border, and the documents.
func runDetectDebug(_ file: String) {
    guard let image = try? ImageDecoder.decodeFile(atPath: file).image else { print("cannot decode \(file)"); return }
    let detector = DocumentDetector()
    let outcome = MRZScanner().scan(image)
    let bands = outcome.band.map { [$0] } ?? []
    func show(_ p: [Point]) -> String { p.map { "(\(Int($0.x.rounded())),\(Int($0.y.rounded())))" }.joined(separator: " ") }
    print("image \(image.width)×\(image.height), band: \(bands.first.map { "\($0.format) \(show($0.quad.corners))" } ?? "none")")
    guard let edges = detector.edges(of: image) else { print("no edges"); return }
    for o in detector.outlines(in: edges) {
        let d = DocumentDetector.document(o, band: bands.first)
        print(String(format: "outline support %.2f weakest %.2f", o.support, o.weakestSide), show(o.points), "->",
              d.map { String(format: "%@ conf %.2f ratio %.2f band %@", $0.format.rawValue, $0.confidence, $0.widthHeightRatio, $0.band == nil ? "no" : "yes") } ?? "none")
    }
    for band in bands {
        guard let placed = DocumentDetector.placed(from: band) else { continue }
        print("placed", show(placed.corners.corners))
        let snapped = detector.snap(edges, [placed.corners.corners], keepingOut: [DocumentDetector.keepOut(band)])[0]
        if let snapped {
            let allowed = DocumentDetector.bordersAllowed(snapped.points, placed: placed.corners.corners, within: edges)
            let d = DocumentDetector.document(snapped, band: band)
            print(String(format: "snapped support %.2f weakest %.2f", snapped.support, snapped.weakestSide), show(snapped.points),
                  "borders allowed \(allowed)", d.map { String(format: "-> conf %.2f band %@", $0.confidence, $0.band == nil ? "no" : "yes") } ?? "-> none")
        } else {
            print("snapped: none (support under 0.5)")
        }
    }
    let documents = detector.detect(image, bands: bands)
    for d in documents {
        print(String(format: "document %@ conf %.2f outline %@ weakest %.2f print %.3f", d.format.rawValue, d.confidence, d.outlineFound ? "found" : "placed", d.weakestSide,
                     detector.printShare(edges, within: d.corners)), show(d.corners.corners))
    }
    for o in detector.cutOutlines(in: edges, beside: documents.map(\.corners)) {
        print(String(format: "cut outline support %.2f weakest %.2f sides on the border %d", o.support, o.weakestSide, o.cutSides), show(o.points))
    }
    for d in detector.cutDocuments(edges: edges, beside: documents) {
        print(String(format: "cut document %@ ratio %.2f weakest %.2f print %.3f", d.format.rawValue, d.widthHeightRatio, d.weakestSide,
                     detector.printShare(edges, within: d.corners)), show(d.corners.corners))
    }
}
