import IDKitAAMVA
import IDKitChip
public import IDKitCore
import IDKitDocument
import IDKitImage
import IDKitMRZ
import IDKitVIZ

/// The error object of the C interface (``CABI/result(_:)``), described for docs/schemas.
public enum CABISchemas {
    /// `{"error": {"kind", "message", "line", "column", "offset"}}`: the kind of the module error
    /// the call met, or the interface's own (`invalidOptions`, `invalidArgument`, `modelUnavailable`,
    /// `internal`); `line` and `column` for MRZ text, `offset` for AAMVA payloads, `null` otherwise.
    public static var error: JSONSchema {
        let own = ["invalidOptions", "invalidArgument", "modelUnavailable", "internal"]
        let kinds = MRZError.Kind.allCases.map(\.rawValue) + AAMVAError.Kind.allCases.map(\.rawValue)
            + ImageError.Kind.allCases.map(\.rawValue) + DocumentError.Kind.allCases.map(\.rawValue)
            + ChipError.Kind.allCases.map(\.rawValue) + VIZError.Kind.allCases.map(\.rawValue) + own
        return .object(["error": .object([
            "kind": .string(oneOf: Array(Set(kinds)).sorted()), "message": .string,
            "line": JSONSchema.integer.orNull, "column": JSONSchema.integer.orNull, "offset": JSONSchema.integer.orNull,
        ])])
    }
}
