internal import COpenCVShim
import Foundation
import IDKitImage
import IDKitMRZ
import IDKitMRZReading

// Outlines placed from an MRZ moved onto the image's edges, and what they must keep clear of.
extension DocumentDetector {
    /// The share of its worst side that an outline snapped from an MRZ's placement must have on
    /// edges to be taken as seen: a side on nothing is where the placement put it, not where the
    /// image shows an edge (the document's corners are then `null`, not an estimate).
    static let minimumSnappedSide = 0.5
    /// The share on edges that does for a side of an outline with the format's shape
    /// (``hasFormatShape(_:)``): a page's faint side, visible along a third of it where the rest
    /// lies under a scanner lid's shadow or on a pattern of the page's own gray, is where the
    /// format puts it from the three sides seen. (The snapping takes such a side where it is
    /// shown along a third of its length; measured again on the finished outline, whose corners
    /// moved by a fraction of a pixel, it comes out a point or two lower.)
    static let minimumFaintSide = 0.3

    /// Whether an outline's width over height is within 1.5% of its format's (ICAO 9303: TD1
    /// 85.60 × 53.98 mm, TD2 105 × 74, TD3 125 × 88).
    static func hasFormatShape(_ d: DetectedDocument) -> Bool {
        guard let nominal = d.format.nominalRatio else { return false }
        return abs(log(d.widthHeightRatio / nominal)) <= 0.015
    }

    /// Each outline moved onto the image's edges (``idk_snap_quad``, the edges found once), `nil`
    /// where no side lines up with edges.
    /// No side is moved through `keepingOut[k]` (four points: the MRZ with its margin).
    package func snap(_ edges: Edges, _ outlines: [[Point]], keepingOut: [[Point]]) -> [Outline?] {
        guard !outlines.isEmpty else { return [] }
        let x0 = Double(edges.x), y0 = Double(edges.y)
        var corners = outlines.flatMap { $0.flatMap { [$0.x - x0, $0.y - y0] } }
        let keep = keepingOut.flatMap { $0.flatMap { [$0.x - x0, $0.y - y0] } }
        var support = [Double](repeating: 0, count: outlines.count), weakest = support
        var error = [CChar](repeating: 0, count: 256)
        let status = idk_snap_quads(edges.handle, Int32(outlines.count), &corners, keep, 0.05, &support, &weakest, &error, error.count)
        guard status == 0 else { return outlines.map { _ in nil } }
        return outlines.indices.map { k in
            support[k] >= 0.5 ? Outline(points: (0..<4).map { Point(x: corners[8 * k + 2 * $0] + x0, y: corners[8 * k + 2 * $0 + 1] + y0) },
                                        support: support[k], weakestSide: weakest[k]) : nil
        }
    }

    /// How far a side of the format's placement may lie from the document's edge for
    /// ``confirmed(_:placed:reach:sibling:beside:margin:faintSideByShape:)`` to find it, as a share of the outline's diagonal.
    static let confirmationReach = 0.006

    /// The least share on edges of the one faint side that ``confirmed(_:placed:reach:sibling:beside:margin:faintSideByShape:)``
    /// takes from the format's shape: on the generated flatscan pages of a background 3-12 gray
    /// levels from the page's edge, the faint side of a right outline is shown along 24-26%.
    static let minimumShapedSide = 0.2
    /// The least share of each of the three other sides there.
    static let minimumOtherSides = 0.35
    /// How far the width-to-height ratio of such an outline may be from the placement's (the log of
    /// the ratio of the two).
    static let shapeTolerance = 0.015

    /// The mean length of the top and bottom sides over the mean of the left and right ones.
    static func widthOverHeight(_ q: [Point]) -> Double {
        (distance(q[0], q[1]) + distance(q[3], q[2])) / max(1e-9, distance(q[0], q[3]) + distance(q[1], q[2]))
    }

    /// The share on edges that the only side seen of a placement confirmed at the image's border
    /// must have: on the real green card (018) that fills its frame, a placement one pitch short
    /// finds print along 53% of its one side inside the frame.
    static let minimumLoneSide = 0.6

    /// How far outside the image a side of the format's placement may lie and still be taken for
    /// the image's border, as a share of the placement's diagonal (``bordersAllowed(_:placed:within:)``).
    static let borderTolerance = 0.0125
    /// How far inside the image a side of the placement may lie and be taken for the border where
    /// the image shows nothing along it, as a share of the diagonal, and at least
    /// ``borderInsidePixels`` of the edge image: a card's edge a few pixels from the frame is lost
    /// in the edge search's margin at the frame (3 px, and 2.5 px along a border).
    static let borderInside = 0.0075
    static let borderInsidePixels = 4.0

    /// The format's outline placed from an MRZ, confirmed by the image (``idk_confirm_placed``):
    /// every side within `reach` (0.6%) of its diagonal of where it was placed, on edges or one
    /// step of the gray along ``minimumFaintSide`` of it or more (``minimumLoneSide`` for the only
    /// one seen) (one side may be found instead where the
    /// format's ratio puts it from the three others: the MRZ gives the page's scale a percent or
    /// two off on some prints), or at the image's border: on or beyond it, within
    /// ``borderTolerance`` outside or ``borderInside`` inside (a scan cropped to the card, or the
    /// frame cutting a sliver off it); at least one side seen. The snapping's search reaches 5%
    /// and, beside a page's faint sides under a scanner lid, settles on a header line, a
    /// portrait's edge or the other side of a card across the gap; an outline in the format's shape
    /// that the image shows where the MRZ puts it is the document. `nil` otherwise.
    /// For a card's other side (`sibling`), each side may also turn by up to 2 degrees, and a side
    /// the frame cuts may lie anywhere beyond it (the card's size puts it there, not an MRZ).
    /// A side facing `beside` (the card whose other side it is) is looked for only where it leaves
    /// that card `margin` pixels or more outside.
    /// With `faintSideByShape` (where the snapping saw no outline with every side on edges), one side
    /// shown along ``minimumShapedSide`` to ``minimumFaintSide`` of it does, when the three others
    /// are shown along ``minimumOtherSides`` or more and the outline keeps the placement's width to
    /// height within ``shapeTolerance``: a page on a background of nearly its own shade, whose
    /// faintest side the format's ratio puts where the image shows a quarter of it.
    package func confirmed(_ edges: Edges, placed: [Point], reach: Double = confirmationReach, sibling: Bool = false,
                           beside: [Point]? = nil, margin: Double = 0, faintSideByShape: Bool = false) -> Outline? {
        let x0 = Double(edges.x), y0 = Double(edges.y)
        var corners = placed.flatMap { [$0.x - x0, $0.y - y0] }
        var shares = [Double](repeating: 0, count: 4)
        var cut: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        let card = beside.map { $0.flatMap { [$0.x - x0, $0.y - y0] } }
        let status = card.map { idk_confirm_placed(edges.handle, &corners, reach, sibling ? 2 : 0, $0, margin, &shares, &cut, &error, error.count) }
            ?? idk_confirm_placed(edges.handle, &corners, reach, sibling ? 2 : 0, nil, 0, &shares, &cut, &error, error.count)
        guard status == 0 else { return nil }
        let diagonal = Self.distance(placed[0], placed[2])
        let inside = max(Self.borderInside * diagonal, Self.borderInsidePixels * edges.pixel)
        var seen: [Double] = [], atBorder = 0
        for s in 0..<4 {
            let outside = edges.outside(Self.middle(placed[s], placed[(s + 1) % 4]))
            if (cut >> s) & 1 == 1 || (shares[s] < Self.minimumFaintSide && outside >= -inside) {
                guard sibling || outside <= Self.borderTolerance * diagonal else { return nil }
                atBorder |= 1 << s
            } else {
                seen.append(shares[s])
            }
        }
        guard let weakest = seen.min() else { return nil }
        let found = (0..<4).map { Point(x: corners[2 * $0] + x0, y: corners[2 * $0 + 1] + y0) }
        // The one faint side of an outline in the format's shape, where nothing else is seen.
        let shaped = faintSideByShape && seen.count == 4 && weakest >= Self.minimumShapedSide
            && seen.filter({ $0 < Self.minimumOtherSides }).count == 1
            && abs(log(Self.widthOverHeight(found) / Self.widthOverHeight(placed))) <= Self.shapeTolerance
        guard weakest >= (seen.count == 1 ? Self.minimumLoneSide : Self.minimumFaintSide) || shaped else { return nil }
        return Outline(points: found, support: seen.reduce(0, +) / Double(seen.count), weakestSide: weakest, cutSides: atBorder)
    }

    /// Where the image shows the MRZ's placement nowhere (``confirmed(_:placed:reach:sibling:beside:margin:faintSideByShape:)``),
    /// the same placement moved along the document's height by ``placementShiftStep`` up to
    /// ``placementShifts`` times either way and confirmed from there: issuers print the MRZ's last
    /// line 5–11 mm above the document's bottom edge (7–11 mm on the real TD3 specimens), and the
    /// confirmation reaches about a millimeter (0.6% of the diagonal) from the format's nominal
    /// place. Of the positions shown, the one whose four sides lie on edges along the most of
    /// them (a side on the border counting none: moved onto the frame, a side shows nothing), with
    /// the MRZ where the format puts it. Only on a flat view, the band's two ends within
    /// ``flatViewTolerance`` of one height: under perspective the placement, an affine map from
    /// the MRZ, is off by more than a shift mends (on the other generator's photos 030 and 035,
    /// 2–3% off). `nil` where none is shown.
    func shiftedPlacement(_ edges: Edges, _ placed: DetectedDocument, band: MRZBand, faintSideByShape: Bool) -> DetectedDocument? {
        let q = band.quad.corners
        guard let size = placed.format.millimeters,
              abs(Self.distance(q[1], q[2]) / max(1e-9, Self.distance(q[0], q[3])) - 1) <= Self.flatViewTolerance else { return nil }
        let c = placed.corners.corners
        let millimeter = Self.scale(Self.unit(Self.sub(c[3], c[0])), Self.distance(c[0], c[3]) / size.height)
        var best: (document: DetectedDocument, score: Double)?
        for k in 1...Self.placementShifts {
            for sign in [-1.0, 1.0] {
                let shift = Self.scale(millimeter, sign * Double(k) * Self.placementShiftStep)
                guard let outline = confirmed(edges, placed: c.map { Self.add($0, shift) }, faintSideByShape: faintSideByShape),
                      let d = Self.document(outline, band: band), d.band != nil else { continue }
                let score = outline.support * Double(4 - outline.cutSides.nonzeroBitCount) / 4
                if best.map({ score > $0.score }) ?? true { best = (d, score) }
            }
        }
        return best?.document
    }

    /// The step of ``shiftedPlacement(_:_:band:faintSideByShape:)``, in millimeters (within the
    /// confirmation's reach of every place between two steps).
    static let placementShiftStep = 1.0
    /// How many steps ``shiftedPlacement(_:_:band:faintSideByShape:)`` takes either way.
    static let placementShifts = 3
    /// How far the heights of the MRZ band's two ends may differ (a share of one) on a flat view:
    /// 0.1–0.5% on the generated flatbed scans and the real specimens' scans, 2–3.4% on the other
    /// generator's photos taken at an angle.
    static let flatViewTolerance = 0.01

    /// Whether the left and right sides of a snapped outline (in reading order, as placed) that lie
    /// on the image's border may be the document's edges: only where the outline the format places
    /// from the MRZ puts that side no further than 1.25% of its diagonal outside the image. A scan
    /// cropped to a card or page has its sides on the border, and the MRZ, centered across the
    /// document (ICAO 9303-3 §4.2), places them there within the issuers' print tolerance (under
    /// 0.6% of the diagonal on the real specimens); a scan cropped inside the page places them
    /// 1–2% beyond it, and there the border is the frame, not the document: no outline is seen.
    /// (A side placed well inside the image is never snapped onto the border: ``idk_snap_quads``.)
    package static func bordersAllowed(_ snapped: [Point], placed: [Point], within edges: Edges) -> Bool {
        let diagonal = distance(placed[0], placed[2])
        let near = max(2, 0.005 * diagonal)
        for s in [1, 3] {
            guard edges.alongBorder(snapped[s], snapped[(s + 1) % 4], within: near) else { continue }
            if edges.outside(middle(placed[s], placed[(s + 1) % 4])) > borderTolerance * diagonal { return false }
        }
        return true
    }

    /// The MRZ with the margin no document edge comes within: the band's box (half a pitch beyond
    /// the end characters' centers, half a character above and below the lines) widened by a
    /// quarter character, and along the lines to ``sideClearance(_:)`` from the end characters'
    /// centers. The real specimens leave 1.5–3.3 pitches between the end characters' centers and
    /// the document's sides, and 3–4 mm below the last line.
    package static func keepOut(_ band: MRZBand) -> [Point] {
        let q = band.quad
        let along = unit(sub(q.topRight, q.topLeft)), across = unit(sub(q.bottomLeft, q.topLeft))
        let dx = (sideClearance(band.format) - 0.5) * band.pitch, dy = 0.25 * band.characterHeight
        func moved(_ p: Point, _ sx: Double, _ sy: Double) -> Point {
            Point(x: p.x + sx * dx * along.x + sy * dy * across.x, y: p.y + sx * dx * along.y + sy * dy * across.y)
        }
        return [moved(q.topLeft, -1, -1), moved(q.topRight, 1, -1), moved(q.bottomRight, 1, 1), moved(q.bottomLeft, -1, 1)]
    }

    /// The least distance, in pitches, from an end character's center to the document's side
    /// next to it: the least the real specimens of `../shared/testdata/mrz-real` print, less half a
    /// pitch for an outline's own error (the first character's center 5.7 mm from the left edge on
    /// TD3 pages, 2.2 pitches; 3.9 mm on TD1 cards and 4.0 on the MRV-A visa, 1.5 pitches; the last
    /// one's farther from the right). TD2 cards (8.5 mm, 3.3 pitches, on the two specimens) and
    /// MRV-B visas (none among them) get the passport's. A side nearer the MRZ is a line of print
    /// beside it, a portrait's edge or the frame.
    static func sideClearance(_ format: MRZFormat) -> Double {
        switch format {
        case .td1, .mrvA: 1.0
        default: 1.7
        }
    }

    /// Whether every side of the convex outline `corners` passes outside every point of `keep`.
    static func clears(_ corners: [Point], _ keep: [Point]) -> Bool {
        keep.allSatisfy { contains(corners, $0) }
    }
}
