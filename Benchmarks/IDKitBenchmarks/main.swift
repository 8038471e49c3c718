// idkit-bench: measures IDKit in a release build (after swift-nio's NIOPerformanceTester: warm up,
// run several rounds, report the median, filter by name, refuse debug builds).
//
//   swift build -c release && .build/release/idkit-bench [NAME…] [--stream N]
//   .build/release/idkit-bench TOOL ARGS…    (Tools.swift: make-stream, loop, aamva-loop, scan-images,
//                                            scan-real, barcode-images, …, each with its usage)

import Foundation
import IDKitMRZ
import IDKitAAMVA
import IDKitBarcode
import IDKitImage
import IDKitChip
import IDKitDocument

#if canImport(Glibc)
import Glibc
#endif

var arguments = Array(CommandLine.arguments.dropFirst())

#if DEBUG
if !arguments.contains("--allow-debug") {
    FileHandle.standardError.write(Data("idkit-bench: this is a debug build; numbers would mislead. Build with -c release (or pass --allow-debug).\n".utf8))
    exit(64)
}
#endif
arguments.removeAll { $0 == "--allow-debug" }

// The tools besides the timed benchmarks (Tools.swift): one table, each with its usage.
if let first = arguments.first, let tool = BenchTool.all.first(where: { $0.name == first }) {
    exit(tool.run(Array(arguments.dropFirst())) ? 0 : 64)
}

// MARK: Data

typealias SplitMix64 = SeededGenerator

func makeMRZs(_ format: MRZFormat, count: Int, seed: UInt64) -> [String] {
    var rng = SplitMix64(seed: seed)
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), alnum = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    let surnames = ["ERIKSSON", "MUSTERMANN", "DE BRUIJN", "GARCIA LOPEZ", "NILAVADHANANANDA", "SMITH", "ROSSI", "KOWALSKA"]
    let given = ["ANNA MARIA", "ERIKA", "WILLEKE LISELOTTE", "JOHN", "CHAYAPA", "BIANCA", "JAN PIETER"]
    let states = ["UTO", "D", "NLD", "FRA", "GBR", "ITA", "ESP", "POL", "CHE", "USA"]
    return (0..<count).map { _ in
        func pick(_ chars: [Character], _ n: Int) -> String { String((0..<n).map { _ in chars.randomElement(using: &rng)! }) }
        // Realistic dates: born 1940–2009, expiring 2026–2035, so no warnings on the measured path.
        func date(_ years: ClosedRange<Int>) -> String {
            String(format: "%02d%02d%02d", Int.random(in: years, using: &rng) % 100, Int.random(in: 1...12, using: &rng), Int.random(in: 1...28, using: &rng))
        }
        let fields = MRZFields(
            documentCode: format == .td3 ? "P" : "I", issuingState: states.randomElement(using: &rng)!,
            documentNumber: pick(Array(letters.prefix(3)), 1) + pick(alnum, 8),
            primaryIdentifier: surnames.randomElement(using: &rng)!, secondaryIdentifier: given.randomElement(using: &rng)!,
            nationality: states.randomElement(using: &rng)!, dateOfBirth: date(1940...2009), sex: ["M", "F"].randomElement(using: &rng)!,
            dateOfExpiry: date(2026...2035), optionalData1: format == .td3 ? pick(alnum, 9) : "",
            optionalData2: format == .td1 ? "" : nil)
        return try! MRZGenerator.generate(fields, format: format)
    }
}

// MARK: Timing

func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

nonisolated(unsafe) var sink = 0

/// Runs `body` `iterations` times per round, 7 rounds after a warm-up; returns the median ns per call.
/// `IDKIT_BENCH_SCALE` (e.g. 0.01) shrinks every loop, for runs under valgrind.
let scale = Double(ProcessInfo.processInfo.environment["IDKIT_BENCH_SCALE"] ?? "") ?? 1

func measure(iterations: Int, _ body: (Int) -> Int) -> Double {
    let iterations = max(10, Int(Double(iterations) * scale))
    var total = 0
    for i in 0..<(iterations / 10) { total &+= body(i) }
    var rounds: [Double] = []
    for _ in 0..<7 {
        let start = now()
        for i in 0..<iterations { total &+= body(i) }
        rounds.append(Double(now() - start) / Double(iterations))
    }
    sink &+= total
    let sorted = rounds.sorted()
    lastFastest = sorted[0]
    return sorted[sorted.count / 2]
}

nonisolated(unsafe) var lastFastest = 0.0

func peakRSSKiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

func report(_ name: String, _ value: Double, _ unit: String, target: String = "", fastest: Double? = nil) {
    var shown = value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    if let fastest { shown += String(format: " [%.0f]", fastest) }
    print(name.padding(toLength: 34, withPad: " ", startingAt: 0) + shown.padding(toLength: max(12, shown.count + 1), withPad: " ", startingAt: 0)
          + unit + (target.isEmpty ? "" : "   (target \(target))"))
}

var streamCount = 1_000_000
if let i = arguments.firstIndex(of: "--stream"), i + 1 < arguments.count, let n = Int(arguments[i + 1]) {
    streamCount = n
    arguments.removeSubrange(i...(i + 1))
}
let filters = arguments
func wanted(_ name: String) -> Bool { filters.isEmpty || filters.contains { name.contains($0) } }

let parser = MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
print("IDKit benchmarks (release build; micro-benchmarks on one core, median of 7 rounds [fastest round];")
print("the stream uses every core, as idkit does)")

for (format, name) in [(MRZFormat.td1, "parse+validate TD1"), (.td2, "parse+validate TD2"), (.td3, "parse+validate TD3")] where wanted(name) {
    let inputs = makeMRZs(format, count: 1024, seed: 1)
    let ns = measure(iterations: 400_000) { i in
        let r = try! parser.parse(inputs[i & 1023])
        return r.isValid ? r.warnings.count + 1 : 0
    }
    report(name, ns, "ns/MRZ", target: format == .td3 ? "≤ 250 ns" : "", fastest: lastFastest)
    if format == .td3 {
        let withFields = measure(iterations: 200_000) { i in
            let r = try! parser.parse(inputs[i & 1023])
            return r.fields.documentNumber.utf8.count
        }
        report("  + all fields as Strings", withFields, "ns/MRZ", fastest: lastFastest)
    }
}

if wanted("parse+validate TD3 bytes") {
    let inputs = makeMRZs(.td3, count: 1024, seed: 1).map { Array($0.utf8) }
    let ns = measure(iterations: 400_000) { i in
        inputs[i & 1023].withUnsafeBufferPointer { buffer in
            let r = try! parser.parse(utf8: buffer)
            return r.isValid ? 1 : 0
        }
    }
    report("parse+validate TD3 bytes", ns, "ns/MRZ", fastest: lastFastest)
}

if wanted("correct") {
    let corrector = MRZCorrector(parser: parser)
    // Each input carries two class-forced OCR confusions and one check-digit-guided one.
    let toLetter: [UInt8: UInt8] = [0x30: UInt8(ascii: "O"), 0x31: UInt8(ascii: "I"), 0x32: UInt8(ascii: "Z"),
                                    0x35: UInt8(ascii: "S"), 0x38: UInt8(ascii: "B")]
    let inputs = makeMRZs(.td3, count: 256, seed: 2).map { text -> String in
        var bytes = Array(text.utf8)
        // Line 2 starts at offset 45: two date digits and one document-number digit read as letters.
        for offset in [45 + 13, 45 + 15, 45 + 3] { if let letter = toLetter[bytes[offset]] { bytes[offset] = letter } }
        return String(decoding: bytes, as: UTF8.self)
    }
    let ns = measure(iterations: 20_000) { i in
        let c = try! corrector.correct(inputs[i & 255])
        return c.outcome == .corrected ? 1 : 0
    }
    report("correct (OCR confusions)", ns, "ns/MRZ", fastest: lastFastest)
    let clean = makeMRZs(.td3, count: 256, seed: 3)
    let nsClean = measure(iterations: 50_000) { i in
        (try! corrector.correct(clean[i & 255])).outcome == .unchanged ? 1 : 0
    }
    report("correct (already valid)", nsClean, "ns/MRZ", fastest: lastFastest)
}

if wanted("json") {
    let inputs = makeMRZs(.td3, count: 1024, seed: 4)
    let results = inputs.map { try! parser.parse($0) }
    var writer = JSONWriter(capacity: 4096)
    let ns = measure(iterations: 200_000) { i in
        writer.reset()
        writer.beginObject()
        results[i & 1023].writeJSONMembers(to: &writer)
        writer.endObject()
        return writer.count
    }
    report("JSON writer (one result)", ns, "ns/MRZ", fastest: lastFastest)
}

if wanted("aamva") {
    // Payloads of about 500 bytes: our version 10/11 licences and Virginia's published sample.
    let files = ProcessInfo.processInfo.environment["IDKIT_AAMVA_FILES"].map { $0.split(separator: ",").map(String.init) }
        ?? ["TestVectors/aamva/generated/v10-dl-va.bin", "TestVectors/aamva/generated/v11-dl-ca.bin",
            "TestVectors/aamva/public/aamva-rs__VA-21.txt", "TestVectors/aamva/public/py-aamva__PDF417_ca.txt"]
    let payloads = files.compactMap { FileManager.default.contents(atPath: $0).map { Array($0) } }
    if payloads.count == files.count, !payloads.isEmpty {
        let aamva = AAMVAParser()
        let meanSize = payloads.reduce(0) { $0 + $1.count } / payloads.count
        // Parse and check (fields are made on first read), then the same with every field made.
        let ns = measure(iterations: 100_000) { i in
            (try? aamva.parse(payloads[i % payloads.count]))?.warnings.count ?? 0
        }
        report("AAMVA parse (\(meanSize)-byte payloads)", ns, "ns/payload", target: "≤ 3000 ns", fastest: lastFastest)
        let nsFields = measure(iterations: 50_000) { i in
            (try? aamva.parse(payloads[i % payloads.count]))?.fields.documentNumber?.utf8.count ?? 0
        }
        report("  + all fields made", nsFields, "ns/payload", fastest: lastFastest)
        let damaged = ["TestVectors/aamva/generated/damaged-v08-wedge.bin", "TestVectors/aamva/generated/damaged-v08-crlf.bin",
                       "TestVectors/aamva/generated/damaged-v08-offset-sc.bin", "TestVectors/aamva/generated/damaged-v08-stray-c1.bin"]
            .compactMap { FileManager.default.contents(atPath: $0).map { Array($0) } }
        let nsDamaged = measure(iterations: 50_000) { i in
            (try? aamva.parse(damaged[i & 3]))?.warnings.count ?? 0
        }
        report("AAMVA parse (damaged payloads)", nsDamaged, "ns/payload", fastest: lastFastest)
    } else {
        print("AAMVA parse: run from the repository root (TestVectors/aamva not found)")
    }
}

if wanted("merge") || wanted("bac") {
    // The TD3 specimen, the seeded Virginia licence and two VIZ sides: every rule of the merge runs.
    let mrz = try! parser.parse("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10")
    if let barcode = FileManager.default.contents(atPath: "TestVectors/aamva/generated/v10-dl-va.bin").map({ Array($0) }) {
        let front = VIZReading([.lastName: "GARCIA", .firstName: "James Lee", .dateOfBirth: "03/16/1951", .documentNumber: "Y17895625"])
        let back = VIZReading([.address: "8721 ELM ST, ALBANY, VA 77837", .dateOfIssue: "09/20/2023"])
        let merger = DocumentMerger(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
        if let n = ProcessInfo.processInfo.environment["IDKIT_MERGE_LOOP"].flatMap(Int.init) {
            // For profiles: the merge alone, n times.
            var total = 0
            let m = ProcessInfo.processInfo.environment["IDKIT_MERGE_REDACT"] == nil ? merger
                : DocumentMerger(referenceDate: merger.referenceDate,
                                 redaction: .fixed(RedactionSettings(mode: .fullResult, fields: [.documentNumber, .dateOfBirth, .lastName])))
            for _ in 0..<n { total &+= m.merge(mrz: mrz, barcode: barcode, vizFront: front, vizBack: back).fields.count }
            print(total)
            exit(0)
        }
        if wanted("merge") {
            let ns = measure(iterations: 5_000) { _ in
                merger.merge(mrz: mrz, barcode: barcode, vizFront: front, vizBack: back).fields.count
            }
            report("merge MRZ+barcode+VIZ", ns, "ns/merge", fastest: lastFastest)
            let redacting = DocumentMerger(referenceDate: CalendarDate(year: 2025, month: 1, day: 1),
                                           redaction: .fixed(RedactionSettings(mode: .fullResult, fields: [.documentNumber, .dateOfBirth, .lastName])))
            let nsRedacted = measure(iterations: 5_000) { _ in
                redacting.merge(mrz: mrz, barcode: barcode, vizFront: front, vizBack: back).redacted.count
            }
            report("  + redaction of 3 fields", nsRedacted, "ns/merge", fastest: lastFastest)
        }
    } else {
        print("merge: run from the repository root (TestVectors/aamva not found)")
    }
    if wanted("bac") {
        let information = try! MRZInformation(mrz: mrz)
        let ns = measure(iterations: 100_000) { _ in BACKeys(information).kEnc.count }
        report("BAC keys (K_seed, K_enc, K_mac)", ns, "ns/keys", fastest: lastFastest)
        let nsInfo = measure(iterations: 100_000) { _ in BACKeys(try! MRZInformation(mrz: mrz)).kMac.count }
        report("  from the parsed MRZ", nsInfo, "ns/keys", fastest: lastFastest)
    }
}

/// Runs a program with stdin and stdout redirected to files; returns its exit status and its own
/// peak resident memory in KiB (from `wait4`, which reports that child alone).
func spawnAndWait(_ path: String, _ arguments: [String], stdin: String, stdout: String) -> (Int32, Int) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return (-1, 0) }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    return ((status >> 8) & 0xFF, usage.ru_maxrss)
}

/// `idkit validate --json -` over a generated stream: throughput and the child's peak memory.
func streamBenchmark(count: Int) {
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let idkit = me.deletingLastPathComponent().appendingPathComponent("idkit")
    guard FileManager.default.isExecutableFile(atPath: idkit.path) else {
        print("stream: idkit binary not found next to idkit-bench; run swift build -c release"); return
    }
    let path = NSTemporaryDirectory() + "idkit-stream-v2-\(count).txt"
    if !FileManager.default.fileExists(atPath: path) {
        let make = Process()
        make.executableURL = me
        make.arguments = ["make-stream", String(count)]
        FileManager.default.createFile(atPath: path, contents: nil)
        make.standardOutput = FileHandle(forWritingAtPath: path)
        try! make.run()
        make.waitUntilExit()
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    var best = Double.infinity
    var childPeak = 0
    for _ in 0..<3 {
        let start = now()
        let (status, peakKiB) = spawnAndWait(idkit.path, ["validate", "--json", "--reference-date", "2025-01-01", "-"],
                                             stdin: path, stdout: "/dev/null")
        best = min(best, Double(now() - start) / 1e9)
        childPeak = max(childPeak, peakKiB)
        if status != 0 { print("stream: idkit exited with \(status)") }
    }
    report("idkit validate --json, \(count / 1000)k MRZs", Double(count) / best, "MRZs/s", target: "≥ 500,000")
    report("  input size / wall time", Double(size) / 1e6, "MB in \(String(format: "%.2f", best)) s")
    report("  peak RSS of idkit", Double(childPeak) / 1024, "MiB")
}

if wanted("stream") {
    streamBenchmark(count: streamCount / 10)
    streamBenchmark(count: streamCount)
}
report("peak RSS of idkit-bench", Double(peakRSSKiB()) / 1024, "MiB")
