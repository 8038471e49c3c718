import IDKitCore

extension RedactionSettings {
    /// The redaction options of one call, by the names of the service's query parameters; the
    /// command line's `--redact`, `--redact-mode`, `--document-number-visible`, `--redact-mrz`,
    /// `--redact-barcode` and `--redact-face` are the same options.
    public enum OptionName: String, Sendable, CaseIterable {
        case redact, redactMode, documentNumberVisible, redactMRZ, redactBarcode, redactFace
    }

    /// The settings one call asks for, parsed here once for every front end: `nil` when it asks
    /// for none. `values` holds each given option's text (`nil` for a flag given without a value).
    /// A redaction option without a mode means: redact the result and the image.
    public init?(options values: [OptionName: String?]) throws(OptionValue.Wrong) {
        guard !values.isEmpty else { return nil }
        var fields = Set<DocumentFieldName>()
        if let list = values[.redact] {
            for item in (list ?? "").split(separator: ",") {
                guard let field = DocumentFieldName(rawValue: String(item)) else {
                    throw OptionValue.Wrong(name: "redact", expected: "field names separated by commas, of: "
                                            + DocumentFieldName.allCases.map(\.rawValue).joined(separator: ", "), found: String(item))
                }
                fields.insert(field)
            }
        }
        var mode: RedactionMode?
        if let text = values[.redactMode] {
            guard let m = RedactionMode(rawValue: text ?? "") else {
                throw OptionValue.Wrong(name: "redactMode", expected: "none, resultFieldsOnly, imageOnly or fullResult", found: text ?? "")
            }
            mode = m
        }
        var number: DocumentNumberRedaction?
        if let text = values[.documentNumberVisible] {
            let parts = (text ?? "").split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 2, let p = parts[0], let s = parts[1], p >= 0, s >= 0 else {
                throw OptionValue.Wrong(name: "documentNumberVisible", expected: "two counts PREFIX,SUFFIX, as 0,4", found: text ?? "")
            }
            number = DocumentNumberRedaction(prefixVisible: p, suffixVisible: s)
            fields.insert(.documentNumber)
        }
        func flag(_ name: OptionName) throws(OptionValue.Wrong) -> Bool {
            guard let value = values[name] else { return false }
            return try OptionValue.flag(value ?? "", name.rawValue, text: true) ?? false
        }
        let mrz = try flag(.redactMRZ), barcode = try flag(.redactBarcode), face = try flag(.redactFace)
        let asked = !fields.isEmpty || mrz || barcode || face
        self.init(mode: mode ?? (asked ? .fullResult : .none), fields: fields, documentNumber: number,
                  redactMRZ: mrz, redactBarcode: barcode, redactFace: face)
    }

    /// These settings with `extra` added, as a request adds to a server's policy and can never take
    /// from it: the stronger mode (result and image together make the full result), every field of
    /// both, the fewer visible characters of the document number.
    public func strengthened(by extra: RedactionSettings) -> RedactionSettings {
        func covers(_ m: RedactionMode) -> (result: Bool, image: Bool) {
            (m == .resultFieldsOnly || m == .fullResult, m == .imageOnly || m == .fullResult)
        }
        let a = covers(mode), b = covers(extra.mode)
        let result = a.result || b.result, image = a.image || b.image
        let mode: RedactionMode = result && image ? .fullResult : result ? .resultFieldsOnly : image ? .imageOnly : .none
        // A document number redacted whole (in the fields, no visible characters given) stays whole.
        func whole(_ s: RedactionSettings) -> Bool { s.fields.contains(.documentNumber) && s.documentNumber == nil }
        var number: DocumentNumberRedaction?
        if !whole(self) && !whole(extra) {
            number = documentNumber ?? extra.documentNumber
            if let x = documentNumber, let y = extra.documentNumber {
                number = DocumentNumberRedaction(prefixVisible: min(x.prefixVisible, y.prefixVisible), suffixVisible: min(x.suffixVisible, y.suffixVisible))
            }
        }
        return RedactionSettings(mode: mode, fields: fields.union(extra.fields), documentNumber: number,
                                 redactMRZ: redactMRZ || extra.redactMRZ, redactBarcode: redactBarcode || extra.redactBarcode,
                                 redactFace: redactFace || extra.redactFace)
    }
}
