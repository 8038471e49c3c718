/// One data element exactly as read: its three-character identifier and its value (ISO 8859-1
/// bytes as a String, padding kept), with the byte offset of the identifier in the payload.
public struct AAMVAElement: Sendable, Equatable, Codable, Hashable {
    public let id: String
    public let value: String
    public let offset: Int

    public init(id: String, value: String, offset: Int) {
        self.id = id
        self.value = value
        self.offset = offset
    }
}

/// A subfile: `DL` (driver licence), `ID` (identification card) or a jurisdiction subfile `Z?`.
public struct AAMVASubfile: Sendable, Equatable, Codable {
    public let type: String
    /// Offset and length as the header's subfile designator gives them (`nil` when unreadable).
    public let designatedOffset: Int?
    public let designatedLength: Int?
    /// Where the subfile was actually found (the offset of its two-letter type).
    public let offset: Int
    public let elements: [AAMVAElement]

    /// The first element with this identifier, or `nil` when it is absent.
    public func value(_ id: String) -> String? {
        elements.first { $0.id == id }?.value
    }
}

/// Where the payload came from.
public enum AAMVAEncoding: String, Sendable, Codable {
    /// The PDF417 layout of Annex D (header, subfile designators, subfiles).
    case pdf417
    /// Magnetic-stripe tracks 1–3 (Annex F), as some jurisdictions also put in their PDF417.
    case magneticStripe
}

/// A parsed AAMVA DL/ID payload.
public struct AAMVAPayload: Sendable, Equatable, Codable {
    public var encoding: AAMVAEncoding
    /// `"ANSI "` or `"AAMVA"` (or what stood there on a damaged card); `nil` for magnetic stripes.
    public var fileType: String?
    /// AAMVA version number: 00–11 (11 = 2025 standard). `nil` for magnetic stripes.
    public var version: Int?
    /// Jurisdiction version number; absent in version 01 (and 00).
    public var jurisdictionVersion: Int?
    public var iin: String
    /// The issuing jurisdiction from the IIN, `nil` when the IIN is not assigned.
    public var jurisdiction: AAMVAJurisdiction?
    /// `"USA"`, `"CAN"` or `"MEX"`: `DCG` when present, else from the IIN or the address.
    public var country: String?
    /// Number of entries the header declares.
    public var numberOfEntries: Int?
    public var subfiles: [AAMVASubfile]
    public var fields: AAMVAFields
    public var warnings: [AAMVAWarning]

    /// The first `DL` or `ID` subfile: the one the fields come from.
    public var primarySubfile: AAMVASubfile? {
        subfiles.first { $0.type == "DL" || $0.type == "ID" } ?? subfiles.first { !$0.type.hasPrefix("Z") }
    }

    /// Every element of every subfile, by identifier (the first occurrence wins).
    public var elements: [String: String] {
        var all: [String: String] = [:]
        for subfile in subfiles {
            for element in subfile.elements where all[element.id] == nil {
                all[element.id] = element.value
            }
        }
        return all
    }

    /// Mandatory elements of the declared version that the payload lacks.
    public var missingMandatoryElements: [String] {
        warnings.filter { $0.code == .mandatoryElementMissing }.compactMap { w in
            w.message.split(separator: " ").first.map(String.init)
        }
    }
}

/// The values of a payload made usable: trimmed, dates as ISO 8601, measures converted.
///
/// Nullability follows the MRZ rule: `nil` = the card has no such element, `""` = the element is
/// present and empty.
public struct AAMVAFields: Sendable, Equatable, Codable {
    /// `"DL"` or `"ID"` (from the subfile type).
    public var documentType: String?
    public var lastName: String?
    public var firstName: String?
    public var middleName: String?
    public var suffix: String?
    public var prefix: String?
    /// The full name as printed in version 01's `DAA`, or put together from the parts.
    public var fullName: String?
    public var aliasLastName: String?
    public var aliasFirstName: String?
    public var aliasSuffix: String?
    /// `T` truncated, `N` not truncated, `U` unknown (`DDE`, `DDF`, `DDG`).
    public var lastNameTruncation: String?
    public var firstNameTruncation: String?
    public var middleNameTruncation: String?
    public var documentNumber: String?
    public var documentDiscriminator: String?
    public var inventoryControlNumber: String?
    public var auditInformation: String?
    /// ISO 8601 `YYYY-MM-DD`.
    public var dateOfBirth: String?
    public var dateOfExpiry: String?
    public var dateOfIssue: String?
    public var cardRevisionDate: String?
    public var hazmatExpiryDate: String?
    public var under18Until: String?
    public var under19Until: String?
    public var under21Until: String?
    /// `M`, `F` or `X` (AAMVA `1`, `2`, `9`/not specified).
    public var sex: String?
    public var heightCm: Int?
    public var heightIn: Int?
    public var weightKg: Int?
    public var weightLb: Int?
    /// `DCE` weight range code 0–9 (a band of weights).
    public var weightRange: String?
    /// ANSI D-20 colour codes (`BLU`, `BRO`, ...) as on the card, and their meanings.
    public var eyeColor: String?
    public var eyeColorName: String?
    public var hairColor: String?
    public var hairColorName: String?
    public var race: String?
    public var street: String?
    public var street2: String?
    public var city: String?
    public var state: String?
    public var postalCode: String?
    public var placeOfBirth: String?
    public var vehicleClass: String?
    public var restrictions: String?
    public var endorsements: String?
    /// `F` fully compliant (REAL ID), `N` non-compliant (`DDA`).
    public var complianceType: String?
    public var limitedDuration: Bool?
    public var organDonor: Bool?
    public var veteran: Bool?
    /// Version 11: `DDM`–`DDP`.
    public var commercial: Bool?
    public var nonDomiciled: Bool?
    public var enhanced: Bool?
    public var permit: Bool?

    public init() {}
}
