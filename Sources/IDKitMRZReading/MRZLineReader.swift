import Foundation
import IDKitImage
import IDKitMRZ

/// Cuts each MRZ line out of the image along its own geometry (a homography per line, so that
/// perspective and rotation are undone), at the template scale: one pitch = 20 px.
struct MRZLineReader: Sendable {
    static let pad = 4
    /// A window whose gray levels spread less than this part of its line's median is covered.
    static let coveredSpread: Float = 0.3
    /// A cell this much of whose glyph box lies outside the image (an MRZ whose first characters run off a
    /// photo's edge) was not seen: its evidence is flat, as a covered cell's. The strip there is
    /// the white fill of the warp with the image's edge across it.
    static let mostlyOutside = 0.7
    /// A cell this much of whose glyph box lies outside the image was seen in part: the network reads a
    /// glyph cut in two confidently as what the half looks like (on the real specimens cropped
    /// through their first character, the right half of `K` as `<`, of `D` as `1`, of `6` as `5`,
    /// of `M` as `J`, each at 0.99) as often as it reads it right, and an `E` whose foot the
    /// photo's lower edge cuts off is an `F`. Its evidence is kept for choosing but floored at
    /// ``partialEvidenceFloor`` below its first choice: every other symbol stays plausible, so
    /// only the check digits can vouch for the cell.
    static let partlyOutside = 0.1
    static let partialEvidenceFloor: Float = 3

    /// Line k of the band, rectified: `lineLength · 20 + 8` × 34 gray pixels (white outside the
    /// image); only the first `positionLimit` characters' worth when given. A line that bends (a
    /// curved page: one homography for the band cannot follow it) is straightened by a quadratic
    /// fitted to where its character centers fall in the strip, or, when its centers stand off
    /// the homography by more than that can undo, cut along its own curve (``MRZLineCurve``).
    func strips(_ image: GrayImage, band: MRZBand, lineLimit: Int? = nil, positionLimit: Int? = nil,
                geometry: Rectification? = nil) -> [GrayImage] {
        let w = OCRBClassifier.width, h = OCRBClassifier.height, pad = Self.pad
        let stripWidth = min(band.lineLength, positionLimit ?? band.lineLength) * w + 2 * pad, stripHeight = h + 2 * pad
        let fullWidth = band.lineLength * w + 2 * pad
        guard let geometry = geometry ?? Self.rectification(band) else { return [] }
        let bandTransform = geometry.transform, lineSpacing = geometry.spacing
        let margin = Self.bendMargin
        let lineCount = min(band.lines.count, lineLimit ?? band.lines.count)
        if let curves = Self.curves(band, geometry) {
            return (0..<lineCount).map {
                Self.curvedStrip(image, curves: curves, line: $0, band: band, left: geometry.left, top: geometry.top,
                                 width: stripWidth, height: stripHeight)
            }
        }
        var strips: [GrayImage] = []
        for k in 0..<lineCount {
            // The strip of line k, `margin` rows taller above and below: strip (x, y) is
            // band-rectified (x, y + k·spacing).
            let dy = Double(k) * lineSpacing
            let top = Double(-margin), bottom = Double(stripHeight + margin)
            let stripCorners = [Point(x: 0, y: top), Point(x: Double(stripWidth), y: top),
                                Point(x: Double(stripWidth), y: bottom), Point(x: 0, y: bottom)]
            let imageCorners = stripCorners.map { bandTransform.apply(Point(x: $0.x, y: $0.y + dy)) }
            let tallCorners = stripCorners.map { Point(x: $0.x, y: $0.y - top) }
            guard let transform = Homography(from: tallCorners, to: imageCorners),
                  let back = Homography(from: imageCorners, to: stripCorners) else { return [] }
            let tall = image.warped(width: stripWidth, height: stripHeight + 2 * margin, by: transform, fill: 255)
            // Fitted to the whole line's centers even when only its first characters are cut out:
            // the probes of orientation and height read 8 characters, and fitted to those alone
            // (fewer than the fit needs) a bent page's line start was read unbent. The templates
            // then fitted poorly at every height (probe scores 0.57–0.75), the height search gave
            // way to the locator's estimate, 8–20% tall, and the squashed zeros read as `O`
            // (12 of the 313 bent stress photos; curved 99% → 100% exact, 91% → 96% verified).
            let bend = Self.bend(band.lines[k].componentCenters.map { back.apply($0) }, centerRow: Double(pad) + Double(h) / 2,
                                 width: fullWidth).map { Array($0.prefix(stripWidth)) }
            strips.append(Self.shifted(tall, rows: stripHeight, margin: margin, by: bend))
        }
        return strips
    }

    /// Rows of slack above and below a strip for straightening a bent line.
    static let bendMargin = 6

    /// The vertical offset of a line's character centers along the strip, as a quadratic fitted
    /// (twice, the second time without centers more than 3 px off the first fit) to the centers in
    /// strip coordinates; `nil` when the line is straight to within a pixel or too few centers.
    static func bend(_ centers: [Point], centerRow: Double, width: Int) -> [Double]? {
        var points = centers.filter { $0.x >= 0 && $0.x <= Double(width) && abs($0.y - centerRow) < Double(bendMargin) + 4 }
        guard points.count >= 10 else { return nil }
        var coefficients: (Double, Double, Double)?
        for _ in 0..<2 {
            guard points.count >= 10, let c = fitQuadratic(points.map { ($0.x / Double(width), $0.y - centerRow) }) else { return nil }
            coefficients = c
            points = points.filter { abs(c.0 + c.1 * $0.x / Double(width) + c.2 * pow($0.x / Double(width), 2) - ($0.y - centerRow)) < 3 }
        }
        guard let (a, b, c) = coefficients else { return nil }
        // Beyond the centers it was fitted to, a quadratic runs off: it holds its value at the
        // last center found (a line whose first characters were too faint to be found as
        // components was cut from above them).
        let xs = points.map(\.x)
        let first = (xs.min() ?? 0) / Double(width), last = (xs.max() ?? Double(width)) / Double(width)
        let offsets = (0..<width).map { x -> Double in
            let t = min(last, max(first, Double(x) / Double(width)))
            return max(-Double(bendMargin), min(Double(bendMargin), a + b * t + c * t * t))
        }
        return offsets.contains { abs($0) > 1 } ? offsets : nil
    }

    /// Least squares y = a + b·t + c·t².
    static func fitQuadratic(_ samples: [(Double, Double)]) -> (Double, Double, Double)? {
        polynomial(samples, degree: 2).map { ($0[0], $0[1], $0[2]) }
    }

    /// Least squares y = c₀ + c₁·t + … + c_degree·t^degree (normal equations, Gauss–Jordan
    /// elimination with partial pivoting); `nil` when singular.
    static func polynomial(_ samples: [(Double, Double)], degree: Int) -> [Double]? {
        let k = degree + 1
        var m = [[Double]](repeating: [Double](repeating: 0, count: k + 1), count: k)
        for (t, y) in samples {
            var powers = [Double](repeating: 1, count: k)
            for i in 1..<k { powers[i] = powers[i - 1] * t }
            for i in 0..<k {
                for j in 0..<k { m[i][j] += powers[i] * powers[j] }
                m[i][k] += powers[i] * y
            }
        }
        for col in 0..<k {
            guard let pivot = (col..<k).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), abs(m[pivot][col]) > 1e-9 else { return nil }
            m.swapAt(col, pivot)
            for row in 0..<k where row != col {
                let f = m[row][col] / m[col][col]
                for j in col...k { m[row][j] -= f * m[col][j] }
            }
        }
        return (0..<k).map { m[$0][k] / m[$0][$0] }
    }

    /// The strip cut out of the taller one, each column moved by its offset (linear between rows).
    static func shifted(_ tall: GrayImage, rows: Int, margin: Int, by offsets: [Double]?) -> GrayImage {
        let width = tall.width
        guard let offsets else {
            return GrayImage(width: width, height: rows, pixels: Array(tall.pixels[(margin * width)..<((margin + rows) * width)]))
        }
        var out = [UInt8](repeating: 255, count: width * rows)
        for x in 0..<width {
            for y in 0..<rows {
                let sy = Double(y + margin) + offsets[x]
                let y0 = Int(sy.rounded(.down)), f = sy - Double(y0)
                guard y0 >= 0, y0 + 1 < tall.height else { continue }
                let a = Double(tall.pixels[y0 * width + x]), b = Double(tall.pixels[(y0 + 1) * width + x])
                out[y * width + x] = UInt8(max(0, min(255, (a + (b - a) * f).rounded())))
            }
        }
        return GrayImage(width: width, height: rows, pixels: out)
    }

    /// Template correlations (−1…1) per line, position and symbol: quick, and enough to tell which
    /// way up the band is and at which scale it reads best.
    /// With `shortlist` (per line, per position: symbol indices), only those symbols are compared.
    func correlations(_ image: GrayImage, band: MRZBand, lineLimit: Int? = nil, positionLimit: Int? = nil, shortlist: [[[Int]]]? = nil) -> [[[Float]]] {
        let n = band.lineLength, w = OCRBClassifier.width, pad = Self.pad
        let classifier = OCRBClassifier.shared
        return strips(image, band: band, lineLimit: lineLimit, positionLimit: positionLimit).enumerated().map { l, strip in
            // Ink: dark is high. (The correlation ignores gain and offset.)
            let ink = strip.pixels.map { Float(255 - Int($0)) }
            return ink.withUnsafeBufferPointer { buffer in
                (0..<min(n, positionLimit ?? n)).map { i in
                    let only = shortlist.flatMap { l < $0.count && i < $0[l].count ? $0[l][i] : nil }
                    return classifier.scores(ink: buffer, stride: strip.width, rows: strip.height, x: pad + i * w, y: pad, reachX: 2, reachY: 1, only: only)
                }
            }
        }
    }

    /// Per line, per position: the `count` symbols that correlate best.
    static func shortlist(_ correlations: [[[Float]]], count: Int) -> [[[Int]]] {
        correlations.map { $0.map { c in Array(c.indices.sorted { c[$0] > c[$1] }.prefix(count)) } }
    }

    /// Mean of the best correlation per position: how well the image reads this way round.
    static func meanBest(_ correlations: [[[Float]]]) -> Float {
        let all = correlations.flatMap { $0 }.map { $0.max() ?? 0 }
        return all.isEmpty ? 0 : all.reduce(0, +) / Float(all.count)
    }

    /// Every character of the band read by the network (one batch for the whole MRZ), or by the
    /// templates when the network cannot run.
    func read(_ image: GrayImage, band: MRZBand, model: MRZGlyphModel? = try? MRZGlyphModel.shared.get()) -> MRZScores {
        let n = band.lineLength
        // The band's homography (a fit to every character center) once, for the strips and for
        // where the cells fall against the image's edge.
        let geometry = Self.rectification(band)
        let strips = strips(image, band: band, geometry: geometry)
        if let model, let geometry, !strips.isEmpty {
            let outside = band.cellsOutside(width: image.width, height: image.height, geometry: geometry)
            var windows: [Float] = []
            windows.reserveCapacity(strips.count * n * MRZGlyphModel.windowWidth * MRZGlyphModel.windowHeight)
            var spreads: [[Float]] = []
            for strip in strips.map(Self.evened) {
                spreads.append((0..<n).map { i in
                    MRZGlyphModel.appendWindow(strip.pixels, stride: strip.width, rows: strip.height, index: i, into: &windows)
                })
            }
            if let scores = Self.networkScores(format: band.format, windows: windows, spreads: spreads, outside: outside, model: model) {
                return scores
            }
        }
        let evidence = correlations(image, band: band).map { $0.map { $0.map { MRZDecoder.beta * $0 } } }
        return MRZScores(format: band.format, evidence: evidence, recognizer: .templates)
    }

    /// The network's evidence for a band's windows (`spreads` and `outside` per line and position,
    /// the windows one after another in that order); `nil` when the network cannot run.
    static func networkScores(format: MRZFormat, windows: [Float], spreads: [[Float]], outside: [[Double]],
                              model: MRZGlyphModel) -> MRZScores? {
        let lines = spreads.count, n = spreads.first?.count ?? 0
        guard lines > 0, n > 0, let logits = try? model.logits(windows, count: lines * n) else { return nil }
        let k = MRZGlyphModel.outputCount
        var evidence: [[[Float]]] = [], blank: [[Float]] = []
        for l in 0..<lines {
            // Every MRZ position holds a glyph, a filler at least: a window with almost no
            // contrast against the rest of its line is covered (a finger, a sticker, glare)
            // and says nothing, whatever the network makes of it.
            let typical = spreads[l].sorted()[n / 2]
            var lineEvidence: [[Float]] = [], lineBlank: [Float] = []
            for i in 0..<n {
                let (e, none) = MRZGlyphModel.evidence(logits[((l * n + i) * k)..<((l * n + i + 1) * k)])
                let seen = outside[l][i]
                let covered = spreads[l][i] < coveredSpread * typical || seen >= mostlyOutside
                let floor = (e.max() ?? 0) - partialEvidenceFloor
                lineEvidence.append(covered ? [Float](repeating: 0, count: MRZGlyphModel.symbolCount)
                                    : seen >= partlyOutside ? e.map { max($0, floor) } : e)
                lineBlank.append(covered ? 1 : none)
            }
            evidence.append(lineEvidence)
            blank.append(lineBlank)
        }
        let size = MRZGlyphModel.windowWidth * MRZGlyphModel.windowHeight
        let lineWindows = (0..<lines).map { l in Array(windows[(l * n * size)..<((l + 1) * n * size)]) }
        return MRZScores(format: format, evidence: evidence, recognizer: .network, blank: blank, windows: lineWindows,
                         spreads: spreads, outside: outside)
    }

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
