import Foundation
import IDKitImage
import IDKitMRZ

/// Finds the MRZ at any rotation: characters as connected components, chains of similar
/// components at a regular pitch along a common direction, and two or three parallel chains at
/// the MRZ's line spacing (``widestLineSpacing``).
public struct MRZBandLocator: Sendable {
    /// The fewest components in a row that make a piece of a line (a line needs 12).
    public var minimumRun = 12
    /// Whether collinear pieces of a line are joined (``joined(_:_:)``).
    public var joinsPieces = false

    public init() {}

    /// A search that builds lines of pieces of 6 or more components: faded, thin print on a
    /// patterned page breaks into runs of a few characters.
    public static var fragmentedPrint: MRZBandLocator {
        var locator = MRZBandLocator()
        locator.minimumRun = 6
        locator.joinsPieces = true
        return locator
    }

    /// Every plausible band, best first (most characters).
    public func locate(in image: GrayImage) -> [MRZBand] {
        locate(in: InkComponents(image))
    }

    /// The same search over components that may already have been found: searches with other
    /// chaining rules over the same image (``fragmentedPrint`` after the plain search of the
    /// thickened ink) share them.
    func locate(in ink: InkComponents) -> [MRZBand] {
        let image = ink.image
        // Large images: look at half resolution first (a quarter of the pixels); characters of
        // 18 px and more are still 9 px there. Small print falls through to full resolution.
        let large = image.width * image.height > Self.halvedSearchPixels
        var rough: [MRZBand] = []
        if large {
            let half = ink.half
            // Both binarization windows, as at full resolution: large print (characters of 30 px
            // and more in the image) holds together only in the larger one.
            for radius in [8, 20] {
                let components = ink.components(radius: radius, halved: true)
                let all = locate(components: components, imageSize: (half.width, half.height)).filter { $0.characterHeight >= 9 }
                // Only a clean find: nearly every character a component, every line the full length.
                let found = all.filter { band in
                    band.lines.allSatisfy { line in
                        let length = hypot(line.end.x - line.start.x, line.end.y - line.start.y) / band.pitch + 1
                        return line.componentCount >= band.lineLength * 9 / 10 && abs(length - Double(band.lineLength)) < 0.7
                    }
                }
                if !found.isEmpty { return Self.sorted(found.map { $0.scaled(by: 2) }) }
                // A find that is not clean is kept for when the full resolution finds nothing:
                // thin faint print, whose fillers break into specks at full resolution and hold
                // together only at half (the fragmented-print look's ink thickened there), gives
                // one whole line and the other in pieces. Before, both searches came back empty on
                // 6 of the 5,000 stress photos (all faint or thin print): 4 of them now read
                // exactly, as do 2 whose first look found a wrong band; no other stress or
                // bench-scan photo, real specimen or card front without an MRZ reads differently.
                rough += all.map { $0.scaled(by: 2) }
            }
        }
        var bands: [MRZBand] = []
        // Two binarization windows: small print (low resolution) and large print. A large image's
        // large print was searched at half resolution with both windows, where it is 9 px and
        // more: at full resolution only the small window looks for small print. The large window
        // there cost a 1.7 MP card front without an MRZ a third of its scan (labeling 1.7 MP
        // takes about 110 M instructions, in each look) and read no real specimen and none of
        // bench-scan's 300 photos differently; of 5,000 stress photos it changed 15 (10 of them
        // printer variations: spread, faint or other cuts), none verified and wrong either way:
        // as many exact without it (8 of the 15), 3 fewer verified.
        for radius in large ? [8] : [8, 20] {
            let components = ink.components(radius: radius, halved: false)
            bands += locate(components: components, imageSize: (image.width, image.height))
            // A band of nearly whole lines ends the search, unless its lines stand further apart
            // than ``usualLineSpacing``: pieces of two TD3 lines, 2.5 pitches apart and broken
            // where fillers were too small to be components, look like a TD2 of 36 characters (a
            // Dutch passport turned by 8°), and the other window may find the whole lines.
            if let best = bands.first, best.lines.allSatisfy({ $0.componentCount >= best.lineLength * 7 / 10 }),
               best.lineSpacing < Self.usualLineSpacing * best.characterHeight { break }
        }
        return Self.sorted(bands.isEmpty ? rough : bands)
    }

    /// Images larger than this are searched at half resolution first.
    static let halvedSearchPixels = 1_200_000

    static func sorted(_ bands: [MRZBand]) -> [MRZBand] {
        bands.sorted { a, b in a.lines.reduce(0) { $0 + $1.componentCount } > b.lines.reduce(0) { $0 + $1.componentCount } }
    }

    /// 2×2 box average.
    static func halved(_ image: GrayImage) -> GrayImage {
        let w = image.width / 2, h = image.height / 2
        var out = [UInt8](repeating: 0, count: w * h)
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<h {
                let r0 = 2 * y * image.width, r1 = r0 + image.width
                for x in 0..<w {
                    let s = Int(p[r0 + 2 * x]) + Int(p[r0 + 2 * x + 1]) + Int(p[r1 + 2 * x]) + Int(p[r1 + 2 * x + 1])
                    out[y * w + x] = UInt8((s + 2) / 4)
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    struct Node {
        var center: Point
        var size: Double
        var successor = -1
        var predecessor = -1
        var predecessorDistance = Double.infinity
    }

    /// A node's neighbor: its index and the offset to it.
    struct Neighbor {
        var index: Int32
        var dx: Double, dy: Double
    }

    struct ComponentChain {
        var members: [Int]
        var direction: (x: Double, y: Double)
        var pitch: Double
        var height: Double
        var start: Point
        var end: Point
        var centers: [Point]
    }

    /// How much longer than high an image must be to be taken for a crop of the MRZ alone (a TD1's
    /// three lines stand about four times as wide as high, two lines of 36 or 44 eight to ten).
    static let zoneCropAspect = 3.0

    func locate(components: [Component], imageSize: (Int, Int)) -> [MRZBand] {
        // Components larger than a tenth of the image's shorter side are not characters of an MRZ
        // in a photo of a document. An image three or more times longer than it is high (or high
        // than long) is a crop of the zone itself, and there its characters stand a quarter to a
        // sixth of the image's height: every one of them was dropped, and an MRZ cropped with a
        // margin of a tenth of its character height read as no MRZ (all 31 such crops of the real
        // specimens).
        let shorter = Double(min(imageSize.0, imageSize.1)), longer = Double(max(imageSize.0, imageSize.1))
        let maxSize = shorter / (longer >= Self.zoneCropAspect * shorter ? 2.5 : 10)
        var nodes: [Node] = []
        for c in components {
            let s = c.size
            guard s >= 6, s <= maxSize, min(c.width, c.height) >= 2, Double(c.count) >= 0.12 * Double(c.width * c.height) else { continue }
            nodes.append(Node(center: c.center, size: s))
        }
        guard nodes.count >= 20 else { return [] }
        // Spatial grid for neighbor search.
        let cell = 48.0
        let gw = Int(Double(imageSize.0) / cell) + 1, gh = Int(Double(imageSize.1) / cell) + 1
        var grid = [[Int]](repeating: [], count: gw * gh)
        for (i, n) in nodes.enumerated() {
            grid[min(gh - 1, Int(n.center.y / cell)) * gw + min(gw - 1, Int(n.center.x / cell))].append(i)
        }
        // Every node's neighbors, found once in the grid (140,000 pairs of 12,000 nodes on a
        // 2 MP page of noise, 3 MB): the direction histogram and the linking along each of its
        // peaks walk these lists. Searched four times over, the grid made a 2 MP page of noise
        // cost 0.85 s (0.5 s now), 25 times a read MRZ.
        var neighborStart = [Int](repeating: 0, count: nodes.count + 1)
        var neighborList: [Neighbor] = []
        neighborList.reserveCapacity(8 * nodes.count)
        for (i, n) in nodes.enumerated() {
            let reach = 2.3 * n.size
            let cx = Int(n.center.x / cell), cy = Int(n.center.y / cell), k = Int(reach / cell) + 1
            for gy in max(0, cy - k)...min(gh - 1, cy + k) {
                for gx in max(0, cx - k)...min(gw - 1, cx + k) {
                    for j in grid[gy * gw + gx] where j != i {
                        let m = nodes[j]
                        let ratio = m.size / n.size
                        guard ratio > 0.5, ratio < 2.0 else { continue }
                        let dx = m.center.x - n.center.x, dy = m.center.y - n.center.y
                        let d = (dx * dx + dy * dy).squareRoot()
                        guard d > 0.5 * max(n.size, m.size), d < 2.3 * max(n.size, m.size) else { continue }
                        neighborList.append(Neighbor(index: Int32(j), dx: dx, dy: dy))
                    }
                }
            }
            neighborStart[i + 1] = neighborList.count
        }
        // Dominant directions: a histogram of neighbor-pair angles (mod 180°).
        var histogram = [Double](repeating: 0, count: 180)
        for pair in neighborList {
            var a = atan2(pair.dy, pair.dx) * 180 / .pi
            if a < 0 { a += 180 }
            histogram[Int(a) % 180] += 1
        }
        var smoothed = [Double](repeating: 0, count: 180)
        for a in 0..<180 { for k in -2...2 { smoothed[a] += histogram[(a + k + 180) % 180] } }
        var peaks: [Int] = []
        for a in (0..<180).sorted(by: { smoothed[$0] > smoothed[$1] }) {
            guard smoothed[a] > 0, peaks.count < 3 else { break }
            if peaks.allSatisfy({ min(abs($0 - a), 180 - abs($0 - a)) > 12 }) && smoothed[a] >= 0.25 * smoothed[peaks.first ?? a] {
                peaks.append(a)
            }
        }

        var bands: [MRZBand] = []
        for peak in peaks {
            let theta = Double(peak) * .pi / 180
            let ux = cos(theta), uy = sin(theta)
            var linked = nodes
            for i in linked.indices {
                var best = -1, bestAlong = Double.infinity
                let size = nodes[i].size
                for pair in neighborList[neighborStart[i]..<neighborStart[i + 1]] {
                    let along = pair.dx * ux + pair.dy * uy, across = abs(-pair.dx * uy + pair.dy * ux)
                    guard along > 0, across < 0.35 * along + 0.15 * size, along < bestAlong else { continue }
                    best = Int(pair.index)
                    bestAlong = along
                }
                if best >= 0, bestAlong < linked[best].predecessorDistance {
                    if linked[best].predecessor >= 0 { linked[linked[best].predecessor].successor = -1 }
                    linked[best].predecessor = i
                    linked[best].predecessorDistance = bestAlong
                    linked[i].successor = best
                }
            }
            var chains: [ComponentChain] = []
            for i in linked.indices where linked[i].predecessor < 0 && linked[i].successor >= 0 {
                var members = [i]
                var j = linked[i].successor
                while j >= 0, members.count < 200 { members.append(j); j = linked[j].successor }
                guard members.count >= minimumRun, let chain = makeChain(members, nodes) else { continue }
                chains += split(chain, nodes)
            }
            bands += group((joinsPieces ? joined(chains, nodes) : chains).filter { $0.members.count >= 12 }, imageSize: imageSize)
        }
        return bands
    }

    /// A chain's direction, pitch and character height; `nil` when its spacing is irregular.
    func makeChain(_ members: [Int], _ nodes: [Node]) -> ComponentChain? {
        let first = nodes[members[0]].center, last = nodes[members[members.count - 1]].center
        // Least-squares line through the centers (direction from the first to the last).
        let n = Double(members.count)
        let mx = members.reduce(0) { $0 + nodes[$1].center.x } / n, my = members.reduce(0) { $0 + nodes[$1].center.y } / n
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for m in members {
            let dx = nodes[m].center.x - mx, dy = nodes[m].center.y - my
            sxx += dx * dx; sxy += dx * dy; syy += dy * dy
        }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        var ux = cos(angle), uy = sin(angle)
        if (last.x - first.x) * ux + (last.y - first.y) * uy < 0 { ux = -ux; uy = -uy }
        var gaps: [Double] = []
        for k in 1..<members.count {
            let a = nodes[members[k - 1]].center, b = nodes[members[k]].center
            gaps.append((b.x - a.x) * ux + (b.y - a.y) * uy)
        }
        let sortedGaps = gaps.sorted()
        let pitch = sortedGaps[sortedGaps.count / 2]
        guard pitch > 0 else { return nil }
        let heights = members.map { nodes[$0].size }.sorted()
        // Letters and digits, not the smaller '<'; a component's size is its bounding box's larger
        // side, which a turned glyph (about 0.65 as wide as tall) inflates by cos a + 0.65·|sin a|.
        let turn = abs(atan2(uy, ux)).truncatingRemainder(dividingBy: .pi / 2)
        let a = min(turn, .pi / 2 - turn)
        let height = heights[heights.count * 3 / 4] / (cos(a) + 0.65 * sin(a))
        func project(_ p: Point) -> Point {
            let t = (p.x - mx) * ux + (p.y - my) * uy
            return Point(x: mx + t * ux, y: my + t * uy)
        }
        return ComponentChain(members: members, direction: (ux, uy), pitch: pitch, height: height,
                     start: project(first), end: project(last), centers: members.map { nodes[$0].center })
    }

    /// Splits a chain where the spacing breaks (two words, or MRZ and other text in one row).
    func split(_ chain: ComponentChain, _ nodes: [Node]) -> [ComponentChain] {
        var pieces: [[Int]] = [[chain.members[0]]]
        for k in 1..<chain.members.count {
            let a = nodes[chain.members[k - 1]].center, b = nodes[chain.members[k]].center
            let gap = (b.x - a.x) * chain.direction.x + (b.y - a.y) * chain.direction.y
            if gap > 1.6 * chain.pitch || gap < 0.5 * chain.pitch { pieces.append([]) }
            pieces[pieces.count - 1].append(chain.members[k])
        }
        return pieces.filter { $0.count >= minimumRun }.compactMap { makeChain($0, nodes) }
    }

    /// Pieces of one line joined: collinear chains of the same pitch and character height whose
    /// ends are at most six pitches apart (a character or a few too faint to be a component
    /// break a line of thin or faded print into pieces, and the first of them may be the only
    /// one found long enough). Joined until nothing more joins.
    ///
    /// Joining the first joinable pair (in the order of the chains, longest first) and starting
    /// over took a 35 MP page of noise over a minute (5,000 pieces, the pair search repeated after
    /// every join). Only pairs with the chain just joined can have become joinable, so the search
    /// after a join checks the rows already searched against that chain alone and goes on from
    /// the row where it joined; and a pair whose boxes stand further apart than a join allows is
    /// passed over at once. The same joins in the same order.
    func joined(_ chains: [ComponentChain], _ nodes: [Node]) -> [ComponentChain] {
        var chains = chains.sorted { $0.members.count > $1.members.count }
        var boxes = chains.map(Box.init)
        // Rows before `settled` join nothing but perhaps the chain joined last, at `settled`.
        var settled = 0
        search: while true {
            for a in chains.indices {
                let candidates = a < settled ? settled..<settled + 1 : chains.indices
                for b in candidates where b != a && boxes[a].reaches(boxes[b]) {
                    guard let chain = join(chains[a], chains[b], nodes) else { continue }
                    chains[a] = chain
                    boxes[a] = Box(chain)
                    chains.remove(at: b)
                    boxes.remove(at: b)
                    settled = b < a ? a - 1 : a
                    continue search
                }
            }
            return chains
        }
    }

    /// A chain's bounding box, and how far past it another chain may start and still join it.
    private struct Box {
        var x0, y0, x1, y1, reach: Double
        init(_ c: ComponentChain) {
            (x0, x1) = (min(c.start.x, c.end.x), max(c.start.x, c.end.x))
            (y0, y1) = (min(c.start.y, c.end.y), max(c.start.y, c.end.y))
            // A chain that joins lies within 0.3 heights of this one's line, its extent within
            // 6 pitches of this one's ends (``join(_:_:_:)``).
            reach = 6 * c.pitch + 0.3 * c.height + 1
        }
        func reaches(_ o: Box) -> Bool {
            o.x0 < x1 + reach && o.x1 > x0 - reach && o.y0 < y1 + reach && o.y1 > y0 - reach
        }
    }

    /// `q` joined to `p` as one line, or `nil` when they are not pieces of one line.
    func join(_ p: ComponentChain, _ q: ComponentChain, _ nodes: [Node]) -> ComponentChain? {
        func t(_ r: Point) -> Double { (r.x - p.start.x) * p.direction.x + (r.y - p.start.y) * p.direction.y }
        func across(_ r: Point) -> Double { abs(-(r.x - p.start.x) * p.direction.y + (r.y - p.start.y) * p.direction.x) }
        guard p.direction.x * q.direction.x + p.direction.y * q.direction.y > cos(3 * Double.pi / 180),
              q.pitch / p.pitch > 0.85, q.pitch / p.pitch < 1.18, q.height / p.height > 0.8, q.height / p.height < 1.25,
              across(q.start) < 0.3 * p.height, across(q.end) < 0.3 * p.height else { return nil }
        let (q0, q1) = (min(t(q.start), t(q.end)), max(t(q.start), t(q.end))), p1 = t(p.end)
        let gap = max(q0 - p1, -q1)
        guard gap > -p.pitch, gap < 6 * p.pitch else { return nil }
        let members = (p.members + q.members).sorted { t(nodes[$0].center) < t(nodes[$1].center) }
        return makeChain(members, nodes)
    }

    /// The widest spacing of two MRZ lines, in character pitches (the pitch is 2.54 mm on every
    /// document, ICAO 9303-3 §4.2; the measured character height varies with the print and the blur).
    /// Measured between the lines' centers on the 33 real specimens of ../shared/testdata/mrz-real:
    /// TD1 1.60–1.78 pitches (about 4.2 mm), TD2 2.06–2.48, TD3 2.05–2.58 (most 2.4–2.55, about
    /// 6.3 mm). Against the component height, TD3 lines stand 2.1–2.95 apart, so the first rule,
    /// 1.3–2.4 heights, passed several real passports by a few hundredths and lost them when turned
    /// by 8° (the turned glyphs' boxes make the height estimate a few percent smaller).
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
