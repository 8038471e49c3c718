import Foundation
import IDKitImage

// Chains of components at a regular pitch: the pieces of MRZ lines, split where the spacing
// breaks and joined where one line broke into pieces.
extension MRZBandLocator {
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
    /// Joining the first joinable pair (in the order of the chains, longest first) and starting over
    /// repeats the pair search after every join, which a large page of noise (thousands of pieces)
    /// cannot afford. Only pairs with the chain just joined can have become joinable, so the search
    /// after a join checks the rows already searched against that chain alone and goes on from the row
    /// where it joined; and a pair whose boxes stand further apart than a join allows is passed over at
    /// once. The same joins in the same order.
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
}
