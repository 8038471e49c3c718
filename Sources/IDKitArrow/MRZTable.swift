import CIDKit
import IDKitCore
import IDKitMRZ

/// MRZ texts judged into columns with the values of `idkit validate --json` (docs/arrow.md): one
/// row per text, filled straight into Arrow buffers. The table owns its buffers until
/// ``export(to:_:)``, which hands them to the Arrow structs (or frees them): export a table once.
public struct MRZTable {
    /// The column names, in order (docs/arrow.md gives each one's type and meaning).
    public static let columnNames = ["format", "valid", "validWithDeviations", "verdict"] + fieldNames
        + ["dateOfBirthRaw", "dateOfExpiryRaw"] + checkDigitNames + ["errors", "warnings", "deviations", "lines", "correction"]
    /// The fields' columns, the names of the JSON's `fields`; the dates are `date32`.
    static let fieldNames = ["documentCode", "issuingState", "documentNumber", "primaryIdentifier", "secondaryIdentifier",
                             "nationality", "dateOfBirth", "sex", "dateOfExpiry", "optionalData1", "optionalData2"]
    static let checkDigitNames = ["checkDigitDocumentNumber", "checkDigitDateOfBirth", "checkDigitDateOfExpiry",
                                  "checkDigitOptionalData", "checkDigitComposite"]

    /// Whether the texts are corrected (the `correction` column has values).
    let correct: Bool
    private(set) var rows = 0
    var format: DictionaryColumn
    var valid: FixedColumn
    var validWithDeviations: FixedColumn
    var verdict: DictionaryColumn
    /// The 11 fields' columns, in memory of their own, so that the closure that fills them
    /// captures a pointer, not the table.
    let strings: UnsafeMutablePointer<StringColumn>
    /// The 5 check digits' columns: `valid`, `invalid` or null.
    var checkDigits: (DictionaryColumn, DictionaryColumn, DictionaryColumn, DictionaryColumn, DictionaryColumn)
    var dateOfBirth: FixedColumn
    var dateOfExpiry: FixedColumn
    var errors: StringListColumn
    var warnings: StringListColumn
    var deviations: StringListColumn
    var lines: StringListColumn
    var correction: StringColumn

    public init(correct: Bool, capacity rows: Int) {
        self.correct = correct
        format = DictionaryColumn(MRZFormat.allCases.map(\.jsonName), capacity: rows)
        valid = FixedColumn(.bool, capacity: rows)
        validWithDeviations = FixedColumn(.bool, capacity: rows)
        verdict = DictionaryColumn([Self.valid, Self.invalid, Self.notAnMRZ], capacity: rows)
        // Field widths of a TD3 (the names' 39 characters), so that clean input never grows a buffer.
        strings = .allocate(capacity: 11)
        for (k, width) in [1, 3, 9, 39, 39, 3, 6, 1, 6, 16, 16].enumerated() {
            (strings + k).initialize(to: StringColumn(capacity: rows, bytesPerRow: width))
        }
        let states = { DictionaryColumn([Self.valid, Self.invalid], capacity: rows) }
        checkDigits = (states(), states(), states(), states(), states())
        dateOfBirth = FixedColumn(.date32, capacity: rows)
        dateOfExpiry = FixedColumn(.date32, capacity: rows)
        errors = StringListColumn(capacity: rows, itemsPerRow: 0, bytesPerItem: 16)
        warnings = StringListColumn(capacity: rows, itemsPerRow: 0, bytesPerItem: 16)
        deviations = StringListColumn(capacity: rows, itemsPerRow: 0, bytesPerItem: 16)
        lines = StringListColumn(capacity: rows, itemsPerRow: 2, bytesPerItem: 44)
        correction = StringColumn(capacity: correct ? rows : 0, bytesPerRow: 9)
    }

    /// One text's verdict (``MRZRecordValidator/judge(utf8:)``; `nil`: a null input) as the
    /// next row. The caller judges, so that the validator is not read through the table while
    /// the table is being changed (which made the compiler copy the table for every row).
    public mutating func append(_ judged: MRZRecordValidator.Outcome.Verdict?) {
        rows += 1
        guard let judged else { return appendNull() }
        switch judged {
        case .result(let result, let fix, let accepted):
            format.append(Self.index(of: result.format))
            valid.append(result.isValid)
            validWithDeviations.append(result.isValidAcceptingDeviations)
            verdict.append(accepted ? 0 : 1)
            var i = 0
            let fields = strings
            result.forEachFieldUTF8 { bytes in
                if let bytes { fields[i].append(bytes) } else { fields[i].appendNull() }
                i += 1
            }
            append(result.dateOfBirth, to: &dateOfBirth)
            append(result.dateOfExpiry, to: &dateOfExpiry)
            appendCheckDigits(result.checkDigits)
            if result.isValid && result.warnings.isEmpty && result.deviations.isEmpty {
                errors.appendEmpty(); warnings.appendEmpty(); deviations.appendEmpty()
            } else {
                Self.append(result.errors, to: &errors)
                Self.append(result.warnings, to: &warnings)
                Self.append(result.deviations, to: &deviations)
            }
            var rowLines = lines
            result.forEachLineUTF8 { rowLines.items.append($0) }
            rowLines.endRow()
            lines = rowLines
            if let fix { correction.append(fix.outcome.rawValue) } else if correct { correction.appendNull() }
        case .error(let error, let texts):
            format.appendNull()
            valid.append(false)
            validWithDeviations.append(false)
            verdict.append(2)
            appendNullFields()
            errors.items.append(error.kind.rawValue)
            errors.endRow()
            warnings.appendEmpty()
            deviations.appendEmpty()
            for line in texts { lines.items.append(line) }
            lines.endRow()
            if correct { correction.appendNull() }
        }
    }

    /// A clean MRZ read in place (``MRZRecordValidator/judgeClean(utf8:)``) from `text` as the next
    /// row: the row ``append(_:)`` writes for its result, without the result.
    public mutating func append(clean r: MRZCleanReading, text: UnsafeBufferPointer<UInt8>) {
        rows += 1
        format.append(Self.index(of: r.format))
        valid.append(true)
        validWithDeviations.append(true)
        verdict.append(0)
        var i = 0
        let fields = strings
        r.forEachFieldUTF8(in: text) { bytes in
            if let bytes { fields[i].append(bytes) } else { fields[i].appendNull() }
            i += 1
        }
        dateOfBirth.append(r.dateOfBirth.daysSince1970)
        append(r.dateOfExpiry, to: &dateOfExpiry)
        appendCheckDigits(r.checkDigits)
        errors.appendEmpty(); warnings.appendEmpty(); deviations.appendEmpty()
        var rowLines = lines
        r.forEachLineUTF8(in: text) { rowLines.items.append($0) }
        lines = rowLines
        lines.endRow()
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
        if correct { correction.appendNull() }
    }

    mutating func appendNullFields() {
        for k in 0..<11 { strings[k].appendNull() }
        checkDigits.0.appendNull(); checkDigits.1.appendNull(); checkDigits.2.appendNull()
        checkDigits.3.appendNull(); checkDigits.4.appendNull()
        dateOfBirth.appendNull()
        dateOfExpiry.appendNull()
    }

    static let valid: StaticString = "valid", invalid: StaticString = "invalid", notAnMRZ: StaticString = "notAnMRZ"

    /// The format's place in the `format` column's dictionary (`MRZFormat.allCases`'s order).
    @inline(__always) static func index(of format: MRZFormat) -> Int8 {
        switch format {
        case .td1: return 0
        case .td2: return 1
        case .td3: return 2
        case .mrvA: return 3
        case .mrvB: return 4
        case .franceID1988: return 5
        }
    }

    mutating func appendCheckDigits(_ c: MRZCheckDigits) {
        @inline(__always) func append(_ status: CheckDigitStatus, to column: inout DictionaryColumn) {
            switch status {
            case .absent: column.appendNull()
            case .valid: column.append(0)
            case .invalid: column.append(1)
            }
        }
        append(c.documentNumber, to: &checkDigits.0)
        append(c.dateOfBirth, to: &checkDigits.1)
        append(c.dateOfExpiry, to: &checkDigits.2)
        append(c.optionalData, to: &checkDigits.3)
        append(c.composite, to: &checkDigits.4)
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
                table.columns.append((name, strings[k]))
            }
        }
        table.columns += [("dateOfBirthRaw", strings[6]), ("dateOfExpiryRaw", strings[8])]
        let states = [checkDigits.0, checkDigits.1, checkDigits.2, checkDigits.3, checkDigits.4]
        for (k, name) in Self.checkDigitNames.enumerated() { table.columns.append((name, states[k])) }
        strings.deinitialize(count: 11)
        strings.deallocate()
        table.columns += [("errors", errors), ("warnings", warnings), ("deviations", deviations), ("lines", lines)]
        var correction = self.correction
        if !correct {
            // Without correction the column is all null.
            correction.discard()
            correction = StringColumn(capacity: rows, bytesPerRow: 0)
            for _ in 0..<rows { correction.appendNull() }
        }
        table.columns.append(("correction", correction))
        try table.export(rows: rows, to: array, schema)
    }
}
