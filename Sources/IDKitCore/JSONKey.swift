/// A JSON key that is a name from data (a source, a field, an element identifier) rather than a
/// fixed property: the one dynamic `CodingKey` of the project.
public struct JSONKey: CodingKey, Sendable, Hashable {
    public var stringValue: String
    public var intValue: Int? { nil }

    public init(_ name: String) { stringValue = name }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}
