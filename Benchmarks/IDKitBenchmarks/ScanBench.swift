import Foundation
import IDKitImage
import IDKitMRZ
import IDKitScan
import IDKitAAMVA
import IDKitDocument

struct ImageManifest: Decodable {
    struct Entry: Decodable {
        var file: String
        var group: String
        var layout: String
        var lines: [String]
        var quad: [[Double]]
    }
    var images: [Entry]
}

/// `idkit-bench scan-locate DIR`: where the locator puts the band, against the ground truth; with
/// `LOOKS=1` in the environment, also the first bands of each of the scanner's looks.
func runScanLocate(directory: String) {
    guard let data = FileManager.default.contents(atPath: directory + "/manifest.json"),
          let manifest = try? JSONDecoder().decode(ImageManifest.self, from: data) else {
        print("scan-locate: no manifest.json in \(directory)"); return
    }
    var found = 0
    for entry in manifest.images {
        let image = try! ImageDecoder.decodeFile(atPath: directory + "/" + entry.file).image
        let start = now()
        let bands = MRZBandLocator().locate(in: image)
        let ms = Double(now() - start) / 1e6
        if ProcessInfo.processInfo.environment["LOOKS"] != nil {
            for (k, look) in MRZScanner.looks(image).enumerated() {
                let t0 = now()
                let bands = look.bands()
                print("  look \(k) (\(String(format: "%.1f", Double(now() - t0) / 1e6)) ms):", bands.prefix(3).map { "\($0.format) \($0.lines.map(\.componentCount)) h \(String(format: "%.1f", $0.characterHeight))" })
            }
        }
        let truth = entry.quad.map { Point(x: $0[0], y: $0[1]) }
        var line = entry.file.padding(toLength: 22, withPad: " ", startingAt: 0)
        if let band = bands.first {
            let q = band.quad.corners, qf = band.flipped().quad.corners
            let err = min(zip(q, truth).map { hypot($0.x - $1.x, $0.y - $1.y) }.max()!,
                          zip(qf, truth).map { hypot($0.x - $1.x, $0.y - $1.y) }.max()!)
            if band.format.rawValue == entry.layout && err < 3 * band.characterHeight { found += 1 }
            line += " \(band.format) lines \(band.lines.map(\.componentCount)) h \(String(format: "%.1f", band.characterHeight)) err \(String(format: "%.1f", err))"
        } else {
            line += " not found"
        }
        print(line + String(format: "  %.0f ms", ms))
    }
    print("located \(found)/\(manifest.images.count)")
}

/// `idkit-bench scan-images DIR [-v]`: exact-MRZ rate, character accuracy, false acceptance and
/// timings per degradation group.
func runScanImages(directory: String, verbose: Bool) {
    guard let data = FileManager.default.contents(atPath: directory + "/manifest.json"),
          let manifest = try? JSONDecoder().decode(ImageManifest.self, from: data) else {
        print("scan-images: no manifest.json in \(directory)"); return
    }
    struct Tally { var n = 0, exact = 0, verified = 0, falseAccept = 0, chars = 0, correctChars = 0; var ms: [Double] = [] }
    var groups: [String: Tally] = [:]
    var order: [String] = []
    let scanner = MRZScanner()
    for entry in manifest.images {
        let image = try! ImageDecoder.decodeFile(atPath: directory + "/" + entry.file).image
        let start = now()
        let outcome = scanner.scan(image)
        let ms = Double(now() - start) / 1e6
        if groups[entry.group] == nil { order.append(entry.group) }
        var t = groups[entry.group, default: Tally()]
        t.n += 1
        t.ms.append(ms)
        let truth = entry.lines
        let lines = outcome.reading?.lines ?? []
        let exact = lines == truth
        if exact { t.exact += 1 }
        if outcome.reading?.verified == true { t.verified += 1; if !exact { t.falseAccept += 1 } }
        let truthChars = Array(truth.joined().utf8)
        let readChars = Array(lines.joined().utf8)
        t.chars += truthChars.count
        if truthChars.count == readChars.count { t.correctChars += zip(truthChars, readChars).filter { $0 == $1 }.count }
        groups[entry.group] = t
        if verbose && !exact {
            print("\(entry.file): \(outcome.reading == nil ? "not found" : "misread") verified=\(outcome.reading?.verified ?? false)")
            for (a, b) in zip(truth, lines + Array(repeating: "", count: max(0, truth.count - lines.count))) where a != b {
                print("   truth \(a)\n   read  \(b)")
            }
        }
    }
    func pct(_ a: Int, _ b: Int) -> String { b == 0 ? "–" : String(format: "%.0f%%", 100 * Double(a) / Double(b)) }
    print("group               n  exact  verified  false-acc  char-acc  median-ms  p90-ms")
    var all = Tally()
    for g in order {
        let t = groups[g]!
        let sorted = t.ms.sorted()
        print(g.padding(toLength: 17, withPad: " ", startingAt: 0) + String(format: "%4d", t.n) + "  " + pct(t.exact, t.n).padding(toLength: 7, withPad: " ", startingAt: 0)
              + pct(t.verified, t.n).padding(toLength: 10, withPad: " ", startingAt: 0) + "\(t.falseAccept)".padding(toLength: 11, withPad: " ", startingAt: 0)
              + String(format: "%.2f%%", 100 * Double(t.correctChars) / Double(max(1, t.chars))).padding(toLength: 10, withPad: " ", startingAt: 0)
              + String(format: "%-11.0f%.0f", sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 9 / 10)]))
        all.n += t.n; all.exact += t.exact; all.verified += t.verified; all.falseAccept += t.falseAccept
        all.chars += t.chars; all.correctChars += t.correctChars; all.ms += t.ms
    }
    let sorted = all.ms.sorted()
    print("all              " + String(format: "%4d", all.n) + "  " + pct(all.exact, all.n).padding(toLength: 7, withPad: " ", startingAt: 0)
          + pct(all.verified, all.n).padding(toLength: 10, withPad: " ", startingAt: 0) + "\(all.falseAccept)".padding(toLength: 11, withPad: " ", startingAt: 0)
          + String(format: "%.2f%%", 100 * Double(all.correctChars) / Double(max(1, all.chars))).padding(toLength: 10, withPad: " ", startingAt: 0)
          + String(format: "%-11.0f%.0f", sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 9 / 10)]))
    // Counts, not rounded percentages, for comparing two runs: all groups, and the groups with
    // confusions injected into the print (`+confused`) apart from the others.
    func counts(_ title: String, _ t: Tally) {
        print("\(title): exact \(t.exact) / \(t.n), verified \(t.verified), verified but wrong \(t.falseAccept)")
    }
    counts("all", all)
    for (title, confused) in [("without confusions", false), ("with confusions", true)] {
        let part = order.filter { $0.hasSuffix("+confused") == confused }.map { groups[$0]! }
        guard !part.isEmpty else { continue }
        counts(title, part.reduce(into: Tally()) { sum, t in
            sum.n += t.n; sum.exact += t.exact; sum.verified += t.verified; sum.falseAccept += t.falseAccept
        })
    }
    print(String(format: "peak RSS %.1f MiB", Double(peakRSSKiB()) / 1024))
}

/// `idkit-bench scan-confidence DIR`: the confidence of right and wrong characters, to set the
/// verification threshold from data rather than by hand.
func runScanConfidence(directory: String) {
    guard let data = FileManager.default.contents(atPath: directory + "/manifest.json"),
          let manifest = try? JSONDecoder().decode(ImageManifest.self, from: data) else { return }
    var right: [Double] = [], wrong: [(Double, String)] = []
    var lowRight: [String: Int] = [:]
    for entry in manifest.images {
        let image = try! ImageDecoder.decodeFile(atPath: directory + "/" + entry.file).image
        guard let reading = MRZScanner().scan(image).reading, reading.lines.count == entry.lines.count else { continue }
        for (l, (truth, read)) in zip(entry.lines, reading.lines).enumerated() {
            for (p, (a, b)) in zip(truth.utf8, read.utf8).enumerated() {
                let c = reading.confidence[l][p]
                if a == b, c < 0.8 { lowRight[String(Character(UnicodeScalar(a))), default: 0] += 1 }
                if a == b { right.append(c) } else { wrong.append((c, "\(entry.file) \(l):\(p) \(Character(UnicodeScalar(a)))→\(Character(UnicodeScalar(b)))")) }
            }
        }
    }
    right.sort()
    for q in [0.001, 0.005, 0.01, 0.05, 0.1] { print(String(format: "right chars: %.1f%% below %.3f", q * 100, right[Int(Double(right.count) * q)])) }
    print("right but below 0.8:", lowRight.sorted { $0.value > $1.value }.map { "\($0.key)×\($0.value)" }.joined(separator: " "))
    for (c, what) in wrong.sorted(by: { $0.0 > $1.0 }).prefix(15) { print(String(format: "wrong %.3f  ", c) + what) }
}

/// `idkit-bench scan-debug IMAGE`: the band and reading, step by step.
func runScanDebug(_ path: String) {
    let image = try! ImageDecoder.decodeFile(atPath: path).image
    for band in MRZBandLocator().locate(in: image).prefix(2) {
        print("band \(band.format) h \(band.characterHeight) pitch \(band.pitch)")
        for l in band.lines { print("  line \(l.start) → \(l.end) n=\(l.componentCount)") }
    }
    // Every look of the locator, what it finds and what it costs.
    for (k, look) in MRZScanner.looks(image).enumerated() {
        let t0 = now()
        let bands = look.bands()
        let ms = (now() - t0) / 1_000_000
        let probes = MRZScanner().probed(image, bands: bands).map { "\($0.band.format) h \(String(format: "%.1f", $0.band.characterHeight)) probe \(String(format: "%.2f", $0.score))" }
        print("look \(k)\(look.searches ? "" : " (only when found bands read invalid)"): \(bands.count) bands in \(ms) ms: " + probes.joined(separator: ", "))
    }
    let outcome = MRZScanner().scan(image)
    if let b = outcome.band {
        print("chosen h \(b.characterHeight) first line \(b.lines[0].start) → \(b.lines[0].end)")
        // IDKIT_STRIPS=DIR: the chosen band's line strips as PGM files.
        if let dir = ProcessInfo.processInfo.environment["IDKIT_STRIPS"] {
            let (curved, residual, strips) = MRZScanner.strips(image, band: b)
            print("strips \(curved ? "along the lines' curves" : "by the band's homography") (centers off it by \(String(format: "%.3f", residual)) pitch) → \(dir)")
            for (k, strip) in strips.enumerated() {
                let header = Data("P5\n\(strip.width) \(strip.height)\n255\n".utf8)
                try? (header + Data(strip.pixels)).write(to: URL(fileURLWithPath: "\(dir)/line\(k).pgm"))
            }
        }
    }
    print(outcome.reading?.lines ?? [])
}

/// `idkit-bench parallel`: throughput on one core and on every core (shared parsers, scanner and
/// merger, as a backend shares them between requests).
func runParallel() {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let parser = MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
    let mrzs = makeMRZs(.td3, count: 1024, seed: 7)
    guard let payload = FileManager.default.contents(atPath: "TestVectors/aamva/generated/v10-dl-va.bin").map({ Array($0) }),
          let manifest = FileManager.default.contents(atPath: "TestVectors/images/manifest.json")
            .flatMap({ try? JSONDecoder().decode(ImageManifest.self, from: $0) }) else {
        print("parallel: run from the repository root"); return
    }
    let images = manifest.images.prefix(8).map { try! ImageDecoder.decodeFile(atPath: "TestVectors/images/" + $0.file).image }
    let merger = DocumentMerger(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
    let scanner = DocumentScanner(readBarcodes: false)
    func rate(_ name: String, _ count: Int, _ work: @Sendable @escaping (Int) -> Void) {
        var results: [Double] = []
        for threads in [1, cores] {
            let start = now()
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                var i = t
                while i < count { work(i); i += threads }
            }
            results.append(Double(count) / (Double(now() - start) / 1e9))
        }
        print(name.padding(toLength: 30, withPad: " ", startingAt: 0)
              + String(format: "1 core %10.0f/s   %d cores %10.0f/s   ×%.2f", results[0], cores, results[1], results[1] / results[0]))
    }
    rate("MRZ parse", 2_000_000) { i in _ = try? parser.parse(mrzs[i & 1023]) }
    rate("AAMVA parse + fields", 200_000) { _ in _ = (try? AAMVAParser().parse(payload))?.fields }
    rate("merge MRZ + barcode", 20_000) { i in _ = merger.merge(mrz: try? parser.parse(mrzs[i & 1023]), barcode: payload) }
    rate("scan (MRZ only)", 64) { i in _ = scanner.scan(images[i % images.count]) }
}

/// `idkit-bench blur IMAGE...`: each image's estimated motion blur (length in pixels, direction in
/// degrees, the cepstral peak's depth), whether the scan would deblur it, and what the estimate and
/// the deblurring cost.
func runBlur(_ paths: [String]) {
    for path in paths {
        guard let image = try? ImageDecoder.decodeFile(atPath: path).image else { print("\(path): not an image"); continue }
        let t0 = now()
        let blur = image.motionBlur()
        let estimate = Double(now() - t0) / 1_000_000
        guard let blur else { print("\(path): blank"); continue }
        var line = String(format: "%@: length %.1f px, angle %.0f°, strength %.1f, anisotropy %.2f, estimate %.1f ms", path,
                          blur.length, blur.angle * 180 / .pi, blur.strength, blur.anisotropy, estimate)
        if blur.isNoticeable {
            let t1 = now()
            _ = image.deblurred(blur)
            line += String(format: ", deblurred in %.1f ms", Double(now() - t1) / 1_000_000)
        }
        print(line)
    }
}
