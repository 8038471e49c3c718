import Foundation
import Testing
import IDKitTestSupport

/// The version is written in one place, Sources/IDKitCore/Version.swift. What repeats
/// it must agree: the built `idkit --version`, python/pyproject.toml (the installed Python package's
/// version, which python/tests checks against the library's `idkit_version()`), and no other version number in idkit.h.
/// The installed idkit.pc and man pages are checked against the installed `idkit --version` by
/// scripts/check-install (`make install-test`).
@Suite struct VersionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The first capture of `pattern` in `text`, per line (anchors match at line breaks).
    static func capture(_ pattern: String, in text: String) throws -> String? {
        let regex = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range])
    }

    /// The version as the Makefile reads it (the line `public static let string = "X.Y.Z"`).
    static func sourceVersion() throws -> String {
        let version = try capture(#"^ *public static let string = "([^"]*)""#, in: text("Sources/IDKitCore/Version.swift"))
        return try #require(version, "Version.swift has no line 'public static let string = \"…\"' (the Makefile reads that line)")
    }

    @Test func theSourceVersionIsSemantic() throws {
        let version = try Self.sourceVersion()
        #expect(version.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+$"#, options: .regularExpression) != nil, "\(version)")
    }

    @Test func theProgramSaysTheSourceVersion() throws {
        let output = try IDKitBinary.run(["--version"])
        #expect(output.status == 0)
        #expect(output.stdout == "idkit \(try Self.sourceVersion())\n")
    }

    @Test func thePythonPackageHasTheSourceVersion() throws {
        let pyproject = try Self.capture(#"^version *= *"([^"]*)""#, in: Self.text("python/pyproject.toml"))
        #expect(pyproject == (try Self.sourceVersion()), "python/pyproject.toml's version differs from Sources/IDKitCore/Version.swift")
        // __version__ is read from the installed package's metadata, not written a second time.
        let initFile = try Self.text("python/idkit/__init__.py")
        #expect(try Self.capture(#"^__version__[^=]*= *["']([^"']*)["']"#, in: initFile) == nil,
                "python/idkit/__init__.py writes __version__ as a literal; it takes the installed package's")
    }

    @Test func theHeaderNamesNoOtherVersion() throws {
        let header = try Self.text("Sources/CIDKit/include/idkit.h")
        let version = try Self.sourceVersion()
        let regex = try NSRegularExpression(pattern: #""([0-9]+\.[0-9]+\.[0-9]+)""#)
        let quoted = regex.matches(in: header, range: NSRange(header.startIndex..., in: header))
            .compactMap { Range($0.range(at: 1), in: header).map { String(header[$0]) } }
        #expect(quoted.allSatisfy { $0 == version }, "idkit.h names version \(quoted), the source says \(version)")
    }
}
