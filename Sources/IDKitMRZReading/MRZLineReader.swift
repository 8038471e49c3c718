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
            // (fewer than the fit needs) a bent page's line start is read unbent. The templates
            // then fit poorly at every height, the height search gives way to the locator's
            // estimate, which is too tall, and the squashed zeros read as `O`.
            let bend = Self.bend(band.lines[k].componentCenters.map { back.apply($0) }, centerRow: Double(pad) + Double(h) / 2,
                                 width: fullWidth).map { Array($0.prefix(stripWidth)) }
            strips.append(Self.shifted(tall, rows: stripHeight, margin: margin, by: bend))
        }
        return strips
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

    /// Whether a cell next to a covered one (beside it on its line, or at its position on the
    /// line above or below) may be covered in part: a finger or a sticker that hides one cell
    /// whole cuts through its neighbours, and the network reads the half left in view as what it
    /// looks like (the right half of a `5` as `J`, the edge of a finger as `1`), as it does a glyph
    /// the image's edge cuts (``partlyOutside``). Its evidence is floored the same way, so that the
    /// check digits can overrule it; the reading is then not verified.
    static func bordersCover(_ covered: [[Bool]], line l: Int, position i: Int) -> Bool {
        guard !covered[l][i] else { return false }
        let line = covered[l]
        return (i > 0 && line[i - 1]) || (i + 1 < line.count && line[i + 1])
            || (l > 0 && covered[l - 1][i]) || (l + 1 < covered.count && covered[l + 1][i])
    }

    /// The network's evidence for a band's windows (`spreads` and `outside` per line and position,
    /// the windows one after another in that order); `nil` when the network cannot run.
    static func networkScores(format: MRZFormat, windows: [Float], spreads: [[Float]], outside: [[Double]],
                              model: MRZGlyphModel) -> MRZScores? {
        let lines = spreads.count, n = spreads.first?.count ?? 0
        guard lines > 0, n > 0, let logits = try? model.logits(windows, count: lines * n) else { return nil }
        let k = MRZGlyphModel.outputCount
        var evidence: [[[Float]]] = [], blank: [[Float]] = []
        // Every MRZ position holds a glyph, a filler at least: a window with almost no contrast
        // against the rest of its line is covered (a finger, a sticker, glare) and says nothing,
        // whatever the network makes of it.
        let covered = (0..<lines).map { l in
            let typical = spreads[l].sorted()[n / 2]
            return (0..<n).map { i in spreads[l][i] < coveredSpread * typical || outside[l][i] >= mostlyOutside }
        }
        for l in 0..<lines {
            var lineEvidence: [[Float]] = [], lineBlank: [Float] = []
            for i in 0..<n {
                let (e, none) = MRZGlyphModel.evidence(logits[((l * n + i) * k)..<((l * n + i + 1) * k)])
                let floor = (e.max() ?? 0) - partialEvidenceFloor
                let partly = outside[l][i] >= partlyOutside || Self.bordersCover(covered, line: l, position: i)
                lineEvidence.append(covered[l][i] ? [Float](repeating: 0, count: MRZGlyphModel.symbolCount)
                                    : partly ? e.map { max($0, floor) } : e)
                lineBlank.append(covered[l][i] ? 1 : none)
            }
            evidence.append(lineEvidence)
            blank.append(lineBlank)
        }
        let size = MRZGlyphModel.windowWidth * MRZGlyphModel.windowHeight
        let lineWindows = (0..<lines).map { l in Array(windows[(l * n * size)..<((l + 1) * n * size)]) }
        return MRZScores(format: format, evidence: evidence, recognizer: .network, blank: blank, windows: lineWindows,
                         spreads: spreads, outside: outside)
    }
}
