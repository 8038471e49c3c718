internal import IDKitCore
import Synchronization

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

/// A subfile: `DL` (driver license), `ID` (identification card) or a jurisdiction subfile `Z?`.
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

    /// The elements by identifier (the first occurrence wins).
    public var elementsByID: [String: String] {
        var byID: [String: String] = [:]
        for element in elements where byID[element.id] == nil { byID[element.id] = element.value }
        return byID
    }

    /// Which subfile the fields come from: the first `DL` or `ID` subfile, else the first that is
    /// not a jurisdiction subfile (`Z?`).
    static func primaryIndex<Types: Collection<String>>(ofTypes types: Types) -> Int? where Types.Index == Int {
        types.firstIndex { $0 == "DL" || $0 == "ID" } ?? types.firstIndex { !$0.hasPrefix("Z") }
    }
}

/// Where the payload came from.
public enum AAMVAEncoding: String, Sendable, Codable, CaseIterable {
    /// The PDF417 layout of Annex D (header, subfile designators, subfiles).
    case pdf417
    /// Magnetic-stripe tracks 1–3 (Annex F), as some jurisdictions also put in their PDF417.
    case magneticStripe
}

/// A parsed AAMVA DL/ID payload.
///
/// Parsing records where every element's value lies in the payload's bytes and checks the values;
/// `subfiles` and `fields` are made into Strings the first time they are read (then kept), so a
/// backend that reads three fields does not pay for forty.
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
    public var warnings: [AAMVAWarning]
    var content: AAMVAContent

    /// Every subfile with its elements exactly as read.
    public var subfiles: [AAMVASubfile] {
        get { content.subfiles }
        set { content = AAMVAContent(subfiles: newValue, fields: content.fields) }
    }

    /// The values made usable (see `AAMVAFields`).
    public var fields: AAMVAFields {
        get { content.fields }
        set { content = AAMVAContent(subfiles: content.subfiles, fields: newValue) }
    }

    init(encoding: AAMVAEncoding, fileType: String?, version: Int?, jurisdictionVersion: Int?, iin: String,
         jurisdiction: AAMVAJurisdiction?, country: String?, numberOfEntries: Int?, warnings: [AAMVAWarning],
         content: AAMVAContent) {
        self.encoding = encoding
        self.fileType = fileType
        self.version = version
        self.jurisdictionVersion = jurisdictionVersion
        self.iin = iin
        self.jurisdiction = jurisdiction
        self.country = country
        self.numberOfEntries = numberOfEntries
        self.warnings = warnings
        self.content = content
    }

    private enum CodingKeys: String, CodingKey {
        case encoding, fileType, version, jurisdictionVersion, iin, jurisdiction, country, numberOfEntries,
             subfiles, fields, warnings
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        encoding = try c.decode(AAMVAEncoding.self, forKey: .encoding)
        fileType = try c.decodeIfPresent(String.self, forKey: .fileType)
        version = try c.decodeIfPresent(Int.self, forKey: .version)
        jurisdictionVersion = try c.decodeIfPresent(Int.self, forKey: .jurisdictionVersion)
        iin = try c.decode(String.self, forKey: .iin)
        jurisdiction = try c.decodeIfPresent(AAMVAJurisdiction.self, forKey: .jurisdiction)
        country = try c.decodeIfPresent(String.self, forKey: .country)
        numberOfEntries = try c.decodeIfPresent(Int.self, forKey: .numberOfEntries)
        warnings = try c.decode([AAMVAWarning].self, forKey: .warnings)
        content = AAMVAContent(subfiles: try c.decode([AAMVASubfile].self, forKey: .subfiles),
                               fields: try c.decode(AAMVAFields.self, forKey: .fields))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(encoding, forKey: .encoding)
        try c.encodeIfPresent(fileType, forKey: .fileType)
        try c.encodeIfPresent(version, forKey: .version)
        try c.encodeIfPresent(jurisdictionVersion, forKey: .jurisdictionVersion)
        try c.encode(iin, forKey: .iin)
        try c.encodeIfPresent(jurisdiction, forKey: .jurisdiction)
        try c.encodeIfPresent(country, forKey: .country)
        try c.encodeIfPresent(numberOfEntries, forKey: .numberOfEntries)
        try c.encode(subfiles, forKey: .subfiles)
        try c.encode(fields, forKey: .fields)
        try c.encode(warnings, forKey: .warnings)
    }

    public static func == (a: AAMVAPayload, b: AAMVAPayload) -> Bool {
        a.encoding == b.encoding && a.fileType == b.fileType && a.version == b.version
            && a.jurisdictionVersion == b.jurisdictionVersion && a.iin == b.iin && a.jurisdiction == b.jurisdiction
            && a.country == b.country && a.numberOfEntries == b.numberOfEntries && a.warnings == b.warnings
            && a.subfiles == b.subfiles && a.fields == b.fields
    }

    /// The subfile the fields come from (see `AAMVASubfile.primaryIndex(ofTypes:)`).
    public var primarySubfile: AAMVASubfile? {
        let all = subfiles
        return AAMVASubfile.primaryIndex(ofTypes: all.lazy.map(\.type)).map { all[$0] }
    }

    /// Every element of every subfile, by identifier (the first occurrence wins).
    public var elements: [String: String] {
        var all: [String: String] = [:]
        for subfile in subfiles {
            all.merge(subfile.elementsByID) { first, _ in first }
        }
        return all
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
    /// ANSI D-20 color codes (`BLU`, `BRO`, ...) as on the card, and their meanings.
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

/// Where a parsed payload's subfiles and fields come from: byte ranges of the payload, made into
/// Strings once, on first use (immutable otherwise, so it is shared between copies and threads).
final class AAMVAContent: Sendable {
    struct RawSubfile: Sendable {
        var type: String
        var designatedOffset: Int?
        var designatedLength: Int?
        var offset: Int
        var table: ElementTable
    }

    private let raw: [RawSubfile]
    /// Which subfile the fields come from, and the rules to read them by.
    private let primary: Int?
    private let version: Int
    private let primaryType: String?
    private let iinCountry: String?
    private let subfileCache: Mutex<[AAMVASubfile]?>
    /// Boxed: the fields are large (about 900 bytes), and most parses never make them.
    private let fieldCache: Mutex<Box<AAMVAFields>?>

    final class Box<Value: Sendable>: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    init(raw: [RawSubfile], primary: Int?, version: Int, primaryType: String?, iinCountry: String?) {
        self.raw = raw
        self.primary = primary
        self.version = version
        self.primaryType = primaryType
        self.iinCountry = iinCountry
        subfileCache = Mutex(nil)
        fieldCache = Mutex(nil)
    }

    /// Content that is already made (decoded from JSON, or set by the caller).
    init(subfiles: [AAMVASubfile], fields: AAMVAFields) {
        raw = []
        primary = nil
        version = 1
        primaryType = nil
        iinCountry = nil
        subfileCache = Mutex(subfiles)
        fieldCache = Mutex(Box(fields))
    }

    var subfiles: [AAMVASubfile] {
        subfileCache.withLock { cached in
            if let cached { return cached }
            let made = raw.map { r in
                AAMVASubfile(type: r.type, designatedOffset: r.designatedOffset, designatedLength: r.designatedLength,
                             offset: r.offset, elements: r.table.elements())
            }
            cached = made
            return made
        }
    }

    /// The subfiles as read, without their elements: `nil` when the content was not read from a
    /// payload (decoded from JSON, or set by the caller).
    var readSubfiles: [(type: String, designatedOffset: Int?, designatedLength: Int?, offset: Int)]? {
        raw.isEmpty ? nil : raw.map { ($0.type, $0.designatedOffset, $0.designatedLength, $0.offset) }
    }

    /// Writes the elements of subfile `index` (of every subfile when `nil`) as one JSON object,
    /// keys in identifier order, the first element of a repeated identifier winning: what the
    /// elements made into Strings give, written straight from the payload's bytes. `false`, and
    /// nothing written, when the content was not read from a payload or an identifier holds a
    /// byte that is not ASCII (made into a String, it would not read as its bytes).
    func writeElements(subfile index: Int?, to w: inout JSONWriter) -> Bool {
        guard !raw.isEmpty else { return false }
        let chosen = index.map { [$0] } ?? Array(raw.indices)
        // One table's values are read from its bytes; several tables' from their bytes joined.
        let bytes = chosen.count == 1 ? raw[chosen[0]].table.bytes : chosen.flatMap { raw[$0].table.bytes }
        // Identifier and ordinal (tables in order, then positions) packed so that they sort in
        // that order; each ordinal's value span (start, end) in `bytes`.
        var keys: [UInt64] = [], spans: [Int] = []
        let total = chosen.reduce(0) { $0 + raw[$1].table.count }
        keys.reserveCapacity(total)
        spans.reserveCapacity(2 * total)
        var base = 0
        for t in chosen {
            let table = raw[t].table
            for i in 0..<table.count {
                let code = table.code(i)
                guard code & 0x80_8080 == 0, spans.count / 2 < 1 << 24 else { return false }
                keys.append(UInt64(code) << 40 | UInt64(spans.count / 2))
                let r = table.value(i)
                spans.append(base + r.lowerBound)
                spans.append(base + r.upperBound)
            }
            base += table.bytes.count
        }
        keys.sort()
        w.beginObject()
        bytes.withUnsafeBufferPointer { buffer in
            var previous: UInt64 = .max
            for key in keys where key >> 40 != previous {
                previous = key >> 40
                let k = Int(key & 0xFF_FFFF)
                w.latin1Member(key: UInt32(truncatingIfNeeded: key >> 40), value: UnsafeBufferPointer(rebasing: buffer[spans[2 * k]..<spans[2 * k + 1]]))
            }
        }
        w.endObject()
        return true
    }

    var fields: AAMVAFields {
        fieldCache.withLock { cached in
            if let cached { return cached.value }
            let table = primary.map { raw[$0].table } ?? ElementTable.empty
            var interpreter = FieldInterpreter(table: table, version: version, subfileType: primaryType, iinCountry: iinCountry)
            let made = interpreter.interpret()
            cached = Box(made)
            return made
        }
    }
}
