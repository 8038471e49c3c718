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
    /// The binarization windows (radii) searched at full resolution, with no half-resolution pass
    /// before them; `nil`: the half-resolution pass for large images, then the windows it leaves
    /// (``locate(in:)``).
    public var onlyWindows: [Int]?

    public init() {}

    /// A search that builds lines of pieces of 6 or more components: faded, thin print on a
    /// patterned page breaks into runs of a few characters.
    public static var fragmentedPrint: MRZBandLocator {
        var locator = MRZBandLocator()
        locator.minimumRun = 6
        locator.joinsPieces = true
        return locator
    }

    /// The search of an image enlarged twice (``MRZScanner/locate(_:)``): its characters were 6–9
    /// px before and are 12–18 px now, small print for the small binarization window; the image at
    /// half its size is the one the plain searches have already looked at.
    public static var enlargedPrint: MRZBandLocator {
        var locator = MRZBandLocator()
        locator.onlyWindows = [8]
        return locator
    }

    /// The search of the ink's depth below the paper (``GrayImage/inkDepth(kernel:gain:)``), whose
    /// paper is even white: the large binarization window alone, at full resolution. Its
    /// neighborhood is mostly paper, where the small one's is mostly the thickened strokes of a
    /// character, which then break apart.
    public static var evenPaper: MRZBandLocator {
        var locator = MRZBandLocator()
        locator.onlyWindows = [20]
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
        let pixels = image.width * image.height
        // Two binarization windows: small print (low resolution) and large print (characters of
        // 30 px and more hold together only in the larger one). Over ``halvedSearchPixels`` the
        // large window is searched at half resolution (a quarter of the pixels, where characters
        // of 18 px and more are still 9 px): labeling is the costly step of each look, and the
        // large window at full resolution cost a photo without an MRZ as much as the small one.
        // Over ``halvedFirstPixels`` the half resolution comes first, and large print ends the
        // search there; below it the small window's full-resolution find comes first, so that
        // the band's outline, from which a card's other side is placed, keeps its precision where
        // a half-resolution pixel is a larger share of the document.
        guard onlyWindows == nil, pixels > Self.halvedSearchPixels else {
            return Self.sorted(fullResolution(ink, windows: onlyWindows ?? [8, 20]))
        }
        if pixels > Self.halvedFirstPixels {
            let half = halfResolution(ink)
            if !half.clean.isEmpty { return Self.sorted(half.clean) }
            let bands = fullResolution(ink, windows: [8])
            return Self.sorted(bands.isEmpty ? half.rough : bands)
        }
        // Between the two sizes the half resolution's finds stand in for the large window's at
        // full resolution, which were listed with the small window's: the rough ones too.
        let bands = fullResolution(ink, windows: [8])
        if let best = bands.first, Self.endsSearch(best) { return Self.sorted(bands) }
        let half = halfResolution(ink)
        return Self.sorted(half.clean.isEmpty ? bands + half.rough : half.clean)
    }

    /// The search at full resolution with each of `windows` in turn, until a band ends it.
    private func fullResolution(_ ink: InkComponents, windows: [Int]) -> [MRZBand] {
        var bands: [MRZBand] = []
        for radius in windows {
            bands += locate(components: ink.components(radius: radius, halved: false), imageSize: (ink.image.width, ink.image.height))
            if let best = bands.first, Self.endsSearch(best) { break }
        }
        return bands
    }

    /// A band of nearly whole lines ends the search, unless its lines stand further apart than
    /// ``usualLineSpacing``: pieces of two TD3 lines, 2.5 pitches apart and broken where fillers
    /// were too small to be components, look like a TD2 of 36 characters (a Dutch passport turned
    /// by 8°), and the other window may find the whole lines.
    static func endsSearch(_ best: MRZBand) -> Bool {
        best.lines.allSatisfy { $0.componentCount >= best.lineLength * 7 / 10 } && best.lineSpacing < usualLineSpacing * best.characterHeight
    }

    /// The search at half resolution with both windows, in image coordinates: the clean finds of
    /// the first window that has any (nearly every character a component, every line the full
    /// length), else every find (`rough`). Over ``halvedFirstPixels`` a find that is not clean is
    /// kept for when the full resolution finds nothing: thin faint print, whose fillers break into specks at full
    /// resolution and hold together only at half (the fragmented-print look's ink thickened
    /// there), gives one whole line and the other in pieces: on such print both searches would
    /// otherwise come back empty, and the kept find reads it exactly, while no other photo, real
    /// specimen or card front without an MRZ reads differently.
    private func halfResolution(_ ink: InkComponents) -> (clean: [MRZBand], rough: [MRZBand]) {
        let half = ink.half
        var rough: [MRZBand] = []
        for radius in [8, 20] {
            let all = locate(components: ink.components(radius: radius, halved: true), imageSize: (half.width, half.height)).filter { $0.characterHeight >= 9 }
            let clean = all.filter { band in
                band.lines.allSatisfy { line in
                    let length = hypot(line.end.x - line.start.x, line.end.y - line.start.y) / band.pitch + 1
                    return line.componentCount >= band.lineLength * 9 / 10 && abs(length - Double(band.lineLength)) < 0.7
                }
            }
            if !clean.isEmpty { return (clean.map { $0.scaled(by: 2) }, []) }
            rough += all.map { $0.scaled(by: 2) }
        }
        return ([], rough)
    }

    /// Images larger than this search the large window at half resolution (see ``locate(in:)``).
    /// Between it and ``halvedFirstPixels`` a photo without an MRZ is spared half a labeling a
    /// look: the real specimens cut above their MRZ, p90 38 -> 35 ms.
    static let halvedSearchPixels = 500_000
    /// Images larger than this are searched at half resolution first.
    static let halvedFirstPixels = 1_200_000

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
        // peaks walk these lists, where searching the grid four times over would make a page of
        // noise cost many times a read MRZ.
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
}
