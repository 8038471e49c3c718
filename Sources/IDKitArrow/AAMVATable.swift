import CIDKit
import IDKitAAMVA
import IDKitCore

/// Raw AAMVA payloads parsed into columns with the values of `idkit aamva --json` (docs/arrow.md):
/// the header, every field (dates as `date32`, measures as `int32`, flags as `bool`), every element
/// as a map, the warnings' codes, and for a payload that is not AAMVA the error.
public struct AAMVATable {
    enum Value: Sendable {
        case text(KeyPath<AAMVAFields, String?> & Sendable)
        case date(KeyPath<AAMVAFields, String?> & Sendable)
        case number(KeyPath<AAMVAFields, Int?> & Sendable)
        case flag(KeyPath<AAMVAFields, Bool?> & Sendable)
    }

    /// The fields in the order of the JSON's `fields` (its keys are these names).
    static let fields: [(String, Value)] = [
        ("documentType", .text(\.documentType)), ("lastName", .text(\.lastName)), ("firstName", .text(\.firstName)),
        ("middleName", .text(\.middleName)), ("suffix", .text(\.suffix)), ("prefix", .text(\.prefix)),
        ("fullName", .text(\.fullName)), ("aliasLastName", .text(\.aliasLastName)), ("aliasFirstName", .text(\.aliasFirstName)),
        ("aliasSuffix", .text(\.aliasSuffix)), ("lastNameTruncation", .text(\.lastNameTruncation)),
        ("firstNameTruncation", .text(\.firstNameTruncation)), ("middleNameTruncation", .text(\.middleNameTruncation)),
        ("documentNumber", .text(\.documentNumber)), ("documentDiscriminator", .text(\.documentDiscriminator)),
        ("inventoryControlNumber", .text(\.inventoryControlNumber)), ("auditInformation", .text(\.auditInformation)),
        ("dateOfBirth", .date(\.dateOfBirth)), ("dateOfExpiry", .date(\.dateOfExpiry)), ("dateOfIssue", .date(\.dateOfIssue)),
        ("cardRevisionDate", .date(\.cardRevisionDate)), ("hazmatExpiryDate", .date(\.hazmatExpiryDate)),
        ("under18Until", .date(\.under18Until)), ("under19Until", .date(\.under19Until)), ("under21Until", .date(\.under21Until)),
        ("sex", .text(\.sex)), ("heightCm", .number(\.heightCm)), ("heightIn", .number(\.heightIn)),
        ("weightKg", .number(\.weightKg)), ("weightLb", .number(\.weightLb)), ("weightRange", .text(\.weightRange)),
        ("eyeColor", .text(\.eyeColor)), ("eyeColorName", .text(\.eyeColorName)), ("hairColor", .text(\.hairColor)),
        ("hairColorName", .text(\.hairColorName)), ("race", .text(\.race)), ("street", .text(\.street)),
        ("street2", .text(\.street2)), ("city", .text(\.city)), ("state", .text(\.state)), ("postalCode", .text(\.postalCode)),
        ("placeOfBirth", .text(\.placeOfBirth)), ("vehicleClass", .text(\.vehicleClass)), ("restrictions", .text(\.restrictions)),
        ("endorsements", .text(\.endorsements)), ("complianceType", .text(\.complianceType)),
        ("limitedDuration", .flag(\.limitedDuration)), ("organDonor", .flag(\.organDonor)), ("veteran", .flag(\.veteran)),
        ("commercial", .flag(\.commercial)), ("nonDomiciled", .flag(\.nonDomiciled)), ("enhanced", .flag(\.enhanced)),
        ("permit", .flag(\.permit)),
    ]
    static let headerText = ["iin", "jurisdiction", "jurisdictionName", "country", "encoding", "fileType"]
    static let headerNumbers = ["version", "jurisdictionVersion", "numberOfEntries"]

    /// The column names, in order.
    public static let columnNames = headerNumbers + headerText + fields.map(\.0)
        + ["elements", "warnings", "error", "errorMessage", "errorOffset"]

    let parser = AAMVAParser()
    private(set) var rows = 0
    var numbers: [FixedColumn]
    var texts: [StringColumn]
    /// One column per field: a `StringColumn` index (texts) or a `FixedColumn` index (values).
    var fieldTexts: [StringColumn]
    var fieldValues: [FixedColumn]
    var elements: StringMapColumn
    var warnings: StringListColumn
    var error: StringColumn
    var errorMessage: StringColumn
    var errorOffset: FixedColumn

    public init(capacity rows: Int) {
        numbers = Self.headerNumbers.map { _ in FixedColumn(.int32, capacity: rows) }
        texts = Self.headerText.map { _ in StringColumn(capacity: rows, bytesPerRow: 6) }
        fieldTexts = []
        fieldValues = []
        for (_, value) in Self.fields {
            switch value {
            case .text: fieldTexts.append(StringColumn(capacity: rows, bytesPerRow: 8))
            case .date: fieldValues.append(FixedColumn(.date32, capacity: rows))
            case .number: fieldValues.append(FixedColumn(.int32, capacity: rows))
            case .flag: fieldValues.append(FixedColumn(.bool, capacity: rows))
            }
        }
        elements = StringMapColumn(capacity: rows, entriesPerRow: 24)
        warnings = StringListColumn(capacity: rows, itemsPerRow: 0, bytesPerItem: 16)
        error = StringColumn(capacity: 0, bytesPerRow: 0)
        errorMessage = StringColumn(capacity: 0, bytesPerRow: 0)
        errorOffset = FixedColumn(.int32, capacity: rows)
    }

    /// Parses one payload (`nil`: a null input, a row whose `error` is `nullInput`) into the next row.
    public mutating func append(_ payload: UnsafeBufferPointer<UInt8>?) {
        rows += 1
        guard let payload else { return appendError(kind: "nullInput", message: "the input is null", offset: nil) }
        let parsed: AAMVAPayload
        do {
            parsed = try parser.parse(Array(payload))
        } catch {
            return appendError(kind: error.kind.rawValue, message: error.message, offset: error.offset)
        }
        for (k, value) in [parsed.version, parsed.jurisdictionVersion, parsed.numberOfEntries].enumerated() {
            if let value { numbers[k].append(Int32(truncatingIfNeeded: value)) } else { numbers[k].appendNull() }
        }
        for (k, value) in [parsed.iin, parsed.jurisdiction?.code, parsed.jurisdiction?.name, parsed.country,
                           parsed.encoding.rawValue, parsed.fileType].enumerated() {
            if let value { texts[k].append(value) } else { texts[k].appendNull() }
        }
        let f = parsed.fields
        var t = 0, v = 0
        for (_, value) in Self.fields {
            switch value {
            case .text(let path):
                if let s = f[keyPath: path] { fieldTexts[t].append(s) } else { fieldTexts[t].appendNull() }
                t += 1
            case .date(let path):
                if let s = f[keyPath: path], let date = CalendarDate(iso8601: s) {
                    fieldValues[v].append(date.daysSince1970)
                } else {
                    fieldValues[v].appendNull()
                }
                v += 1
            case .number(let path):
                if let n = f[keyPath: path] { fieldValues[v].append(Int32(truncatingIfNeeded: n)) } else { fieldValues[v].appendNull() }
                v += 1
            case .flag(let path):
                if let b = f[keyPath: path] { fieldValues[v].append(b) } else { fieldValues[v].appendNull() }
                v += 1
            }
        }
        for (key, value) in parsed.elements.sorted(by: { $0.key < $1.key }) { elements.append(key: key, value: value) }
        elements.endRow()
        for w in parsed.warnings { warnings.items.append(w.code.rawValue) }
        warnings.endRow()
        error.appendNull()
        errorMessage.appendNull()
        errorOffset.appendNull()
    }

    mutating func appendError(kind: String, message: String, offset: Int?) {
        for k in numbers.indices { numbers[k].appendNull() }
        for k in texts.indices { texts[k].appendNull() }
        for k in fieldTexts.indices { fieldTexts[k].appendNull() }
        for k in fieldValues.indices { fieldValues[k].appendNull() }
        elements.appendNull()
        warnings.appendNull()
        error.append(kind)
        errorMessage.append(message)
        if let offset { errorOffset.append(Int32(truncatingIfNeeded: offset)) } else { errorOffset.appendNull() }
    }

    /// The table as one struct array, or the reason it cannot be exported (its memory is freed then).
    public func export(to array: UnsafeMutablePointer<ArrowArray>, _ schema: UnsafeMutablePointer<ArrowSchema>) throws(ArrowTableError) {
        var table = ArrowTable()
        for (k, name) in Self.headerNumbers.enumerated() { table.columns.append((name, numbers[k])) }
        for (k, name) in Self.headerText.enumerated() { table.columns.append((name, texts[k])) }
        var t = 0, v = 0
        for (name, value) in Self.fields {
            if case .text = value { table.columns.append((name, fieldTexts[t])); t += 1 } else { table.columns.append((name, fieldValues[v])); v += 1 }
        }
        table.columns += [("elements", elements), ("warnings", warnings), ("error", error), ("errorMessage", errorMessage),
                          ("errorOffset", errorOffset)]
        try table.export(rows: rows, to: array, schema)
    }
}
