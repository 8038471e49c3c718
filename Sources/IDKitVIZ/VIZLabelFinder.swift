import Foundation
import IDKitCore
import IDKitDocument

/// Finds the fields the MRZ does not carry — the date of issue, the place of birth, the issuing
/// authority — by their printed labels: ICAO 9303-4 §4.2 and -5, -6 give each data page and card
/// a field caption in the issuing State's language and English or French (`Date of issue / Date
/// de délivrance`, `Ausstellungsdatum`), and print the value below its caption, in its column.
/// Labels are matched after case and accent folding, allowing an OCR error in every six letters;
/// the value is the line just below, between the label's left edge and the next label's.
public struct VIZLabelFinder: Sendable {
    /// Each field's captions in the languages of the Latin-script issuers IDKit installs, folded.
    public static let captions: [(field: DocumentFieldName, phrases: [String])] = [
        (.dateOfIssue, ["date of issue", "date de delivrance", "fecha de expedicion", "ausstellungsdatum", "datum van afgifte",
                        "data di rilascio", "data de emissao", "data wydania", "datum vydani", "utfardandedatum",
                        "myontamispaiva", "kiallitas kelte", "data eliberarii", "issue date", "date of issuance"]),
        (.placeOfBirth, ["place of birth", "lieu de naissance", "geburtsort", "lugar de nacimiento", "luogo di nascita",
                         "geboorteplaats", "local de nascimento", "miejsce urodzenia", "misto narozeni", "fodelseort",
                         "syntymapaikka", "szuletesi hely", "locul nasterii"]),
        (.issuingAuthority, ["authority", "autorite", "behorde", "autoridad", "autorita", "autoriteit", "autoridade",
                             "organ wydajacy", "vydal", "myndighet", "viranomainen", "kiallito hatosag", "autoritatea",
                             "issuing authority", "issued by", "delivre par", "emisa de"]),
        // The MRZ holds the sex, but a single letter is not told from stray marks by its meaning:
        // it is found under its caption only, and compared with the MRZ's by the scan. Captions of
        // fewer than five letters match exactly (``near(_:_:)``).
        // (`Kön` and `Płeć` are left out: `kon` is many a word, `KON TUM` a place.)
        (.sex, ["sex", "sexe", "sexo", "sesso", "geschlecht", "geslacht", "pohlavi", "sukupuoli", "sexul", "kyn"]),
        // The nationality as printed: most often the holder's nationality in words, in the
        // issuer's languages (`BRITISH CITIZEN`, `MAGYAR/HUNGARIAN`), which no MRZ code names;
        // the scan says it matches the MRZ where it prints the MRZ's code itself (`CHE`, `D`).
        (.nationality, ["nationality", "nationalite", "staatsangehorigkeit", "nacionalidad", "nazionalita", "nationaliteit",
                        "nacionalidade", "obywatelstwo", "statni obcanstvi", "medborgarskap", "kansalaisuus",
                        "allampolgarsag", "cetatenie", "rikisfang", "pilietybe", "drzavljanstvo", "kodakondsus"]),
    ]

    /// Captions of the fields the MRZ holds: not read here, but they bound the columns of those
    /// beside them (`Date of issue` and `Date of expiry` side by side). Phrases of five letters
    /// and more only, so that a value (`TOM`) is not taken for one (`Nom`).
    static let otherCaptions = ["surname", "given names", "date of birth", "date of expiry", "passport no",
                                "document no", "date de naissance", "date d expiration", "prenoms",
                                "vornamen", "geburtstag", "gultig bis", "geschlecht",
                                "apellidos", "fecha de nacimiento", "fecha de caducidad",
                                "validity", "validite", "valabilitate"]

    /// The date two-digit years are resolved against.
    public var referenceDate: CalendarDate

    public init(referenceDate: CalendarDate = .today) {
        self.referenceDate = referenceDate
    }

    /// A caption found on a line: its field, its line and its words.
    struct Caption {
        var field: DocumentFieldName?
        var line: Int
        var words: Range<Int>
        var box: VIZBox
    }

    /// The fields found under their captions in `lines`. Every value has `matchesMRZ` `null`:
    /// the MRZ holds nothing to compare it with.
    public func fields(in lines: [VIZLine]) -> [DocumentFieldName: VIZField] {
        let captions = Self.captions(in: lines.map(Self.splitAtSlashes))
        var found: [DocumentFieldName: VIZField] = [:]
        for caption in captions {
            guard let field = caption.field, found[field] == nil else { continue }
            // The next caption to the right on the same line, of any field, bounds the column.
            let right = captions.filter { $0.line == caption.line && $0.box.left > caption.box.right }.map(\.box.left).min() ?? Int.max
            let height = max(1, caption.box.height)
            // The line below: its top under the caption's bottom, within two caption heights and a
            // half of it; its words in the caption's column.
            let below = lines.indices.filter { k in
                k != caption.line && lines[k].box.top >= caption.box.bottom - height / 2 && lines[k].box.top <= caption.box.bottom + 5 * height / 2
            }.sorted { lines[$0].box.top < lines[$1].box.top }
            for k in below {
                if captions.contains(where: { $0.line == k }) { break }  // another caption row: no value here
                var words = lines[k].words.filter { w in
                    w.box.left >= caption.box.left - 2 * height && w.box.left < right - height / 2
                }
                guard !words.isEmpty else { continue }
                // A value printed further left than its caption (`EMBASSY OF THE REPUBLIC OF
                // CHINA` under `授權機關 / Authority`, whose first part OCR did not read as a
                // caption): the words before the column that stand a word space apart are its start,
                // not another column's value. Cut there, it would be reported as another value.
                let all = lines[k].words
                if var first = all.firstIndex(where: { $0.box == words[0].box }) {
                    while first > 0, words[0].box.left - all[first - 1].box.right < lines[k].box.height {
                        first -= 1
                        words.insert(all[first], at: 0)
                    }
                }
                // A mark OCR read at either end (`=`, `~`, `>`) is no word of the value; and a place
                // or an authority, a name, holds no date: one after its first word is the column
                // beside it (`Mun. Hunedoara 17.10.03`, a validity's start under its own caption).
                while let w = words.first, words.count > 1, !w.text.contains(where: { $0.isLetter || $0.isNumber }) { words.removeFirst() }
                while let w = words.last, words.count > 1, !w.text.contains(where: { $0.isLetter || $0.isNumber }) { words.removeLast() }
                if field != .dateOfIssue, let date = words.dropFirst().firstIndex(where: { VIZLine.isWholeDate(VIZFieldFinder.trimmed($0.text)) }) {
                    words.removeSubrange(date...)
                }
                // A sex is a letter or a few in each language (`F`, `KVK/F`, `NŐ / F`): the words
                // after them are the next column's (`F 01 JAN`).
                if field == .sex, let end = words.dropFirst().firstIndex(where: { $0.text.count > 4 || $0.text.contains(where: \.isNumber) }) {
                    words.removeSubrange(end...)
                }
                // A nationality holds no digit: one is the next column's (`REPUBLIC OF CHINA
                // A234567893`, the passport number beside it).
                if field == .nationality, let end = words.dropFirst().firstIndex(where: { $0.text.contains(where: \.isNumber) }) {
                    words.removeSubrange(end...)
                }
                let text = words.map(\.text).joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: " .,;:/|-"))
                let confidence = words.map(\.confidence).min() ?? 0
                // Text nothing can check is taken only when read surely; a date of issue is
                // checked against the expiry (``VIZIssueDateFinder/isTrusted(_:mrz:)``).
                guard !text.isEmpty, let value = value(of: field, text),
                      field == .dateOfIssue || confidence >= VIZField.sureConfidence else { break }
                found[field] = VIZField(text: text, value: value, confidence: confidence,
                                        box: words.dropFirst().reduce(words[0].box) { $0.union($1.box) }, matchesMRZ: nil)
                break
            }
        }
        return found
    }

    /// What a value means: a date of issue in ISO form (none when it is no date), other fields as
    /// printed, when they hold a letter.
    func value(of field: DocumentFieldName, _ text: String) -> String? {
        switch field {
        case .dateOfIssue:
            return DocumentDate.candidates(text, monthFirst: false, kind: .issue, reference: referenceDate).first
        case .sex:
            return Self.sexLetter(text)
        default:
            return text.contains(where: \.isLetter) ? text : nil
        }
    }

    /// Every caption in `lines`: a run of words whose folded text is within an OCR error in six
    /// letters of a caption. A caption of no field still counts (it bounds the others' columns);
    /// the longest match on a run of words wins.
    static func captions(in lines: [VIZLine]) -> [Caption] {
        var out: [Caption] = []
        for (k, line) in lines.enumerated() {
            let folded = line.words.map { fold($0.text) }
            var start = 0
            while start < folded.count {
                var best: (end: Int, field: DocumentFieldName)?
                var other: Int?
                for end in (start + 1)...min(folded.count, start + 4) {
                    let text = folded[start..<end].filter { !$0.isEmpty }.joined(separator: " ")
                    guard !text.isEmpty else { continue }
                    for (field, phrases) in captions where phrases.contains(where: { near(text, $0) }) { best = (end, field) }
                    if best?.end != end, otherCaptions.contains(where: { near(text, $0) }) { other = end }
                }
                if best == nil, let other {
                    let run = line.words[start..<other]
                    out.append(Caption(field: nil, line: k, words: start..<other, box: run.dropFirst().reduce(run.first!.box) { $0.union($1.box) }))
                    start = other
                    continue
                }
                if let best {
                    let run = line.words[start..<best.end]
                    let box = run.dropFirst().reduce(run.first!.box) { $0.union($1.box) }
                    // A caption in two languages (`Date of issue/ Date de délivrance`) is one.
                    if let last = out.last, last.line == k, last.field == best.field,
                       box.left - last.box.right < 3 * max(1, box.height) {
                        out[out.count - 1].words = last.words.lowerBound..<best.end
                        out[out.count - 1].box = last.box.union(box)
                    } else {
                        out.append(Caption(field: best.field, line: k, words: start..<best.end, box: box))
                    }
                    start = best.end
                } else {
                    start += 1
                }
            }
        }
        return out
    }

    /// The line with each word split at its slashes, each part with its share of the word's box:
    /// a caption in several languages is often printed, or read, without a space at its slashes
    /// (`Emisa de/Delivré par/Issued by`), and its words would run into one another's.
    static func splitAtSlashes(_ line: VIZLine) -> VIZLine {
        var split = line
        split.words = line.words.flatMap { word -> [VIZWord] in
            let characters = Array(word.text)
            guard characters.count > 1, characters.contains("/") else { return [word] }
            var parts: [VIZWord] = [], start = 0
            for k in 0...characters.count where k == characters.count || characters[k] == "/" {
                if k > start { parts.append(word.part(start..<k)) }
                start = k + 1
            }
            return parts.isEmpty ? [word] : parts
        }
        return split
    }

    /// Lower case, accents and marks removed, letters and spaces only (`Délivrance/` → `delivrance`).
    static func fold(_ text: String) -> String {
        let plain = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        return String(plain.unicodeScalars.filter { $0.properties.isAlphabetic || $0 == " " }.map(Character.init))
    }

    /// The ICAO letter (`M`, `F`, `X`; 9303-3 §4.3) a sex's printed value holds: the one such
    /// letter among the parts of a value in several languages (`KVK/F`, `V/F`, `S/F`, `M/M`), or
    /// `nil` for a value that holds none or two different ones.
    static func sexLetter(_ text: String) -> String? {
        let parts = text.uppercased().split(whereSeparator: { $0 == "/" || $0 == " " })
        let letters = Set(parts.filter { ["M", "F", "X"].contains($0) }.map(String.init))
        return letters.count == 1 ? letters.first : nil
    }

    /// Within one edit in six letters (at least one): OCR drops and swaps letters of small print. A
    /// caption of fewer than five letters (`sex`, `kon`) only as it is: one edit would make it
    /// many a short word (`set`, `non`).
    static func near(_ a: String, _ b: String) -> Bool {
        guard b.count >= 5 else { return a == b }
        let limit = max(1, b.count / 6)
        guard abs(a.count - b.count) <= limit else { return false }
        let x = Array(a.utf8), y = Array(b.utf8)
        var previous = Array(0...y.count), current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...max(1, x.count) where !x.isEmpty {
            current[0] = i
            var rowMin = current[0]
            for j in 1...max(1, y.count) where !y.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
                rowMin = min(rowMin, current[j])
            }
            if rowMin > limit { return false }
            swap(&previous, &current)
        }
        return previous[y.count] <= limit
    }
}
