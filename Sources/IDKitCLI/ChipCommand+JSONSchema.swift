import IDKitChip
public import IDKitCore
import IDKitMRZ

/// What `idkit chip verify --json` and `idkit chip apdu --json` print (ChipCommand.swift).
public enum ChipSchemas {
    /// `idkit chip verify --json`: passive authentication, each data group read (or its error in its
    /// place), EF.CardSecurity, the printed MRZ against DG1, active authentication.
    public static var verify: JSONSchema {
        let images = JSONSchema.array(.object(["imageType": .string, "width": .integer, "height": .integer]))
        let securityInfos = JSONSchema.object(["securityInfos": SecurityInfos.jsonSchema])
        let details = JSONSchema.object(["otherNames": .array(.string), "otherPersons": .array(.string)],
                                        optional: ["otherNames", "otherPersons"])
            .with("additionalProperties", ["type": "string"])
            .described("every element read, by name, and the list of other names (DG11) or persons (DG12)")
        func orError(_ schema: JSONSchema) -> JSONSchema { .anyOf([schema, LDSError.jsonSchema]) }
        let groups = JSONSchema.object([
            "COM": orError(.object(["ldsVersion": .string, "unicodeVersion": .string, "dataGroups": .array(.string)])),
            "CardAccess": orError(securityInfos),
            "DG1": orError(MRZResult.jsonSchema),
            "DG2": orError(.object(["faces": images])),
            "DG7": orError(.object(["images": images])),
            "DG11": orError(details), "DG12": orError(details),
            "DG14": orError(securityInfos),
            "DG15": orError(.object(["algorithm": .string, "bits": .integer, "curve": JSONSchema.string.orNull])),
        ], optional: ["COM", "CardAccess", "DG1", "DG2", "DG7", "DG11", "DG12", "DG14", "DG15"])
        return .object([
            "passiveAuthentication": PassiveAuthentication.jsonSchema,
            "dataGroups": groups.described("the files given, each read, or its error in its place"),
            "cardSecurity": CardSecurity.jsonSchema.orNull,
            "mrzMatchesChip": JSONSchema.boolean.orNull.described("the printed MRZ (--mrz) equals DG1's; null without both"),
            "activeAuthentication": JSONSchema.object(["result": PassiveAuthentication.checkSchema, "reason": .string],
                                                      optional: ["reason"]).orNull,
            "warnings": .array(.string),
        ])
    }

    /// `idkit chip apdu --json`: the protected command when wrapping, the answer's data and status
    /// word when unwrapping; the send sequence counter after it either way (hex).
    public static var apdu: JSONSchema {
        let hex = JSONSchema.string.with("pattern", "^[0-9A-F]*$")
        return .anyOf([.object(["apdu": hex, "ssc": hex]), .object(["data": hex, "status": hex, "ssc": hex])])
    }
}
