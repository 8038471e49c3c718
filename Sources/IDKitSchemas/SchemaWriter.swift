import Foundation

/// `idkit-schemas [DIR]` (`make schemas`): writes every file of ``ContractSchemas/files`` into DIR
/// (default docs/schemas) and removes schema files no contract makes any more, so that the folder
/// is exactly what the descriptions say.
public enum SchemaWriter {
    public static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count <= 1, !(arguments.first ?? "").hasPrefix("-") else {
            FileHandle.standardError.write(Data("usage: idkit-schemas [DIR]   (default docs/schemas)\n".utf8))
            return 64
        }
        let directory = arguments.first ?? "docs/schemas"
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let files = ContractSchemas.files
            for stale in try manager.contentsOfDirectory(atPath: directory)
            where stale.hasSuffix(".schema.json") && !files.contains(where: { $0.name == stale }) {
                try manager.removeItem(atPath: directory + "/" + stale)
            }
            for file in files {
                try Data(file.text.utf8).write(to: URL(fileURLWithPath: directory + "/" + file.name))
            }
            print("wrote \(files.count) schemas into \(directory)")
            return 0
        } catch {
            FileHandle.standardError.write(Data("idkit-schemas: \(directory): \(error.localizedDescription)\n".utf8))
            return 73
        }
    }
}
