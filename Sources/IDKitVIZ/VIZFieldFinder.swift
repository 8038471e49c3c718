import IDKitCore
import IDKitDocument
import IDKitMRZ

/// Finds the MRZ's fields among the visual zone's text lines: for each field the MRZ holds, the
/// run of words on one line whose meaning is the MRZ's value — a name under ICAO 9303-3 §6
/// transliteration (`ÖSTERGÅRD` is `OESTERGAARD` or `OSTERGARD`; a name the MRZ cut may print
/// whole), a date in any printed form (`12 AUG/AOUT 74`, `12.08.1974`), a number with or without
/// its spaces. A field the MRZ anchors is never reported as matching when its words say otherwise:
/// a run is taken only when its meaning equals the MRZ's.
public struct VIZFieldFinder: Sendable {
    /// The date two-digit years are resolved against.
    public var referenceDate: CalendarDate
    /// The most words one field may span (a Spanish surname of two family names with their
    /// particles runs to eight).
    public var maximumWords = 8

    public init(referenceDate: CalendarDate = .today) {
        self.referenceDate = referenceDate
    }

    /// The fields of `mrz` that ``fields(in:mrz:)`` looks for: those the MRZ holds a value of
    /// that can be told from stray text.
    public static func anchoredFields(of mrz: MRZResult) -> Set<DocumentFieldName> {
        let finder = VIZFieldFinder()
        return Set(DocumentFieldName.allCases.filter { finder.matcher(for: $0, mrz: mrz) != nil })
    }

    /// The fields of `mrz` found in `lines`, by the document result's field names.
    public func fields(in lines: [VIZLine], mrz: MRZResult) -> [DocumentFieldName: VIZField] {
        var found: [DocumentFieldName: VIZField] = [:]
        for name in DocumentFieldName.allCases {
            guard let match = matcher(for: name, mrz: mrz) else { continue }
            // A birth date whose century the print gives (``DocumentDate/century(ofBirth:printedAs:in:reference:)``)
            // only where every word of it was read surely: `01.01.1915` for a printed `01.01.2015`
            // is two digits misread, and would make a child a centenarian.
            let mrzBirth = name == .dateOfBirth ? mrz.dateOfBirth?.description : nil
            let field = best(in: lines) { text, confidence in
                guard let value = match(text) else { return nil }
                return mrzBirth == nil || value == mrzBirth || confidence >= VIZField.sureConfidence ? value : nil
            }
            if let field { found[name] = field }
        }
        return found
    }

    /// What a run of words must mean to be the MRZ's `name` (its value, or `nil`); `nil` when the
    /// MRZ holds no value of it to anchor.
    func matcher(for name: DocumentFieldName, mrz: MRZResult) -> ((String) -> String?)? {
        let f = mrz.fields
        func person(_ mrzName: String) -> ((String) -> String?)? {
            guard !mrzName.isEmpty else { return nil }
            let wanted = mrzName.replacingOccurrences(of: "<", with: " "), truncated = mrz.nameMayBeTruncated
            return { text in
                // A label ("Surname / Nom") is never a name.
                guard !text.contains("/"), !text.contains(":"),
                      MRZTransliteration.matches(text, wanted, bIsTruncated: truncated) else { return nil }
                return text
            }
        }
        func number(_ mrzValue: String?) -> ((String) -> String?)? {
            let wanted = Self.numberKey(mrzValue ?? "")
            guard wanted.count >= 4 else { return nil }  // a short value would match stray text
            return { text in Self.numberKey(text) == wanted ? wanted : nil }
        }
        func date(_ mrzDate: CalendarDate?, _ kind: DocumentDate.Kind) -> ((String) -> String?)? {
            guard let wanted = mrzDate?.description else { return nil }
            return { text in
                // OCR splits a year at a wide gap between two of its digits (`22.05.201 2`): the
                // run is also read with that year joined (``yearJoined(_:)``).
                for form in [text, Self.yearJoined(text)].compactMap({ $0 }) {
                    let candidates = DocumentDate.candidates(form, monthFirst: false, kind: kind, reference: referenceDate)
                    if candidates.contains(wanted) { return wanted }
                    // The MRZ's day, month and two-digit year with the century the print gives, in
                    // the text's first reading only (not with its day and month swapped as well).
                    if kind == .birth, let first = candidates.first,
                       let printed = DocumentDate.century(ofBirth: wanted, printedAs: first, in: form, reference: referenceDate) {
                        return printed
                    }
                }
                return nil
            }
        }
        switch name {
        case .lastName: return person(f.primaryIdentifier)
        case .firstName: return person(f.secondaryIdentifier)
        case .documentNumber: return number(f.documentNumber)
        // The personal number: TD3's optional data (9303-4 §4.2.2); TD1's optional data is
        // issuer-defined and not anchored here.
        case .personalIdNumber: return mrz.format == .td3 ? number(f.optionalData1) : nil
        case .dateOfBirth: return date(mrz.dateOfBirth, .birth)
        case .dateOfExpiry: return date(mrz.dateOfExpiry, .expiry)
        default: return nil
        }
    }

    /// The run of words on one line that `match` accepts (given its text and its least confident
    /// word's confidence, returning its value): the most words, then the most confident.
    func best(in lines: [VIZLine], _ match: (String, Double) -> String?) -> VIZField? {
        var chosen: (words: Int, field: VIZField)?
        for line in lines {
            let words = line.words
            for start in words.indices {
                for end in (start + 1)...min(words.count, start + maximumWords) {
                    let run = words[start..<end]
                    let text = Self.trimmed(run.map(\.text).joined(separator: " ")), confidence = run.map(\.confidence).min() ?? 0
                    guard !text.isEmpty, let value = match(text, confidence) else { continue }
                    let field = VIZField(text: text, value: value, confidence: confidence,
                                         box: run.dropFirst().reduce(run.first!.box) { $0.union($1.box) }, matchesMRZ: true)
                    if let c = chosen, c.words > run.count || (c.words == run.count && c.field.confidence >= field.confidence) { continue }
                    chosen = (run.count, field)
                }
            }
        }
        return chosen?.field
    }

    /// A run's text without the marks OCR reads at its ends (`; ERIKA`, `LIN,`, `Virtanen $`): a
    /// field's printed value begins and ends with a letter or a digit.
    public static func trimmed(_ text: String) -> String {
        guard let first = text.firstIndex(where: { $0.isLetter || $0.isNumber }),
              let last = text.lastIndex(where: { $0.isLetter || $0.isNumber }) else { return "" }
        return String(text[first...last])
    }

    /// A run that ends in a date's separator, a group of digits, a space and one to three more
    /// digits that complete it to four (`22.05.201 2`) with the space taken out (`22.05.2012`);
    /// `nil` for any other run. Only the year at the run's end is joined: a space anywhere else may
    /// separate a stray digit from the date (`1 2.08.1974` is not 12 August).
    static func yearJoined(_ text: String) -> String? {
        guard let space = text.lastIndex(of: " ") else { return nil }
        let head = text[..<space], tail = text[text.index(after: space)...]
        let group = head.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !tail.isEmpty, tail.allSatisfy({ $0.isASCII && $0.isNumber }), !group.isEmpty, group.count + tail.count == 4,
              let separator = head.dropLast(group.count).last, ".-/".contains(separator) else { return nil }
        return String(head) + String(tail)
    }

    /// A number as compared: letters and digits only, upper case (`Z E 184226 B` is `ZE184226B`).
    static func numberKey(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }))
            .uppercased()
    }
}

extension VIZBox {
    /// The smallest box holding both.
    public func union(_ other: VIZBox) -> VIZBox {
        VIZBox(left: min(left, other.left), top: min(top, other.top), right: max(right, other.right), bottom: max(bottom, other.bottom))
    }
}
