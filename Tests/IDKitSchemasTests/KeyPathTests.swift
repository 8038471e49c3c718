import Foundation
import IDKitCore
import IDKitSchemas
import Testing

/// Every key path the contract tests keep (TestVectors/contracts/*.keys, made from real output) is
/// a member the contract's schema describes: the schema and the golden key lists cannot disagree.
struct KeyPathTests {
    static let contracts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../TestVectors/contracts").standardizedFileURL.path

    @Test(arguments: [("scan.keys", "scan.schema.json"), ("barcode.keys", "barcode.schema.json")])
    func everyKeyPathIsDescribed(keys: String, schemaFile: String) throws {
        let file = try #require(ContractSchemas.files.first { $0.name == schemaFile })
        let document = file.schema.document(title: file.title, description: file.description)
        let paths = try String(contentsOfFile: Self.contracts + "/" + keys, encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(!paths.isEmpty)
        #expect(Self.resolve("barcodes[].noSuchMember", in: document) == nil, "the walk finds what is not there")
        for path in paths {
            #expect(Self.resolve(String(path), in: document) != nil, "\(keys): \(path) is not in \(schemaFile)")
        }
    }

    /// The schemas `path` leads to (`a.b[].c`: members and array elements), through `$ref` and
    /// `anyOf`; `nil` when one step is described by none of them.
    static func resolve(_ path: String, in document: JSONValue) -> [JSONValue]? {
        var nodes = [document]
        for segment in path.split(separator: ".") {
            var name = Substring(segment), arrays = 0
            while name.hasSuffix("[]") { name = name.dropLast(2); arrays += 1 }
            nodes = nodes.flatMap { expand($0, document) }.compactMap { $0["properties"]?[String(name)] }
            for _ in 0..<arrays { nodes = nodes.flatMap { expand($0, document) }.compactMap { $0["items"] } }
            if nodes.isEmpty { return nil }
        }
        return nodes
    }

    /// A schema and, for a reference or a choice, the schemas it stands for.
    static func expand(_ node: JSONValue, _ document: JSONValue) -> [JSONValue] {
        if case .string(let ref)? = node["$ref"], ref.hasPrefix("#/$defs/"), let target = document["$defs"]?[String(ref.dropFirst(8))] {
            return expand(target, document)
        }
        if case .array(let choices)? = node["anyOf"] { return [node] + choices.flatMap { expand($0, document) } }
        return [node]
    }
}
