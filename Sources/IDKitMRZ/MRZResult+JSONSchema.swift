public import IDKitCore

/// The members `writeJSONMembers(to:)` writes (MRZResult+JSONWriter.swift), for a result and for
/// text that is not an MRZ (`format` and every field `null`, the ``MRZError`` in `errors`).
extension MRZResult: JSONSchemaDescribed {
    public static var jsonSchema: JSONSchema {
        let date = JSONSchema.string.with("format", "date")
        return .object([
            "format": JSONSchema.string(of: MRZFormat.self).orNull,
            "valid": .boolean,
            "validWithDeviations": JSONSchema.boolean.described("valid, accepting the issuer deviations listed in deviations"),
            "fields": MRZFields.jsonSchema,
            "checkDigits": MRZCheckDigits.jsonSchema,
            "errors": .array(MRZIssue.jsonSchema),
            "warnings": .array(MRZIssue.jsonSchema),
            "deviations": .array(MRZIssue.jsonSchema),
            "resolvedDates": JSONSchema.object(["dateOfBirth": date.orNull, "dateOfExpiry": date.orNull])
                .described("the dates on the calendar, relative to the reference date; null for a date with unknown parts"),
            "lines": .array(.string),
        ]).named("MRZResult")
    }
}

extension MRZFields: JSONSchemaDescribed {
    /// Every field always; `null` where the layout has no such field, `""` where it is empty.
    public static var jsonSchema: JSONSchema {
        let field = JSONSchema.string.orNull
        return .object([
            "documentCode": field, "issuingState": field, "documentNumber": field, "primaryIdentifier": field,
            "secondaryIdentifier": field, "nationality": field,
            "dateOfBirth": field.described("the six characters as printed (YYMMDD)"), "sex": field,
            "dateOfExpiry": field.described("the six characters as printed (YYMMDD)"),
            "optionalData1": field, "optionalData2": field,
        ]).named("MRZFields")
    }
}

extension MRZCheckDigits: JSONSchemaDescribed {
    /// `null` where the layout has no such check digit.
    public static var jsonSchema: JSONSchema {
        let status = JSONSchema.string(oneOf: ["valid", "invalid"]).orNull
        return .object(["documentNumber": status, "dateOfBirth": status, "dateOfExpiry": status,
                        "optionalData": status, "composite": status]).named("MRZCheckDigits")
    }
}

extension MRZIssue: JSONSchemaDescribed {
    /// An error, warning or deviation of a well-formed MRZ, or the ``MRZError`` of text that is not
    /// one (then `line` and `column` are `null` when the error concerns the whole input).
    public static var jsonSchema: JSONSchema {
        let codes = MRZIssue.Code.allCases.map(\.rawValue) + MRZError.Kind.allCases.map(\.rawValue)
        return .object([
            "code": .string(oneOf: codes),
            "field": JSONSchema.string.described("the field concerned, by its name in fields or checkDigits"),
            "line": JSONSchema.integer.orNull, "column": JSONSchema.integer.orNull,
            "expected": .string, "found": .string, "message": .string,
        ], optional: ["field", "expected", "found"]).named("MRZIssue")
    }
}

extension MRZCorrection: JSONSchemaDescribed {
    public static var jsonSchema: JSONSchema {
        .object([
            "outcome": .string(of: Outcome.self),
            "changes": .array(.object(["line": .integer, "column": .integer, "from": .string, "to": .string])),
            "alternatives": JSONSchema.array(.array(.string)).described("the readings that tie, each as its lines"),
        ]).named("MRZCorrection")
    }
}

extension MRZRecordValidator {
    /// One line of `idkit validate --json` and `POST /v1/mrz`: the record's `input`, the result's
    /// members, and `correction` when correction was asked for.
    public static var recordSchema: JSONSchema {
        MRZResult.jsonSchema.adding([
            "input": .object(["source": JSONSchema.string.described("the file name, argument, or - for standard input and the other front ends"),
                              "line": JSONSchema.integer.described("the record's first line in its input"),
                              "id": JSONSchema.string.described("echoed from a JSON record")],
                             optional: ["id"]),
            "correction": MRZCorrection.jsonSchema,
        ], optional: ["correction"]).named("MRZRecord")
    }
}
