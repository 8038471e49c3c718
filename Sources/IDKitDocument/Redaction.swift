import Foundation

/// What redaction applies to (the reference SDKs' `RedactionSettings.mode`).
public enum RedactionMode: String, Sendable, Codable, CaseIterable, Hashable {
    case none
    /// The result is redacted; the document image is left alone.
    case resultFieldsOnly
    /// The MRZ band and barcode are blacked out in the image; the result is left alone.
    case imageOnly
    /// Both.
    case fullResult
}

/// How much of the document number stays readable: `prefixVisible` leading and `suffixVisible`
/// trailing characters, the rest as `*`. When they would show the whole number, none is shown.
public struct DocumentNumberRedaction: Sendable, Codable, Equatable, Hashable {
    public var prefixVisible: Int
    public var suffixVisible: Int
    public init(prefixVisible: Int = 0, suffixVisible: Int = 0) {
        self.prefixVisible = max(0, prefixVisible)
        self.suffixVisible = max(0, suffixVisible)
    }

    func mask(_ text: String) -> String {
        let chars = Array(text)
        guard prefixVisible + suffixVisible < chars.count else { return String(repeating: "*", count: chars.count) }
        return String(chars.prefix(prefixVisible)) + String(repeating: "*", count: chars.count - prefixVisible - suffixVisible)
            + String(chars.suffix(suffixVisible))
    }
}

/// What to redact. A redacted result holds no redacted value anywhere: not in its fields, the
/// other sources' readings, the raw MRZ lines or barcode bytes, derived values, chip keys or
/// warning text.
public struct RedactionSettings: Sendable, Codable, Equatable, Hashable {
    public var mode: RedactionMode
    /// Fields to redact. Names are linked: redacting `firstName` or `lastName` also redacts
    /// `fullName`, and the other way round.
    public var fields: Set<DocumentFieldName>
    /// With `documentNumber` in ``fields``: the characters left visible (default: none).
    public var documentNumber: DocumentNumberRedaction?
    /// Withhold the raw MRZ lines entirely (otherwise only redacted fields are masked in them).
    public var redactMRZ: Bool
    /// Withhold the raw barcode bytes entirely (otherwise only redacted values are masked in them).
    public var redactBarcode: Bool
    /// Withhold the chip's face images (EF.DG2): their type and size stay, the images go.
    public var redactFace: Bool

    public init(mode: RedactionMode, fields: Set<DocumentFieldName> = [], documentNumber: DocumentNumberRedaction? = nil,
                redactMRZ: Bool = false, redactBarcode: Bool = false, redactFace: Bool = false) {
        self.mode = mode
        self.fields = fields
        self.documentNumber = documentNumber
        self.redactMRZ = redactMRZ
        self.redactBarcode = redactBarcode
        self.redactFace = redactFace
    }

    public static let none = RedactionSettings(mode: .none)

    public var redactsResult: Bool {
        (mode == .resultFieldsOnly || mode == .fullResult) && (!fields.isEmpty || redactMRZ || redactBarcode || redactFace)
    }

    public var redactsImage: Bool {
        (mode == .imageOnly || mode == .fullResult) && (!fields.isEmpty || redactMRZ || redactBarcode)
    }

    /// The fields redacted once the name links are applied.
    public var effectiveFields: Set<DocumentFieldName> {
        var f = fields
        if !f.isDisjoint(with: [.firstName, .lastName, .fullName]) { f.formUnion([.firstName, .lastName, .fullName]) }
        return f
    }
}

/// One setting for every document, or settings chosen per document (by issuing State, region and
/// type), as the reference SDKs' `RedactionSettingsResolver` does.
public enum RedactionPolicy: Sendable {
    case fixed(RedactionSettings)
    case resolver(@Sendable (DocumentClass?) -> RedactionSettings)

    public func settings(for documentClass: DocumentClass?) -> RedactionSettings {
        switch self {
        case .fixed(let settings): return settings
        case .resolver(let resolve): return resolve(documentClass)
        }
    }
}

/// A redaction policy as a file (`idkit serve --redaction FILE`): settings for every document,
/// and rules that choose other settings by the document's class — the first rule whose given
/// members (`country`, `region`, `type`) all match wins.
///
///     {"default": {"mode": "fullResult", "fields": ["documentNumber"], "documentNumber": {"suffixVisible": 3}},
///      "rules": [{"country": "DEU", "settings": {"mode": "none"}}]}
///
/// Settings members: `mode` (`none`, `resultFieldsOnly`, `imageOnly`, `fullResult`), `fields`
/// (names of the document result), `documentNumber` (`prefixVisible`, `suffixVisible`),
/// `redactMRZ`, `redactBarcode`, `redactFace`; all but `mode` may be left out.
public struct RedactionRules: Sendable, Equatable, Decodable {
    public struct Rule: Sendable, Equatable, Decodable {
        public var country: String?
        public var region: String?
        public var type: DocumentClass.DocumentType?
        public var settings: RedactionSettings

        func matches(_ c: DocumentClass?) -> Bool {
            (country == nil || country == c?.country) && (region == nil || region == c?.region) && (type == nil || type == c?.type)
        }
    }

    public var `default`: RedactionSettings
    public var rules: [Rule] = []

    enum CodingKeys: String, CodingKey { case `default`, rules }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        `default` = try c.decode(LenientSettings.self, forKey: .default).settings
        rules = try c.decodeIfPresent([LenientRule].self, forKey: .rules)?.map(\.rule) ?? []
    }

    /// The file's JSON read, or an error that says what and where.
    public init(json: [UInt8]) throws(DocumentError) {
        do {
            self = try JSONDecoder().decode(RedactionRules.self, from: Data(json))
        } catch let DecodingError.keyNotFound(key, context) {
            throw DocumentError(.invalidInput, "redaction: missing \(Self.path(context.codingPath + [key]))")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw DocumentError(.invalidInput, "redaction: \(Self.path(context.codingPath)): \(context.debugDescription)")
        } catch let DecodingError.dataCorrupted(context) {
            throw DocumentError(.invalidInput, "redaction: \(Self.path(context.codingPath)): \(context.debugDescription)")
        } catch {
            throw DocumentError(.invalidInput, "redaction: \(error)")
        }
    }

    static func path(_ keys: [CodingKey]) -> String {
        keys.isEmpty ? "the document" : keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined().drop { $0 == "." }.description
    }

    /// The policy the merger and the scanner apply.
    public var policy: RedactionPolicy {
        let rules = self.rules, fallback = self.default
        return .resolver { c in rules.first { $0.matches(c) }?.settings ?? fallback }
    }

    /// Whether some document's result would be redacted (then answers that cannot be redacted must
    /// not be given).
    public var redactsAnyResult: Bool { ([self.default] + rules.map(\.settings)).contains { $0.redactsResult } }

    private struct LenientSettings: Decodable {
        var settings: RedactionSettings
        enum CodingKeys: String, CodingKey { case mode, fields, documentNumber, redactMRZ, redactBarcode, redactFace }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            settings = RedactionSettings(mode: try c.decode(RedactionMode.self, forKey: .mode),
                                         fields: try c.decodeIfPresent(Set<DocumentFieldName>.self, forKey: .fields) ?? [],
                                         documentNumber: try c.decodeIfPresent(LenientNumber.self, forKey: .documentNumber)
                                             .map { DocumentNumberRedaction(prefixVisible: $0.prefixVisible ?? 0, suffixVisible: $0.suffixVisible ?? 0) },
                                         redactMRZ: try c.decodeIfPresent(Bool.self, forKey: .redactMRZ) ?? false,
                                         redactBarcode: try c.decodeIfPresent(Bool.self, forKey: .redactBarcode) ?? false,
                                         redactFace: try c.decodeIfPresent(Bool.self, forKey: .redactFace) ?? false)
        }
    }

    private struct LenientNumber: Decodable {
        var prefixVisible: Int?
        var suffixVisible: Int?
    }

    private struct LenientRule: Decodable {
        var rule: Rule
        enum CodingKeys: String, CodingKey { case country, region, type, settings }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            rule = Rule(country: try c.decodeIfPresent(String.self, forKey: .country), region: try c.decodeIfPresent(String.self, forKey: .region),
                        type: try c.decodeIfPresent(DocumentClass.DocumentType.self, forKey: .type),
                        settings: try c.decode(LenientSettings.self, forKey: .settings).settings)
        }
    }
}
