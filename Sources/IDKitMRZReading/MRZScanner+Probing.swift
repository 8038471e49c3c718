import Foundation
import IDKitImage
import IDKitMRZ

// Which way up and at what scale a band reads: the probes, and the height search.
extension MRZScanner {
    /// The band the probes choose and the recognizer's evidence for it (for fusing frames).
    func scores(_ image: GrayImage) -> (MRZBand, MRZScores)? {
        guard let band = probed(image, bands: locate(image).bands).first?.band else { return nil }
        let scores = MRZLineReader().read(image, band: band)
        return scores.isComplete(for: band) ? (band, scores) : nil
    }

    /// The first three candidates turned the right way up and scaled, best probe score first,
    /// each with the band it was located as (`source`).
    package func probed(_ image: GrayImage, bands: [MRZBand]) -> [(band: MRZBand, score: Float, source: MRZBand)] {
        let reader = MRZLineReader()
        var all: [(band: MRZBand, score: Float, source: MRZBand)] = []
        for candidate in bands.prefix(Self.candidateLimit) {
            // Which way up, and the character height: the first characters of the first line
            // read best at the right turn and scale.
            let probe = min(candidate.lineLength, 8)
            func probeScore(_ band: MRZBand) -> Float {
                MRZLineReader.meanBest(reader.correlations(image, band: band, lineLimit: 1, positionLimit: probe))
            }
            let upright = probeScore(candidate), turned = probeScore(candidate.flipped())
            // The scale on the first characters of every line (one line alone can mislead).
            // The first height tried compares every symbol; the others only the three that fit
            // each position best there (the best fit moves between scales, not between symbols):
            // a third of the probes' cost.
            func scaled(_ oriented: MRZBand) -> (band: MRZBand, score: Float) {
                var shortlist: [[[Int]]]?
                func scaleScore(_ factor: Double) -> Float {
                    var band = oriented
                    band.characterHeight *= factor
                    let c = reader.correlations(image, band: band, positionLimit: probe, shortlist: shortlist)
                    if shortlist == nil { shortlist = MRZLineReader.shortlist(c, count: Self.shortlistLength) }
                    return MRZLineReader.meanBest(c)
                }
                var band = oriented
                let found = Self.heightFactor(scaleScore)
                if found.score >= Self.clearProbe {
                    band.characterHeight *= found.factor
                    return (band, found.score)
                }
                // Print the templates fit poorly (a page bent at the line's start): their
                // correlation barely changes with the height, and climbing it wanders off (to
                // 0.64 on bent generated pages, whose zeros and O's then swap). The estimate's
                // three scales, as before the search.
                let near = [(1.0, scaleScore(1.0)), (0.92, scaleScore(0.92)), (1.08, scaleScore(1.08))].max { $0.1 < $1.1 }!
                band.characterHeight *= near.0
                return (band, max(found.score, near.1))
            }
            let isTurned = turned > upright
            var fit = scaled(isTurned ? candidate.flipped() : candidate)
            var choice = (band: fit.band, score: max(upright, turned))
            // Where the templates fit neither way at the locator's height (ink components a
            // fifth taller than the caps on a bent or blurred line), the turn is judged again at
            // the height that fits each way best.
            if fit.score < Self.clearProbe {
                let other = scaled(isTurned ? candidate : candidate.flipped())
                if other.score > fit.score {
                    fit = other
                    choice = (other.band, min(upright, turned))
                }
            }
            all.append((choice.band, choice.score, candidate))
            if choice.score > Self.clearProbe { break }
        }
        // The earlier rule: a later candidate replaces an earlier one only if it probes 0.05 better.
        var ordered: [(band: MRZBand, score: Float, source: MRZBand)] = []
        for c in all {
            if let first = ordered.first, c.score > first.score + 0.05 { ordered.insert(c, at: 0) } else { ordered.append(c) }
        }
        return ordered
    }

    /// The factor that turns the locator's character height into the printed cap height: the
    /// peak of `score` (the template correlation of the band read at that height), and the best
    /// step's score (how well the templates fit at all: see ``clearProbe``). The locator
    /// measures ink components, which blur and the binarization make a pixel or two taller than
    /// the glyphs: on the real specimens of `../shared/testdata/mrz-real` by 8–20% on most, 21–28%
    /// on the three with 6–8 px characters. The recognizer was trained on heights within 7% of the
    /// printed one, so the search climbs from 0.88 in steps of 0.08 (as far as 0.64 and 1.36)
    /// while the score rises, then places the peak between the best step and its neighbors by a
    /// parabola.
    static func heightFactor(_ score: (Double) -> Float) -> (factor: Double, score: Float) {
        let step = 0.08, start = 0.88, steps = -3...6          // 0.64 ... 1.36
        var samples: [Int: Float] = [:]          // step index from `start` -> score
        func at(_ k: Int) -> Float {
            if let s = samples[k] { return s }
            let s = score(start + Double(k) * step)
            samples[k] = s
            return s
        }
        var best = 0
        let direction = at(1) > at(-1) ? 1 : -1
        while steps.contains(best + direction), at(best + direction) > at(best) { best += direction }
        var factor = start + Double(best) * step
        // Both neighbors are known unless the climb stopped at the search's end.
        if let left = samples[best - 1], let right = samples[best + 1] {
            let center = samples[best]!, curvature = left - 2 * center + right
            // The vertex lies within half a step of the best step (which scores at least as
            // high as both neighbors); a probe more to confirm it changed nothing measurable.
            if curvature < 0 { factor += Double(0.5 * (left - right) / curvature) * step }
        }
        return (factor, samples[best]!)
    }

    /// A probe score at which the templates read the print clearly: a candidate band that probes
    /// above it ends the search for others, and below it the templates fit too poorly to judge
    /// the height (the real specimens' height peaks are 0.78–0.97, one at 0.61 and flat; bent
    /// generated pages that the climb misjudged peaked at 0.63–0.71).
    static let clearProbe: Float = 0.75

    /// How many symbols per position the height search keeps comparing after its first height.
    static let shortlistLength = 3
}
