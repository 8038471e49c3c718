import Foundation
import IDKitImage

// The outline's sides moved onto the document's edge in the image at full resolution.
extension DocumentDetector {
    /// `document` with each side moved onto the gray step along it in `image` itself. The outline
    /// search and the snapping work on edges found at most 400 pixels across (``edges(of:color:)``),
    /// so that on a 1,400-pixel scan a side lies anywhere within three or four image pixels of the
    /// document's edge, and a side the frame cuts, put back at the card's size from the side across,
    /// carries that error beyond the frame (most of the card sides off by 2–2.5% of their diagonal).
    ///
    /// Each side is looked for within ``refinementReach`` of its diagonal on either side: across the
    /// side at evenly spaced places along it, the outermost offset where the gray steps at least
    /// half as much as it steps most (the mean of a few pixels outside less that inside, with the
    /// sign of the document's ground against what lies beyond it, else the side's own), and a
    /// straight line through those offsets (Theil–Sen: text or a portrait's edge at a few places
    /// does not tilt it). The line is taken where most places lie on it (``refinementAgreement``),
    /// it turns by at most 2°, its step is clear (``refinementStep`` gray levels), and the MRZ's
    /// ink stays inside it; the search does not cross into another document's outline (`others`:
    /// a card's other side across a gap narrower than the reach).
    /// A side on a step without such a line stays. A side the image does not support (the frame
    /// cuts it, too little of it is in view, or no step lies along it) follows the side across
    /// where that one moved, parallel to it at the distance the two stood apart (the card's size),
    /// else turns square to a side beside it that moved. An outline placed from the MRZ alone is
    /// left as it is, and so is one wholly in view (below). On the generated card sides (twelve
    /// seeds) this takes the sides within 2% of their diagonal from 89.3% to 92.5%.
    ///
    /// An outline whose side faces another document within ``gapFacing`` (a card's two sides
    /// scanned side by side) may have taken that document's edge for its own across the gap
    /// between them, the gap inside it: that side is looked for across the gap instead
    /// (``acrossTheGap(_:_:outward:in:millimeter:ground:window:)``), and where it moves there, the
    /// side across from it follows it where it stood at the card's size from it (``cardBeside(_:others:within:)``),
    /// whatever print lies along it (on a light card on a light lid the outline's far side, put
    /// back from the near one, lands on the portrait's edge). Card sides: 895 to 900 of 960.
    public static func refined(_ document: DetectedDocument, in image: GrayImage, beside others: [Quadrilateral] = []) -> DetectedDocument {
        guard document.outlineFound else { return document }
        let c = document.corners.corners
        let diagonal = (distance(c[0], c[2]) + distance(c[1], c[3])) / 2
        guard diagonal.isFinite, diagonal >= 40 else { return document }
        let center = centroid(c)
        let reach = max(3, (refinementReach * diagonal).rounded())
        // Only an outline the frame cuts or nearly touches: its corners there are placed from
        // the sides in view, and their errors grow beyond the frame. One wholly in view is within
        // a few tenths of a percent already (bench-scan's photos: 0.27% median), and moving it
        // moves the visual zone's page under Tesseract for nothing.
        let w = Double(image.width), h = Double(image.height)
        guard c.contains(where: { $0.x < reach || $0.y < reach || $0.x > w - reach || $0.y > h - reach }) else { return document }
        let window = max(2, Int((0.004 * diagonal).rounded()))
        // Each side as a point and a direction, and what the image showed of it.
        var lines: [(point: Point, direction: Point)] = (0..<4).map { s in (c[s], sub(c[(s + 1) % 4], c[s])) }
        // A side facing another document just beyond it (a card's two sides side by side) may
        // lie on that document's edge across the gap between them.
        let millimeter = diagonal / (document.format.millimeters.map { hypot($0.width, $0.height) } ?? cardDiagonal)
        let ground = others.isEmpty ? nil : medianGray(of: c, in: image)
        let acrossGap: [SideOutcome?] = (0..<4).map { s in
            guard let ground, facesAnother(c[s], c[(s + 1) % 4], outward: center, others: others, within: gapFacing * millimeter) else { return nil }
            return acrossTheGap(c[s], c[(s + 1) % 4], outward: center, in: image, millimeter: millimeter, ground: ground, window: window)
        }
        let outcomes = (0..<4).map { s in
            acrossGap[s] ?? refinedSide(c[s], c[(s + 1) % 4], outward: center, in: image, reach: reach, window: window, beside: others)
        }
        var moved = [Bool](repeating: false, count: 4)
        // The MRZ's ink stays inside: a side moved across it took a line of print for an edge.
        let ink = document.band?.inkQuad.corners ?? []
        for s in 0..<4 {
            guard case .moved(let point, let direction) = outcomes[s] else { continue }
            var out = Point(x: -direction.y, y: direction.x)
            if dot(sub(center, point), out) > 0 { out = neg(out) }
            guard ink.allSatisfy({ dot(sub($0, point), out) < 0 }) else { continue }
            (lines[s], moved[s]) = ((point, direction), true)
        }
        guard moved.contains(true) else { return document }
        // A side across from one moved across the gap follows it where it stood at the card's
        // size from it (put back from it, or on print): the two sides of one card are one size.
        let card = ground == nil ? nil : cardBeside(c, others: others, within: widestGap * millimeter)
        let unseen = (0..<4).map { s in
            if case .unseen = outcomes[s] { return true }
            guard let card, case .moved(let point, let direction) = acrossGap[(s + 2) % 4] else { return false }
            let o = (s + 2) % 4, middle = add(c[s], scale(sub(c[(s + 1) % 4], c[s]), 0.5))
            func apart(_ p: Point, _ d: Point) -> Double { let u = unit(d); return abs(dot(sub(middle, p), Point(x: -u.y, y: u.x))) }
            guard let size = card.first(where: { abs(dot($0.direction, unit(direction))) < 0.5 })?.length else { return false }
            return abs(apart(c[o], sub(c[(o + 1) % 4], c[o])) - size) < abs(apart(point, direction) - size)
        }
        for s in 0..<4 where unseen[s] { moved[s] = false }
        // A side the image does not support (the frame cuts it, or no step lies along it) follows
        // the side across where that one moved: parallel to it, at the distance the two stood
        // apart (the card's size; a document is a rectangle, and on a flatbed scan its opposite
        // sides are parallel). A side on a step stays: in a photo two sides are not parallel.
        for s in 0..<4 where unseen[s] && moved[(s + 2) % 4] {
            let o = (s + 2) % 4
            let middle = add(c[s], scale(sub(c[(s + 1) % 4], c[s]), 0.5))
            let before = unit(sub(c[(o + 1) % 4], c[o]))
            let apart = abs(dot(sub(middle, c[o]), Point(x: -before.y, y: before.x)))
            let after = unit(lines[o].direction)
            var toward = Point(x: -after.y, y: after.x)
            if dot(sub(middle, lines[o].point), toward) < 0 { toward = neg(toward) }
            lines[s] = (add(lines[o].point, scale(toward, apart)), lines[o].direction)
        }
        // One the image does not show, whose side across did not move either, turns square to a
        // side beside it that moved, about the corner they share.
        for s in 0..<4 where unseen[s] && !moved[(s + 2) % 4] {
            guard let k = [(s + 3) % 4, (s + 1) % 4].first(where: { moved[$0] }),
                  let corner = intersection(lines[s].point, lines[s].direction, lines[k].point, lines[k].direction) else { continue }
            let along = lines[k].direction
            var square = Point(x: -along.y, y: along.x)
            if dot(square, lines[s].direction) < 0 { square = neg(square) }
            lines[s] = (corner, square)
        }
        var corners: [Point] = []
        for s in 0..<4 {
            let previous = lines[(s + 3) % 4], this = lines[s]
            guard let p = intersection(previous.point, previous.direction, this.point, this.direction) else { return document }
            corners.append(p)
        }
        // Never more than the reach and a little from where each corner was: an intersection far
        // off comes from two nearly parallel lines.
        guard zip(corners, c).allSatisfy({ $0.x.isFinite && $0.y.isFinite && distance($0, $1) <= 3 * reach }) else { return document }
        var out = document
        out.corners = Quadrilateral(corners)
        let width = (distance(corners[0], corners[1]) + distance(corners[3], corners[2])) / 2
        let height = (distance(corners[0], corners[3]) + distance(corners[1], corners[2])) / 2
        out.widthHeightRatio = width / max(height, 1)
        return out
    }

    /// How far a side is looked for on either side of where it is, as a share of the document's
    /// diagonal.
    static let refinementReach = 0.015
    /// The share of the places along a side that must lie within 1.5 pixels of the line fitted.
    static let refinementAgreement = 0.6
    /// The gray step (levels) a place must show to count.
    static let refinementStep = 10.0

    /// An ID-1 card's diagonal in millimeters (85.60 × 53.98 mm), the scale of an outline whose
    /// format is not known.
    static let cardDiagonal = 101.2
    /// How near beyond a side another document must lie for the side to face it across a gap
    /// (mm): the gap between a card's two sides scanned together is half a millimeter or more.
    static let gapFacing = 1.0
    /// The widest gap looked across (mm).
    static let widestGap = 5.0
    /// The step (gray levels) at a document's own edge beyond a gap, and between the gap and its
    /// ground: a light card on a light lid steps by a few levels, and the line through the
    /// places holds it to the edge.
    static let gapStep = 5.0
    /// The least step counted at one place (gray levels): about twice the noise of the difference
    /// of two means over a window on a scan's plain lid.
    static let leastGapStep = 3.0
    /// The least step (gray levels) at the other document's edge for a place to count: a light
    /// card on a light lid steps by 6 to 15 levels at its edge.
    static let gapEdgeStep = 6.0

    /// The sides' lengths and directions of the card among `others` that the outline `c` lies
    /// beside (a side of `c` facing it within `distance`), parallel to it (within 3°) and of its
    /// size (``otherSideSizeTolerance``): a card's other side beside the card.
    static func cardBeside(_ c: [Point], others: [Quadrilateral], within distance: Double) -> [(length: Double, direction: Point)]? {
        let own = dimensions(c), center = centroid(c), parallel = cos(3 * Double.pi / 180)
        for q in others {
            let theirs = dimensions(q.corners)
            let alike = own.allSatisfy { mine in
                theirs.contains { abs(dot($0.direction, mine.direction)) >= parallel && abs(mine.length / $0.length - 1) <= otherSideSizeTolerance }
            }
            if alike, (0..<4).contains(where: { facesAnother(c[$0], c[($0 + 1) % 4], outward: center, others: [q], within: distance) }) {
                return theirs
            }
        }
        return nil
    }

    /// Whether another outline lies just beyond the middle of the side from `a` to `b`, within
    /// `distance` pixels of it.
    static func facesAnother(_ a: Point, _ b: Point, outward center: Point, others: [Quadrilateral], within distance: Double) -> Bool {
        let middle = add(a, scale(sub(b, a), 0.5))
        let n = outwardNormal(a, b, center)
        return others.contains { $0.contains(add(middle, scale(n, distance))) }
    }

    /// The median gray of an outline's interior (its middle 60% each way), its ground.
    static func medianGray(of c: [Point], in image: GrayImage) -> Double? {
        var grays: [Double] = []
        let w = Double(image.width), h = Double(image.height)
        for i in 0..<16 {
            for j in 0..<16 {
                let u = 0.2 + 0.6 * Double(i) / 15, v = 0.2 + 0.6 * Double(j) / 15
                let top = add(c[0], scale(sub(c[1], c[0]), u)), bottom = add(c[3], scale(sub(c[2], c[3]), u))
                let p = add(top, scale(sub(bottom, top), v))
                if p.x >= 0, p.y >= 0, p.x <= w - 2, p.y <= h - 2 { grays.append(bilinear(image, p)) }
            }
        }
        guard grays.count >= 32 else { return nil }
        return grays.sorted()[grays.count / 2]
    }

    /// The side from `a` to `b` of a document beside another, where it took the other's edge for
    /// its own across the gap between them: the gap is the lid the two lie on, 0.5 to a few
    /// millimeters wide, and the image shows this document's own edge where the gap ends. At each
    /// of 48 places across the side, the strongest step within 2 mm of it (the other's edge, of
    /// ``gapEdgeStep`` or more) and the gray just inward of it (the gap's). Where the gap's median
    /// gray differs from this document's `ground` by ``gapStep`` or more (a card's own plain margin
    /// is its ground), at each place the first step inward within ``widestGap`` that goes from the gap's gray
    /// toward the ground by a third of the difference (and ``leastGapStep`` or more), at its
    /// peak; a straight line through those (Theil–Sen, ``refinementAgreement`` of the places
    /// within 1.5 px, turned by at most 2°). `nil` where the image shows no such gap.
    static func acrossTheGap(_ a: Point, _ b: Point, outward center: Point, in image: GrayImage, millimeter: Double, ground: Double,
                             window: Int) -> SideOutcome? {
        let length = distance(a, b)
        guard length >= 20, millimeter > 0 else { return nil }
        let n = outwardNormal(a, b, center)
        let edgeReach = Int((2 * millimeter).rounded(.up)), deepest = Int((widestGap * millimeter).rounded())
        // The gap's gray is read up to two windows beyond the edge's farthest place: on an outline
        // a few dozen pixels across the windows (2 px at least) outgrow the millimeters.
        guard edgeReach + window < deepest else { return nil }
        let w = Double(image.width), h = Double(image.height)
        func inside(_ p: Point) -> Bool { p.x >= 1 && p.y >= 1 && p.x <= w - 2 && p.y <= h - 2 }
        func mean(_ v: ArraySlice<Double>) -> Double { v.reduce(0, +) / Double(max(v.count, 1)) }
        let places = 48
        var looked = 0
        // Per place: where along the side, its profile (profile[k]: the gray k - edgeReach pixels
        // inward of the side), and the other's edge in it.
        var seen: [(along: Double, profile: [Double], edge: Int)] = []
        func step(_ profile: [Double], _ k: Int) -> Double { mean(profile[(k + 1)...(k + window)]) - mean(profile[(k - window)..<k]) }
        for i in 0..<places {
            let t = 0.08 + 0.84 * Double(i) / Double(places - 1)
            let p = add(a, scale(sub(b, a), t))
            let profile = (-edgeReach...(deepest + window + 1)).map { k in
                let q = add(p, scale(n, -Double(k)))
                return inside(q) ? bilinear(image, q) : .nan
            }
            guard !profile.contains(where: \.isNaN) else { continue }
            looked += 1
            guard let edge = (window...(2 * edgeReach)).max(by: { abs(step(profile, $0)) < abs(step(profile, $1)) }),
                  abs(step(profile, edge)) >= gapEdgeStep else { continue }
            seen.append((t * length, profile, edge))
        }
        guard looked >= 12, Double(seen.count) >= refinementAgreement * Double(looked) else { return nil }
        let gaps = seen.map { mean($0.profile[($0.edge + window + 1)...($0.edge + 2 * window + 1)]) }.sorted()
        let difference = ground - gaps[gaps.count / 2]
        guard abs(difference) >= gapStep else { return nil }
        let sign: Double = difference > 0 ? 1 : -1, least = max(leastGapStep, abs(difference) / 3)
        var found: [(x: Double, y: Double)] = []
        for (along, profile, edge) in seen {
            let from = edge + 2 * window + 1, to = edgeReach + deepest
            guard from < to, var k = (from...to).first(where: { sign * step(profile, $0) >= least }) else { continue }
            while k < to, sign * step(profile, k + 1) > sign * step(profile, k) { k += 1 }
            found.append((along, Double(k - edgeReach)))
        }
        // Offsets inward: the line along the inward normal, and only inward of the side.
        guard let line = straightLine(through: found, of: looked, from: a, to: b, offsetAlong: neg(n)), line.intercept > 0 else { return nil }
        return .moved(point: line.point, direction: line.direction)
    }

    /// What the image shows of one side of an outline.
    enum SideOutcome {
        /// A clear straight step: the side's line through it, as a point and a direction.
        case moved(point: Point, direction: Point)
        /// In view on a step, but without one clear straight step to move to: it stays.
        case kept
        /// Too little of it in view (the frame cuts it, or it lies on the border), or on no step
        /// where it is: it follows the side across.
        case unseen
    }

    /// The side from `a` to `b` moved onto the gray step along it, where the image shows one.
    static func refinedSide(_ a: Point, _ b: Point, outward center: Point, in image: GrayImage, reach: Double, window: Int,
                            beside others: [Quadrilateral]) -> SideOutcome {
        let length = distance(a, b)
        guard length >= 20 else { return .kept }
        let u = scale(sub(b, a), 1 / length)
        var n = Point(x: -u.y, y: u.x)
        let middle = add(a, scale(sub(b, a), 0.5))
        if (middle.x - center.x) * n.x + (middle.y - center.y) * n.y < 0 { n = scale(n, -1) }
        let span = Int(reach) + window + 1
        let w = Double(image.width), h = Double(image.height)
        func inside(_ p: Point) -> Bool { p.x >= 1 && p.y >= 1 && p.x <= w - 2 && p.y <= h - 2 }
        // The steps across the side at each place in view: profile[k] is the gray k - span pixels out.
        let places = 48
        var found: [(x: Double, y: Double)] = []
        var steps: [[Double]] = []
        var along: [Double] = []
        // The document's ground just inside the search and what lies just beyond it, at each place.
        var grounds: [Double] = [], beyonds: [Double] = []
        for i in 0..<places {
            let t = 0.08 + 0.84 * Double(i) / Double(places - 1)
            let p = add(a, scale(sub(b, a), t))
            // The place and a window on either side of it in view; offsets whose windows the
            // frame cuts are not looked at (a side near the frame is searched inward only).
            guard inside(add(p, scale(n, Double(window + 1)))), inside(add(p, scale(n, Double(-window - 1)))) else { continue }
            let profile = (-span...span).map { k in
                let q = add(p, scale(n, Double(k)))
                return inside(q) ? bilinear(image, q) : .nan
            }
            var row: [Double] = []
            for o in -Int(reach)...Int(reach) {
                // Not across into another document beside this one (a card's other side across a
                // gap narrower than the reach): its edge is a step too.
                let beyond = add(p, scale(n, Double(o + window)))
                if others.contains(where: { $0.contains(beyond) }) { row.append(0); continue }
                let k = o + span
                if profile[k - window].isNaN || profile[k + window].isNaN { row.append(0); continue }
                var outside = 0.0, inner = 0.0
                for d in 1...window { outside += profile[k + d]; inner += profile[k - d] }
                row.append((outside - inner) / Double(window))
            }
            steps.append(row)
            along.append(t * length)
            let ground = add(p, scale(n, -Double(span + window))), beyond = add(p, scale(n, Double(span)))
            if inside(ground) && inside(beyond) { grounds.append(bilinear(image, ground)); beyonds.append(bilinear(image, beyond)) }
        }
        guard steps.count >= 12 else { return .unseen }
        let zero = Int(reach)
        let here = steps.reduce(0) { sum, row in sum + row[max(0, zero - window)...min(row.count - 1, zero + window)].reduce(0, +) }
        let up = steps.reduce(0) { $0 + ($1.max() ?? 0) }, down = steps.reduce(0) { $0 - ($1.min() ?? 0) }
        let flat = abs(here) < refinementStep * Double(steps.count * (2 * window + 1)) / 4
        // The side's sign is the document's ground against what lies beyond it where the two differ
        // clearly at most places (a card on a desk); else its own step where it is, or where that
        // is flat, the sign whose strongest steps add up to more.
        let across = zip(beyonds, grounds).map { $0 - $1 }.sorted()
        let ground = across.isEmpty || Double(across.count) < refinementAgreement * Double(steps.count) ? 0 : across[across.count / 2]
        let sign = abs(ground) >= refinementStep ? (ground > 0 ? 1.0 : -1.0) : flat ? (up >= down ? 1.0 : -1.0) : (here > 0 ? 1.0 : -1.0)
        // Where no clear straight step is found, the side stays only where it lies on one itself
        // (within a window of it at most places); otherwise the image does not support it.
        let onStep = steps.filter { row in row[max(0, zero - window)...min(row.count - 1, zero + window)].contains { $0 * sign >= refinementStep } }.count
        let unmoved: SideOutcome = Double(onStep) >= refinementAgreement * Double(steps.count) ? .kept : .unseen
        for (row, x) in zip(steps, along) {
            // The outermost step at least half as strong as the strongest, at its peak: a dark
            // printed line a millimeter inside a light card steps the same way as the card's edge
            // and may step more.
            let signed = row.map { $0 * sign }
            let strongest = signed.max() ?? 0
            guard strongest >= refinementStep,
                  var best = signed.indices.last(where: { signed[$0] >= max(refinementStep, strongest / 2) }) else { continue }
            while best > 0, signed[best - 1] > signed[best] { best -= 1 }
            found.append((x, Double(best) - reach))
        }
        guard let line = straightLine(through: found, of: steps.count, from: a, to: b, offsetAlong: n) else { return unmoved }
        return .moved(point: line.point, direction: line.direction)
    }

    /// The side from `a` to `b` moved onto the straight line through `found` (each place's
    /// distance along the side, and its offset along `n`), of `places` looked at: a Theil–Sen
    /// line (text or a portrait's edge at a few places does not tilt it), turned by at most 2°,
    /// with ``refinementAgreement`` of the places within 1.5 px of it; `nil` otherwise.
    static func straightLine(through found: [(x: Double, y: Double)], of places: Int, from a: Point, to b: Point,
                             offsetAlong n: Point) -> (point: Point, direction: Point, intercept: Double)? {
        let enough = refinementAgreement * Double(places)
        guard Double(found.count) >= enough, let slope = TheilSen.slope(found), abs(slope) <= tan(2 * Double.pi / 180) else { return nil }
        let intercept = TheilSen.intercept(found, slope: slope)
        guard Double(found.filter { abs($0.y - (slope * $0.x + intercept)) <= 1.5 }.count) >= enough else { return nil }
        let start = add(a, scale(n, intercept))
        let end = add(b, scale(n, slope * distance(a, b) + intercept))
        return (start, sub(end, start), intercept)
    }

    static func bilinear(_ image: GrayImage, _ p: Point) -> Double {
        let x0 = Int(p.x.rounded(.down)), y0 = Int(p.y.rounded(.down))
        let fx = p.x - Double(x0), fy = p.y - Double(y0)
        let i = y0 * image.width + x0
        let a = Double(image.pixels[i]), b = Double(image.pixels[i + 1])
        let c = Double(image.pixels[i + image.width]), d = Double(image.pixels[i + image.width + 1])
        return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
    }

    /// Where the line through `p` along `r` meets the line through `q` along `s`; `nil` when they
    /// are parallel.
    static func intersection(_ p: Point, _ r: Point, _ q: Point, _ s: Point) -> Point? {
        let cross = r.x * s.y - r.y * s.x
        guard abs(cross) > 1e-9 else { return nil }
        let t = ((q.x - p.x) * s.y - (q.y - p.y) * s.x) / cross
        return add(p, scale(r, t))
    }
}
