import CIDKit
import IDKitCore
import IDKitMRZ

/// MRZ texts judged into columns with the values of `idkit validate --json` (docs/arrow.md): one
/// row per text, filled straight into Arrow buffers.
public struct MRZTable {
    /// The column names, in order (docs/arrow.md gives each one's type and meaning).
    public static let columnNames = ["format", "valid", "validWithDeviations", "verdict"] + fieldNames
        + ["dateOfBirthRaw", "dateOfExpiryRaw"] + checkDigitNames + ["errors", "warnings", "deviations", "lines", "correction"]
    /// The fields' columns, the names of the JSON's `fields`; the dates are `date32`.
    static let fieldNames = ["documentCode", "issuingState", "documentNumber", "primaryIdentifier", "secondaryIdentifier",
                             "nationality", "dateOfBirth", "sex", "dateOfExpiry", "optionalData1", "optionalData2"]
    static let checkDigitNames = ["checkDigitDocumentNumber", "checkDigitDateOfBirth", "checkDigitDateOfExpiry",
                                  "checkDigitOptionalData", "checkDigitComposite"]
    static let dateFields: Set<Int> = [6, 8]

    let validator: MRZRecordValidator
    private(set) var rows = 0
    var format: StringColumn
    var valid: FixedColumn
    var validWithDeviations: FixedColumn
    var verdict: StringColumn
    var fields: [StringColumn]
    var dateOfBirth: FixedColumn
    var dateOfExpiry: FixedColumn
    var checkDigits: [StringColumn]
    var errors: StringListColumn
    var warnings: StringListColumn
    var deviations: StringListColumn
    var lines: StringListColumn
    var correction: StringColumn

    public init(options: MRZRecordValidator.Options, capacity rows: Int) {
        validator = MRZRecordValidator(options: options)
        format = StringColumn(capacity: rows, bytesPerRow: 3)
        valid = FixedColumn(.bool, capacity: rows)
        validWithDeviations = FixedColumn(.bool, capacity: rows)
        verdict = StringColumn(capacity: rows, bytesPerRow: 5)
        // Field widths of a TD3 (the names' 39 characters), so that clean input never grows a buffer.
        fields = [1, 3, 9, 39, 39, 3, 6, 1, 6, 16, 16].map { StringColumn(capacity: rows, bytesPerRow: $0) }
        dateOfBirth = FixedColumn(.date32, capacity: rows)
        dateOfExpiry = FixedColumn(.date32, capacity: rows)
        checkDigits = (0..<5).map { _ in StringColumn(capacity: rows, bytesPerRow: 5) }
        errors = StringListColumn(capacity: rows, itemsPerRow: 0, bytesPerItem: 16)
        warnings = StringListColumn(capacity: rows, itemsPerRow: 0, bytesPerItem: 16)
        deviations = StringListColumn(capacity: rows, itemsPerRow: 0, bytesPerItem: 16)
        lines = StringListColumn(capacity: rows, itemsPerRow: 2, bytesPerItem: 44)
        correction = StringColumn(capacity: options.correct ? rows : 0, bytesPerRow: 9)
    }

    /// Judges one text (`nil`: a null input) into the next row.
    public mutating func append(_ text: UnsafeBufferPointer<UInt8>?) {
        rows += 1
        guard let text else { return appendNull() }
        switch validator.judge(utf8: text) {
        case .result(let result, let fix, let accepted):
            format.append(result.format.jsonName)
            valid.append(result.isValid)
            validWithDeviations.append(result.isValidAcceptingDeviations)
            verdict.append(accepted ? Self.valid : Self.invalid)
            var i = 0
            result.forEachFieldUTF8 { bytes in
                if let bytes { fields[i].append(bytes) } else { fields[i].appendNull() }
                i += 1
            }
            append(result.dateOfBirth, to: &dateOfBirth)
            append(result.dateOfExpiry, to: &dateOfExpiry)
            let c = result.checkDigits
            append(c.documentNumber, to: &checkDigits[0])
            append(c.dateOfBirth, to: &checkDigits[1])
            append(c.dateOfExpiry, to: &checkDigits[2])
            append(c.optionalData, to: &checkDigits[3])
            append(c.composite, to: &checkDigits[4])
            if result.isValid && result.warnings.isEmpty && result.deviations.isEmpty {
                errors.appendEmpty(); warnings.appendEmpty(); deviations.appendEmpty()
            } else {
                Self.append(result.errors, to: &errors)
                Self.append(result.warnings, to: &warnings)
                Self.append(result.deviations, to: &deviations)
            }
            result.forEachLineUTF8 { lines.items.append($0) }
            lines.endRow()
            if let fix { correction.append(fix.outcome.rawValue) } else if validator.options.correct { correction.appendNull() }
        case .error(let error, let texts):
            format.appendNull()
            valid.append(false)
            validWithDeviations.append(false)
            verdict.append(Self.notAnMRZ)
            appendNullFields()
            errors.items.append(error.kind.rawValue)
            errors.endRow()
            warnings.appendEmpty()
            deviations.appendEmpty()
            for line in texts { lines.items.append(line) }
            lines.endRow()
            if validator.options.correct { correction.appendNull() }
        }
    }

    /// A null input: `valid` null, `errors` `["nullInput"]`.
    mutating func appendNull() {
        format.appendNull()
        valid.appendNull()
        validWithDeviations.appendNull()
        verdict.appendNull()
        appendNullFields()
        errors.items.append("nullInput")
        errors.endRow()
        warnings.appendEmpty()
        deviations.appendEmpty()
        lines.appendNull()
        if validator.options.correct { correction.appendNull() }
    }

    mutating func appendNullFields() {
        for k in fields.indices { fields[k].appendNull() }
        dateOfBirth.appendNull()
        dateOfExpiry.appendNull()
        for k in checkDigits.indices { checkDigits[k].appendNull() }
    }

    static let valid: StaticString = "valid", invalid: StaticString = "invalid", notAnMRZ: StaticString = "notAnMRZ"

    func append(_ status: CheckDigitStatus, to column: inout StringColumn) {
        switch status {
        case .absent: column.appendNull()
        case .valid: column.append(Self.valid)
        case .invalid: column.append(Self.invalid)
        }
    }

    func append(_ date: CalendarDate?, to column: inout FixedColumn) {
        if let date { column.append(date.daysSince1970) } else { column.appendNull() }
    }

    static func append(_ issues: [MRZIssue], to column: inout StringListColumn) {
        for issue in issues { column.items.append(issue.code.rawValue) }
        column.endRow()
    }

    /// The table as one struct array, or the reason it cannot be exported (its memory is freed then).
    public func export(to array: UnsafeMutablePointer<ArrowArray>, _ schema: UnsafeMutablePointer<ArrowSchema>) throws(ArrowTableError) {
        var table = ArrowTable()
        table.columns = [("format", format), ("valid", valid), ("validWithDeviations", validWithDeviations), ("verdict", verdict)]
        for (k, name) in Self.fieldNames.enumerated() {
            if k == 6 { table.columns.append((name, dateOfBirth)) } else if k == 8 { table.columns.append((name, dateOfExpiry)) } else {
                table.columns.append((name, fields[k]))
            }
        }
        table.columns += [("dateOfBirthRaw", fields[6]), ("dateOfExpiryRaw", fields[8])]
        for (k, name) in Self.checkDigitNames.enumerated() { table.columns.append((name, checkDigits[k])) }
        table.columns += [("errors", errors), ("warnings", warnings), ("deviations", deviations), ("lines", lines)]
        var correction = self.correction
        if !validator.options.correct {
            // Without correction the column is all null.
            correction.discard()
            correction = StringColumn(capacity: rows, bytesPerRow: 0)
            for _ in 0..<rows { correction.appendNull() }
        }
        table.columns.append(("correction", correction))
        try table.export(rows: rows, to: array, schema)
    }
}
