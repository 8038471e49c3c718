import Foundation
public import IDKitCore

/// The JSON contract of `idkit aamva --json` (docs/contracts.md): backends code against these names.
///
/// `{"version", "jurisdictionVersion", "iin", "jurisdiction", "country", "encoding", "fileType",
/// "elements": {"DCS": "…"}, "subfiles": [{"type", "offset", "designatedOffset",
/// "designatedLength", "elements": {…}}], "fields": {…}, "warnings": [{"code", "message", "offset"}]}`.
/// Absent values are `null`, present-but-empty values `""`.
public struct AAMVAReport: Encodable, Sendable {
    public let payload: AAMVAPayload

    public init(_ payload: AAMVAPayload) { self.payload = payload }

    private typealias Key = JSONKey

    private struct Subfile: Encodable {
        let s: AAMVASubfile
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(s.type, forKey: Key("type"))
            try c.encode(s.offset, forKey: Key("offset"))
            try c.encode(s.designatedOffset, forKey: Key("designatedOffset"))
            try c.encode(s.designatedLength, forKey: Key("designatedLength"))
            try c.encode(s.elementsByID, forKey: Key("elements"))
        }
    }

    /// Every field, `null` when absent: the set of keys is the same for every payload. The keys are
    /// written out here, not derived from the Swift property names, so that renaming a property
    /// cannot change what backends read.
    struct Fields: Encodable {
        let f: AAMVAFields

        enum CodingKeys: String, CodingKey, CaseIterable {
        case documentType
        case lastName
        case firstName
        case middleName
        case suffix
        case prefix
        case fullName
        case aliasLastName
        case aliasFirstName
        case aliasSuffix
        case lastNameTruncation
        case firstNameTruncation
        case middleNameTruncation
        case documentNumber
        case documentDiscriminator
        case inventoryControlNumber
        case auditInformation
        case dateOfBirth
        case dateOfExpiry
        case dateOfIssue
        case cardRevisionDate
        case hazmatExpiryDate
        case under18Until
        case under19Until
        case under21Until
        case sex
        case heightCm
        case heightIn
        case weightKg
        case weightLb
        case weightRange
        case eyeColor
        case eyeColorName
        case hairColor
        case hairColorName
        case race
        case street
        case street2
        case city
        case state
        case postalCode
        case placeOfBirth
        case vehicleClass
        case restrictions
        case endorsements
        case complianceType
        case limitedDuration
        case organDonor
        case veteran
        case commercial
        case nonDomiciled
        case enhanced
        case permit
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(f.documentType, forKey: .documentType)
            try c.encode(f.lastName, forKey: .lastName)
            try c.encode(f.firstName, forKey: .firstName)
            try c.encode(f.middleName, forKey: .middleName)
            try c.encode(f.suffix, forKey: .suffix)
            try c.encode(f.prefix, forKey: .prefix)
            try c.encode(f.fullName, forKey: .fullName)
            try c.encode(f.aliasLastName, forKey: .aliasLastName)
            try c.encode(f.aliasFirstName, forKey: .aliasFirstName)
            try c.encode(f.aliasSuffix, forKey: .aliasSuffix)
            try c.encode(f.lastNameTruncation, forKey: .lastNameTruncation)
            try c.encode(f.firstNameTruncation, forKey: .firstNameTruncation)
            try c.encode(f.middleNameTruncation, forKey: .middleNameTruncation)
            try c.encode(f.documentNumber, forKey: .documentNumber)
            try c.encode(f.documentDiscriminator, forKey: .documentDiscriminator)
            try c.encode(f.inventoryControlNumber, forKey: .inventoryControlNumber)
            try c.encode(f.auditInformation, forKey: .auditInformation)
            try c.encode(f.dateOfBirth, forKey: .dateOfBirth)
            try c.encode(f.dateOfExpiry, forKey: .dateOfExpiry)
            try c.encode(f.dateOfIssue, forKey: .dateOfIssue)
            try c.encode(f.cardRevisionDate, forKey: .cardRevisionDate)
            try c.encode(f.hazmatExpiryDate, forKey: .hazmatExpiryDate)
            try c.encode(f.under18Until, forKey: .under18Until)
            try c.encode(f.under19Until, forKey: .under19Until)
            try c.encode(f.under21Until, forKey: .under21Until)
            try c.encode(f.sex, forKey: .sex)
            try c.encode(f.heightCm, forKey: .heightCm)
            try c.encode(f.heightIn, forKey: .heightIn)
            try c.encode(f.weightKg, forKey: .weightKg)
            try c.encode(f.weightLb, forKey: .weightLb)
            try c.encode(f.weightRange, forKey: .weightRange)
            try c.encode(f.eyeColor, forKey: .eyeColor)
            try c.encode(f.eyeColorName, forKey: .eyeColorName)
            try c.encode(f.hairColor, forKey: .hairColor)
            try c.encode(f.hairColorName, forKey: .hairColorName)
            try c.encode(f.race, forKey: .race)
            try c.encode(f.street, forKey: .street)
            try c.encode(f.street2, forKey: .street2)
            try c.encode(f.city, forKey: .city)
            try c.encode(f.state, forKey: .state)
            try c.encode(f.postalCode, forKey: .postalCode)
            try c.encode(f.placeOfBirth, forKey: .placeOfBirth)
            try c.encode(f.vehicleClass, forKey: .vehicleClass)
            try c.encode(f.restrictions, forKey: .restrictions)
            try c.encode(f.endorsements, forKey: .endorsements)
            try c.encode(f.complianceType, forKey: .complianceType)
            try c.encode(f.limitedDuration, forKey: .limitedDuration)
            try c.encode(f.organDonor, forKey: .organDonor)
            try c.encode(f.veteran, forKey: .veteran)
            try c.encode(f.commercial, forKey: .commercial)
            try c.encode(f.nonDomiciled, forKey: .nonDomiciled)
            try c.encode(f.enhanced, forKey: .enhanced)
            try c.encode(f.permit, forKey: .permit)
        }
    }

    private struct Warning: Encodable {
        let w: AAMVAWarning
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(w.code.rawValue, forKey: Key("code"))
            try c.encode(w.message, forKey: Key("message"))
            try c.encode(w.offset, forKey: Key("offset"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        let p = payload
        try c.encode(p.version, forKey: Key("version"))
        try c.encode(p.jurisdictionVersion, forKey: Key("jurisdictionVersion"))
        try c.encode(p.iin, forKey: Key("iin"))
        try c.encode(p.jurisdiction?.code, forKey: Key("jurisdiction"))
        try c.encode(p.jurisdiction?.name, forKey: Key("jurisdictionName"))
        try c.encode(p.country, forKey: Key("country"))
        try c.encode(p.encoding.rawValue, forKey: Key("encoding"))
        try c.encode(p.fileType, forKey: Key("fileType"))
        try c.encode(p.numberOfEntries, forKey: Key("numberOfEntries"))
        try c.encode(p.elements, forKey: Key("elements"))
        try c.encode(p.subfiles.map(Subfile.init), forKey: Key("subfiles"))
        try c.encode(Fields(f: p.fields), forKey: Key("fields"))
        try c.encode(p.warnings.map(Warning.init), forKey: Key("warnings"))
    }

    // MARK: The same JSON, written directly (the service answers thousands of these a second;
    // JSONEncoder took four fifths of a request). `AAMVAJSONTests` holds it byte for byte equal to
    // the Codable encoding above on every payload of TestVectors/aamva.

    /// The report into `w`, as ``jsonString(pretty:)`` gives it without `pretty` (keys sorted).
    public func writeJSON(to w: inout JSONWriter) {
        let p = payload
        func optionalInt(_ v: Int?, _ w: inout JSONWriter) { if let v { w.int(v) } else { w.null() } }
        // `elementsByID` and `elements` as objects in key order: the elements sorted by identifier
        // (and by position, so that the first of a repeated identifier wins, as there), without
        // the dictionaries those build (hashing was most of the cost of this writer).
        func elements(_ e: [AAMVAElement], _ w: inout JSONWriter) {
            // Identifiers are three ASCII characters: each packed with its position into one
            // integer whose order is (identifier bytes, position). Longer ones sort as Strings.
            var order: [Int]
            if e.allSatisfy({ $0.id.utf8.count <= 4 }) {
                var keys = e.indices.map { i -> UInt64 in
                    var code: UInt64 = 0, shift: UInt64 = 56
                    for b in e[i].id.utf8 { code |= UInt64(b) << shift; shift -= 8 }
                    return code | UInt64(i)
                }
                keys.sort()
                order = keys.map { Int($0 & 0xFFFF_FFFF) }
            } else {
                order = e.indices.sorted { a, b in e[a].id == e[b].id ? a < b : e[a].id < e[b].id }
            }
            w.beginObject()
            var previous: String?
            for i in order where e[i].id != previous {
                w.key(dynamic: e[i].id); w.string(e[i].value)
                previous = e[i].id
            }
            w.endObject()
        }
        // Read from a payload, the elements are written from its bytes (no Strings made); made
        // otherwise (decoded from JSON, set by the caller), from the subfiles' Strings.
        let heads = p.content.readSubfiles
            ?? p.subfiles.map { ($0.type, $0.designatedOffset, $0.designatedLength, $0.offset) }
        func elementsOf(_ subfile: Int?, _ w: inout JSONWriter) {
            guard !p.content.writeElements(subfile: subfile, to: &w) else { return }
            elements(subfile.map { p.subfiles[$0].elements } ?? p.subfiles.flatMap(\.elements), &w)
        }
        w.beginObject()
        w.key("country"); w.string(p.country)
        w.key("elements"); elementsOf(nil, &w)
        w.key("encoding"); w.string(p.encoding.rawValue)
        w.key("fields"); w.beginObject()
        let f = p.fields
        // In key order (ASCII names: `.sortedKeys` order is byte order).
        w.key("aliasFirstName"); w.string(f.aliasFirstName)
        w.key("aliasLastName"); w.string(f.aliasLastName)
        w.key("aliasSuffix"); w.string(f.aliasSuffix)
        w.key("auditInformation"); w.string(f.auditInformation)
        w.key("cardRevisionDate"); w.string(f.cardRevisionDate)
        w.key("city"); w.string(f.city)
        w.key("commercial"); if let v = f.commercial { w.bool(v) } else { w.null() }
        w.key("complianceType"); w.string(f.complianceType)
        w.key("dateOfBirth"); w.string(f.dateOfBirth)
        w.key("dateOfExpiry"); w.string(f.dateOfExpiry)
        w.key("dateOfIssue"); w.string(f.dateOfIssue)
        w.key("documentDiscriminator"); w.string(f.documentDiscriminator)
        w.key("documentNumber"); w.string(f.documentNumber)
        w.key("documentType"); w.string(f.documentType)
        w.key("endorsements"); w.string(f.endorsements)
        w.key("enhanced"); if let v = f.enhanced { w.bool(v) } else { w.null() }
        w.key("eyeColor"); w.string(f.eyeColor)
        w.key("eyeColorName"); w.string(f.eyeColorName)
        w.key("firstName"); w.string(f.firstName)
        w.key("firstNameTruncation"); w.string(f.firstNameTruncation)
        w.key("fullName"); w.string(f.fullName)
        w.key("hairColor"); w.string(f.hairColor)
        w.key("hairColorName"); w.string(f.hairColorName)
        w.key("hazmatExpiryDate"); w.string(f.hazmatExpiryDate)
        w.key("heightCm"); optionalInt(f.heightCm, &w)
        w.key("heightIn"); optionalInt(f.heightIn, &w)
        w.key("inventoryControlNumber"); w.string(f.inventoryControlNumber)
        w.key("lastName"); w.string(f.lastName)
        w.key("lastNameTruncation"); w.string(f.lastNameTruncation)
        w.key("limitedDuration"); if let v = f.limitedDuration { w.bool(v) } else { w.null() }
        w.key("middleName"); w.string(f.middleName)
        w.key("middleNameTruncation"); w.string(f.middleNameTruncation)
        w.key("nonDomiciled"); if let v = f.nonDomiciled { w.bool(v) } else { w.null() }
        w.key("organDonor"); if let v = f.organDonor { w.bool(v) } else { w.null() }
        w.key("permit"); if let v = f.permit { w.bool(v) } else { w.null() }
        w.key("placeOfBirth"); w.string(f.placeOfBirth)
        w.key("postalCode"); w.string(f.postalCode)
        w.key("prefix"); w.string(f.prefix)
        w.key("race"); w.string(f.race)
        w.key("restrictions"); w.string(f.restrictions)
        w.key("sex"); w.string(f.sex)
        w.key("state"); w.string(f.state)
        w.key("street"); w.string(f.street)
        w.key("street2"); w.string(f.street2)
        w.key("suffix"); w.string(f.suffix)
        w.key("under18Until"); w.string(f.under18Until)
        w.key("under19Until"); w.string(f.under19Until)
        w.key("under21Until"); w.string(f.under21Until)
        w.key("vehicleClass"); w.string(f.vehicleClass)
        w.key("veteran"); if let v = f.veteran { w.bool(v) } else { w.null() }
        w.key("weightKg"); optionalInt(f.weightKg, &w)
        w.key("weightLb"); optionalInt(f.weightLb, &w)
        w.key("weightRange"); w.string(f.weightRange)
        w.endObject()
        w.key("fileType"); w.string(p.fileType)
        w.key("iin"); w.string(p.iin)
        w.key("jurisdiction"); w.string(p.jurisdiction?.code)
        w.key("jurisdictionName"); w.string(p.jurisdiction?.name)
        w.key("jurisdictionVersion"); optionalInt(p.jurisdictionVersion, &w)
        w.key("numberOfEntries"); optionalInt(p.numberOfEntries, &w)
        w.key("subfiles"); w.beginArray()
        for (k, s) in heads.enumerated() {
            w.beginObject()
            w.key("designatedLength"); optionalInt(s.designatedLength, &w)
            w.key("designatedOffset"); optionalInt(s.designatedOffset, &w)
            w.key("elements"); elementsOf(k, &w)
            w.key("offset"); w.int(s.offset)
            w.key("type"); w.string(s.type)
            w.endObject()
        }
        w.endArray()
        w.key("version"); optionalInt(p.version, &w)
        w.key("warnings"); w.beginArray()
        for warning in p.warnings {
            w.beginObject()
            w.key("code"); w.string(warning.code.rawValue)
            w.key("message"); w.string(warning.message)
            w.key("offset"); optionalInt(warning.offset, &w)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// The report as JSON text (keys sorted, so output is stable).
    public func jsonString(pretty: Bool = false) -> String {
        if !pretty {
            var w = JSONWriter(capacity: 4096)
            writeJSON(to: &w)
            return String(decoding: w.bytes, as: UTF8.self)
        }
        return codableJSONString(pretty: true)
    }

    /// The Codable encoding (JSONEncoder): pretty output, and the reference the direct writer is
    /// tested against.
    public func codableJSONString(pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
