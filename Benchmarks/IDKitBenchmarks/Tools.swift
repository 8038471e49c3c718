import Foundation
import IDKitAAMVA
import IDKitBarcode
import IDKitImage
import IDKitMRZ

#if canImport(Glibc)
import Glibc
#endif

/// A tool of idkit-bench other than the timed benchmarks: data for them, instruction-count loops,
/// the image tables and debugging aids. `run` gets the arguments after the name and returns false
/// (exit 64, usage printed) when they do not fit.
struct BenchTool: Sendable {
    var name: String
    var usage: String
    var run: @Sendable ([String]) -> Bool

    static let all: [BenchTool] = [
        BenchTool(name: "make-stream", usage: "make-stream N [--seed S]   generated MRZs on stdout, blank-line separated") { a in
            guard let n = a.first.flatMap(Int.init) else { return false }
            var seed: UInt64 = 9303
            if let i = a.firstIndex(of: "--seed"), i + 1 < a.count, let s = UInt64(a[i + 1]) { seed = s }
            makeStream(count: n, seed: seed)
            return true
        },
        BenchTool(name: "loop", usage: "loop TD1|TD2|TD3 N [bytes|fields|json]   parse N MRZs, for instruction counts") { a in
            guard a.count >= 2, let format = MRZFormat(rawValue: a[0]), let n = Int(a[1]) else { return false }
            print(mrzLoop(format, n, mode: a.count > 2 ? a[2] : "string"))
            return true
        },
        BenchTool(name: "aamva-loop", usage: "aamva-loop FILE N [--fields]   parse one payload N times, for instruction counts") { a in
            guard a.count >= 2, let n = Int(a[1]) else { return false }
            print(aamvaLoop(path: a[0], n, readFields: a.contains("--fields")))
            return true
        },
        BenchTool(name: "barcode-debug", usage: "barcode-debug IMAGE DIR   the straightened PDF417 candidates as PNGs") { a in
            guard a.count >= 2 else { return false }
            barcodeDebug(image: a[0], into: a[1])
            return true
        },
        .onDirectory("barcode-images", "PDF417 decode table on a generated set") { runBarcodeImages(directory: $0, verbose: $1) },
        .onDirectory("zxing-suites", "in-process PDF417 timing on the zxing projects' suites") { runZXingSuites(directory: $0, verbose: $1) },
        .onDirectory("scan-images", "MRZ reading by degradation group") { runScanImages(directory: $0, verbose: $1) },
        .onDirectory("scan-real", "the real specimens of ../shared/testdata/mrz-real") { runScanReal(directory: $0, verbose: $1) },
        .onDirectory("scan-real-nomrz", "the real specimens whole and cut above their MRZ: the cost of an image without one") { runScanRealWithoutMRZ(directory: $0, verbose: $1) },
        BenchTool(name: "recognizer-windows", usage: "recognizer-windows DIR OUT   the recognizer's input on the real images, for scripts/mrz-ocr/eval_real.py") { a in
            guard a.count >= 2 else { return false }
            writeRecognizerWindows(directory: a[0], into: a[1])
            return true
        },
        .onDirectory("chip", "passive authentication of ../shared/testdata/emrtd/real-documents") { dir, _ in runChipBench(directory: dir) },
        .onDirectory("scan-confidence", "confidence of right and wrong characters") { d, _ in runScanConfidence(directory: d) },
        .onDirectory("scan-locate", "where the locator puts the band") { d, _ in runScanLocate(directory: d) },
        .onDirectory("detect", "document corners and format against the generator's ground truth") { runDetect(directory: $0, verbose: $1) },
        BenchTool(name: "detect-real", usage: "detect-real DIR [-v] [--from-json OUT]   document outlines of ../shared/testdata/mrz-real against TestVectors/mrz-real/document-corners.json", run: runDetectReal),
        BenchTool(name: "viz-real", usage: "viz-real DIR [-v] [--dump OUT] [--write-expected FILE]   the visual zone of ../shared/testdata/mrz-real against TestVectors/mrz-real/viz-labels.json, and the cost") { a in
            guard let dir = a.first else { return false }
            func value(_ flag: String) -> String? { a.firstIndex(of: flag).flatMap { $0 + 1 < a.count ? a[$0 + 1] : nil } }
            runVIZReal(directory: dir, verbose: a.contains("-v"), dump: value("--dump"), writeExpected: value("--write-expected"))
            return true
        },
        BenchTool(name: "detect-debug", usage: "detect-debug IMAGE   the outline search step by step") { a in
            guard let file = a.first else { return false }
            runDetectDebug(file)
            return true
        },
        BenchTool(name: "detect-time", usage: "detect-time IMAGE...   outline search and MRZ matching, milliseconds") { a in
            guard !a.isEmpty else { return false }
            runDetectTime(a)
            return true
        },
        BenchTool(name: "decode-time", usage: "decode-time IMAGE...   gray decoding against color decoding with the gray derived") { a in
            guard !a.isEmpty else { return false }
            runDecodeTime(a)
            return true
        },
        BenchTool(name: "barcode-time", usage: "barcode-time IMAGE...   idkit barcode's reader in process, best of five") { a in
            guard !a.isEmpty else { return false }
            runBarcodeTime(a)
            return true
        },
        BenchTool(name: "conditions", usage: "conditions DIR [-v] [--write-expected FILE]   MRZ reading per capture condition (conditions.py's manifest.json or mrz-conditions' labels.jsonl)",
                  run: runConditions),
        BenchTool(name: "scan-debug", usage: "scan-debug IMAGE   the band and reading, step by step") { a in
            guard let image = a.first else { return false }
            runScanDebug(image)
            return true
        },
        BenchTool(name: "blur", usage: "blur IMAGE...   the estimated motion blur, and what estimating and deblurring cost") { a in
            guard !a.isEmpty else { return false }
            runBlur(a)
            return true
        },
        BenchTool(name: "parallel", usage: "parallel   throughput on one core and on every core") { _ in
            runParallel()
            return true
        },
    ].map { tool in
        var t = tool
        let run = tool.run
        t.run = { args in
            if run(args) { return true }
            FileHandle.standardError.write(Data("usage: idkit-bench \(tool.usage)\n".utf8))
            return false
        }
        return t
    }
}

extension BenchTool {
    /// A tool over a folder of images with a manifest: `NAME DIR [-v]`.
    static func onDirectory(_ name: String, _ what: String, _ run: @escaping @Sendable (String, Bool) -> Void) -> BenchTool {
        BenchTool(name: name, usage: "\(name) DIR [-v]   \(what)") { a in
            guard let dir = a.first else { return false }
            run(dir, a.contains("-v"))
            return true
        }
    }
}

/// A pool of distinct MRZs of each layout, written in a seeded order, records separated by blank lines.
func makeStream(count: Int, seed: UInt64) {
    let pool = makeMRZs(.td3, count: 4096, seed: seed) + makeMRZs(.td1, count: 2048, seed: seed + 1)
        + makeMRZs(.td2, count: 2048, seed: seed + 2)
    var rng = SplitMix64(seed: seed ^ 0xFEED)
    var out = [UInt8]()
    out.reserveCapacity(1 << 20)
    for _ in 0..<count {
        out.append(contentsOf: pool.randomElement(using: &rng)!.utf8)
        out.append(contentsOf: [0x0A, 0x0A])
        if out.count >= 1 << 20 {
            out.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
            out.removeAll(keepingCapacity: true)
        }
    }
    out.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
}

/// Parses `n` MRZs and nothing else, for instruction counts under valgrind (run twice with
/// different `n` and subtract).
func mrzLoop(_ format: MRZFormat, _ n: Int, mode: String) -> Int {
    let parser = MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
    let inputs = makeMRZs(format, count: 1024, seed: 1)
    var total = 0
    switch mode {
    case "bytes":
        let bytes = inputs.map { Array($0.utf8) }
        for i in 0..<n { total &+= bytes[i & 1023].withUnsafeBufferPointer { (try! parser.parse(utf8: $0)).isValid ? 1 : 0 } }
    case "fields":
        for i in 0..<n { total &+= (try! parser.parse(inputs[i & 1023])).fields.documentNumber.utf8.count }
    case "json":
        var writer = JSONWriter(capacity: 1 << 16)
        let results = inputs.map { try! parser.parse($0) }
        for i in 0..<n {
            writer.reset()
            writer.beginObject()
            results[i & 1023].writeJSONMembers(to: &writer)
            writer.endObject()
            total &+= writer.count
        }
    default:
        for i in 0..<n { total &+= (try! parser.parse(inputs[i & 1023])).isValid ? 1 : 0 }
    }
    return total
}

/// Parses one payload `n` times (for perf stat / callgrind).
func aamvaLoop(path: String, _ n: Int, readFields: Bool) -> Int {
    let payload = Array(FileManager.default.contents(atPath: path) ?? Data())
    var total = 0
    for _ in 0..<n {
        guard let p = try? AAMVAParser().parse(payload) else { continue }
        total &+= readFields ? (p.fields.documentNumber?.utf8.count ?? 0) : p.warnings.count + (p.version ?? 0)
    }
    return total
}

/// The straightened PDF417 candidates of an image, written as PNGs.
func barcodeDebug(image path: String, into directory: String) {
    let image = try! ImageDecoder.decodeFile(atPath: path).image
    for (n, c) in BarcodeReader().straightenedCandidates(image).enumerated() {
        print(n, c.quad.corners.map { "(\(Int($0.x)),\(Int($0.y)))" }.joined(separator: " "), c.image.width, c.image.height)
        _ = FileManager.default.createFile(atPath: "\(directory)/cand\(n).png", contents: Data(try! ImageEncoder.png(c.image)))
    }
}
