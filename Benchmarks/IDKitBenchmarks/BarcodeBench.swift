import Foundation
import IDKitAAMVA
import IDKitBarcode
import IDKitImage

/// The decode table: for every image of a `make_images.py` set, IDKit (locate, straighten,
/// zxing-cpp) and plain zxing-cpp (the same library on the whole image, tryHarder + tryRotate)
/// in one run, per variant: exact decodes and median milliseconds per image (decoding the file
/// is not timed; both readers get the same gray pixels).
func runBarcodeImages(directory: String, verbose: Bool) {
    struct Entry: Decodable { var file: String; var variant: String; var bytes: String; var modulePx: Double? }
    struct Manifest: Decodable { var images: [Entry]; var canvas: [Int] }
    guard let data = FileManager.default.contents(atPath: directory + "/manifest.json"),
          let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else {
        print("idkit-bench: no manifest.json in \(directory) (make one with TestVectors/pdf417/make_images.py --bench DIR)")
        exit(66)
    }
    let idkit = BarcodeReader(options: .pdf417)
    let plain = BarcodeReader(options: .init(formats: [.pdf417], useZBar: false, locatePDF417: false))
    var rows: [String: (n: Int, ours: Int, theirs: Int, oursMs: [Double], theirsMs: [Double])] = [:]
    var order: [String] = []
    var bySize: [String: (n: Int, ours: Int, theirs: Int)] = [:]
    for e in manifest.images {
        guard let image = try? ImageDecoder.decodeFile(atPath: directory + "/" + e.file).image else {
            print("cannot decode \(e.file)"); continue
        }
        let expected = Array(Data(base64Encoded: e.bytes) ?? Data())
        func timed(_ reader: BarcodeReader) -> (Bool, Double) {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let found = (try? reader.read(image)) ?? []
            let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
            return (found.contains { $0.format == .pdf417 && $0.bytes == expected }, ms)
        }
        let (ok1, ms1) = timed(idkit)
        let (ok2, ms2) = timed(plain)
        if verbose { print(e.file, ok1 ? "ok" : "FAIL", String(format: "%.1f ms", ms1), "| zxing", ok2 ? "ok" : "fail", String(format: "%.1f ms", ms2)) }
        if rows[e.variant] == nil { order.append(e.variant); rows[e.variant] = (0, 0, 0, [], []) }
        let bucket = (e.modulePx ?? 9) < 1.15 ? "modules 1.0–1.15 px" : "modules 1.15–4 px"
        bySize[bucket, default: (0, 0, 0)].n += 1
        bySize[bucket]!.ours += ok1 ? 1 : 0
        bySize[bucket]!.theirs += ok2 ? 1 : 0
        rows[e.variant]!.n += 1
        rows[e.variant]!.ours += ok1 ? 1 : 0
        rows[e.variant]!.theirs += ok2 ? 1 : 0
        rows[e.variant]!.oursMs.append(ms1)
        rows[e.variant]!.theirsMs.append(ms2)
    }
    func median(_ v: [Double]) -> Double { let s = v.sorted(); return s.isEmpty ? 0 : s[s.count / 2] }
    print("PDF417 decode table (\(manifest.canvas[0])×\(manifest.canvas[1]) images, one core)")
    print("variant       images   IDKit exact  median ms   zxing-cpp exact  median ms")
    var all1: [Double] = [], all2: [Double] = []
    var t1 = 0, t2 = 0, tn = 0
    for v in order {
        let r = rows[v]!
        all1 += r.oursMs; all2 += r.theirsMs; t1 += r.ours; t2 += r.theirs; tn += r.n
        print(v.padding(toLength: 14, withPad: " ", startingAt: 0) + String(format: "%6d   %4d (%3.0f%%)  %8.1f   %6d (%3.0f%%)  %10.1f",
              r.n, r.ours, 100.0 * Double(r.ours) / Double(r.n), median(r.oursMs), r.theirs, 100.0 * Double(r.theirs) / Double(r.n), median(r.theirsMs)))
    }
    print("all".padding(toLength: 14, withPad: " ", startingAt: 0) + String(format: "%6d   %4d (%3.0f%%)  %8.1f   %6d (%3.0f%%)  %10.1f",
          tn, t1, 100.0 * Double(t1) / Double(max(tn, 1)), median(all1), t2, 100.0 * Double(t2) / Double(max(tn, 1)), median(all2)))
    for (bucket, r) in bySize.sorted(by: { $0.key < $1.key }) {
        print(bucket.padding(toLength: 20, withPad: " ", startingAt: 0) + String(format: "%6d   IDKit %4d (%3.0f%%)   zxing-cpp %4d (%3.0f%%)",
              r.n, r.ours, 100.0 * Double(r.ours) / Double(r.n), r.theirs, 100.0 * Double(r.theirs) / Double(r.n)))
    }
}

/// `idkit-bench zxing-suites DIR`: in-process timing of `idkit barcode`'s reader on the zxing
/// projects' PDF417 suites (../shared/testdata/pdf417-zxing, read as they are), the photos apart:
/// median and p90 milliseconds per image, read and failed apart (decoding the file is not timed).
func runZXingSuites(directory: String, verbose: Bool) {
    guard let manifest = try? String(contentsOfFile: directory + "/manifest.tsv", encoding: .utf8) else {
        print("idkit-bench: no manifest.tsv in \(directory) (../shared/testdata/pdf417-zxing)")
        exit(66)
    }
    let rows = manifest.split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    let reader = BarcodeReader(), pdf417Only = BarcodeReader(options: .pdf417)
    var times: [String: [Double]] = [:]
    for row in rows where row.count > 5 {
        guard let decoded = try? ImageDecoder.decodeFile(atPath: directory + "/" + row[1]) else { print("cannot decode \(row[1])"); continue }
        let image = decoded.image
        let t0 = DispatchTime.now().uptimeNanoseconds
        let found = ((try? reader.read(image)) ?? []).filter { $0.format == .pdf417 }
        let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        let key = (row[5] == "photo" ? "photos" : "generated") + (found.isEmpty ? ", nothing read" : ", read")
        times[key, default: []].append(ms)
        // The same with PDF417 alone (BarcodeReader.Options.pdf417: no zbar, no other formats).
        let t1 = DispatchTime.now().uptimeNanoseconds
        let only = (try? pdf417Only.read(image)) ?? []
        times[key + ", PDF417 only" + (only.isEmpty == found.isEmpty ? "" : " (differs)"), default: []]
            .append(Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e6)
        if verbose { print(row[1], "\(image.width)×\(image.height)", found.isEmpty ? "none" : "\(found.count) PDF417", String(format: "%.1f ms", ms)) }
    }
    print("idkit barcode's reader, in process, one image at a time (zxing suites)")
    print("images                      n   median ms   p90 ms   max ms")
    for key in times.keys.sorted() {
        let t = times[key]!.sorted()
        print(key.padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%3d   %8.1f  %8.1f  %7.1f", t.count, t[t.count / 2],
                                                                                   t[min(t.count - 1, t.count * 9 / 10)], t.last!))
    }
}

/// `idkit-bench barcode-time IMAGE...`: `idkit barcode`'s reader in process, best of five, and
/// what it found (a page without a barcode shows what failing costs).
func runBarcodeTime(_ files: [String]) {
    for file in files {
        guard let image = try? ImageDecoder.decodeFile(atPath: file).image else { continue }
        var best = Double.infinity, found = 0
        for _ in 0..<5 {
            let t0 = now()
            found = (try? BarcodeReader().read(image))?.count ?? 0
            best = min(best, Double(now() - t0) / 1e6)
        }
        print((file as NSString).lastPathComponent, "\(image.width)×\(image.height)", "\(found) found", String(format: "%.1f ms", best))
    }
}
