import IDKitCore

extension MRZRecordValidator.Options {
    /// The option names every front end accepts for MRZ validation (the service's query
    /// parameters and JSON members, the C interface's options object).
    public static let names: Set<String> = ["correct", "strict", "acceptDeviations", "referenceDate"]

    /// Sets the options given in `values` (query parameters or JSON members; `nil` and absent
    /// leave an option as it is), parsed here once for every front end. `text`: flags may also
    /// be the query forms `""`/`true`/`1` and `false`/`0`.
    public mutating func apply(_ values: [String: Any], text: Bool) throws(OptionValue.Wrong) {
        if let b = try OptionValue.flag(values["correct"], "correct", text: text) { correct = b }
        if let b = try OptionValue.flag(values["strict"], "strict", text: text) { strict = b }
        if let b = try OptionValue.flag(values["acceptDeviations"], "acceptDeviations", text: text) { acceptDeviations = b }
        if let d = try OptionValue.date(values["referenceDate"], "referenceDate") { referenceDate = d }
    }
}
