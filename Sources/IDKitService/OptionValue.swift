import Foundation
import IDKitCore

/// Options the routes read from query parameters or JSON members, parsed in one place: flags
/// (`?crops`, `?strict=false`, `"strict": true`) and dates (`referenceDate=YYYY-MM-DD`). A value
/// of the wrong kind is a 400 problem that names it.
enum OptionValue {
    /// `nil` when absent. A query string `""`/`true`/`1` or `false`/`0`; a JSON `true`/`false`
    /// (not a number: `0` is not false there).
    static func flag(_ value: Any?, _ name: String, source: String = "query parameter") throws(Problem) -> Bool? {
        guard let value else { return nil }
        if let s = value as? String {
            if ["", "true", "1"].contains(s) { return true }
            if ["false", "0"].contains(s) { return false }
        } else if let n = value as? NSNumber, String(cString: n.objCType) == "c" {
            return n.boolValue
        }
        throw Problem(status: 400, slug: "bad-option", title: "Bad option", detail: "\(source) \(name) must be true or false")
    }

    /// `nil` when absent; a date of the form YYYY-MM-DD.
    static func date(_ value: Any?, _ name: String, source: String = "query parameter") throws(Problem) -> CalendarDate? {
        guard let value else { return nil }
        guard let text = value as? String, let date = CalendarDate(iso8601: text) else {
            throw Problem(status: 400, slug: "bad-option", title: "Bad option", detail: "\(source) \(name) must be a date of the form YYYY-MM-DD")
        }
        return date
    }
}
