/// A parsed and validated MRZ.
public struct MRZResult: Sendable {
    public var format: MRZFormat
    /// The MRZ lines joined by `\n`, exactly as read (whitespace around lines removed).
    public var text: String
    public var checkDigits: MRZCheckDigits
    /// The date of birth on the calendar, by ``MRZCenturyRule``; `nil` when a part is unknown or impossible.
    public var dateOfBirth: CalendarDate?
    /// The date of expiry on the calendar; `nil` when the layout has none or it is impossible.
    public var dateOfExpiry: CalendarDate?
    /// What makes the strict verdict fail: check digits and long-number structure.
    public var errors: [MRZIssue] {
        get { extras?.errors ?? [] }
        set { setExtras(fields: extras?.fields, newValue, warnings, deviations) }
    }
    /// What a genuine document may hold but deserves a look: unknown country codes, digits in names or
    /// in the document code, unexpected document codes, an empty primary identifier. They do not change
    /// ``isValid``; what no genuine document can hold (impossible dates, digits in country codes, an
    /// invalid sex) is in ``errors``.
    public var warnings: [MRZIssue] {
        get { extras?.warnings ?? [] }
        set { setExtras(fields: extras?.fields, errors, newValue, deviations) }
    }
    /// Known issuer deviations that explain some of ``errors``.
    public var deviations: [MRZIssue] {
        get { extras?.deviations ?? [] }
        set { setExtras(fields: extras?.fields, errors, warnings, newValue) }
    }

    /// Where each field stands in ``text``; the strings are made when ``fields`` is read.
    var index: FieldIndex

    /// What most results do not have — issues, or fields set by a caller rather than read from the
    /// text — in one optional box, so that a clean result holds only two references (text and `nil`)
    /// and copying it costs almost nothing.
    @usableFromInline
    final class Extras: Sendable {
        let fields: MRZFields?
        @usableFromInline let errors: [MRZIssue]
        let warnings: [MRZIssue]
        let deviations: [MRZIssue]
        init(fields: MRZFields?, _ errors: [MRZIssue], _ warnings: [MRZIssue], _ deviations: [MRZIssue]) {
            self.fields = fields
            self.errors = errors
            self.warnings = warnings
            self.deviations = deviations
        }
    }
    @usableFromInline var extras: Extras?

    private mutating func setExtras(fields: MRZFields?, _ errors: [MRZIssue], _ warnings: [MRZIssue], _ deviations: [MRZIssue]) {
        extras = fields == nil && errors.isEmpty && warnings.isEmpty && deviations.isEmpty
            ? nil : Extras(fields: fields, errors, warnings, deviations)
    }


    /// The data fields (``MRZFields``: `nil` = not in this layout, `""` = present and empty).
    public var fields: MRZFields {
        get { extras?.fields ?? index.materialize(text) }
        set { setExtras(fields: newValue, errors, warnings, deviations) }
    }

    /// The lines of the MRZ.
    public var lines: [String] {
        text.utf8.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Strict ICAO verdict: every check digit of the layout holds and the structure is sound.
    @inlinable
    public var isValid: Bool { extras?.errors.isEmpty ?? true }

    /// The verdict when the caller accepts the known issuer deviations in ``deviations``: every error
    /// is one that a reported deviation explains.
    public var isValidAcceptingDeviations: Bool {
        errors.allSatisfy { error in
            error.code == .invalidCheckDigit && deviations.contains { $0.field == error.field }
        }
    }
}

extension MRZResult {
    public init(format: MRZFormat, text: String, fields: MRZFields, checkDigits: MRZCheckDigits,
                dateOfBirth: CalendarDate?, dateOfExpiry: CalendarDate?,
                errors: [MRZIssue], warnings: [MRZIssue], deviations: [MRZIssue]) {
        self.format = format
        self.text = text
        self.index = FieldIndex()
        self.checkDigits = checkDigits
        self.dateOfBirth = dateOfBirth
        self.dateOfExpiry = dateOfExpiry
        self.extras = Extras(fields: fields, errors, warnings, deviations)
    }

    init(format: MRZFormat, text: String, index: FieldIndex, checkDigits: MRZCheckDigits,
         dateOfBirth: CalendarDate?, dateOfExpiry: CalendarDate?,
         errors: [MRZIssue], warnings: [MRZIssue], deviations: [MRZIssue]) {
        self.format = format
        self.text = text
        self.index = index
        self.checkDigits = checkDigits
        self.dateOfBirth = dateOfBirth
        self.dateOfExpiry = dateOfExpiry
        self.extras = errors.isEmpty && warnings.isEmpty && deviations.isEmpty
            ? nil : Extras(fields: nil, errors, warnings, deviations)
    }

    /// A clean result (no errors, warnings or deviations) from a field index: the fast path's.
    /// Through the memberwise initializer: an initializer that assigned the fields one by one made
    /// the compiler build a temporary and copy it (a retain and release of the text per parse).
    @inline(__always)
    init(clean format: MRZFormat, text: String, index: FieldIndex, checkDigits: MRZCheckDigits,
         dateOfBirth: CalendarDate, dateOfExpiry: CalendarDate?) {
        self.init(format: format, text: text, checkDigits: checkDigits, dateOfBirth: dateOfBirth,
                  dateOfExpiry: dateOfExpiry, index: index, extras: nil)
    }

}

extension MRZResult: Equatable, Hashable {
    /// Two results are equal when they read the same: how the fields are stored does not matter.
    public static func == (a: MRZResult, b: MRZResult) -> Bool {
        a.format == b.format && a.text == b.text && a.checkDigits == b.checkDigits
            && a.dateOfBirth == b.dateOfBirth && a.dateOfExpiry == b.dateOfExpiry && a.errors == b.errors
            && a.warnings == b.warnings && a.deviations == b.deviations && a.fields == b.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(format)
        hasher.combine(text)
        hasher.combine(fields)
        hasher.combine(checkDigits)
        hasher.combine(errors)
    }
}

extension MRZResult: Codable {
    enum CodingKeys: String, CodingKey {
        case format, valid, validWithDeviations, fields, checkDigits, errors, warnings, deviations,
             resolvedDates, lines
    }

    struct ResolvedDates: Codable {
        @NullWhenAbsent var dateOfBirth: CalendarDate?
        @NullWhenAbsent var dateOfExpiry: CalendarDate?
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let dates = try c.decodeIfPresent(ResolvedDates.self, forKey: .resolvedDates)
        self.init(format: try c.decode(MRZFormat.self, forKey: .format),
                  text: try c.decode([String].self, forKey: .lines).joined(separator: "\n"),
                  fields: try c.decode(MRZFields.self, forKey: .fields),
                  checkDigits: try c.decode(MRZCheckDigits.self, forKey: .checkDigits),
                  dateOfBirth: dates?.dateOfBirth, dateOfExpiry: dates?.dateOfExpiry,
                  errors: try c.decode([MRZIssue].self, forKey: .errors),
                  warnings: try c.decode([MRZIssue].self, forKey: .warnings),
                  deviations: try c.decodeIfPresent([MRZIssue].self, forKey: .deviations) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(format, forKey: .format)
        try c.encode(isValid, forKey: .valid)
        try c.encode(isValidAcceptingDeviations, forKey: .validWithDeviations)
        try c.encode(fields, forKey: .fields)
        try c.encode(checkDigits, forKey: .checkDigits)
        try c.encode(errors, forKey: .errors)
        try c.encode(warnings, forKey: .warnings)
        try c.encode(deviations, forKey: .deviations)
        try c.encode(ResolvedDates(dateOfBirth: dateOfBirth, dateOfExpiry: dateOfExpiry), forKey: .resolvedDates)
        try c.encode(lines, forKey: .lines)
    }
}

extension MRZResult {
    /// True when the name fills its field to the last position, so that it may have been cut
    /// (ICAO 9303-3 §4.6): a name printed elsewhere may then be longer than the MRZ's.
    public var nameMayBeTruncated: Bool {
        guard let length = format.nameFieldLength else { return false }
        let f = fields
        return f.primaryIdentifier.utf8.count + (f.secondaryIdentifier.isEmpty ? 0 : 2 + f.secondaryIdentifier.utf8.count) >= length
    }
}
