// idkit-bench: measures IDKit in a release build (after swift-nio's NIOPerformanceTester: warm up,
// run several rounds, report the median, filter by name, refuse debug builds).
//
//   swift build -c release && .build/release/idkit-bench [NAME…] [--stream N]
//   .build/release/idkit-bench TOOL ARGS…    (Tools.swift: make-stream, loop, aamva-loop, scan-images,
//                                            scan-real, barcode-images, …, each with its usage)

import Foundation

// Debian's Tesseract (the visual zone) runs its LSTM in OpenMP teams of a fixed size that only
// OMP_THREAD_LIMIT caps, read once when libgomp loads, before any of this runs: unset, a page
// costs several times the work, and the figures would not be what `idkit` (which sets it) costs.
// So the bench starts itself again with it set, as `idkit` does, unless the caller set it.
if getenv("OMP_THREAD_LIMIT") == nil {
    setenv("OMP_THREAD_LIMIT", "1", 1)
    var argv: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) } + [nil]
    execv("/proc/self/exe", &argv)
    FileHandle.standardError.write(Data("idkit-bench: cannot start again with OMP_THREAD_LIMIT=1 (\(String(cString: strerror(errno)))); the VIZ timings count Tesseract's OpenMP teams\n".utf8))
}

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

var streamCount = 1_000_000
if let i = arguments.firstIndex(of: "--stream"), i + 1 < arguments.count, let n = Int(arguments[i + 1]) {
    streamCount = n
    arguments.removeSubrange(i...(i + 1))
}
let filters = arguments
func wanted(_ name: String) -> Bool { filters.isEmpty || filters.contains { name.contains($0) } }

/// The timed benchmarks, in the order they run; a name on the command line runs those it matches.
let timed: [TimedBenchmark] = [
    TimedBenchmark(names: ["parse+validate TD1", "parse+validate TD2", "parse+validate TD3", "parse+validate TD3 bytes"], run: MRZBench.parse),
    TimedBenchmark(names: ["correct"], run: MRZBench.correct),
    TimedBenchmark(names: ["json"], run: MRZBench.json),
    TimedBenchmark(names: ["aamva"], run: AAMVABench.parse),
    TimedBenchmark(names: ["merge", "bac"], run: DocumentBench.mergeAndBAC),
    TimedBenchmark(names: ["stream"]) { _ in
        MRZBench.streamBenchmark(count: streamCount / 10)
        MRZBench.streamBenchmark(count: streamCount)
    },
]

print("IDKit benchmarks (release build; micro-benchmarks on one core, median of 7 rounds [fastest round];")
print("the stream uses every core, as idkit does)")
for benchmark in timed where benchmark.names.contains(where: wanted) { benchmark.run(wanted) }
report("peak RSS of idkit-bench", Double(peakRSSKiB()) / 1024, "MiB")
