import Foundation
import IDKitImage

#if IDKIT_FUZZING
/// libFuzzer's entry point; the harness comes from IDKIT_FUZZ_TARGET (mrz, aamva, merge, image, scan, chip).
let selectedHarness: Harness = {
    let name = ProcessInfo.processInfo.environment["IDKIT_FUZZ_TARGET"] ?? ""
    guard let harness = Harness(rawValue: name) else {
        fatalError("set IDKIT_FUZZ_TARGET to one of \(Harness.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return harness
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    selectedHarness.run(bytes)
    return 0
}

/// libFuzzer's driver, called from the entry point SwiftPM gives an executable target
/// (`IDKitFuzz_main`), since the package links that rather than libFuzzer's own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@_cdecl("IDKitFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var vector = argv
    return LLVMFuzzerRunDriver(&count, &vector) { data, size in fuzzOneInput(data, size) }
}
#else
/// Without libFuzzer: `idkit-fuzz replay TARGET FILE|DIR…` runs a harness over saved inputs (the
/// regression cases in TestVectors/fuzz), and `idkit-fuzz seeds DIR` writes the seed corpora.
@main
struct FuzzReplay {
    static func main() {
        let args = Array(CommandLine.arguments.dropFirst())
        if args.first == "seeds", args.count == 2 {
            Seeds.write(into: args[1])
            return
        }
        // `idkit-fuzz loop HARNESS FILE N`: one input N times (for LeakSanitizer over many runs).
        if args.first == "loop", args.count == 4, let harness = Harness(rawValue: args[1]), let n = Int(args[3]),
           let data = FileManager.default.contents(atPath: args[2]) {
            let bytes = Array(data)
            for _ in 0..<n { harness.run(bytes) }
            print("\(harness.rawValue): \(n) runs of \(args[2]), no failure")
            return
        }
        guard args.count >= 3, args[0] == "replay", let harness = Harness(rawValue: args[1]) else {
            FileHandle.standardError.write(Data("usage: idkit-fuzz replay mrz|aamva|merge|image|scan|chip FILE|DIR… | seeds DIR | loop HARNESS FILE N\n".utf8))
            exit(64)
        }
        var count = 0
        for path in args.dropFirst(2) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            let files = isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 } : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                harness.run(Array(data))
                count += 1
            }
        }
        print("\(harness.rawValue): \(count) inputs replayed, no failure")
    }
}
#endif
