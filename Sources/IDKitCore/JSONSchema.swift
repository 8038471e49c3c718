/// A JSON Schema (draft 2020-12) of one contract or of a part of one, built in Swift beside the
/// type or the writer it describes, so that the schema files of docs/schemas and the service's
/// OpenAPI document come from one description, and a test that validates real outputs against the
/// files holds the writers to it.
///
/// Objects are closed (`additionalProperties: false`) and list every member as required unless
/// told otherwise: the contracts write every key, `null` for an absent value, so a member that goes
/// missing or a new one that is not described fails validation instead of passing unnoticed.
///
/// A schema given a ``name`` is written once under `$defs` (or the OpenAPI document's
/// `components/schemas`) and referenced wherever it is used.
public struct JSONSchema: Sendable, Equatable {
    /// Where a document keeps this schema once and refers to it; `nil` writes it in place.
    public private(set) var name: String?
    var keywords: [String: Keyword]

    indirect enum Keyword: Sendable, Equatable {
        case value(JSONValue)
        case schema(JSONSchema)
        case schemas([JSONSchema])
        case properties([String: JSONSchema])
    }

    init(_ keywords: [String: Keyword]) { self.keywords = keywords }

    public static let string = JSONSchema(["type": .value("string")])
    public static let integer = JSONSchema(["type": .value("integer")])
    public static let number = JSONSchema(["type": .value("number")])
    public static let boolean = JSONSchema(["type": .value("boolean")])
    public static let null = JSONSchema(["type": .value("null")])
    /// Any JSON value (for a member whose content another schema does not fix).
    public static let any = JSONSchema([:])

    /// A string that is one of `values`.
    public static func string(oneOf values: [String]) -> JSONSchema {
        JSONSchema(["type": .value("string"), "enum": .value(.array(values.map { .string($0) }))])
    }

    /// A string that is one of the raw values of `type`: the enum of the Swift type is the list.
    public static func string<E: CaseIterable & RawRepresentable>(of type: E.Type) -> JSONSchema where E.RawValue == String {
        string(oneOf: type.allCases.map(\.rawValue))
    }

    /// A closed object: the members given, each required except those in `optional` (members that
    /// appear only in some cases).
    public static func object(_ properties: KeyValuePairs<String, JSONSchema>, optional: Set<String> = []) -> JSONSchema {
        let members = Dictionary(properties.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        precondition(optional.isSubset(of: members.keys), "optional members that are not members: \(optional.subtracting(members.keys))")
        var keywords: [String: Keyword] = ["type": .value("object"), "properties": .properties(members),
                                           "additionalProperties": .value(false)]
        let required = members.keys.filter { !optional.contains($0) }.sorted()
        if !required.isEmpty { keywords["required"] = .value(.array(required.map { .string($0) })) }
        return JSONSchema(keywords)
    }

    /// An object whose member names are data (element identifiers, sources, ciphers), each value
    /// matching `values`; `keys` limits the names when they come from a closed list.
    public static func map(_ values: JSONSchema, keys: [String]? = nil) -> JSONSchema {
        var keywords: [String: Keyword] = ["type": .value("object"), "additionalProperties": .schema(values)]
        if let keys { keywords["propertyNames"] = .value(["enum": .array(keys.map { .string($0) })]) }
        return JSONSchema(keywords)
    }

    /// An array of `items`, of exactly `count` of them when given.
    public static func array(_ items: JSONSchema, count: Int? = nil) -> JSONSchema {
        var keywords: [String: Keyword] = ["type": .value("array"), "items": .schema(items)]
        if let count { keywords["minItems"] = .value(.int(count)); keywords["maxItems"] = .value(.int(count)) }
        return JSONSchema(keywords)
    }

    /// A value that matches at least one of `schemas`.
    public static func anyOf(_ schemas: [JSONSchema]) -> JSONSchema { JSONSchema(["anyOf": .schemas(schemas)]) }

    /// This schema or `null`: the contracts write `null` for an absent value, never leave the key
    /// out, and keep it apart from `""`.
    public var orNull: JSONSchema {
        guard name == nil, case .value(let type)? = keywords["type"] else { return .anyOf([self, .null]) }
        var copy = self
        switch type {
        case .string(let t): copy.keywords["type"] = .value([.string(t), "null"])
        case .array(let types) where !types.contains("null"): copy.keywords["type"] = .value(.array(types + ["null"]))
        default: return self
        }
        if case .value(.array(let values))? = keywords["enum"] { copy.keywords["enum"] = .value(.array(values + [.null])) }
        return copy
    }

    /// The same schema kept once in a document under `name`.
    public func named(_ name: String) -> JSONSchema { var copy = self; copy.name = name; return copy }

    /// The same schema with a `description` for a person reading the files.
    public func described(_ text: String) -> JSONSchema { with("description", .string(text)) }

    /// The same schema with a `format` (`date`, `uri`) or any other keyword whose value is plain JSON.
    public func with(_ keyword: String, _ value: JSONValue) -> JSONSchema {
        var copy = self
        copy.keywords[keyword] = .value(value)
        return copy
    }

    /// This object schema with more members (a record that adds members to a result's own), no
    /// longer under this schema's name since it is another schema.
    public func adding(_ properties: KeyValuePairs<String, JSONSchema>, optional: Set<String> = []) -> JSONSchema {
        guard case .properties(var members)? = keywords["properties"] else { preconditionFailure("adding members to a schema that is not an object") }
        var required: [String] = []
        if case .value(.array(let names))? = keywords["required"] {
            required = names.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
        }
        for (key, value) in properties {
            members[key] = value
            if !optional.contains(key) { required.append(key) }
        }
        var copy = self
        copy.name = nil
        copy.keywords["properties"] = .properties(members)
        copy.keywords["required"] = .value(.array(required.sorted().map { .string($0) }))
        return copy
    }

    /// The members of this object schema (for tests that compare them with key lists).
    public var memberNames: [String] {
        guard case .properties(let members)? = keywords["properties"] else { return [] }
        return members.keys.sorted()
    }

    /// The schema as a JSON value: each named schema below it written once into `definitions` and
    /// referred to as `refPrefix` + name. Two different schemas under one name are a mistake in the
    /// descriptions and stop the program.
    public func resolved(refPrefix: String, definitions: inout [String: JSONValue]) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for (key, keyword) in keywords {
            switch keyword {
            case .value(let v): members[key] = v
            case .schema(let s): members[key] = s.reference(refPrefix, &definitions)
            case .schemas(let list): members[key] = .array(list.map { $0.reference(refPrefix, &definitions) })
            case .properties(let p): members[key] = .object(p.mapValues { $0.reference(refPrefix, &definitions) })
            }
        }
        return .object(members)
    }

    private func reference(_ prefix: String, _ definitions: inout [String: JSONValue]) -> JSONValue {
        guard let name else { return resolved(refPrefix: prefix, definitions: &definitions) }
        let value = resolved(refPrefix: prefix, definitions: &definitions)
        if let existing = definitions[name] {
            precondition(existing == value, "two different schemas named \(name)")
        } else {
            definitions[name] = value
        }
        return ["$ref": .string(prefix + name)]
    }

    /// A schema file: this schema at the root (draft 2020-12), the named ones under `$defs`.
    public func document(title: String, description: String) -> JSONValue {
        var definitions: [String: JSONValue] = [:]
        var root = self
        root.name = nil
        guard case .object(var members) = root.resolved(refPrefix: "#/$defs/", definitions: &definitions) else { return .null }
        members["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        members["title"] = .string(title)
        members["description"] = .string(description)
        if !definitions.isEmpty { members["$defs"] = .object(definitions) }
        return .object(members)
    }
}

/// A type whose JSON encoding a ``JSONSchema`` describes; the schema sits beside the encoder, in a
/// file of the type's name, so that a change to one shows beside the other.
public protocol JSONSchemaDescribed {
    static var jsonSchema: JSONSchema { get }
}
