internal import COpenCVShim
import Foundation
import IDKitImage

// A card's other side, scanned beside it: found from the card's own outline.
extension DocumentDetector {
    /// The other side of each of the `cards` (ID-1 and ID-2 formats with an MRZ), scanned beside
    /// it: the same size, turned the same way, a few millimeters away (``otherSideStart``) to the
    /// right, left, below or above. Each place where the image shows at least
    /// ``minimumOtherSideShown`` of such a side, clipped to the image, is moved onto the edges as
    /// an outline placed from an MRZ is (``snap(_:_:keepingOut:)``, its middle kept inside it). A
    /// side the frame cuts off is put back at the card's size from the side across from it, as the
    /// corners of a document the frame cuts are (outside the image). It is a document when every
    /// side lies on edges or on the border (``minimumCutSideSupport``) and its width and height are
    /// the card's (within ``otherSideSizeTolerance``); of a card's four places, the best supported.
    /// The card's size is its MRZ's where its outline is more than ``otherSideScaleTolerance`` off
    /// it. An outline with a corner on the card or within ``otherSideClearance`` of it took the
    /// card's own edge for a side (as has one whose side facing the card crosses the card's edge) and is
    /// confirmed again from there, off the card, as is one whose side facing the card has the gap
    /// between them inside it (``stepsAgainstCard(_:_:_:)``); where none is found, or where a side
    /// lies on print inside the card (``hasSideOnPrint(_:_:beside:)``), the side the frame crops is
    /// placed from the card (``croppedOtherSide(_:_:_:_:)``), and the doubtful outline is kept only
    /// where that finds nothing (and then after a card's places without doubt).
    /// This finds the side that lies against its card, whose shared edge the search for cut
    /// outlines erases with the card's.
    func otherSides(edges: Edges, beside cards: [DetectedDocument]) -> [DetectedDocument] {
        let x0 = Double(edges.x), y0 = Double(edges.y), x1 = x0 + Double(edges.width), y1 = y0 + Double(edges.height)
        let frame = Quadrilateral(topLeft: Point(x: x0, y: y0), topRight: Point(x: x1, y: y0), bottomRight: Point(x: x1, y: y1), bottomLeft: Point(x: x0, y: y1))
        func clamped(_ p: Point) -> Point { Point(x: min(max(p.x, x0), x1), y: min(max(p.y, y0), y1)) }
        struct Place {
            var card: Int, across: Point, down: Point, corners: [Point], step: Point, millimeters: Double
            /// ``otherSideClearance`` in pixels.
            var clearance: Double { DocumentDetector.otherSideClearance * hypot(step.x, step.y) / millimeters }
        }
        var placed: [[Point]] = [], cores: [[Point]] = [], places: [Place] = []
        for (k, card) in cards.enumerated() where card.band != nil && (card.format == .td1 || card.format == .td2) {
            guard let mm = card.format.millimeters else { continue }
            let c = card.corners.corners
            var across = Self.scale(Self.add(Self.sub(c[1], c[0]), Self.sub(c[2], c[3])), 0.5)
            var down = Self.scale(Self.add(Self.sub(c[3], c[0]), Self.sub(c[2], c[1])), 0.5)
            // The card's size from its MRZ, 2.54 mm a character (ICAO 9303-3 §4.2), where the
            // outline's width is more than ``otherSideScaleTolerance`` off it: the outline took
            // a gap or a neighbour's edge for a side, and the other side's far edge, put back at
            // the card's size where the frame cuts it, would carry the whole error. Within it the
            // outline, which measures the card itself (on the real green card of the specimens
            // the MRZ gives a width 1.1% short).
            if let band = card.band, let first = band.lines.first, band.lineLength > 1 {
                let perMillimeter = Self.distance(first.start, first.end) / (Double(band.lineLength - 1) * 2.54)
                if abs(log(hypot(across.x, across.y) / (mm.width * perMillimeter))) > Self.otherSideScaleTolerance {
                    across = Self.scale(Self.unit(across), mm.width * perMillimeter)
                    down = Self.scale(Self.unit(down), mm.height * perMillimeter)
                }
            }
            // Right, left, below, above.
            let steps = [(across, mm.width), (Self.neg(across), mm.width), (down, mm.height), (Self.neg(down), mm.height)]
            for (step, length) in steps {
                let shift = Self.scale(step, 1 + Self.otherSideStart / length)
                let side = c.map { Self.add($0, shift) }
                // The share of the side in the image.
                let whole = Quadrilateral(side)
                guard Self.sharedArea(whole, frame) >= Self.minimumOtherSideShown * whole.area else { continue }
                let clipped = side.map(clamped), center = Self.centroid(clipped)
                placed.append(clipped)
                cores.append(clipped.map { Self.add(center, Self.scale(Self.sub($0, center), 0.5)) })
                places.append(Place(card: k, across: across, down: down, corners: c, step: step, millimeters: length))
            }
        }
        // The side as found: its sides on the border put back at the card's size, its width and
        // height the card's.
        func accepted(_ found: Outline, _ place: Place) -> DetectedDocument? {
            var outline = found
            // Sides on the border (top, right, bottom, left as placed) put back at the card's size.
            var p = outline.points
            // A side snapped onto the border lies up to one pixel of the edges inside it.
            let cut = (0..<4).map { edges.alongBorder(p[$0], p[($0 + 1) % 4], within: 1.5 * edges.pixel) }
            for s in 0..<4 where cut[s] && !cut[(s + 2) % 4] {
                let o = (s + 2) % 4, step = s == 0 ? Self.neg(place.down) : s == 1 ? place.across : s == 2 ? place.down : Self.neg(place.across)
                // The side across, moved by the card's width or height: corners s and s+1 slide
                // along their other sides to it.
                let a = Self.add(p[(o + 1) % 4], step), b = Self.add(p[o], step)
                guard let first = Self.meet(p[(s + 3) % 4], p[s], a, b), let second = Self.meet(p[(s + 2) % 4], p[(s + 1) % 4], a, b) else {
                    return nil
                }
                p[s] = first
                p[(s + 1) % 4] = second
            }
            let width = (Self.distance(p[0], p[1]) + Self.distance(p[3], p[2])) / 2
            let height = (Self.distance(p[0], p[3]) + Self.distance(p[1], p[2])) / 2
            let cardWidth = hypot(place.across.x, place.across.y), cardHeight = hypot(place.down.x, place.down.y)
            // An outline that took the card's own edge for the side facing it is the gap wider or
            // taller than the card (2.3% of an ID-1 card's width at 2 mm).
            guard abs(width / cardWidth - 1) <= Self.otherSideSizeTolerance, abs(height / cardHeight - 1) <= Self.otherSideSizeTolerance
            else { return nil }
            outline.points = p
            guard let d = Self.oriented(outline, band: nil), d.widthHeightRatio >= 1.3, d.widthHeightRatio <= 1.75 else { return nil }
            return d
        }
        func clear(_ points: [Point], of place: Place) -> Bool { Self.clear(points, of: place.corners, margin: place.clearance) }
        var best: [Int: (sure: Bool, support: Double, document: DetectedDocument)] = [:]
        for (snapped, place) in zip(snap(edges, placed, keepingOut: cores), places) {
            var found = snapped.flatMap { $0.weakestSide >= Self.minimumCutSideSupport ? $0 : nil }
            // An outline that took the card's own edge for the side facing it: that side looked
            // for again beyond the card, within 1.5% of the diagonal, each side free to turn. One
            // with the gap inside it is looked for again the same way; one that still has the gap
            // inside it, or a side on print inside the card (a portrait's edge, the card's margin
            // beyond it), is doubtful: kept only where nothing else is found.
            var doubtful: Outline?
            if let s = found, !clear(s.points, of: place) {
                found = confirmed(edges, placed: s.points, reach: 0.015, sibling: true, beside: place.corners, margin: place.clearance)
                    .flatMap { clear($0.points, of: place) ? $0 : nil }
                if let s = found, Self.stepsAgainstCard(edges, s.points, place.corners) {
                    doubtful = s
                    found = nil
                }
            } else if let s = found, Self.stepsAgainstCard(edges, s.points, place.corners) {
                doubtful = s
                found = confirmed(edges, placed: s.points, reach: 0.015, sibling: true, beside: place.corners, margin: place.clearance)
                    .flatMap { clear($0.points, of: place) && !Self.stepsAgainstCard(edges, $0.points, place.corners) ? $0 : nil }
            }
            if let s = found, Self.hasSideOnPrint(edges, s.points, beside: place.corners) {
                doubtful = doubtful ?? s
                found = nil
            }
            var document = found.flatMap { accepted($0, place) }
            if document == nil {
                found = croppedOtherSide(edges, place.corners, place.step, place.millimeters)
                document = found.flatMap { accepted($0, place) }
            }
            var sure = true
            if document == nil, let s = doubtful {
                found = s
                document = accepted(s, place)
                sure = false
            }
            guard let found, let document else { continue }
            // Of a card's places, one found without doubt first, then the best supported.
            if best[place.card].map({ sure == $0.sure ? found.support > $0.support : sure }) ?? true {
                best[place.card] = (sure, found.support, document)
            }
        }
        return best.keys.sorted().compactMap { best[$0]?.document }
    }

    /// The other side of the card `corners` the frame crops (a scan cut close around the two
    /// sides): the card moved by its own size and a gap along `step` (its width or height, `length`
    /// millimeters), confirmed by the image as an MRZ's placement is (``confirmed(_:placed:reach:sibling:beside:margin:faintSideByShape:)``),
    /// at a gap of 1.5 and of 3.5 mm, each looked for within 1% of the diagonal; the better shown,
    /// with a side on the border. The snapping looks for every side on edges and, where three lie
    /// on the frame, settles on the print inside.
    func croppedOtherSide(_ edges: Edges, _ corners: [Point], _ step: Point, _ length: Double) -> Outline? {
        var best: (against: Bool, outline: Outline)?
        // Along the image's axis nearest the step: each side lies turned on its own, and moved along
        // the card's slant the other side would drift by it across the step (1.5 degrees across
        // an ID-1 card's width is 2.6% of its height).
        let size = hypot(step.x, step.y)
        let axis = abs(step.x) >= abs(step.y) ? Point(x: step.x < 0 ? -size : size, y: 0) : Point(x: 0, y: step.y < 0 ? -size : size)
        for gap in [1.5, 3.5] {
            let shift = Self.scale(axis, 1 + gap / length)
            guard let outline = confirmed(edges, placed: corners.map { Self.add($0, shift) }, reach: 0.01, sibling: true), outline.cutSides != 0 else { continue }
            let against = Self.stepsAgainstCard(edges, outline.points, corners)
            if best.map({ against == $0.against ? outline.support > $0.outline.support : !against }) ?? true { best = (against, outline) }
        }
        return best?.outline
    }

    /// Whether no point lies inside the outline `card` or within `margin` pixels of it, and the side
    /// of `points` facing the card leaves every corner of it `margin` or more beyond its line: a side
    /// that crosses the card's edge (turned against it, its ends beyond the card's corners) took
    /// that edge for its own.
    static func clear(_ points: [Point], of card: [Point], margin: Double) -> Bool {
        guard points.allSatisfy({ p in !contains(card, p) && (0..<4).allSatisfy { segmentDistance(p, card[$0], card[($0 + 1) % 4]) >= margin } }) else { return false }
        let facing = facingSide(of: points, toward: card)
        let f = points[facing], n = outwardNormal(f, points[(facing + 1) % 4], centroid(points))
        return card.allSatisfy { dot(sub($0, f), n) >= margin }
    }

    /// The side of the quadrilateral `q` (from corner s to s + 1) whose outward normal points most
    /// nearly at the middle of `other`.
    static func facingSide(of q: [Point], toward other: [Point]) -> Int {
        let center = centroid(q), to = sub(centroid(other), center)
        func toward(_ s: Int) -> Double { dot(outwardNormal(q[s], q[(s + 1) % 4], center), to) }
        return (0..<4).max { toward($0) < toward($1) }!
    }

    /// Whether the side of `points` facing the card `card` took the card's edge beyond the gap
    /// between them for its own, the gap inside it: a scan cropped close around the two sides
    /// shows no background elsewhere to tell which of the gap's two edges is whose.
    /// - The two sides step against the gap opposite ways (``idk_side_contrast``): the card lighter
    ///   than what lies beyond its side and this one darker inside than beyond, or the other way
    ///   round, by ``minimumCardStep`` or more at the card. Then one of the two lies on the other's
    ///   edge.
    /// - This one is the wrong one when the gray just inside it differs more from its interior's
    ///   ground than the card's does from the card's (``idk_side_ground_step``): the card's outline
    ///   may have taken this side's edge instead.
    static func stepsAgainstCard(_ edges: Edges, _ points: [Point], _ card: [Point]) -> Bool {
        func flat(_ q: [Point]) -> [Double] { q.flatMap { [$0.x - Double(edges.x), $0.y - Double(edges.y)] } }
        let cardSide = facingSide(of: card, toward: points), side = facingSide(of: points, toward: card)
        let expected = idk_side_contrast(edges.handle, flat(card), Int32(cardSide))
        guard abs(expected) >= minimumCardStep else { return false }
        let step = idk_side_contrast(edges.handle, flat(points), Int32(side))
        guard !step.isNaN, step * (expected > 0 ? 1 : -1) < 0 else { return false }
        let inside = abs(idk_side_ground_step(edges.handle, flat(points), Int32(side), 2))
        let cardInside = abs(idk_side_ground_step(edges.handle, flat(card), Int32(cardSide), 2))
        return inside > cardInside
    }
    /// Whether a side of `points` inside the image lies on print inside the document rather than
    /// on its edge: the document's ground beyond it (within ``groundTolerance`` of its interior's
    /// median gray) and print along it inside (``minimumPrintStep`` or more from that median), as
    /// along a portrait's edge with the card's margin beyond (``idk_side_ground_step``). The side
    /// facing the card `beside` is not judged: across a gap of half a millimeter the card's own
    /// ground lies beyond it.
    static func hasSideOnPrint(_ edges: Edges, _ points: [Point], beside card: [Point]) -> Bool {
        let flat = points.flatMap { [$0.x - Double(edges.x), $0.y - Double(edges.y)] }, facing = facingSide(of: points, toward: card)
        return (0..<4).contains { s in
            guard s != facing else { return false }
            let inside = idk_side_ground_step(edges.handle, flat, Int32(s), 2), outside = idk_side_ground_step(edges.handle, flat, Int32(s), -2)
            return abs(outside) <= groundTolerance && abs(inside) >= minimumPrintStep
        }
    }
    /// How far from its interior's median gray the gray just beyond a side may be for the side to
    /// have the document's own ground beyond it (gray levels; ``hasSideOnPrint(_:_:beside:)``).
    static let groundTolerance = 10.0
    /// How far from its interior's median gray the gray just inside a side must be for print to run
    /// along it there (``hasSideOnPrint(_:_:beside:)``).
    static let minimumPrintStep = 30.0

    /// The least step (gray levels) between a card and the gap beside it for the side of its other
    /// side facing it to be held to the same step (``stepsAgainstCard(_:_:_:)``).
    static let minimumCardStep = 25.0

    /// Where the line through `a` and `b` meets the line through `c` and `d`; `nil` when they are
    /// parallel.
    static func meet(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Point? {
        let r = sub(b, a), s = sub(d, c), cross = r.x * s.y - r.y * s.x
        guard abs(cross) > 1e-9 else { return nil }
        let t = ((c.x - a.x) * s.y - (c.y - a.y) * s.x) / cross
        return add(a, scale(r, t))
    }

    /// How far a card's other side, as found, may differ from the card in width and in height (a
    /// share of the card's): both sides are one card's, found with the outlines' own error.
    static let otherSideSizeTolerance = 0.04
    /// The gap between a card's two sides scanned side by side where the search for the other side
    /// starts, in millimeters (the snapping moves each side up to 2.5% of the diagonal from there).
    static let otherSideStart = 2.0
    /// How near a card's other side may come to the card, in millimeters: the two lie 0.5 mm apart
    /// or more, and an outline nearer took the card's own edge for its side.
    static let otherSideClearance = 0.25
    /// How far a card's outline may be from the width its MRZ gives (the log of the ratio) and
    /// still size its other side.
    static let otherSideScaleTolerance = 0.015
    /// The smallest share of a card's other side the image must show for it to be looked for.
    static let minimumOtherSideShown = 0.6
}
