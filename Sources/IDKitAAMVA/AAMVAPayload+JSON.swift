import Foundation

/// The JSON contract of `idkit aamva --json` (README): backends code against these names.
///
/// `{"version", "jurisdictionVersion", "iin", "jurisdiction", "country", "encoding", "fileType",
/// "elements": {"DCS": "…"}, "subfiles": [{"type", "offset", "designatedOffset",
/// "designatedLength", "elements": {…}}], "fields": {…}, "warnings": [{"code", "message", "offset"}]}`.
/// Absent values are `null`, present-but-empty values `""`.
public struct AAMVAReport: Encodable, Sendable {
    public let payload: AAMVAPayload

    public init(_ payload: AAMVAPayload) { self.payload = payload }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

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

    private struct Fields: Encodable {
        let f: AAMVAFields
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            // Every field, null when absent: the set of keys is the same for every payload.
            for child in Mirror(reflecting: f).children {
                guard let label = child.label else { continue }
                let key = Key(label)
                switch child.value {
                case let v as String?: try c.encode(v, forKey: key)
                case let v as Int?: try c.encode(v, forKey: key)
                case let v as Bool?: try c.encode(v, forKey: key)
                default: continue
                }
            }
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

    /// The report as JSON text (keys sorted, so output is stable).
    public func jsonString(pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
