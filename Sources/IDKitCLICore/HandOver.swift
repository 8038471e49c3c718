import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension IDKitCommand {
    /// The program that runs the subcommands the `idkit` executable does not (``textRunners``):
    /// beside it (the build folder, or `PREFIX/bin`), or in `PREFIX/libexec/idkit`.
    package static let fullProgram = "idkit-full"

    /// Whether `arguments` name a subcommand this executable hands to ``fullProgram``.
    package static func needsFullProgram(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return false }
        return textRunners[first] == nil && subcommands.contains { $0.name == first }
    }

    /// Replaces this process with ``fullProgram`` running `arguments` (execv: the same process,
    /// standard streams and environment). Returns only when no such program can be run, with
    /// the exit status after the message on standard error.
    package static func handOver(_ arguments: [String]) -> Int32 {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let bin = URL(fileURLWithPath: me).deletingLastPathComponent()
        let candidates = [bin.appendingPathComponent(fullProgram).path,
                          bin.deletingLastPathComponent().appendingPathComponent("libexec/idkit/\(fullProgram)").path]
        var tried: [String] = []
        // Debian's Tesseract (the visual zone) runs its LSTM in teams of OpenMP threads with a
        // fixed size, which only this variable caps; read once, when libgomp loads. On one page
        // the teams cost several times the work (Benchmarks/RESULTS.md), so a caller's own
        // setting aside, each recognition runs on its calling thread.
        setenv("OMP_THREAD_LIMIT", "1", 0)
        for path in candidates where access(path, X_OK) == 0 {
            var argv: [UnsafeMutablePointer<CChar>?] = (["idkit"] + arguments).map { strdup($0) } + [nil]
            execv(path, &argv)
            tried.append("\(path): \(String(cString: strerror(errno)))")
            for p in argv { free(p) }
        }
        let io = StandardIO()
        io.err.write("idkit: '\(arguments[0])' runs in \(fullProgram), which cannot be run: "
                     + (tried.isEmpty ? "it is neither at \(candidates.joined(separator: " nor at "))" : tried.joined(separator: "; ")) + "\n")
        io.err.flush()
        return ExitStatus.software.rawValue
    }
}
