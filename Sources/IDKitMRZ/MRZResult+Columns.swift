extension MRZResult {
    /// Hands each field's UTF-8 to `body` in contract order (``MRZFields``'s: documentCode,
    /// issuingState, documentNumber, primaryIdentifier, secondaryIdentifier, nationality,
    /// dateOfBirth, sex, dateOfExpiry, optionalData1, optionalData2), `nil` for a field the layout
    /// does not have: the values of `fields` in the JSON, without making a `String` of them.
    public func forEachFieldUTF8(_ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
        if let fields = extras?.fields {
            for value in [fields.documentCode, fields.issuingState, fields.documentNumber, fields.primaryIdentifier,
                          fields.secondaryIdentifier, fields.nationality, fields.dateOfBirth, fields.sex,
                          fields.dateOfExpiry, fields.optionalData1, fields.optionalData2] as [String?] {
                guard var value else { body(nil); continue }
                value.withUTF8 { body($0) }
            }
            return
        }
        let index = self.index
        MRZResult.withUTF8(text) { index.forEachFieldUTF8(in: $0, body) }
    }

    /// Hands each line's UTF-8 to `body`, in order (the JSON's `lines`).
    public func forEachLineUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        MRZResult.withUTF8(text) { MRZResult.forEachLine(in: $0, body) }
    }

    /// The lines of `text` (cut at each `\n`), in order.
    static func forEachLine(in text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        for i in 0...text.count where i == text.count || text[i] == 0x0A {
            body(UnsafeBufferPointer(rebasing: text[start..<i]))
            start = i + 1
        }
    }
}

extension MRZRecordValidator {
    /// One MRZ text judged as ``validate(_:)`` judges a record of text (lines split at `\n`, a
    /// line of 72, 88 or 90 characters split), from its bytes in place: the verdict only, no
    /// `input` or `id`. An error's `lines` are the text's lines, none for text over 4096 bytes.
    public func judge(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Outcome.Verdict {
        if options.correct { return validate(text: Array(bytes)) }
        do {
            let result = try parser.parse(utf8: bytes)
            return .result(result, correction: nil, accepted: accepts(result, nil))
        } catch {
            return .error(error, lines: bytes.count > MRZLines.maxInputBytes ? [] : Self.lines(of: Array(bytes)))
        }
    }
}

/// A clean MRZ (every check digit valid, no warning, no deviation) read in place from text that
/// is exactly its lines joined by `\n`: what ``MRZResult`` holds for it, without the `String` a
/// result keeps. For batch writers that copy each field's bytes out at once.
public struct MRZCleanReading: Sendable {
    public let format: MRZFormat
    public let checkDigits: MRZCheckDigits
    public let dateOfBirth: CalendarDate
    public let dateOfExpiry: CalendarDate?
    @usableFromInline let index: FieldIndex

    /// The fields' UTF-8 in `text` (the text this was read from), as ``MRZResult/forEachFieldUTF8(_:)``.
    @inlinable @inline(__always)
    public func forEachFieldUTF8(in text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
        index.forEachFieldUTF8(in: text, body)
    }

    /// The lines of `text` (the text this was read from): in canonical form each sits at a fixed
    /// place, so the text is cut without being scanned.
    @inlinable @inline(__always)
    public func forEachLineUTF8(in text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let length = format.lineLength
        for k in 0..<format.lineCount {
            let start = k &* (length &+ 1)
            body(UnsafeBufferPointer(rebasing: text[start..<(start &+ length)]))
        }
    }
}

extension FieldIndex {
    /// Each field's UTF-8 in `text`, in contract order, `nil` for a field the layout lacks.
    @inlinable @inline(__always)
    func forEachFieldUTF8(in text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
        @inline(__always) func field(_ ref: FieldRef) {
            if ref.mode == .absent { body(nil) } else { ref.withBytes(in: text) { body($0) } }
        }
        field(documentCode); field(issuingState); field(documentNumber)
        field(primaryIdentifier); field(secondaryIdentifier); field(nationality)
        field(dateOfBirth); field(sex); field(dateOfExpiry)
        field(optionalData1); field(optionalData2)
    }
}

extension MRZRecordValidator {
    /// The text read in place when it is a clean MRZ in canonical form, `nil` otherwise (and
    /// always when correcting): then ``judge(utf8:)`` gives the whole verdict. A clean MRZ is
    /// valid under every option (no error, no warning, nothing corrected).
    @inline(__always)
    public func judgeClean(utf8 bytes: UnsafeBufferPointer<UInt8>) -> MRZCleanReading? {
        guard !options.correct, let format = MRZFastPath.canonicalFormat(bytes),
              let r = MRZFastPath.read(bytes.baseAddress!, count: bytes.count, format: format, reference: parser.referenceDate)
        else { return nil }
        return MRZCleanReading(format: format, checkDigits: r.checks, dateOfBirth: r.birth, dateOfExpiry: r.expiry, index: r.index)
    }
}
