import Foundation
import IDKitImage
import IDKitMRZ

// Chains grouped into bands: two or three parallel lines at the MRZ's line spacing.
extension MRZBandLocator {
    /// The widest spacing of two MRZ lines, in character pitches (the pitch is 2.54 mm on every
    /// document, ICAO 9303-3 §4.2; the measured character height varies with the print and the blur).
    /// Measured between the lines' centers on the 33 real specimens of ../shared/testdata/mrz-real:
    /// TD1 1.60–1.78 pitches (about 4.2 mm), TD2 2.06–2.48, TD3 2.05–2.58 (most 2.4–2.55, about
    /// 6.3 mm). Against the component height, TD3 lines stand 2.1–2.95 apart, and turned glyphs'
    /// boxes make the height estimate a few percent smaller: a bound in heights passes real
    /// passports by a few hundredths or not at all, so the widest spacing is bounded in pitches.
    static let widestLineSpacing = 3.0
    /// The spacing, in character heights, below which any two or three chains may be MRZ lines
    /// (TD1's lines, 1.6–1.78 pitches apart, and most others).
    static let usualLineSpacing = 2.4
    /// The closest two MRZ lines stand, in character heights (usual spacing) or pitches (wide).
    static let closestLineSpacing = 1.3

    /// How short, against the other lines, a line whose glyphs the image's edge cuts may be: the
    /// foot of a photo's last MRZ line cut off by its lower edge leaves components a quarter or a
    /// half shorter, which the usual ratio (0.75) no longer takes for a line of the same print.
    static let cutLineHeightRatio = 0.45

    /// Whether `chain` runs along the image's edge, its glyphs cut by it: both its ends within
    /// half its (cut) height and two pixels of the same edge.
    static func isCutByFrame(_ chain: ComponentChain, imageSize: (Int, Int)) -> Bool {
        let reach = chain.height / 2 + 2
        let w = Double(imageSize.0), h = Double(imageSize.1)
        let ends = [chain.start, chain.end]
        return ends.allSatisfy { $0.y > h - 1 - reach } || ends.allSatisfy { $0.y < reach }
            || ends.allSatisfy { $0.x > w - 1 - reach } || ends.allSatisfy { $0.x < reach }
    }

    /// Two or three parallel chains at the MRZ line spacing, as bands.
    func group(_ chains: [ComponentChain], imageSize: (Int, Int)) -> [MRZBand] {
        var bands: [MRZBand] = []
        let order = chains.indices.sorted { chains[$0].members.count > chains[$1].members.count }
        var used = Set<Int>()
        for a in order where !used.contains(a) {
            let base = chains[a]
            let nx = -base.direction.y, ny = base.direction.x
            var members: [(offset: Double, index: Int)] = [(0, a)]
            for b in order where b != a && !used.contains(b) {
                let c = chains[b]
                let dot = base.direction.x * c.direction.x + base.direction.y * c.direction.y
                let shortest = Self.isCutByFrame(c, imageSize: imageSize) ? Self.cutLineHeightRatio : 0.75
                guard dot > cos(5 * Double.pi / 180), c.pitch / base.pitch > 0.8, c.pitch / base.pitch < 1.25,
                      c.height / base.height > shortest, c.height / base.height < 1.33 else { continue }
                let mid = Point(x: (c.start.x + c.end.x) / 2, y: (c.start.y + c.end.y) / 2)
                let offset = (mid.x - base.start.x) * nx + (mid.y - base.start.y) * ny
                // Overlap along the line.
                func t(_ p: Point) -> Double { (p.x - base.start.x) * base.direction.x + (p.y - base.start.y) * base.direction.y }
                let (b0, b1) = (0.0, t(base.end)), (c0, c1) = (min(t(c.start), t(c.end)), max(t(c.start), t(c.end)))
                let overlap = min(b1, c1) - max(b0, c0)
                guard overlap > 0.6 * min(b1 - b0, c1 - c0), abs(offset) < 7.5 * base.height else { continue }
                members.append((offset, b))
            }
            members.sort { $0.offset < $1.offset }
            // Two or three consecutive lines spaced 1.3–2.4 character heights apart
            // (``usualLineSpacing``), or two lines of TD2 or TD3 length up to
            // ``widestLineSpacing`` pitches apart, the base line among them. Of the runs that make a layout, the one with the most characters wins,
            // those on a line shorter than the longest counting half: a line of visual-zone text
            // printed just above or below the MRZ cannot displace an MRZ line, and an MRZ line
            // whose fillers were not all found still counts.
            guard let baseIndex = members.firstIndex(where: { $0.index == a }) else { continue }
            typealias Run = (score: Int, picked: [(offset: Double, index: Int)], height: Double, pitch: Double, format: MRZFormat)
            var best: Run?
            var runs: [Run] = []
            // Runs through the base line, and (as rivals only) the runs beside them that share a
            // line with one: a full-width serial or another zone's lines printed a line above the
            // MRZ are the base when they have the most components, and the zone's own lines are
            // such a run (lines up to three spacings from the base are members for this).
            for lo in max(0, baseIndex - 4)...min(members.count - 1, baseIndex + 1) {
                for hi in (lo + 1)..<min(members.count, lo + 3) where hi + 2 >= baseIndex {
                    let gaps = (lo..<hi).map { abs(members[$0 + 1].offset - members[$0].offset) }
                    let close = gaps.allSatisfy { $0 > Self.closestLineSpacing * base.height && $0 < Self.usualLineSpacing * base.height }
                    let wide = gaps.count == 1 && gaps[0] > Self.closestLineSpacing * base.pitch && gaps[0] < Self.widestLineSpacing * base.pitch
                    guard close || wide else { continue }
                    let picked = Array(members[lo...hi])
                    let lines = picked.map { chains[$0.index] }
                    // The layout: three lines are TD1; two lines of about 36 or 44 characters.
                    let pitch = lines.map(\.pitch).sorted()[lines.count / 2]
                    let height = lines.map(\.height).sorted()[lines.count / 2]
                    let lengths = lines.map { (($0.end.x - $0.start.x) * $0.direction.x + ($0.end.y - $0.start.y) * $0.direction.y) / pitch + 1 }
                    let length = lengths.max()!
                    let format: MRZFormat
                    if lines.count == 3 {
                        // TD1's 30 characters; three lines of a TD2's 36 are a TD2 and a line of
                        // print stacked beside it (a serial the width of the zone).
                        guard length > 22, length < 33 else { continue }
                        format = .td1
                    } else {
                        // Lines further apart than TD1's must be TD2's or TD3's (36 or 44 characters):
                        // the first and third lines of a TD1 whose middle line was not found are not a band.
                        guard length > 27, length < 50, close || length > 33 else { continue }
                        format = abs(length - 36) < abs(length - 44) ? .td2 : .td3
                    }
                    let score = zip(lines, lengths).reduce(0) { $0 + ($1.1 >= 0.85 * length ? 2 : 1) * $1.0.members.count }
                    runs.append((score, picked, height, pitch, format))
                    if lo <= baseIndex, baseIndex <= hi, best == nil || score > best!.score { best = runs[runs.count - 1] }
                }
            }
            guard let best else { continue }
            // A line of MRZ-like print (a serial of capitals and digits, another document's zone)
            // within a line spacing of the zone makes another run of the same layout that scores
            // about as well: it is a band too, read when the best one gives no valid MRZ.
            let rivals = runs.filter { run in
                run.format == best.format && run.picked.count == best.picked.count && 5 * run.score >= 4 * best.score
                    && run.picked.map(\.index) != best.picked.map(\.index)
                    && run.picked.contains { line in best.picked.contains { $0.index == line.index } }
            }
            for run in [best] + rivals {
                let lines = run.picked.map { chains[$0.index] }
                let geometry = lines.map { MRZLineGeometry(start: $0.start, end: $0.end, componentCount: $0.members.count, componentCenters: $0.centers) }
                bands.append(MRZBand(lines: geometry, characterHeight: run.height, pitch: run.pitch, format: run.format))
            }
            // Only the best run's lines are taken: a rival's other line may belong to another
            // document's zone stacked beside this one, which must still make its own band.
            for p in best.picked { used.insert(p.index) }
        }
        return bands
    }
}
