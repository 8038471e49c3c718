/// Parses and validates MRZ text as ICAO Doc 9303 (8th edition) specifies.
///
/// ```swift
/// let result = try MRZParser().parse("""
///     P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<
///     L898902C36UTO7408122F1204159ZE184226B<<<<<10
///     """)
/// result.fields.documentNumber   // "L898902C3"
/// result.isValid                 // true
/// ```
public struct MRZParser: Sendable {
    /// The date that dates of birth may not follow and that expiry centuries are chosen around
    /// (``MRZCenturyRule``).
    public var referenceDate: CalendarDate

    public init(referenceDate: CalendarDate = .today) {
        self.referenceDate = referenceDate
    }

    /// Parses MRZ lines separated by newlines (or one line of all characters).
    public func parse(_ text: String) throws(MRZError) -> MRZResult {
        // The common case first, with no closure holding on to `text`: canonical lines, clean MRZ.
        if usesFastPath {
            let reference = referenceDate
            var format = MRZFormat.td3
            let reading = text.utf8.withContiguousStorageIfAvailable { buffer -> MRZFastPath.Reading? in
                guard let f = MRZFastPath.canonicalFormat(buffer) else { return nil }
                format = f
                return MRZFastPath.read(buffer.baseAddress!, count: buffer.count, format: f, reference: reference)
            } ?? nil
            if let r = reading {
                return MRZResult(clean: format, text: text, index: r.index, checkDigits: r.checks,
                                 dateOfBirth: r.birth, dateOfExpiry: r.expiry)
            }
        }
        let result: Result<MRZResult, MRZError>? = text.utf8.withContiguousStorageIfAvailable { buffer in
            Result { () throws(MRZError) -> MRZResult in try self.parse(buffer, original: text) }
        }
        if let result { return try result.get() }
        // A bridged or otherwise non-contiguous string: read a copy of its bytes.
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(MRZError) -> MRZResult in try self.parse(buffer, original: text) }
        }.get()
    }

    /// Parses MRZ lines given one per element.
    public func parse(lines: [String]) throws(MRZError) -> MRZResult {
        try parse(lines.joined(separator: "\n"))
    }

    /// Parses MRZ text given as UTF-8 bytes.
    public func parse(utf8 buffer: UnsafeBufferPointer<UInt8>) throws(MRZError) -> MRZResult {
        try parse(buffer, original: nil)
    }

    /// Tests turn this off to check that the careful path alone gives the same results.
    var usesFastPath = true

    func parse(_ buffer: UnsafeBufferPointer<UInt8>, original: String?) throws(MRZError) -> MRZResult {
        // Lines already in canonical form (joined by single `\n`, nothing around them) skip the
        // line finder: the layout follows from the length and the newline positions.
        if usesFastPath, let format = MRZFastPath.canonicalFormat(buffer),
           let r = MRZFastPath.read(buffer.baseAddress!, count: buffer.count, format: format, reference: referenceDate) {
            return MRZResult(clean: format, text: original ?? String(decoding: buffer, as: UTF8.self), index: r.index,
                             checkDigits: r.checks, dateOfBirth: r.birth, dateOfExpiry: r.expiry)
        }
        var lines = try MRZLines(buffer, validating: !usesFastPath)
        let format: MRZFormat
        do {
            format = try lines.format()
        } catch {
            // An illegal character is reported before a wrong shape, as the careful reading does.
            if usesFastPath { _ = try MRZLines(buffer, validating: true) }
            throw error
        }
        let text = (lines.isCanonical ? original : nil) ?? lines.joined()
        if usesFastPath {
            var block: MRZFastPath.Block = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let reference = referenceDate
            let fast = withUnsafeMutableBytes(of: &block) { raw -> MRZResult? in
                MRZFastPath.fill(raw, from: lines, width: format.lineLength)
                return MRZFastPath.read(UnsafeRawBufferPointer(raw), format: format, text: text, reference: reference)
            }
            if let fast { return fast }
            // The careful path: check every character first, so that an illegal one is reported.
            lines = try MRZLines(buffer, validating: true)
        }
        var builder = ResultBuilder(lines: lines, layout: MRZLayout.of(format), reference: referenceDate)
        return builder.build(text: text)
    }
}

/// Reads the fields of one layout out of located lines and judges them.
struct ResultBuilder {
    let lines: MRZLines
    let layout: MRZLayout
    let reference: CalendarDate
    var errors: [MRZIssue] = []
    var warnings: [MRZIssue] = []
    var deviations: [MRZIssue] = []

    init(lines: MRZLines, layout: MRZLayout, reference: CalendarDate) {
        self.lines = lines
        self.layout = layout
        self.reference = reference
    }

    static let filler = UInt8(ascii: "<")

    mutating func build(text: String) -> MRZResult {
        var checks = MRZCheckDigits()
        var index = FieldIndex()
        (index.documentNumber, index.optionalData1) = readDocumentNumber(&checks)

        checks.dateOfBirth = checkDigit("dateOfBirth", layout.dateOfBirth, at: layout.dateOfBirthCheck)
        index.dateOfBirth = raw(layout.dateOfBirth)
        if let span = layout.dateOfExpiry, let check = layout.dateOfExpiryCheck {
            index.dateOfExpiry = raw(span)
            checks.dateOfExpiry = checkDigit("dateOfExpiry", span, at: check)
            if checks.dateOfExpiry == .invalid && isExpiryOmitted {
                deviations.append(MRZIssue(
                    code: .expiryDateOmitted, field: "dateOfExpiry", line: check.line + 1, column: check.column + 1,
                    expected: nil, found: "'<<<<<<<'",
                    message: "the date of expiry and its check digit are fillers, as on Russian internal passports"))
            }
        }
        if let span = layout.optionalData1, let check = layout.optionalDataCheck {
            checks.optionalData = personalNumberCheckDigit(span, at: check)
        }
        if let composite = layout.composite {
            var phase = 0
            var sum = 0
            let spans = layout.compositeSpans
            for i in 0..<spans.count {
                let span = spans[i]
                sum &+= MRZCheckDigit.weightedSum(lines.pointer(span), span.count, phase: &phase)
            }
            checks.composite = verdict("composite", sum: sum, at: composite)
        }

        (index.primaryIdentifier, index.secondaryIdentifier) = readName()
        index.documentCode = trimmed(layout.documentCode)
        index.issuingState = trimmed(layout.issuingState)
        if let span = layout.nationality { index.nationality = trimmed(span) }
        index.sex = FieldRef(mode: .sex, start: offset(layout.sex.line, layout.sex.column), count: 1)
        if let span = layout.optionalData2 { index.optionalData2 = trimmed(span) }

        checkSemantics(sexByte: lines.byte(layout.sex))
        let birth = resolveBirthDate()
        var expiry: CalendarDate?
        if let span = layout.dateOfExpiry, checks.dateOfExpiry == .valid || !isExpiryOmitted { expiry = resolveExpiryDate(span) }
        if let birth, let expiry, expiry < birth, let span = layout.dateOfExpiry {
            error(.expiryBeforeBirth, "dateOfExpiry", Position(span.line, span.start), expected: nil, found: nil,
                 "the date of expiry \(expiry) is before the date of birth \(birth)")
        }
        return MRZResult(format: layout.format, text: text, index: index, checkDigits: checks,
                         dateOfBirth: birth, dateOfExpiry: expiry,
                         errors: errors, warnings: warnings, deviations: deviations)
    }

    /// The date of expiry and its check digit are all fillers.
    var isExpiryOmitted: Bool {
        guard let span = layout.dateOfExpiry else { return false }
        let p = lines.pointer(span)
        for i in 0...span.count where p[i] != Self.filler { return false }
        return true
    }

    // MARK: Field ranges

    /// Offset of a position in the result's text: lines joined by `\n`.
    @inline(__always) func offset(_ line: Int, _ column: Int) -> Int { line * (layout.format.lineLength + 1) + column }

    @inline(__always) func raw(_ span: Span) -> FieldRef {
        FieldRef(mode: .raw, start: offset(span.line, span.start), count: span.count)
    }

    /// The field with trailing fillers left out.
    @inline(__always) func trimmed(_ span: Span) -> FieldRef {
        let p = lines.pointer(span)
        var n = span.count
        while n > 0 && p[n - 1] == Self.filler { n -= 1 }
        return FieldRef(mode: .raw, start: offset(span.line, span.start), count: n)
    }

    /// A name part: fillers at both ends left out, inner runs of fillers read as one space.
    func identifier(_ line: Int, _ start: Int, _ count: Int) -> FieldRef {
        let p = lines.base + lines.start(line) + start
        var s = 0, e = count
        while s < e && p[s] == Self.filler { s += 1 }
        while e > s && p[e - 1] == Self.filler { e -= 1 }
        return FieldRef(mode: .identifier, start: offset(line, start + s), count: e - s)
    }

    // MARK: Document number

    /// Reads the document number and, for layouts with one, the first optional-data field, which a
    /// TD1/TD2 long number shares (ICAO 9303-5 §4.2.4, 9303-6 likewise): a `<` in the check-digit
    /// position, the rest of the number and its check digit in the optional data, then one filler.
    mutating func readDocumentNumber(_ checks: inout MRZCheckDigits) -> (FieldRef, FieldRef) {
        let numberSpan = layout.documentNumber
        let number = lines.pointer(numberSpan)
        let checkPosition = layout.documentNumberCheck
        let optional = layout.optionalData1.map { trimmed($0) } ?? .absent

        guard let continuation = layout.longNumberContinuation, lines.byte(checkPosition) == Self.filler else {
            checks.documentNumber = checkDigit("documentNumber", numberSpan, at: checkPosition)
            return (trimmed(numberSpan), optional)
        }
        let rest = lines.pointer(continuation)
        var extent = 0
        while extent < continuation.count && rest[extent] != Self.filler { extent += 1 }
        guard extent > 0 else {
            checks.documentNumber = .invalid
            error(.missingLongDocumentNumber, "documentNumber", checkPosition, expected: "a check digit", found: "'<'",
                  "the document-number check digit is a filler, which announces a long number, but the optional data holds no continuation")
            return (trimmed(numberSpan), optional)
        }
        // The last character before the first filler is the check digit of the whole number.
        let checkColumn = continuation.start + extent - 1
        let found = rest[extent - 1]
        var phase = 0
        let sum = MRZCheckDigit.weightedSum(number, numberSpan.count, phase: &phase)
            + MRZCheckDigit.weightedSum(rest, extent - 1, phase: &phase)
        let expected = UInt8(sum % 10) + UInt8(ascii: "0")
        let position = Position(continuation.line, checkColumn)
        if found == expected {
            checks.documentNumber = .valid
        } else {
            checks.documentNumber = .invalid
            error(.invalidCheckDigit, "documentNumber", position, expected: Self.quoted(expected), found: Self.quoted(found),
                  "document-number check digit is \(Self.quoted(found)), expected \(Self.quoted(expected)) for the long number")
            // Issuer deviation: the digit computed with the filler of the check-digit position included.
            var phase2 = 0
            var withFiller = MRZCheckDigit.weightedSum(number, numberSpan.count, phase: &phase2)
            phase2 = (phase2 + 1) % 3  // the filler weighs 0 but takes a weight position
            withFiller += MRZCheckDigit.weightedSum(rest, extent - 1, phase: &phase2)
            if UInt8(withFiller % 10) + UInt8(ascii: "0") == found {
                deviations.append(MRZIssue(
                    code: .longNumberCheckDigitIncludesFiller, field: "documentNumber",
                    line: position.line + 1, column: position.column + 1, expected: Self.quoted(expected), found: Self.quoted(found),
                    message: "the long-number check digit was computed over the number with the filler in position \(checkPosition.column + 1) included, as some Belgian and Portuguese cards do"))
            }
        }
        let fullNumber = FieldRef(mode: .raw, start: offset(numberSpan.line, numberSpan.start), count: numberSpan.count,
                                  start2: offset(continuation.line, continuation.start), count2: extent - 1)
        // What follows the check digit and its one filler is the genuine optional data.
        let afterStart = min(extent + 1, continuation.count)
        let remaining = trimmed(Span(continuation.line, continuation.start + afterStart, continuation.count - afterStart))
        return (fullNumber, remaining)
    }

    // MARK: Check digits

    /// ICAO 9303-3 §4.9 over one span.
    @inline(__always)
    mutating func checkDigit(_ field: String, _ span: Span, at position: Position) -> CheckDigitStatus {
        var phase = 0
        let sum = MRZCheckDigit.weightedSum(lines.pointer(span), span.count, phase: &phase)
        return verdict(field, sum: sum, at: position)
    }

    @inline(__always)
    mutating func verdict(_ field: String, sum: Int, at position: Position) -> CheckDigitStatus {
        let expected = UInt8(truncatingIfNeeded: sum % 10) &+ UInt8(ascii: "0")
        let found = lines.byte(position)
        if found == expected { return .valid }
        let what = field == "composite" ? "composite check digit" : "check digit of \(field)"
        error(.invalidCheckDigit, field, position, expected: Self.quoted(expected), found: Self.quoted(found),
              "\(what) is \(Self.quoted(found)), expected \(Self.quoted(expected))")
        return .invalid
    }

    /// TD3 personal number: the check digit may be `<` (or `0`) only when the field is all fillers
    /// (ICAO 9303-4 §4.2.2, note on the optional-data check digit).
    mutating func personalNumberCheckDigit(_ span: Span, at position: Position) -> CheckDigitStatus {
        let p = lines.pointer(span)
        var phase = 0
        let sum = MRZCheckDigit.weightedSum(p, span.count, phase: &phase)
        let found = lines.byte(position)
        if sum == 0 && (found == Self.filler || found == UInt8(ascii: "0")) {
            // A zero sum with a filler check digit: valid only if the field is really empty.
            var empty = true
            for i in 0..<span.count where p[i] != Self.filler { empty = false; break }
            if empty { return .valid }
        }
        if found == Self.filler {
            error(.invalidCheckDigit, "optionalData", position, expected: "a digit", found: "'<'",
                  "the personal-number check digit may be '<' only when the personal number is empty")
            return .invalid
        }
        return verdict("optionalData", sum: sum, at: position)
    }

    // MARK: Names

    /// ICAO 9303-3 §4.6: primary identifier, `<<`, secondary identifier; single `<` between components.
    func readName() -> (FieldRef, FieldRef) {
        if let primary = layout.primaryName, let secondary = layout.secondaryName {
            return (identifier(primary.line, primary.start, primary.count),
                    identifier(secondary.line, secondary.start, secondary.count))
        }
        guard let span = layout.name else { return (.absent, .absent) }
        let p = lines.pointer(span)
        var split = -1
        var i = 0
        while i + 1 < span.count {
            if p[i] == Self.filler && p[i + 1] == Self.filler { split = i; break }
            i += 1
        }
        if split < 0 {
            return (identifier(span.line, span.start, span.count),
                    FieldRef(mode: .identifier, start: offset(span.line, span.start), count: 0))
        }
        return (identifier(span.line, span.start, split),
                identifier(span.line, span.start + split + 2, span.count - split - 2))
    }

    // MARK: Strings

    static func raw(_ p: UnsafePointer<UInt8>, _ n: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    static func quoted(_ b: UInt8) -> String { "'" + String(UnicodeScalar(b)) + "'" }

    // MARK: Issues

    mutating func error(_ code: MRZIssue.Code, _ field: String, _ at: Position, expected: String?, found: String?, _ message: String) {
        errors.append(MRZIssue(code: code, field: field, line: at.line + 1, column: at.column + 1,
                               expected: expected, found: found, message: message))
    }

    mutating func warn(_ code: MRZIssue.Code, _ field: String, _ at: Position, expected: String?, found: String?, _ message: String) {
        warnings.append(MRZIssue(code: code, field: field, line: at.line + 1, column: at.column + 1,
                                 expected: expected, found: found, message: message))
    }
}
