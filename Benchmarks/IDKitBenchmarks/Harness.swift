// The timing harness of idkit-bench (after swift-nio's NIOPerformanceTester: warm up, run several
// rounds, report the median and the fastest), the data it times, and the table entry of a timed
// benchmark. The areas are in their own files: MRZBench, AAMVABench, DocumentBench; the tools in
// Tools.swift; the image tables in ScanBench, RealScanBench and BarcodeBench.

import Foundation
import IDKitMRZ

#if canImport(Glibc)
import Glibc
#endif

/// A timed benchmark of the table in main.swift: the names a filter on the command line matches,
/// and the run, told which of its parts are wanted.
struct TimedBenchmark {
    let names: [String]
    let run: (_ wanted: (String) -> Bool) -> Void
}

/// The parser every MRZ benchmark uses (reference date fixed, so results do not drift).
let benchParser = MRZParser(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))

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
