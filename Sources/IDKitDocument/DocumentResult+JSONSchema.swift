public import IDKitCore
import IDKitChip

/// What ``DocumentResult`` encodes: `idkit merge --json`, `POST /v1/merge`, `idkit_merge`, and the
/// `document` of each scanned document.
extension DocumentResult: JSONSchemaDescribed {
    public static var jsonSchema: JSONSchema {
        let text = JSONSchema.string.orNull
        let source = JSONSchema.string(of: DocumentSource.self)
        let field = JSONSchema.object([
            "value": text.described("null when no source has the field, \"\" when every source that has it has it empty"),
            "source": source.orNull,
            "readings": JSONSchema.map(.string, keys: DocumentSource.allCases.map(\.rawValue)).described("each source's own reading"),
        ]).named("DocumentField")
        var fields = JSONSchema.object([:])
        for name in DocumentFieldName.allCases { fields = fields.adding([name.rawValue: field]) }
        let state = JSONSchema.string(of: DataMatchState.self)
        let flag = JSONSchema.boolean.orNull
        return .object([
            "fields": fields.described("every field, always; dates in ISO 8601 (an MRZ birth date with unknown parts gives YYYY-MM or YYYY)"),
            "documentClass": JSONSchema.object([
                "country": text, "region": text, "type": JSONSchema.string(of: DocumentClass.DocumentType.self).orNull,
            ]).orNull,
            "dataMatch": .object([
                "documentNumber": state, "dateOfBirth": state, "dateOfExpiry": state, "wholeDocument": state,
                "lastName": state, "firstName": state, "sex": state,
            ]),
            "derived": .object([
                "referenceDate": JSONSchema.string.with("format", "date"), "age": JSONSchema.integer.orNull,
                "isUnder18": flag, "isUnder21": flag, "isExpired": flag, "isPermanentExpiry": flag,
            ]),
            "chipAccess": JSONSchema.object([
                "bacReady": .boolean, "mrzInformation": text, "kSeed": text, "kEnc": text, "kMac": text,
            ]).orNull.described("what a chip read needs, from the MRZ; keys in upper-case hex"),
            "chip": JSONSchema.object([
                "passiveAuthentication": .string(of: PassiveAuthentication.Result.self),
                "reasons": .array(.string),
                "dataGroups": .array(.string),
                "faces": .array(.object([
                    "imageType": .string, "width": .integer, "height": .integer,
                    "image": JSONSchema.string.with("contentEncoding", "base64").orNull.described("DG2's image as stored; null when redacted"),
                ])),
            ]).orNull,
            "raw": .object([
                "mrz": JSONSchema.array(.string).orNull,
                "barcode": JSONSchema.string.with("contentEncoding", "base64").orNull,
            ]),
            "redacted": JSONSchema.array(.string).described("redacted fields, then mrz, barcode and face when withheld"),
            "warnings": .array(.object(["code": .string(of: DocumentWarning.Code.self), "message": .string])),
        ]).named("DocumentResult")
    }
}
