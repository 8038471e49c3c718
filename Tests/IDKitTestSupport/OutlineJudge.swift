import Foundation

/// The document corners of the shared real specimen images, labeled by eye
/// (`TestVectors/mrz-real/document-corners.json`; the images stay in `../shared/testdata/mrz-real`),
/// and how the `documents` of a scan are judged against them. Shared by the ratchet test
/// (`RealOutlineTests`) and `make bench-detect-real`, so that both count alike.
public struct OutlineLabels: Decodable, Sendable {
    public struct Document: Decodable, Sendable {
        /// Top-left, top-right, bottom-right, bottom-left of the document read upright, in image
        /// pixels (outside the image where the frame cuts the document); `nil` where no edge of
        /// the document is visible (a tight crop of the page), where a scan must give no outline.
        public var corners: [[Double]]?
        /// Whether the document holds the image's MRZ (its reading order is then the MRZ's; a card
        /// side without one is upright only up to a half turn for a reader of its shape alone).
        public var hasMRZ: Bool
        public var cut: Bool?

        public init(corners: [[Double]]?, hasMRZ: Bool, cut: Bool?) {
            self.corners = corners
            self.hasMRZ = hasMRZ
            self.cut = cut
        }
    }
    public struct Image: Decodable, Sendable {
        public var file: String
        public var imageSize: [Int]
        /// Every document whose edges are visible, the larger first.
        public var documents: [Document]

        public init(file: String, imageSize: [Int], documents: [Document]) {
            self.file = file
            self.imageSize = imageSize
            self.documents = documents
        }
    }
    public var source: String
    public var images: [Image]

    /// The labels in the repository (`TestVectors/mrz-real/document-corners.json`).
    public static func load(root: URL) throws -> OutlineLabels {
        try JSONDecoder().decode(OutlineLabels.self, from: Data(contentsOf: root.appendingPathComponent("TestVectors/mrz-real/document-corners.json")))
    }
}

/// How one labeled document came out.
public enum OutlineVerdict: String, Sendable, Codable, CaseIterable, Comparable {
    /// An outline where the document has none to see, or one that overlaps the document but is
    /// more than 10% of its diagonal off at a corner (or in another reading order).
    case wrong
    /// No entry of `documents` for it.
    case missed
    /// Every corner within 10% of the document's diagonal, one of them beyond 2%.
    case loose
    /// Every corner within 2% of the document's diagonal (the measure the detector is held to), or no outline
    /// where no edge is visible.
    case right

    public static func < (a: OutlineVerdict, b: OutlineVerdict) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One image's judgment: a verdict per labeled document, in the labels' order, and how many
/// entries of `documents` are no labeled document (a portrait, a text block, the desk).
public struct OutlineJudgment: Sendable, Equatable, Codable {
    public var documents: [OutlineVerdict]
    public var extra: Int
    /// Per labeled document, the largest corner error over the diagonal (`nil`: missed, or no outline to judge).
    public var errors: [Double?]

    public init(documents: [OutlineVerdict], extra: Int, errors: [Double?]) {
        self.documents = documents
        self.extra = extra
        self.errors = errors
    }

    enum CodingKeys: String, CodingKey { case documents, extra }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        documents = try c.decode([OutlineVerdict].self, forKey: .documents)
        extra = try c.decode(Int.self, forKey: .extra)
        errors = documents.map { _ in nil }
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(documents, forKey: .documents)
        try c.encode(extra, forKey: .extra)
    }

    public static func == (a: OutlineJudgment, b: OutlineJudgment) -> Bool { a.documents == b.documents && a.extra == b.extra }
}

public enum OutlineJudge {
    /// The share of the diagonal within which every corner must lie to be right, and to be loose.
    public static let rightShare = 0.02, looseShare = 0.10

    /// Judges the `documents` entries of one scan (each its corners in reading order, `nil` where the
    /// entry has no outline) against the labels of its image.
    ///
    /// Labeled documents take, larger first, the entry that overlaps them (one's center inside the
    /// other) with the smallest largest-corner error; a labeled document without an outline (no
    /// edge visible) takes an entry without corners if there is one, else the first entry left
    /// (whose outline is then wrong). Entries with corners left over are extra; an entry without
    /// corners left over is extra too, unless a missed document accounts for it (its MRZ read, its
    /// outline not found).
    public static func judge(_ label: OutlineLabels.Image, entries: [[[Double]]?]) -> OutlineJudgment {
        var taken = Set<Int>()
        var verdicts: [OutlineVerdict] = [], errors: [Double?] = []
        for document in label.documents {
            guard let truth = document.corners, truth.count == 4 else {
                if let k = entries.indices.first(where: { !taken.contains($0) && entries[$0] == nil }) {
                    taken.insert(k)
                    verdicts.append(.right)
                } else if let k = entries.indices.first(where: { !taken.contains($0) }) {
                    taken.insert(k)
                    verdicts.append(.wrong)
                } else {
                    verdicts.append(.right)
                }
                errors.append(nil)
                continue
            }
            let diagonal = max(hypot(truth[0][0] - truth[2][0], truth[0][1] - truth[2][1]), 1)
            var best: (k: Int, error: Double)?
            for (k, entry) in entries.enumerated() where !taken.contains(k) {
                guard let entry, entry.count == 4, overlaps(entry, truth) else { continue }
                var error = largestError(entry, truth) / diagonal
                // A side without an MRZ has no reading order its shape alone can give beyond a half turn.
                if !document.hasMRZ { error = min(error, largestError(Array(entry[2...] + entry[..<2]), truth) / diagonal) }
                if best == nil || error < best!.error { best = (k, error) }
            }
            if let best {
                taken.insert(best.k)
                verdicts.append(best.error <= rightShare ? .right : best.error <= looseShare ? .loose : .wrong)
                errors.append(best.error)
            } else {
                verdicts.append(.missed)
                errors.append(nil)
                if document.hasMRZ, let k = entries.indices.first(where: { !taken.contains($0) && entries[$0] == nil }) { taken.insert(k) }
            }
        }
        let extra = entries.indices.filter { !taken.contains($0) }.count
        return OutlineJudgment(documents: verdicts, extra: extra, errors: errors)
    }

    static func largestError(_ a: [[Double]], _ b: [[Double]]) -> Double {
        zip(a, b).map { hypot($0[0] - $1[0], $0[1] - $1[1]) }.max() ?? .infinity
    }

    static func center(_ q: [[Double]]) -> [Double] { [q.map { $0[0] }.reduce(0, +) / 4, q.map { $0[1] }.reduce(0, +) / 4] }

    /// Whether either quadrilateral's center lies inside the other.
    static func overlaps(_ a: [[Double]], _ b: [[Double]]) -> Bool { contains(a, center(b)) || contains(b, center(a)) }

    /// Whether `p` lies inside the convex quadrilateral `q` (either turning direction).
    static func contains(_ q: [[Double]], _ p: [Double]) -> Bool {
        var sign = 0.0
        for i in 0..<4 {
            let a = q[i], b = q[(i + 1) % 4]
            let cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
            if cross != 0 {
                if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
            }
        }
        return true
    }
}
