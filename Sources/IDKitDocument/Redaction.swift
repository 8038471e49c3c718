
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

    public init(mode: RedactionMode, fields: Set<DocumentFieldName> = [], documentNumber: DocumentNumberRedaction? = nil,
                redactMRZ: Bool = false, redactBarcode: Bool = false) {
        self.mode = mode
        self.fields = fields
        self.documentNumber = documentNumber
        self.redactMRZ = redactMRZ
        self.redactBarcode = redactBarcode
    }

    public static let none = RedactionSettings(mode: .none)

    public var redactsResult: Bool {
        (mode == .resultFieldsOnly || mode == .fullResult) && (!fields.isEmpty || redactMRZ || redactBarcode)
    }

    public var redactsImage: Bool {
        (mode == .imageOnly || mode == .fullResult) && (!fields.isEmpty || redactMRZ || redactBarcode)
    }

    /// The fields redacted once the name links are applied.
    var effectiveFields: Set<DocumentFieldName> {
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
