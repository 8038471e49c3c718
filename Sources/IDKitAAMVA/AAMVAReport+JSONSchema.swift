public import IDKitCore

/// What ``AAMVAReport`` writes (its `Codable` encoding and the direct writer, held equal by
/// `AAMVAJSONTests`).
extension AAMVAReport: JSONSchemaDescribed {
    public static var jsonSchema: JSONSchema {
        let text = JSONSchema.string.orNull, count = JSONSchema.integer.orNull
        let elements = JSONSchema.map(.string).described("every element as read (its first occurrence), by its three-letter identifier")
        return .object([
            "version": count.described("the AAMVA version (00–11) of the header"),
            "jurisdictionVersion": count,
            "iin": JSONSchema.string.described("the issuer identification number of the header"),
            "jurisdiction": text.described("the state or province code the IIN names"),
            "jurisdictionName": text, "country": text,
            "encoding": .string(of: AAMVAEncoding.self),
            "fileType": text, "numberOfEntries": count,
            "elements": elements,
            "subfiles": .array(.object([
                "type": .string, "offset": .integer,
                "designatedOffset": count, "designatedLength": count, "elements": elements,
            ])),
            "fields": fieldsSchema,
            "warnings": .array(.object(["code": .string(of: AAMVAWarning.Code.self), "message": .string,
                                        "offset": JSONSchema.integer.orNull.described("the byte offset where it was found")])),
        ]).named("AAMVAReport")
    }

    /// Every ``AAMVAFields`` property under its contract name: strings (ISO dates, `M`/`F`/`X`),
    /// heights and weights in whole units, flags as booleans; `null` when absent, `""` when empty.
    static var fieldsSchema: JSONSchema {
        let numbers: Set<String> = ["heightCm", "heightIn", "weightKg", "weightLb"]
        let flags: Set<String> = ["commercial", "enhanced", "limitedDuration", "nonDomiciled", "organDonor", "permit", "veteran"]
        var schema = JSONSchema.object([:])
        for key in Fields.CodingKeys.allCases.map(\.rawValue) {
            let type: JSONSchema = numbers.contains(key) ? .integer : flags.contains(key) ? .boolean : .string
            schema = schema.adding([key: type.orNull])
        }
        return schema.named("AAMVAFields")
    }
}
