import Foundation
import Testing
import IDKitTestSupport

/// libidkit's C interface from C: `c/abi_test.c` is compiled against `idkit.h` alone
/// with the system C compiler, linked to the built library as `-lidkit`, and run; it checks a
/// result of every function, the error statuses and calls from four threads. Under
/// AddressSanitizer or ThreadSanitizer (`make sanitizers`, the library instrumented) the program is
/// compiled by the toolchain's clang with the same sanitizer, whose runtime the library needs.
@Suite struct CABITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built library (`swift build` makes the `IDKitC` product next to the test bundle).
    static var library: URL? {
        // Not Bundle.allBundles: Foundation leaks the array it builds (LeakSanitizer in make sanitizers).
        let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent("libIDKitC.so") }.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func aCProgramCallsEveryFunctionThroughTheHeader() throws {
        let library = try #require(Self.library, "libIDKitC.so is not next to the test bundle: run 'swift build' (make test does) first")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-abi-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        // The name users link with: libidkit.so (SwiftPM names the product after its own name).
        try FileManager.default.createSymbolicLink(at: work.appendingPathComponent("libidkit.so"), withDestinationURL: library)
        // A library built with a sanitizer needs its runtime in the program: the toolchain's clang
        // with the same sanitizer (the system cc's runtimes are not the toolchain's).
        let image = try Data(contentsOf: library)
        let sanitizer = ["address", "thread"].first { image.range(of: Data("__\($0 == "address" ? "asan" : "tsan")_init".utf8)) != nil }
        let compiler = sanitizer == nil ? "cc" : "/opt/swift/usr/bin/clang"
        let program = work.appendingPathComponent("abi_test").path
        var flags = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-I", Self.root.appendingPathComponent("Sources/CIDKit/include").path,
                     Self.root.appendingPathComponent("Tests/IDKitCABITests/c/abi_test.c").path, "-o", program,
                     "-L", work.path, "-lidkit", "-Wl,-rpath," + work.path, "-lpthread"]
        if let sanitizer { flags = ["-fsanitize=\(sanitizer)"] + flags }
        // The toolchain's ThreadSanitizer runtime intercepts libdispatch and Blocks, which are the
        // toolchain's own libraries on Linux.
        if sanitizer == "thread" {
            flags += ["-L/opt/swift/usr/lib/swift/linux", "-ldispatch", "-lBlocksRuntime", "-Wl,-rpath,/opt/swift/usr/lib/swift/linux"]
        }
        let compiled = try Self.run(compiler, flags)
        #expect(compiled.status == 0, "\(compiler) failed: \(compiled.output)")
        guard compiled.status == 0 else { return }

        let vectors = Self.root.appendingPathComponent("TestVectors")
        // A PNG declaring 7000 × 7000 pixels, over the 40 MP limit: tooLarge from every call.
        let big = work.appendingPathComponent("7000x7000.png")
        try Data(DeclaredSizePNG.bytes(width: 7000, height: 7000)).write(to: big)
        let result = try Self.run(program, [vectors.appendingPathComponent("aamva/generated/v10-dl-va.bin").path,
                                            vectors.appendingPathComponent("pdf417/images/blur-00.png").path,
                                            vectors.appendingPathComponent("images/clean-00-td3.jpg").path, big.path,
                                            vectors.appendingPathComponent("viz/card-a-back.png").path,
                                            vectors.appendingPathComponent("viz/card-b-front.png").path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("ok 30 checks"), "\(result.output)")
    }

    /// The Arrow export from C (`c/arrow_test.c`), read back without an Arrow library, always under
    /// AddressSanitizer (the toolchain's clang; ThreadSanitizer when the library is built with it):
    /// a buffer freed twice or read after its release fails the run, and LeakSanitizer fails it at
    /// exit for any buffer a release left behind.
    @Test func theArrowExportIsReadBackFromCUnderAddressSanitizer() throws {
        let library = try #require(Self.library, "libIDKitC.so is not next to the test bundle: run 'swift build' (make test does) first")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-arrow-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.createSymbolicLink(at: work.appendingPathComponent("libidkit.so"), withDestinationURL: library)
        let thread = try Data(contentsOf: library).range(of: Data("__tsan_init".utf8)) != nil
        let program = work.appendingPathComponent("arrow_test").path
        var flags = ["-fsanitize=\(thread ? "thread" : "address")", "-g", "-std=c11", "-Wall", "-Wextra", "-Werror",
                     "-I", Self.root.appendingPathComponent("Sources/CIDKit/include").path,
                     Self.root.appendingPathComponent("Tests/IDKitCABITests/c/arrow_test.c").path, "-o", program,
                     "-L", work.path, "-lidkit", "-Wl,-rpath," + work.path]
        if thread {
            flags += ["-L/opt/swift/usr/lib/swift/linux", "-ldispatch", "-lBlocksRuntime", "-Wl,-rpath,/opt/swift/usr/lib/swift/linux"]
        }
        let compiled = try Self.run("/opt/swift/usr/bin/clang", flags)
        #expect(compiled.status == 0, "clang failed: \(compiled.output.suffix(2000))")
        guard compiled.status == 0 else { return }
        let payload = Self.root.appendingPathComponent("TestVectors/aamva/generated/v10-dl-va.bin").path
        let result = try Self.run(program, [payload])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("ok 136 checks"), "\(result.output)")
        #expect(!result.output.contains("LeakSanitizer") && !result.output.contains("AddressSanitizer"), "\(result.output)")
    }
}
