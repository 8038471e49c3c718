import IDKitDocument

/// Redaction asked for by one request (`/v1/scan`, `/v1/merge`), as query parameters mirroring the
/// command line's options: `redact=documentNumber,dateOfBirth`, `redactMode=none|resultFieldsOnly|
/// imageOnly|fullResult`, `documentNumberVisible=P,S`, `redactMRZ`, `redactBarcode`, `redactFace`. A request can
/// only add to the server's policy (`--redaction FILE`), never take from it.
enum RequestRedaction {
    static let names: Set<String> = ["redact", "redactMode", "documentNumberVisible", "redactMRZ", "redactBarcode", "redactFace"]

    /// The request's settings, `nil` when it asks for none.
    static func parse(_ query: [String: String]) throws(Problem) -> RedactionSettings? {
        guard !names.isDisjoint(with: query.keys) else { return nil }
        func bad(_ detail: String) -> Problem { Problem(status: 400, slug: "bad-option", title: "Bad option", detail: detail) }
        var fields = Set<DocumentFieldName>()
        for item in (query["redact"] ?? "").split(separator: ",") {
            guard let f = DocumentFieldName(rawValue: String(item)) else {
                throw bad("query parameter redact: '\(item.prefix(40))' is not a field; fields: " + DocumentFieldName.allCases.map(\.rawValue).joined(separator: ", "))
            }
            fields.insert(f)
        }
        var mode: RedactionMode?
        if let m = query["redactMode"] {
            guard let parsed = RedactionMode(rawValue: m) else { throw bad("query parameter redactMode must be none, resultFieldsOnly, imageOnly or fullResult") }
            mode = parsed
        }
        var number: DocumentNumberRedaction?
        if let v = query["documentNumberVisible"] {
            let parts = v.split(separator: ",").map { Int($0) }
            guard parts.count == 2, let p = parts[0], let s = parts[1], p >= 0, s >= 0 else {
                throw bad("query parameter documentNumberVisible must be two counts PREFIX,SUFFIX, as 0,4")
            }
            number = DocumentNumberRedaction(prefixVisible: p, suffixVisible: s)
            fields.insert(.documentNumber)
        }
        let mrz = try RouteOption.flag(query["redactMRZ"], "redactMRZ") ?? false
        let barcode = try RouteOption.flag(query["redactBarcode"], "redactBarcode") ?? false
        let face = try RouteOption.flag(query["redactFace"], "redactFace") ?? false
        let asked = !fields.isEmpty || mrz || barcode || face
        return RedactionSettings(mode: mode ?? (asked ? .fullResult : .none), fields: fields, documentNumber: number,
                                 redactMRZ: mrz, redactBarcode: barcode, redactFace: face)
    }

    /// The server's settings with the request's added: the stronger mode (result and image
    /// together make the full result), every field of both, the fewer visible characters.
    static func strengthened(_ base: RedactionSettings, by extra: RedactionSettings) -> RedactionSettings {
        func covers(_ m: RedactionMode) -> (result: Bool, image: Bool) {
            (m == .resultFieldsOnly || m == .fullResult, m == .imageOnly || m == .fullResult)
        }
        let a = covers(base.mode), b = covers(extra.mode)
        let result = a.result || b.result, image = a.image || b.image
        let mode: RedactionMode = result && image ? .fullResult : result ? .resultFieldsOnly : image ? .imageOnly : .none
        // A document number redacted whole (in the fields, no visible characters given) stays whole.
        func whole(_ s: RedactionSettings) -> Bool { s.fields.contains(.documentNumber) && s.documentNumber == nil }
        var number: DocumentNumberRedaction?
        if !whole(base) && !whole(extra) {
            number = base.documentNumber ?? extra.documentNumber
            if let x = base.documentNumber, let y = extra.documentNumber {
                number = DocumentNumberRedaction(prefixVisible: min(x.prefixVisible, y.prefixVisible), suffixVisible: min(x.suffixVisible, y.suffixVisible))
            }
        }
        return RedactionSettings(mode: mode, fields: base.fields.union(extra.fields), documentNumber: number,
                                 redactMRZ: base.redactMRZ || extra.redactMRZ, redactBarcode: base.redactBarcode || extra.redactBarcode,
                                 redactFace: base.redactFace || extra.redactFace)
    }

    /// The policy for one request: the server's, strengthened by what the request asks.
    static func policy(server: RedactionRules?, request: HTTPRequest) throws(Problem) -> RedactionPolicy {
        let extra = try parse(request.query)
        guard server != nil || extra != nil else { return .fixed(.none) }
        let base = server?.policy ?? .fixed(.none)
        guard let extra else { return base }
        return .resolver { c in strengthened(base.settings(for: c), by: extra) }
    }
}
