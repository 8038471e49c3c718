import Foundation
import IDKitImage
import IDKitMRZ

// The band's homography: from its corners, then fitted to every character center at its position.
extension MRZLineReader {
    /// The band's homography from the template-scale strip to the image, with where the first
    /// character's center and the line spacing stand in the strip.
    typealias Rectification = (transform: Homography, left: Double, top: Double, spacing: Double, cells: [[Cell]])

    /// A character center found on a line, with the position it stands at (``cells(_:)``).
    typealias Cell = (index: Int, center: Point)

    /// The band rectified: a homography from the template-scale band (character i of line k
    /// centered at `left + i·w`, `top + k·spacing`) to the image. One homography for the whole
    /// band, so that perspective shortens the pitch along a line as it does in the image; each
    /// line's strip is a horizontal slice of it. It starts affine (the last line's end placed by
    /// the other three corners: a four-corner perspective from two close lines swings wildly on a
    /// pixel of error), then the fit to all character centers adds the perspective there is.
    static func rectification(_ band: MRZBand) -> Rectification? {
        let w = Double(OCRBClassifier.width), h = Double(OCRBClassifier.height), pad = Double(Self.pad)
        let corners = centerCorners(band)
        let left = pad + w / 2, right = pad + Double(band.lineLength - 1) * w + w / 2, top = pad + h / 2
        let spacing = lineSpacing(band, corners)
        let last = Double(band.lines.count - 1) * spacing
        let rect = [Point(x: left, y: top), Point(x: right, y: top), Point(x: right, y: top + last), Point(x: left, y: top + last)]
        let affine = [corners[0], corners[1], Point(x: corners[1].x + corners[3].x - corners[0].x,
                                                    y: corners[1].y + corners[3].y - corners[0].y), corners[3]]
        guard let initial = Homography(from: rect, to: affine) else { return nil }
        let cells = cells(band)
        let transform = fitted(cells, left: left, top: top, spacing: spacing) ?? initial
        return (transform, left, top, spacing, cells)
    }

    /// The band's homography fitted to every character center found, each at its position in its
    /// line (``cells(_:)``): a least-squares fit, and once more without the centers it misses by a third of a pitch (two
    /// characters merged into one component, a speck). Four corners alone leave the perspective
    /// of two close lines poorly determined; dozens of centers do not.
    static func fitted(_ lines: [[Cell]], left: Double, top: Double, spacing: Double) -> Homography? {
        let w = Double(OCRBClassifier.width)
        var from: [Point] = [], to: [Point] = []
        for (k, cells) in lines.enumerated() {
            let lineY = top + Double(k) * spacing
            for cell in cells {
                from.append(Point(x: left + Double(cell.index) * w, y: lineY))
                to.append(cell.center)
            }
        }
        guard from.count >= 12, var fit = Homography(fitting: from, to: to) else { return nil }
        guard let back = Homography(fitting: to, to: from) else { return fit }
        let keep = from.indices.filter { hypot(back.apply(to[$0]).x - from[$0].x, back.apply(to[$0]).y - from[$0].y) < w / 3 }
        // When a third of the centers miss the fit, the walk lost count (characters broken into
        // strokes a pitch apart on thin print): the band's corners are the better guide.
        guard 5 * keep.count >= 4 * from.count else { return nil }
        if keep.count < from.count, keep.count >= 12, let refit = Homography(fitting: keep.map { from[$0] }, to: keep.map { to[$0] }) {
            fit = refit
        }
        return fit
    }

    /// Each line's character centers found, with the position each stands at in its line
    /// (empty for a line whose walk lost count). The position comes from walking the chain of
    /// components: the gap to the next one, over the local pitch (which perspective and a bent
    /// page change slowly), is how many positions it advances.
    static func cells(_ band: MRZBand) -> [[(index: Int, center: Point)]] {
        aligned(walked(band), lineLength: band.lineLength)
    }

    /// Each line's walk on its own, from the common start projected on it.
    static func walked(_ band: MRZBand) -> [[(index: Int, center: Point)]] {
        let n = band.lineLength
        let corners = centerCorners(band)
        return band.lines.enumerated().map { k, line -> [(index: Int, center: Point)] in
            let centers = line.componentCenters
            guard centers.count >= 2 else { return [] }
            // The line's own start: the common extent's start projected on this line.
            let start = k == 0 ? corners[0] : (k == band.lines.count - 1 ? corners[3]
                : Point(x: corners[0].x + (corners[3].x - corners[0].x) * Double(k) / Double(band.lines.count - 1),
                        y: corners[0].y + (corners[3].y - corners[0].y) * Double(k) / Double(band.lines.count - 1)))
            var pitch = band.pitch
            var index = Int((hypot(centers[0].x - start.x, centers[0].y - start.y) / pitch).rounded())
            // Thin or faded print breaks characters into strokes: a component within 0.3 pitch
            // of the cell before is part of its character (their centers averaged); one 0.3-0.7
            // pitch off every cell (a stroke of a character split in two, a speck) is left out
            // rather than counted as a character, which would push every later one a cell on.
            var cells: [(index: Int, sum: Point, count: Double)] = [(index, centers[0], 1)]
            for j in 1..<centers.count {
                let last = cells[cells.count - 1], anchor = Point(x: last.sum.x / last.count, y: last.sum.y / last.count)
                let gap = hypot(centers[j].x - anchor.x, centers[j].y - anchor.y)
                let ratio = gap / pitch, step = Int(ratio.rounded())
                if ratio < 0.3 {
                    cells[cells.count - 1] = (last.index, Point(x: last.sum.x + centers[j].x, y: last.sum.y + centers[j].y), last.count + 1)
                    continue
                }
                guard abs(ratio - Double(step)) <= 0.3 else { continue }
                index += step
                cells.append((index, centers[j], 1))
                pitch = 0.8 * pitch + 0.2 * (gap / Double(step))
            }
            // A walk that overruns the line by no more than the positions it started in was
            // counted right from a start placed too far in: on a bent page the lines' ends curve
            // away from the first line's direction, and the common start projected from another
            // line falls half a pitch before this line's first character.
            let over = cells.last!.index - (n - 1)
            let shift = over > 0 && over <= cells[0].index ? over : 0
            // A walk that overruns the line otherwise lost count somewhere: leave this line out.
            guard cells.last!.index - shift < n else { return [] }
            return cells.map { ($0.index - shift, Point(x: $0.sum.x / $0.count, y: $0.sum.y / $0.count)) }
        }
    }

    /// The lines' positions counted alike: the zone's lines start level (ICAO 9303-3 §4.1), so
    /// character i of every line stands in one column, across the lines. A line whose walk
    /// started a position early or late (its start projected from a line that bends away, its
    /// first characters too faint to be components) has its columns slanted by a pitch over the
    /// line spacing (23° on a passport, 30° on a card), where the print's own slant under
    /// perspective stays within a few degrees: each line is moved by the offset (up to two
    /// positions either way) whose columns stand most nearly across the first line, and then all
    /// together so that none runs past the zone's ends.
    static func aligned(_ lines: [[(index: Int, center: Point)]], lineLength n: Int) -> [[(index: Int, center: Point)]] {
        guard lines.count > 1, lines[0].count >= 10 else { return lines }
        let reference = Dictionary(lines[0].map { ($0.index, $0.center) }, uniquingKeysWith: { a, _ in a })
        let first = lines[0][0].center, last = lines[0][lines[0].count - 1].center
        func direction(at i: Int) -> Point {
            let a = reference[i - 1] ?? reference[i] ?? first, b = reference[i + 1] ?? reference[i] ?? last
            let (dx, dy) = a == b ? (last.x - first.x, last.y - first.y) : (b.x - a.x, b.y - a.y)
            let length = max(1e-9, hypot(dx, dy))
            return Point(x: dx / length, y: dy / length)
        }
        /// Mean |cos| of the angle between the columns and the first line: 0 when they stand across it.
        func slant(_ line: [(index: Int, center: Point)], _ offset: Int) -> Double? {
            var sum = 0.0, count = 0
            for cell in line {
                guard let r = reference[cell.index - offset] else { continue }
                let vx = cell.center.x - r.x, vy = cell.center.y - r.y, length = hypot(vx, vy)
                guard length > 0 else { continue }
                let u = direction(at: cell.index - offset)
                sum += abs(vx * u.x + vy * u.y) / length
                count += 1
            }
            return count >= 5 ? sum / Double(count) : nil
        }
        var out = lines
        for k in 1..<lines.count where lines[k].count >= 5 {
            let scored = (-2...2).compactMap { d in slant(lines[k], d).map { (d, $0) } }
            guard let best = scored.min(by: { $0.1 < $1.1 }), best.0 != 0 else { continue }
            out[k] = lines[k].map { ($0.index - best.0, $0.center) }
        }
        let low = out.compactMap { $0.first?.index }.min() ?? 0, high = out.compactMap { $0.last?.index }.max() ?? 0
        let move = low < 0 ? -low : (high > n - 1 ? (n - 1) - high : 0)
        guard high - low <= n - 1 else { return lines }
        return move == 0 ? out : out.map { $0.map { ($0.index + move, $0.center) } }
    }

    /// Centers of the first and last characters of the first and last lines (top-left, top-right,
    /// bottom-right, bottom-left), over the extent common to all lines: a line whose end
    /// characters were not found as components is still cut from the right place.
    static func centerCorners(_ band: MRZBand) -> [Point] {
        let base = band.lines[0]
        let bx = base.end.x - base.start.x, by = base.end.y - base.start.y
        let blen = max(1e-9, (bx * bx + by * by).squareRoot())
        let ux = bx / blen, uy = by / blen
        func t(_ p: Point) -> Double { (p.x - base.start.x) * ux + (p.y - base.start.y) * uy }
        let tStart = band.lines.map { t($0.start) }.min()!
        let tEnd = band.lines.map { t($0.end) }.max()!
        func at(_ line: MRZLineGeometry, _ tt: Double) -> Point {
            let dx = line.end.x - line.start.x, dy = line.end.y - line.start.y
            let len = max(1e-9, (dx * dx + dy * dy).squareRoot())
            let scale = len / max(1e-9, t(line.end) - t(line.start))
            let d = (tt - t(line.start)) * scale
            return Point(x: line.start.x + dx / len * d, y: line.start.y + dy / len * d)
        }
        let first = band.lines[0], last = band.lines[band.lines.count - 1]
        return [at(first, tStart), at(first, tEnd), at(last, tEnd), at(last, tStart)]
    }

    /// The distance between line centers in strip pixels (the strip's cell is 1.3 character
    /// heights tall), from the band's own geometry.
    static func lineSpacing(_ band: MRZBand, _ c: [Point]) -> Double {
        guard band.lines.count > 1 else { return 0 }
        let left = hypot(c[3].x - c[0].x, c[3].y - c[0].y), right = hypot(c[2].x - c[1].x, c[2].y - c[1].y)
        let perLine = (left + right) / 2 / Double(band.lines.count - 1)
        return perLine / band.characterHeight * Double(OCRBClassifier.height) / 1.3
    }
}
