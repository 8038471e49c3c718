import Foundation
import IDKitImage
import IDKitMRZ

/// Finds and reads the MRZ in an image: locate the band, decide which way up it is, read every
/// character against the OCR-B references, decode with the layout's rules and check digits.
public struct MRZScanner: Sendable {
    public init() {}

    /// Loads the recognizer's models (once per process) and throws when one cannot be loaded: a
    /// front end calls it before its first scan, and the service before it reports itself ready.
    /// Scanning with a model that failed reads with the OCR-B templates alone (``MRZRecognizer``),
    /// which is never what a caller asked for.
    public static func loadModels() throws(MRZModelError) {
        _ = try MRZGlyphModel.shared.get()
        _ = try MRZGlyphModel.degraded.get()
    }

    /// The result for one image (or several frames of one document, fused).
    public struct Outcome: Sendable {
        /// The band in reading order, `nil` when no MRZ was found.
        public var band: MRZBand?
        public var reading: MRZReading?
        public var parsed: MRZResult?
        public var locateMilliseconds: Double
        public var readMilliseconds: Double
    }

    /// Where MRZ bands may be, best first, and how many of ``looks(_:)`` it took to find them:
    /// the looks before the one that found them found nothing.
    public struct Located: Sendable {
        public var bands: [MRZBand]
        /// Looks run: the bands come from the last of them (all of them when nothing was found).
        var looksRun: Int
    }

    /// The first of the ``looks(_:)`` that search for a band (``Look/searches``) to find one. A
    /// small image (under 0.4 MP: a thumbnail, a low-resolution scan) that none finds anything in
    /// is then searched enlarged twice, where characters of 6–9 px become components the locator
    /// can chain.
    public func locate(_ image: GrayImage) -> Located {
        let looks = Self.looks(image)
        for (k, look) in looks.enumerated() where look.searches {
            let bands = look.bands()
            if !bands.isEmpty { return Located(bands: bands, looksRun: k + 1) }
        }
        if image.width * image.height < 400_000, let enlarged = Self.enlarged(image) {
            return Located(bands: MRZBandLocator().locate(in: enlarged).map { $0.scaled(by: 0.5) }, looksRun: looks.count)
        }
        return Located(bands: [], looksRun: looks.count)
    }

    /// The band searches, in the order they are tried: the image as it is; the ink thickened by
    /// a pixel (`darkened3x3`: faded or thin print whose strokes break into specks holds
    /// together); thinned (`lightened3x3`: spread ink whose characters touch comes apart); and
    /// thickened again with lines built of short pieces (``MRZBandLocator/fragmentedPrint``: thin
    /// light print on a patterned page, where some characters stay broken whatever the ink).
    /// The thickened image and its ink components are made once for both looks that search it.
    /// ``locate(_:)`` stops at the first that finds a band; ``scan(_:located:)`` reads the bands
    /// of the looks after it when those give nothing valid.
    package static func looks(_ image: GrayImage) -> [Look] {
        let darkened = Memo { InkComponents(image.darkened3x3()) }
        return [Look { MRZBandLocator().locate(in: image) },
                Look { MRZBandLocator().locate(in: darkened.value) },
                // After the plain and the thickened looks found nothing, the thinned one found no
                // band either on any of 5,353 photos (the real specimens, bench-scan, 5,000 stress
                // images) and cost a photo without an MRZ a third of its search (the locator has
                // preferred MRZ-length lines to a text line touching the MRZ since it came). Its
                // bands are still read when those of the looks before read as no valid MRZ (22 of
                // the 5,000 stress images read differently without them, all unverified either way).
                Look(searches: false) { MRZBandLocator().locate(in: image.lightened3x3()) },
                Look { MRZBandLocator.fragmentedPrint.locate(in: darkened.value) }]
    }

    /// One band search of ``looks(_:)``.
    package struct Look {
        /// Whether ``locate(_:)`` runs it in its search for a band (otherwise only
        /// ``scan(_:located:)`` does, when the bands found read as no valid MRZ).
        package var searches = true
        package var bands: () -> [MRZBand]
    }

    /// The image at twice its size (bilinear).
    static func enlarged(_ image: GrayImage) -> GrayImage? {
        let w = Double(image.width), h = Double(image.height)
        let big = [Point(x: 0, y: 0), Point(x: 2 * w, y: 0), Point(x: 2 * w, y: 2 * h), Point(x: 0, y: 2 * h)]
        let small = [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 0, y: h)]
        guard let transform = Homography(from: big, to: small) else { return nil }
        return image.warped(width: 2 * image.width, height: 2 * image.height, by: transform)
    }

    /// The band the probes choose and the recognizer's evidence for it (for fusing frames).
    func scores(_ image: GrayImage) -> (MRZBand, MRZScores)? {
        guard let band = probed(image, bands: locate(image).bands).first?.band else { return nil }
        let scores = MRZLineReader().read(image, band: band)
        return scores.isComplete(for: band) ? (band, scores) : nil
    }

    /// The first three candidates turned the right way up and scaled, best probe score first;
    /// candidates that read clearly worse than the first are left out.
    package func probed(_ image: GrayImage, bands: [MRZBand]) -> [(band: MRZBand, score: Float)] {
        let reader = MRZLineReader()
        var all: [(band: MRZBand, score: Float)] = []
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
            all.append(choice)
            if choice.score > Self.clearProbe { break }
        }
        // The earlier rule: a later candidate replaces an earlier one only if it probes 0.05 better.
        var ordered: [(band: MRZBand, score: Float)] = []
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
    /// parabola. On 30 generated photos of `make bench-scan` (cap height 0.945 pitch) it finds
    /// 0.93–0.97 pitch on 27, where the locator's estimate was 0.95–1.18.
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

    /// Locating is the band search; reading is the rest: orientation and scale probes, the
    /// recognizer, decoding and verification.
    public func scan(_ image: GrayImage) -> Outcome {
        let t0 = Date()
        let located = locate(image)
        let locate = Date().timeIntervalSince(t0) * 1000
        var outcome = scan(image, located: located)
        outcome.locateMilliseconds = locate
        return outcome
    }

    /// Reads the best of the bands ``locate(_:)`` found. When that reading is not a valid MRZ, the
    /// other candidates the probes kept are read too, and the first valid reading wins.
    /// When nothing valid comes of them, the bands of the ``looks(_:)`` not yet run are read too
    /// (a page whose small print is found as a band while its large, perspective-distorted MRZ
    /// holds together only with the ink thickened). A clearly read MRZ (``Outcome/isClearlyRead``)
    /// ends the search too (``Outcome/endsSearch``).
    public func scan(_ image: GrayImage, located: Located) -> Outcome {
        scan(image, located: located, deblurs: true)
    }

    /// ``scan(_:located:)``; when `deblurs` and no reading is verified, the image restored from
    /// its motion blur (``deblurred(_:)``) is searched and read again.
    func scan(_ image: GrayImage, located: Located, deblurs: Bool) -> Outcome {
        let t0 = Date()
        let bands = located.bands
        var outcome = read(image, bands: bands)
        if outcome?.endsSearch != true, !bands.isEmpty {
            // Each band once: two looks often find the same band (a valid MRZ printed with wrong
            // check digits would otherwise be read again by every look).
            var seen = bands
            for look in Self.looks(image).dropFirst(located.looksRun) {
                let more = look.bands().filter { !seen.contains($0) }
                seen += more
                guard let next = read(image, bands: more) else { continue }
                if next.replaces(outcome) { outcome = next }
                if next.endsSearch { break }
            }
        }
        // Two lines found shorter than a TD3's may be the middle of a TD3 or MRV-A whose faint
        // ends never became components: read once more as 44-character lines.
        // Its orientation and scale are the ones the probes chose for the band as found (a probe
        // of the widened band's first characters may start on blank paper). A reading that is
        // valid but not verified is tried too, and replaced only by a verified one: a TD3 whose
        // fillers at the end of line 2 were too small to become components reads as a TD2 of its
        // first 36 characters, and the first 28 of a TD2's line 2 are laid out as a TD3's, so
        // that reading can pass every check digit (the composite from a filler read as a digit).
        // A real TD2 read as 44 characters has blank cells where a TD3's last check digits stand,
        // and is not verified.
        if let current = outcome, current.reading?.verified != true, let band = current.band,
           band.lines.count == 2, band.lineLength < MRZFormat.td3.lineLength {
            // Not moved beyond the image's edge as well: widened, the band is a guess already,
            // and a card cut tight has its widened cells outside at both ends (two more reads of
            // a Romanian ID that is invalid as printed, 27 → 48 ms).
            let next = read(image, oriented: band.widened(to: .td3), asFound: false)
            if next.replacesAsWidened(current) { outcome = next }
        }
        outcome = outcome.map(Self.asRead)
        // A hand-held camera's motion smears the characters into each other along the blur, so
        // that they are no components to chain, or reads them as other characters. Restored, the
        // photo is searched and read once more.
        if deblurs, outcome?.reading?.verified != true, let next = deblurredScan(image, band: outcome?.band),
           next.replacesAsDeblurred(outcome) {
            outcome = next
        }
        outcome?.readMilliseconds = Date().timeIntervalSince(t0) * 1000
        return outcome ?? Outcome(band: nil, reading: nil, parsed: nil, locateMilliseconds: 0, readMilliseconds: Date().timeIntervalSince(t0) * 1000)
    }

    /// One band read on its own (turned the right way up and scaled by the probes): the MRZ of a
    /// second document in the image. `nil` when the probes keep nothing of it.
    public func read(_ image: GrayImage, band: MRZBand) -> Outcome? {
        let t0 = Date()
        var outcome = read(image, bands: [band]).map(Self.asRead)
        outcome?.readMilliseconds = Date().timeIntervalSince(t0) * 1000
        return outcome
    }

    /// The first settled reading (``Outcome/isSettled``) of the probed candidates among `bands`,
    /// else the first reading. A candidate read clearly whose check digits fail does not end the
    /// search among the candidates: MRZ-like print stacked beside the real zone (a receipt's
    /// serial line, another document's zone printed a line above it) probes as clearly as the
    /// zone, and reads clearly as what it is. When the probes stopped at such a candidate, the
    /// candidates after it are probed and read too.
    func read(_ image: GrayImage, bands: [MRZBand]) -> Outcome? {
        var outcome: Outcome?
        var examined = 0
        while examined < min(bands.count, Self.candidateLimit), outcome?.isSettled != true {
            let probes = probed(image, bands: Array(bands[examined..<min(bands.count, Self.candidateLimit)]))
            guard !probes.isEmpty else { break }
            examined += probes.count
            for candidate in probes {
                let next = readEitherWay(image, oriented: candidate.band)
                if next.replaces(outcome) { outcome = next }
                if next.isSettled { break }
            }
        }
        return outcome
    }

    /// How many of the located bands are read at most.
    static let candidateLimit = 3

    /// A band turned and scaled by the probes, read; when that gives no valid MRZ, read the other
    /// way up too, and that reading is taken when it is verified. The probes judge which way up on
    /// the first characters of the first line alone, and on bent pages (three of the 5,000 stress
    /// photos) the start of a line that bends away from the band's fit reads better turned.
    /// Verified, not merely valid: turned, a band of fillers reads as fillers, whose check digits
    /// hold (`<` counts 0), and cells covered by a finger read as anything.
    func readEitherWay(_ image: GrayImage, oriented band: MRZBand) -> Outcome {
        let first = read(image, oriented: band)
        guard !first.endsSearch else { return first }
        // Turned, it is taken only when verified, which a reading moved beyond the image's edge
        // never is (its cell there was not seen): not moved.
        let turned = read(image, oriented: band.flipped(), asFound: false, secondOpinion: false)
        return turned.reading?.verified == true ? turned : first
    }

    /// A band already turned the right way up and scaled, read; when that gives no valid MRZ and
    /// the network finds blank cells at one end, read once more moved by them
    /// (``realigned(_:_:bothEnds:)``). The first reading unless the moved one replaces it
    /// (``Outcome/replaces(_:)``). A band not `asFound` (turned or widened: a guess already) is
    /// not moved beyond the image's edge nor by blank cells at both ends.
    func read(_ image: GrayImage, oriented band: MRZBand, asFound: Bool = true, secondOpinion: Bool = true) -> Outcome {
        let scores = MRZLineReader().read(image, band: band)
        guard let first = Self.decoded(band, scores) else {
            return Outcome(band: nil, reading: nil, parsed: nil, locateMilliseconds: 0, readMilliseconds: 0)
        }
        // Settled but not verified: both networks' evidence, averaged. Taken when verified; else
        // in its place when it settles too, unverified as that one: two recognizers that disagree
        // on a glyph neither reads surely are right more often together than either alone. (Not
        // for a reading that settles nothing: on a page without an MRZ every line of text found as
        // a band is one, each of which would cost a second network pass, and averaging the
        // unsettled readings verified no more of the conditions or bench-scan photos.)
        if secondOpinion, first.isSettled, first.reading?.verified != true, let fused = Self.fused(band, scores) {
            if fused.reading?.verified == true || fused.isSettled { return fused }
        }
        guard !first.endsSearch else { return first }
        var best = first
        let moves = Self.realigned(band, scores, bothEnds: asFound)
            + (asFound ? Self.beyondEdge(band, width: image.width, height: image.height) : [])
        for moved in moves {
            guard let next = Self.decoded(moved, MRZLineReader().read(image, band: moved)), next.replaces(best) else { continue }
            best = next
            if best.endsSearch { break }
        }
        // Still nothing settled: the band read by the recognizer trained for hard captures (motion
        // blur up to a cap height, a finger's shading over the print), taken only when that
        // reading settles (``Outcome/isSettled``) and so passes the check digits the first did not.
        if secondOpinion, !best.endsSearch, let model = try? MRZGlyphModel.degraded.get(), let other = scores.rescored(by: model),
           let next = Self.decoded(band, other), next.isSettled, next.replaces(best) {
            best = next
        }
        return best
    }

    /// The band read by both recognizers, their evidence averaged (``averaged(_:_:)``), when the
    /// main model's reading passes its check digits but is not verified (taken as
    /// ``read(_:oriented:asFound:secondOpinion:)`` says): motion blur and worn print that neither
    /// model reads surely alone is often read surely where both agree (Benchmarks/RESULTS.md).
    /// The second network reads the windows the first did (``MRZScores/rescored(by:)``).
    static func fused(_ band: MRZBand, _ scores: MRZScores) -> Outcome? {
        guard let model = try? MRZGlyphModel.degraded.get(), let other = scores.rescored(by: model) else { return nil }
        return averaged(scores, other).flatMap { decoded(band, $0) }
    }

    /// Two recognizers' evidence for one band, per cell the mean of their log-likelihoods (and of
    /// their blank probabilities): where they agree the reading is as sure as either, never surer
    /// (a sum would count one glyph's evidence twice). `nil` unless both are the network's and of
    /// one shape.
    static func averaged(_ a: MRZScores, _ b: MRZScores) -> MRZScores? {
        guard a.recognizer == .network, b.recognizer == .network, a.format == b.format,
              a.evidence.count == b.evidence.count, zip(a.evidence, b.evidence).allSatisfy({ $0.count == $1.count }),
              a.blank.count == b.blank.count else { return nil }
        var mean = a
        mean.evidence = zip(a.evidence, b.evidence).map { x, y in zip(x, y).map { p, q in zip(p, q).map { ($0 + $1) / 2 } } }
        mean.blank = zip(a.blank, b.blank).map { x, y in zip(x, y).map { ($0 + $1) / 2 } }
        return mean
    }

    /// A band found level with the image's edge, moved by one position beyond it: where the photo
    /// cuts the MRZ through its first (or last) character, the locator finds the characters in
    /// view and lays the layout's length out from the first of them, so every character is read
    /// one position early. Moved, the cell beyond the edge is not seen
    /// (``MRZLineReader/mostlyOutside``): the layout and the check digits fill it in, unverified,
    /// and the check digits judge whether the move was right. Read only when the band as found
    /// gives no valid MRZ. One position, not more: each move is another read of an image that
    /// may simply hold an invalid MRZ (a Romanian ID's digits in its nationality, its card cut
    /// tight: 38 → 90 ms with moves of one and two positions either way).
    static func beyondEdge(_ band: MRZBand, width: Int, height: Int) -> [MRZBand] {
        [-1, 1].compactMap { positions in
            let moved = band.shifted(by: positions)
            let outside = moved.cellsOutside(width: width, height: height)
            let entering = positions < 0 ? 0 : band.lineLength - 1
            return !outside.isEmpty && outside.allSatisfy({ $0[entering] >= MRZLineReader.mostlyOutside }) ? moved : nil
        }
    }

    /// The band's evidence decoded and parsed; `nil` when its lines could not be cut out of the
    /// image (no homography maps the template onto its corners): nothing is read of it.
    static func decoded(_ band: MRZBand, _ scores: MRZScores) -> Outcome? {
        guard scores.isComplete(for: band) else { return nil }
        let reading = MRZDecoder().decode(scores)
        return Outcome(band: band, reading: reading, parsed: try? MRZParser().parse(lines: reading.lines),
                       locateMilliseconds: 0, readMilliseconds: 0)
    }

    /// When the network finds blank cells at one end of the band (on most lines), the band moved
    /// by that many positions towards its other end: the text the band missed lies there. Read
    /// only when the band as found gives no valid MRZ (the move is a guess; the check digits judge).
    /// With `bothEnds`, blank cells at both ends give both moves: a finger over a line's first
    /// characters leaves them blank as well as the paper past its end, where the locator laid the
    /// layout's length out from the first character in view. Not for a band that is a guess
    /// already: a TD2 widened to a TD3's length is blank at both ends, and moved, its TD3 check
    /// digits fall on blank cells that the decoder fills to pass.
    static func realigned(_ band: MRZBand, _ scores: MRZScores, bothEnds: Bool) -> [MRZBand] {
        let (leading, trailing) = scores.blankEnds
        let limit = band.lineLength / 3
        guard bothEnds || leading == 0 || trailing == 0 else { return [] }
        return (trailing > 0 && trailing < limit ? [band.shifted(by: -trailing)] : [])
            + (leading > 0 && leading < limit ? [band.shifted(by: leading)] : [])
    }

    /// The rectified line strips of a band as the recognizer's windows are cut from them (evened
    /// where the paper is in the shade, ``MRZLineReader/evened(_:)``), and
    /// whether they were cut along the lines' own curves (`idkit-bench scan-debug`).
    package static func strips(_ image: GrayImage, band: MRZBand) -> (curved: Bool, residual: Double, strips: [GrayImage]) {
        let geometry = MRZLineReader.rectification(band)
        let curved = geometry.flatMap { MRZLineReader.curves(band, $0) } != nil
        let residual = geometry.map { MRZLineReader.residual(band, $0, $0.cells) } ?? .nan
        return (curved, residual, MRZLineReader().strips(image, band: band).map(MRZLineReader.evened))
    }

    /// The recognizer's input for a band (turned and scaled as read): per line, its windows one
    /// after another (28 × 32 floats each, normalized as the network sees them). For measuring a
    /// trained model on real images outside the process (`idkit-bench recognizer-windows`).
    package static func recognizerWindows(_ image: GrayImage, band: MRZBand) -> [[Float]] {
        MRZLineReader().read(image, band: band).windows
    }

    /// The outcome with its band as read: its lines running from the first to the last character
    /// read (``MRZBand/asRead()``), and its layout the reading's where that has the band's shape. A
    /// 2 × 44 band is laid out as a TD3's until the reading's document code says MRV-A, whose visa
    /// sticker (80 × 120 mm) prints its MRZ elsewhere: the document is placed from the band.
    static func asRead(_ outcome: Outcome) -> Outcome {
        guard var band = outcome.band?.asRead() else { return outcome }
        if let format = outcome.reading?.format, format.lineCount == band.format.lineCount, format.lineLength == band.format.lineLength {
            band.format = format
        }
        var read = outcome
        read.band = band
        return read
    }
}
