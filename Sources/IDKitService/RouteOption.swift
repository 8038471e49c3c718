import Foundation
import IDKitCore

/// The routes' options from query parameters or JSON members, parsed by IDKitCore's
/// ``IDKitCore/OptionValue`` (which the C interface uses too): flags (`?crops`, `?strict=false`,
/// `"strict": true`) and dates (`referenceDate=YYYY-MM-DD`). A value of the wrong kind is a 400
/// problem that names it.
enum RouteOption {
    static func problem(_ wrong: OptionValue.Wrong, _ source: String) -> Problem {
        Problem(wrong, slug: "bad-option", title: "Bad option", detailPrefix: source + " ")
    }

    /// `nil` when absent. A query string `""`/`true`/`1` or `false`/`0`; a JSON `true`/`false`.
    static func flag(_ value: Any?, _ name: String, source: String = "query parameter") throws(Problem) -> Bool? {
        do { return try OptionValue.flag(value, name, text: true) } catch { throw problem(error, source) }
    }

    /// `nil` when absent; a date of the form YYYY-MM-DD.
    static func date(_ value: Any?, _ name: String, source: String = "query parameter") throws(Problem) -> CalendarDate? {
        do { return try OptionValue.date(value, name) } catch { throw problem(error, source) }
    }
}
