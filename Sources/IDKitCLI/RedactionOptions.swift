import IDKitCLICore
import IDKitDocument

/// The redaction options `idkit merge` and `idkit scan` share: the command line's spelling of the
/// options IDKitDocument parses for every front end (``RedactionSettings/init(options:)``).
struct RedactionOptions {
    /// Each option's command-line name and the library's name for it.
    static let spellings: [String: RedactionSettings.OptionName] = [
        "redact": .redact, "redact-mode": .redactMode, "document-number-visible": .documentNumberVisible,
        "redact-mrz": .redactMRZ, "redact-barcode": .redactBarcode, "redact-face": .redactFace,
    ]
    static var names: Set<String> { Set(spellings.keys) }

    private var values: [RedactionSettings.OptionName: String?] = [:]
    /// The settings of the options read so far (each option checked as it is read).
    private(set) var settings = RedactionSettings.none

    mutating func accept(_ name: String, _ value: String?, _ cursor: inout TokenCursor) throws(UsageError) {
        guard let option = Self.spellings[name] else { throw UsageError(message: "unknown option '--\(name)'") }
        switch option {
        case .redactMRZ, .redactBarcode, .redactFace:
            guard value == nil else { throw UsageError(message: "--\(name) takes no value") }
            values[option] = .some(nil)
        case .redact:
            values[option] = try cursor.value(of: name, value, expecting: "field names, as --redact=documentNumber,dateOfBirth")
        case .redactMode:
            values[option] = try cursor.value(of: name, value, expecting: "a mode: none, resultFieldsOnly, imageOnly, fullResult")
        case .documentNumberVisible:
            values[option] = try cursor.value(of: name, value, expecting: "PREFIX,SUFFIX counts, as 0,4")
        }
        do {
            settings = try RedactionSettings(options: values) ?? .none
        } catch {
            let spelling = Self.spellings.first { $0.value.rawValue == error.name }?.key ?? error.name
            throw UsageError(message: "--\(spelling) must be \(error.expected)" + (error.found.map { "; found '\($0.prefix(40))'" } ?? ""))
        }
    }
}
