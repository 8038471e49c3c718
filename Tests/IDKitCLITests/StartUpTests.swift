import Foundation
import Testing
import IDKitTestSupport

/// `idkit` runs the subcommands that decode no image (validate, aamva) itself and links no image,
/// barcode, crypto or HTTP library, so that it starts as fast as a program that only prints; it
/// hands every other subcommand to `idkit-full` beside it (execv: the same process, streams and
/// exit status). Timing is `make bench-startup`'s; these check the design.
@Suite struct StartUpTests {
    /// The shared libraries a program needs (its ELF DT_NEEDED entries, through ldd).
    static func libraries(_ path: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    static let heavy = ["opencv", "png", "jpeg", "tiff", "webp", "heif", "gif", "openjp2", "zbar", "ZXing", "crypto", "microhttpd"]

    @Test func idkitLinksNoImageLibrary() throws {
        let light = try Self.libraries(IDKitBinary.url.path)
        #expect(!light.isEmpty)
        for name in Self.heavy { #expect(!light.contains { $0.contains(name) }, "idkit needs \(name): \(light)") }
        // The full program has them: the check above looks at the right names.
        let full = try Self.libraries(IDKitBinary.url.deletingLastPathComponent().appendingPathComponent("idkit-full").path)
        #expect(full.contains { $0.contains("opencv") } && full.contains { $0.contains("crypto") })
    }

    @Test func imageSubcommandsAreHandedOver() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scan = try IDKitBinary.run(["scan", "--json", root.appendingPathComponent("TestVectors/images/clean-00-td3.jpg").path])
        #expect(scan.status == 0)
        #expect(scan.stdout.contains(#""status":"ok""#))
        // Its usage errors and exit statuses are the full program's, as if it ran here.
        let bad = try IDKitBinary.run(["scan", "--no-such-flag"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("idkit scan"))
        // Help for every subcommand comes from idkit itself.
        let help = try IDKitBinary.run(["help", "scan"])
        #expect(help.status == 0 && help.stdout.hasPrefix("idkit scan"))
    }

    @Test func withoutTheFullProgramTheSubcommandSaysWhatIsMissing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-alone-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let alone = dir.appendingPathComponent("idkit")
        try FileManager.default.copyItem(at: IDKitBinary.url, to: alone)
        let process = Process()
        process.executableURL = alone
        process.arguments = ["scan", "x.jpg"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 70)
        #expect(message.contains("idkit: 'scan' runs in idkit-full, which cannot be run"))
        #expect(message.contains(dir.appendingPathComponent("idkit-full").path))
    }
}
