import IDKitAAMVA
import IDKitChip
public import IDKitCore
import IDKitDocument
import IDKitImage
import IDKitVIZ
import IDKitScan

extension Problem: JSONSchemaDescribed {
    /// What ``Problem/response(headers:)`` writes: RFC 9457 problem details, with the `kind` of
    /// the module error behind it, the byte `offset` of an AAMVA error and the `scanStatus` of a
    /// scan that found no document.
    static var jsonSchema: JSONSchema {
        let kinds = ImageError.Kind.allCases.map(\.rawValue) + AAMVAError.Kind.allCases.map(\.rawValue)
            + DocumentError.Kind.allCases.map(\.rawValue) + ChipError.Kind.allCases.map(\.rawValue)
            + VIZError.Kind.allCases.map(\.rawValue) + ["modelUnavailable", "invalidOptions"]
        return .object([
            "type": JSONSchema.string.with("pattern", "^urn:idkit:problem:[a-z0-9-]+$"),
            "title": .string, "status": .integer, "detail": .string,
            "kind": .string(oneOf: Array(Set(kinds)).sorted()),
            "offset": .integer,
            "scanStatus": .string(of: ScanStatus.self),
        ], optional: ["kind", "offset", "scanStatus"]).named("Problem")
    }
}

/// The schemas the service answers with, for docs/schemas beside the OpenAPI document.
public enum ServiceSchemas {
    public static var problem: JSONSchema { Problem.jsonSchema }
}
