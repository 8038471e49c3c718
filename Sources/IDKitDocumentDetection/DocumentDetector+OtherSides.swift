import Foundation
import IDKitImage

// A card's other side, scanned beside it: found from the card's own outline.
extension DocumentDetector {
    /// The other sides of the `cards` (ID-1 and ID-2 formats with an MRZ), scanned beside them: the
    /// same size, turned the same way, a few millimeters away (``otherSideStart``) to the right,
    /// left, below or above. Each place where the image shows at least ``minimumOtherSideShown`` of
    /// such a side, clipped to the image, is moved onto the edges as an outline placed from an MRZ
    /// is (``snap(_:_:keepingOut:)``, its middle kept inside it). It is a document when every side
    /// lies on edges or on the border (``minimumCutSideSupport``) and its size is still the card's;
    /// a side the frame cuts off is put back at the card's size from the side across from it, as
    /// the corners of a document the frame cuts are (outside the image). This finds the side that
    /// lies against its card, whose shared edge the search for cut outlines erases with the card's.
    func otherSides(edges: Edges, beside cards: [DetectedDocument]) -> [DetectedDocument] {
        let x0 = Double(edges.x), y0 = Double(edges.y), x1 = x0 + Double(edges.width), y1 = y0 + Double(edges.height)
        func inside(_ p: Point) -> Bool { p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1 }
        var placed: [[Point]] = [], cores: [[Point]] = [], steps: [(across: Point, down: Point, area: Double)] = []
        for card in cards where card.band != nil && (card.format == .td1 || card.format == .td2) {
            guard let mm = card.format.millimeters else { continue }
            let c = card.corners.corners
            let across = Self.scale(Self.add(Self.sub(c[1], c[0]), Self.sub(c[2], c[3])), 0.5)
            let down = Self.scale(Self.add(Self.sub(c[3], c[0]), Self.sub(c[2], c[1])), 0.5)
            let gap = Self.otherSideStart / mm.width, gapDown = Self.otherSideStart / mm.height
            for shift in [Self.scale(across, 1 + gap), Self.scale(across, -1 - gap), Self.scale(down, 1 + gapDown), Self.scale(down, -1 - gapDown)] {
                let side = c.map { Self.add($0, shift) }
                // The share of the side in the image, on a 10 × 10 grid across it.
                let shown = (0..<100).filter { k in
                    let u = (Double(k % 10) + 0.5) / 10, v = (Double(k / 10) + 0.5) / 10
                    let top = Self.add(side[0], Self.scale(Self.sub(side[1], side[0]), u))
                    let bottom = Self.add(side[3], Self.scale(Self.sub(side[2], side[3]), u))
                    return inside(Self.add(top, Self.scale(Self.sub(bottom, top), v)))
                }.count
                guard Double(shown) >= 100 * Self.minimumOtherSideShown else { continue }
                let center = Self.scale(side.reduce(Point(x: 0, y: 0), Self.add), 0.25)
                placed.append(side.map { Point(x: min(max($0.x, x0), x1), y: min(max($0.y, y0), y1)) })
                cores.append(side.map { Self.add(center, Self.scale(Self.sub($0, center), 0.5)) })
                steps.append((across, down, card.area))
            }
        }
        return zip(snap(edges, placed, keepingOut: cores), steps).compactMap { outline, step in
            guard var outline, outline.weakestSide >= Self.minimumCutSideSupport else { return nil }
            // Sides on the border (top, right, bottom, left as placed) put back at the card's size.
            var p = outline.points
            let near = 1.5
            func onBorder(_ s: Int) -> Bool {
                let a = p[s], b = p[(s + 1) % 4]
                return (abs(a.x - x0) < near && abs(b.x - x0) < near) || (abs(a.x - x1) < near && abs(b.x - x1) < near)
                    || (abs(a.y - y0) < near && abs(b.y - y0) < near) || (abs(a.y - y1) < near && abs(b.y - y1) < near)
            }
            let cut = (0..<4).map(onBorder)
            for s in 0..<4 where cut[s] && !cut[(s + 2) % 4] {
                let o = (s + 2) % 4, step = s == 0 ? Self.neg(step.down) : s == 1 ? step.across : s == 2 ? step.down : Self.neg(step.across)
                // The side across, moved by the card's width or height: corners s and s+1 slide
                // along their other sides to it.
                let a = Self.add(p[(o + 1) % 4], step), b = Self.add(p[o], step)
                guard let first = Self.meet(p[(s + 3) % 4], p[s], a, b), let second = Self.meet(p[(s + 2) % 4], p[(s + 1) % 4], a, b) else { return nil }
                p[s] = first
                p[(s + 1) % 4] = second
            }
            outline.points = p
            guard let d = Self.oriented(outline, band: nil), d.widthHeightRatio >= 1.3, d.widthHeightRatio <= 1.75,
                  abs(d.area / step.area - 1) <= Self.otherSideAreaTolerance else { return nil }
            return d
        }
    }

    /// Where the line through `a` and `b` meets the line through `c` and `d`; `nil` when they are
    /// parallel.
    static func meet(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Point? {
        let r = sub(b, a), s = sub(d, c), cross = r.x * s.y - r.y * s.x
        guard abs(cross) > 1e-9 else { return nil }
        let t = ((c.x - a.x) * s.y - (c.y - a.y) * s.x) / cross
        return add(a, scale(r, t))
    }

    /// How far the areas of a card's two sides may differ as found (a share of the card's).
    static let otherSideAreaTolerance = 0.1
    /// The gap between a card's two sides scanned side by side where the search for the other side
    /// starts, in millimeters (the snapping moves each side up to 2.5% of the diagonal from there).
    static let otherSideStart = 2.0
    /// The smallest share of a card's other side the image must show for it to be looked for.
    static let minimumOtherSideShown = 0.6
}
