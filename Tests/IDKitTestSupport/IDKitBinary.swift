import Foundation

/// Runs the built `idkit` binary, as a user would (after swift-argument-parser's `AssertExecuteCommand`).
public enum IDKitBinary {
    public static let url: URL = {
        var candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        candidates += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for dir in candidates {
            let url = dir.appendingPathComponent("idkit")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        fatalError("idkit binary not found next to the test bundle (\(candidates.map(\.path))); run 'swift build' first")
    }()

    public struct Output: Sendable { public var status: Int32; public var stdout: String; public var stderr: String }

    /// `environment`: variables set for this run on top of the test's own.
    public static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
                      stderr: String(decoding: stderrData, as: UTF8.self))
    }
}
