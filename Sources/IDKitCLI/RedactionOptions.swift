import IDKitCLICore
import IDKitDocument

/// The redaction options `idkit merge` and `idkit scan` share.
struct RedactionOptions {
    static let names: Set<String> = ["redact", "redact-mode", "document-number-visible", "redact-mrz", "redact-barcode", "redact-face"]

    private var fields = Set<DocumentFieldName>()
    private var mode: RedactionMode?
    private var documentNumber: DocumentNumberRedaction?
    private var redactMRZ = false
    private var redactBarcode = false
    private var redactFace = false

    mutating func accept(_ name: String, _ value: String?, _ cursor: inout TokenCursor) throws(UsageError) {
        switch name {
        case "redact":
            let list = try cursor.value(of: "redact", value, expecting: "field names, as --redact=documentNumber,dateOfBirth")
            for item in list.split(separator: ",") {
                guard let field = DocumentFieldName(rawValue: String(item)) else {
                    throw UsageError(message: "--redact: '\(item)' is not a field; fields: "
                                     + DocumentFieldName.allCases.map(\.rawValue).joined(separator: ", "))
                }
                fields.insert(field)
            }
        case "redact-mode":
            let text = try cursor.value(of: "redact-mode", value, expecting: "a mode: none, resultFieldsOnly, imageOnly, fullResult")
            guard let m = RedactionMode(rawValue: text) else {
                throw UsageError(message: "--redact-mode: '\(text)' is not one of none, resultFieldsOnly, imageOnly, fullResult")
            }
            mode = m
        case "document-number-visible":
            let text = try cursor.value(of: "document-number-visible", value, expecting: "PREFIX,SUFFIX counts, as 0,4")
            let parts = text.split(separator: ",").map { Int($0) }
            guard parts.count == 2, let p = parts[0], let s = parts[1], p >= 0, s >= 0 else {
                throw UsageError(message: "--document-number-visible: expected two counts PREFIX,SUFFIX, as 0,4; found '\(text)'")
            }
            documentNumber = DocumentNumberRedaction(prefixVisible: p, suffixVisible: s)
            fields.insert(.documentNumber)
        case "redact-mrz":
            guard value == nil else { throw UsageError(message: "--redact-mrz takes no value") }
            redactMRZ = true
        case "redact-face":
            guard value == nil else { throw UsageError(message: "--redact-face takes no value") }
            redactFace = true
        default:
            guard value == nil else { throw UsageError(message: "--redact-barcode takes no value") }
            redactBarcode = true
        }
    }

    /// A redaction option without a mode means: redact the result (and the image, where there is one).
    var settings: RedactionSettings {
        let asked = !fields.isEmpty || redactMRZ || redactBarcode || redactFace
        return RedactionSettings(mode: mode ?? (asked ? .fullResult : .none), fields: fields, documentNumber: documentNumber,
                                 redactMRZ: redactMRZ, redactBarcode: redactBarcode, redactFace: redactFace)
    }
}
