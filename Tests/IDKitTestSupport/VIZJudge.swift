import Foundation

/// The visual-zone values of the real specimen images, labeled by eye
/// (`TestVectors/mrz-real/viz-labels.json`): each field as printed, `null` where it is not printed
/// or not legible with certainty.
public struct VIZLabels: Decodable, Sendable {
    public struct Image: Decodable, Sendable {
        public var file: String
        public var vizVisible: Bool
        public var fields: [String: String?]
        /// The label of `name`, `nil` when none.
        public func value(_ name: String) -> String? { fields[name] ?? nil }
    }
    public var source: String
    public var images: [Image]

    public static func load(root: URL) throws -> VIZLabels {
        try JSONDecoder().decode(VIZLabels.self, from: Data(contentsOf: root.appendingPathComponent("TestVectors/mrz-real/viz-labels.json")))
    }
}

/// How one labeled field came out: read as printed, read as something else, or not read. A wrong
/// value is worse than none.
public enum VIZVerdict: String, Codable, Sendable, Comparable {
    case wrong, missing, exact

    private var rank: Int { self == .wrong ? 0 : self == .missing ? 1 : 2 }
    public static func < (a: VIZVerdict, b: VIZVerdict) -> Bool { a.rank < b.rank }
}

/// Judges a scan's visual-zone fields against the labels, shared by the ratchet test
/// (RealVisualZoneTests) and `make bench-viz-real`.
public enum VIZJudge {
    /// The fields judged: those the MRZ holds (found by the MRZ) and those it lacks (found under
    /// their captions).
    public static let anchored = ["lastName", "firstName", "documentNumber", "dateOfBirth", "dateOfExpiry"]
    public static let captioned = ["dateOfIssue", "placeOfBirth", "issuingAuthority"]
    /// The reference date the scans judged are made with (two-digit years, the latest date of
    /// issue), fixed so that the verdicts do not change with the day they are made on.
    public static let referenceDate = (year: 2026, month: 12, day: 1)

    /// One reported field: the words as printed and the parsed value.
    public struct Reported: Sendable {
        public var text: String
        public var value: String
        public init(text: String, value: String) { (self.text, self.value) = (text, value) }
    }

    /// Each labeled field's verdict. Dates compare as YYYY-MM-DD; numbers by their letters and
    /// digits; names as printed, places and authorities by value, all after case and space folding
    /// (national characters must be read as printed).
    public static func judge(_ label: VIZLabels.Image, reported: [String: Reported]) -> [String: VIZVerdict] {
        var out: [String: VIZVerdict] = [:]
        for name in anchored + captioned {
            let isDate = name.hasPrefix("date")
            guard let truth = label.value(isDate ? name + "ISO" : name) else { continue }
            guard let got = reported[name] else { out[name] = .missing; continue }
            let same: Bool
            switch name {
            case _ where isDate: same = got.value == truth
            case "documentNumber": same = alphanumerics(got.value) == alphanumerics(truth)
            case "lastName", "firstName": same = folded(got.text) == folded(truth)
            default: same = folded(got.value) == folded(truth)
            }
            out[name] = same ? .exact : .wrong
        }
        return out
    }

    /// Lowercased, runs of white space as one space, marks at either end dropped (`LEE W.` is
    /// `lee w`: OCR reads and misses such dots and commas alike); accents kept.
    public static func folded(_ s: String) -> String {
        let words = s.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard let first = words.firstIndex(where: { $0.isLetter || $0.isNumber }),
              let last = words.lastIndex(where: { $0.isLetter || $0.isNumber }) else { return "" }
        return String(words[first...last])
    }

    static func alphanumerics(_ s: String) -> String { String(s.uppercased().filter { $0.isLetter || $0.isNumber }) }
}
