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
        var readBands: [ReadBand] = []
        var outcome = read(image, bands: bands, into: &readBands)
        if outcome?.endsSearch != true, !bands.isEmpty {
            // Each band once: two looks often find the same band (a valid MRZ printed with wrong
            // check digits would otherwise be read again by every look).
            var seen = bands
            for look in Self.looks(image).dropFirst(located.looksRun) {
                let more = look.bands().filter { !seen.contains($0) }
                seen += more
                guard let next = read(image, bands: more, into: &readBands) else { continue }
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
            // and a card cut tight has its widened cells outside at both ends (two more reads, for
            // nothing, of a card that is invalid as printed).
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
        // Print of another kind found as a band is not an MRZ: nothing found.
        if let current = outcome, Self.isOtherPrint(current) { outcome = nil }
        var result = outcome ?? Outcome(band: nil, reading: nil, parsed: nil, locateMilliseconds: 0, readMilliseconds: 0)
        result.readMilliseconds = Date().timeIntervalSince(t0) * 1000
        result.readBands = readBands
        return result
    }

    /// One band read on its own (turned the right way up and scaled by the probes): the MRZ of a
    /// second document in the image. `nil` when the probes keep nothing of it. A band the scan
    /// that gave `after` has read already (``Outcome/readBands``) is not read again: its reading
    /// is the same.
    public func read(_ image: GrayImage, band: MRZBand, after scan: Outcome? = nil) -> Outcome? {
        if let known = scan?.readBands.first(where: { $0.located == band }) {
            var outcome = Self.asRead(known.outcome)
            outcome.readMilliseconds = 0
            return outcome
        }
        let t0 = Date()
        var ignored: [ReadBand] = []
        var outcome = read(image, bands: [band], into: &ignored).map(Self.asRead)
        outcome?.readMilliseconds = Date().timeIntervalSince(t0) * 1000
        return outcome
    }

    /// The first settled reading (``Outcome/isSettled``) of the probed candidates among `bands`,
    /// else the first reading. A candidate read clearly whose check digits fail does not end the
    /// search among the candidates: MRZ-like print stacked beside the real zone (a receipt's
    /// serial line, another document's zone printed a line above it) probes as clearly as the
    /// zone, and reads clearly as what it is. When the probes stopped at such a candidate, the
    /// candidates after it are probed and read too. Each band read is added to `readBands`.
    func read(_ image: GrayImage, bands: [MRZBand], into readBands: inout [ReadBand]) -> Outcome? {
        var outcome: Outcome?
        var examined = 0
        while examined < min(bands.count, Self.candidateLimit), outcome?.isSettled != true {
            let probes = probed(image, bands: Array(bands[examined..<min(bands.count, Self.candidateLimit)]))
            guard !probes.isEmpty else { break }
            examined += probes.count
            for candidate in probes {
                let next = readEitherWay(image, oriented: candidate.band)
                readBands.append(ReadBand(located: candidate.source, outcome: next))
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
        // Settled, or print of another kind (nothing to realign or read again: its characters
        // are unlike OCR-B, not out of step).
        guard !first.endsSearch, !Self.isOtherPrint(first) else { return first }
        var best = first
        let moves = Self.realigned(band, scores, bothEnds: asFound)
            + (asFound ? Self.beyondEdge(band, width: image.width, height: image.height) : [])
        for moved in moves {
            guard let next = Self.decoded(moved, MRZLineReader().read(image, band: moved)),
                  next.replaces(best) || next.replacesAsMoved(best) else { continue }
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

    /// The band's evidence decoded and parsed; `nil` when its lines could not be cut out of the
    /// image (no homography maps the template onto its corners): nothing is read of it.
    static func decoded(_ band: MRZBand, _ scores: MRZScores) -> Outcome? {
        guard scores.isComplete(for: band) else { return nil }
        let reading = MRZDecoder().decode(scores)
        return Outcome(band: band, reading: reading, parsed: try? MRZParser().parse(lines: reading.lines),
                       locateMilliseconds: 0, readMilliseconds: 0)
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
