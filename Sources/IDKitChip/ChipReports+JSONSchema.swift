public import IDKitCore

/// The schemas of what the chip's writers produce: `idkit bac --json` (``BACReport``) and the
/// parts of `idkit chip verify --json` (``PassiveAuthentication``, ``CardSecurity``,
/// ``SecurityInfos``, the data groups' errors).
extension BACReport: JSONSchemaDescribed {
    /// Keys in upper-case hex; `externalAuthenticate` only with the challenge, the session keys only
    /// with the card's answer verified, and nothing but `paceKPi` from a CAN alone.
    public static var jsonSchema: JSONSchema {
        let hex = JSONSchema.string.with("pattern", "^[0-9A-F]*$")
        return .object([
            "mrzInformation": .string, "kSeed": hex, "kEnc": hex, "kMac": hex,
            "bacReady": JSONSchema.boolean.described("the MRZ's check digits allow BAC"),
            "paceKPi": JSONSchema.object(["3DES": hex, "AES-128": hex, "AES-192": hex, "AES-256": hex])
                .described("PACE K_pi per cipher, from the CAN when one is given, else from the MRZ"),
            "externalAuthenticate": hex.described("E_IFD ‖ M_IFD"),
            "kIC": hex, "ksEnc": hex, "ksMac": hex, "ssc": hex,
        ], optional: ["mrzInformation", "kSeed", "kEnc", "kMac", "bacReady", "externalAuthenticate",
                      "kIC", "ksEnc", "ksMac", "ssc"]).named("BACReport")
    }
}

extension PassiveAuthentication: JSONSchemaDescribed {
    public static var jsonSchema: JSONSchema {
        .object([
            "result": .string(of: Result.self),
            "dataGroupHashes": JSONSchema.map(checkSchema).with("propertyNames", ["pattern": "^DG[0-9]+$"]),
            "signature": checkSchema, "certificateChain": checkSchema,
            "documentSigner": certificateSchema.orNull, "csca": certificateSchema.orNull,
            "reasons": JSONSchema.array(.string).described("why the result is not passed, each check's reason in order"),
            "warnings": .array(.string),
        ]).named("PassiveAuthentication")
    }

    /// A check's outcome (``Check/name``).
    public static let checkSchema = JSONSchema.string(oneOf: ["valid", "invalid", "notPerformed"])

    /// A certificate as ``writeCertificate(_:to:)`` writes it.
    public static var certificateSchema: JSONSchema {
        .object(["subject": .string, "issuer": .string, "serialNumber": .string,
                 "notBefore": JSONSchema.string.orNull, "notAfter": JSONSchema.string.orNull]).named("Certificate")
    }
}

extension CardSecurity: JSONSchemaDescribed {
    public static var jsonSchema: JSONSchema {
        let check = PassiveAuthentication.checkSchema, certificate = PassiveAuthentication.certificateSchema
        return .object([
            "result": .string(of: PassiveAuthentication.Result.self),
            "signature": check, "certificateChain": check,
            "documentSigner": certificate.orNull, "csca": certificate.orNull,
            "securityInfos": SecurityInfos.jsonSchema.orNull,
            "reasons": .array(.string), "warnings": .array(.string),
        ]).named("CardSecurity")
    }
}

extension SecurityInfos: JSONSchemaDescribed {
    /// `[{"oid", "name", "parameters"}]`: each parameter an integer, or a description of a structure.
    public static var jsonSchema: JSONSchema {
        JSONSchema.array(.object([
            "oid": .string, "name": JSONSchema.string.orNull.described("the OID's name; null for an OID IDKit does not know"),
            "parameters": .array(.anyOf([.integer, .string])),
        ])).named("SecurityInfos")
    }
}

extension LDSError: JSONSchemaDescribed {
    /// `{"error": {"kind", "offset", "tag", "message"}}`: a data group that cannot be read, in its place.
    public static var jsonSchema: JSONSchema {
        .object(["error": .object([
            "kind": .string(of: Kind.self), "offset": .integer,
            "tag": JSONSchema.string.orNull.described("the tag found, in hex"), "message": .string,
        ])]).named("DataGroupError")
    }
}
