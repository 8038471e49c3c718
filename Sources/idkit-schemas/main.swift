import Foundation
import IDKitSchemas

// `idkit-schemas [DIR]`: writes the schema files into DIR (docs/schemas).
exit(SchemaWriter.main(Array(CommandLine.arguments.dropFirst())))
