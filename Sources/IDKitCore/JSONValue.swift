/// A JSON document as a value: what the JSON Schemas of the contracts and the OpenAPI document are
/// built from, so that they are data checked by the compiler rather than text that can fall out of
/// step with the types it describes.
///
/// Objects are dictionaries: their members have no order, and every rendering sorts them, so that a
/// generated file is the same bytes on every run.
public indirect enum JSONValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member `key` of an object (`nil` for a missing member or a value that is not an object).
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The text, indented by two spaces, members sorted by key, and arrays of scalars and short
    /// objects of scalars on one line (`{"type": ["string", "null"]}`), so that a schema reads as a
    /// person would write it.
    public func prettyText() -> String {
        var out = ""
        write(to: &out, indent: 0)
        out += "\n"
        return out
    }

    /// The text on one line, members sorted by key.
    public func compactText() -> String {
        var out = ""
        writeCompact(to: &out)
        return out
    }

    /// How long a line of a small object may be before its members go on lines of their own.
    static let lineWidth = 100

    /// A scalar, or an array of scalars: what fits on one line inside an object.
    private var isFlat: Bool {
        if case .array(let items) = self { return items.allSatisfy(\.isScalar) }
        return isScalar
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    private func writeCompact(to out: inout String) {
        switch self {
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() { if i > 0 { out += "," }; item.writeCompact(to: &out) }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                members[key]!.writeCompact(to: &out)
            }
            out += "}"
        default:
            writeScalar(to: &out)
        }
    }

    private func write(to out: inout String, indent: Int) {
        let inner = String(repeating: " ", count: indent + 2)
        switch self {
        case .array(let items) where items.isEmpty:
            out += "[]"
        case .array(let items) where items.allSatisfy(\.isScalar):
            out += "["
            for (i, item) in items.enumerated() { if i > 0 { out += ", " }; item.writeScalar(to: &out) }
            out += "]"
        case .array(let items):
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += inner
                item.write(to: &out, indent: indent + 2)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .object(let members) where members.isEmpty:
            out += "{}"
        case .object(let members) where members.values.allSatisfy(\.isFlat):
            var line = "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { line += ", " }
                Self.writeString(key, to: &line)
                line += ": "
                members[key]!.write(to: &line, indent: 0)
            }
            line += "}"
            if indent + line.count <= Self.lineWidth { out += line; return }
            fallthrough
        case .object(let members):
            out += "{\n"
            let keys = members.keys.sorted()
            for (i, key) in keys.enumerated() {
                out += inner
                Self.writeString(key, to: &out)
                out += ": "
                members[key]!.write(to: &out, indent: indent + 2)
                out += i == keys.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        default:
            writeScalar(to: &out)
        }
    }

    private func writeScalar(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let n): out += String(n)
        case .string(let s): Self.writeString(s, to: &out)
        case .array, .object: writeCompact(to: &out)
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null: var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b): var c = encoder.singleValueContainer(); try c.encode(b)
        case .int(let n): var c = encoder.singleValueContainer(); try c.encode(n)
        case .string(let s): var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item) }
        case .object(let members):
            var c = encoder.container(keyedBy: JSONKey.self)
            for key in members.keys.sorted() { try c.encode(members[key]!, forKey: JSONKey(key)) }
        }
    }
}

extension JSONValue: Decodable {
    /// JSON text as a value, for a document partly written as text (numbers other than integers
    /// are not part of what IDKit writes this way, and fail).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Int.self) { self = .int(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    /// A repeated key is a mistake in the literal: the last one wins, as in JSON parsers.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
