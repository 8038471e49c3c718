import IDKitCore
import IDKitDocument

/// Redaction asked for by one request (`/v1/scan`, `/v1/merge`), as query parameters mirroring the
/// command line's options: `redact=documentNumber,dateOfBirth`, `redactMode=none|resultFieldsOnly|
/// imageOnly|fullResult`, `documentNumberVisible=P,S`, `redactMRZ`, `redactBarcode`, `redactFace`,
/// parsed by IDKitDocument as every front end's (``RedactionSettings/init(options:)``). A request
/// can only add to the server's policy (`--redaction FILE`), never take from it.
enum RequestRedaction {
    /// The request's settings, `nil` when it asks for none.
    static func parse(_ query: [String: String]) throws(Problem) -> RedactionSettings? {
        var values: [RedactionSettings.OptionName: String?] = [:]
        for name in RedactionSettings.OptionName.allCases { if let v = query[name.rawValue] { values[name] = v } }
        do { return try RedactionSettings(options: values) } catch { throw RouteOption.problem(error, "query parameter") }
    }

    /// The policy for one request: the server's, strengthened by what the request asks.
    static func policy(server: RedactionRules?, request: HTTPRequest) throws(Problem) -> RedactionPolicy {
        let extra = try parse(request.query)
        guard server != nil || extra != nil else { return .fixed(.none) }
        let base = server?.policy ?? .fixed(.none)
        guard let extra else { return base }
        return .resolver { c in base.settings(for: c).strengthened(by: extra) }
    }
}
