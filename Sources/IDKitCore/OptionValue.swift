import Foundation

/// Options as front ends receive them — query parameters, members of a JSON body, the options
/// object of the C interface — parsed in one place: flags and dates. Each front end turns
/// ``Wrong`` into its own error (a 400 problem, an `invalidOptions` status).
public enum OptionValue {
    /// `name` must be `expected` ("true or false", "a date of the form YYYY-MM-DD").
    public struct Wrong: Error, Sendable, ClassifiedError {
        public let name: String
        public let expected: String
        /// The offending part of the value, where naming it helps (one item of a list).
        public let found: String?

        public init(name: String, expected: String, found: String? = nil) {
            self.name = name
            self.expected = expected
            self.found = found
        }

        public var kindName: String { "invalidOptions" }
        public var errorClass: ErrorClass { .invalidOptions }
        /// `NAME must be EXPECTED`; a front end puts its own word for an option before it
        /// ("query parameter", "option", "--").
        public var message: String { "\(name) must be \(expected)" + (found.map { "; found '\($0.prefix(40))'" } ?? "") }
    }

    /// A JSON `true`/`false` as JSONSerialization gives it (an NSNumber of type char: `0` and `1`
    /// are numbers there, not flags).
    public static func isJSONBool(_ value: Any) -> Bool {
        guard let n = value as? NSNumber else { return false }
        return String(cString: n.objCType) == "c"
    }

    /// `nil` when absent. A JSON `true`/`false`; with `text`, also the query forms `""`/`true`/`1`
    /// and `false`/`0`.
    public static func flag(_ value: Any?, _ name: String, text: Bool) throws(Wrong) -> Bool? {
        guard let value else { return nil }
        if text, let s = value as? String {
            if ["", "true", "1"].contains(s) { return true }
            if ["false", "0"].contains(s) { return false }
        } else if isJSONBool(value), let n = value as? NSNumber {
            return n.boolValue
        }
        throw Wrong(name: name, expected: "true or false")
    }

    /// `nil` when absent; a date of the form YYYY-MM-DD.
    public static func date(_ value: Any?, _ name: String) throws(Wrong) -> CalendarDate? {
        guard let value else { return nil }
        guard let text = value as? String, let date = CalendarDate(iso8601: text) else {
            throw Wrong(name: name, expected: "a date of the form YYYY-MM-DD")
        }
        return date
    }
}
