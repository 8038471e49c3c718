import Foundation

/// IDKit's own test PKI (TestVectors/chip/make_pki.sh, made with the `openssl` command), made once
/// per test process into a temporary folder and shared by the suites of every test target that
/// verifies chip files: the CSCAs, a Document Signer per algorithm, EF.SODs and data groups.
public enum TestPKI {
    /// The repository's root (the folder of Package.swift).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder make_pki.sh wrote, `nil` when it failed (it needs openssl and python3).
    public static let directory: URL? = {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-pki-\(getpid())")
        let p = Process()
        p.executableURL = root.appendingPathComponent("TestVectors/chip/make_pki.sh")
        p.arguments = [out.path]
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        p.waitUntilExit()
        return p.terminationStatus == 0 ? out : nil
    }()

    /// The bytes of a file of the PKI (`"EF_DG1.bin"`, `"sod/document.bin"`).
    public static func bytes(_ name: String) throws -> [UInt8] {
        guard let directory else { throw CocoaError(.fileNoSuchFile) }
        return Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The whole document's files (`sod/document.bin`: DG1, a JPEG 2000 face in DG2, DG11, DG12,
    /// DG15), by the names a phone app gives them.
    public static let documentFiles: [(name: String, file: String)] = [
        ("EF_SOD.bin", "sod/document.bin"), ("EF_DG1.bin", "EF_DG1.bin"), ("EF_DG2.bin", "EF_DG2.bin"),
        ("EF_DG11.bin", "EF_DG11.bin"), ("EF_DG12.bin", "EF_DG12.bin"), ("EF_DG15.bin", "EF_DG15.bin"),
    ]
}
