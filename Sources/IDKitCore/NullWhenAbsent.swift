/// An optional property that JSON always carries: `null` when absent, never left out.
///
/// Synthesized `Codable` omits a `nil` optional; the contracts of docs/contracts.md do not: every key is
/// there, so that a backend finds the whole shape and `nil` stays apart from `""`. Wrapping the
/// property keeps the synthesized coding (keys in declaration order) instead of a hand-written
/// `encode(to:)` per type that lists every property again. A missing key still decodes as absent.
@propertyWrapper
public struct NullWhenAbsent<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A key left out decodes as absent, as it does for a plain optional.
    public func decode<Value>(_ type: NullWhenAbsent<Value>.Type, forKey key: Key) throws -> NullWhenAbsent<Value> {
        try decodeIfPresent(type, forKey: key) ?? NullWhenAbsent(wrappedValue: nil)
    }
}
