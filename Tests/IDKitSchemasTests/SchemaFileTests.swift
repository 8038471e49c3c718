import Foundation
import IDKitCore
import IDKitSchemas
import Testing

/// The committed docs/schemas are what the descriptions make (`make schemas` rewrites them), so
/// that a change to a contract's description cannot leave its file behind.
struct SchemaFileTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/schemas").standardizedFileURL.path

    @Test(arguments: ContractSchemas.files.map(\.name))
    func committedFileIsGenerated(name: String) throws {
        let file = try #require(ContractSchemas.files.first { $0.name == name })
        let committed = try String(contentsOfFile: Self.directory + "/" + name, encoding: .utf8)
        #expect(committed == file.text, "docs/schemas/\(name) differs from its description: run make schemas")
    }

    @Test func noOtherSchemaFiles() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory).filter { $0.hasSuffix(".schema.json") }
        #expect(Set(names) == Set(ContractSchemas.files.map(\.name)))
    }
}
