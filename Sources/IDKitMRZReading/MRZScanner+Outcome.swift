import IDKitMRZ

extension MRZScanner {
    /// The result for one image (or several frames of one document, fused).
    public struct Outcome: Sendable {
        /// The band in reading order, `nil` when no MRZ was found.
        public var band: MRZBand?
        public var reading: MRZReading?
        public var parsed: MRZResult?
        public var locateMilliseconds: Double
        public var readMilliseconds: Double
        /// The bands of the whole-image search that were read, each as located, with its reading:
        /// ``MRZScanner/read(_:band:after:)`` reads none of them again.
        var readBands: [ReadBand] = []
    }

    /// A band as located and its reading (turned and scaled by the probes, before ``asRead(_:)``).
    struct ReadBand: Sendable {
        var located: MRZBand
        var outcome: Outcome
    }
}

extension MRZScanner.Outcome {
    /// Whether the search can stop at this reading: the MRZ is valid, or the recognizer's own
    /// reading — no character changed by the check digits — passes every check digit of its
    /// layout (at least three) and fails only rules no check digit protects (digits printed in a
    /// country code, as on a Romanian ID's `132`; an impossible date). Four check digits passing
    /// by chance is about 1 in 10⁴, so the band is right; other looks and candidates would only
    /// read the same print again, or worse, "fix" it into a valid MRZ it does not say.
    var isSettled: Bool {
        guard let parsed else { return false }
        if parsed.isValid { return true }
        guard let reading, reading.checkDigitCorrections == 0 else { return false }
        let statuses = parsed.checkDigits.present
        return statuses.count >= 3 && statuses.allSatisfy { $0 == .valid }
    }

    /// Whether the recognizer read every character of this MRZ clearly (``MRZScanner/clearlyRead``)
    /// and the check digits changed none: whatever its check digits say, that is what the print
    /// says, and the looks after the one that found it would read the same print again. It ends
    /// the search through the looks (``MRZScanner/scan(_:located:)``), but does not replace an
    /// earlier look's reading: a later look (thickened ink) can read a bent page's zeros clearly as
    /// `O`. A misprinted MRZ read clearly as printed, its check digits failing, then ends at the
    /// first look instead of running them all.
    var isClearlyRead: Bool {
        guard parsed != nil, let reading, reading.checkDigitCorrections == 0 else { return false }
        return reading.confidence.allSatisfy { $0.allSatisfy { $0 >= MRZScanner.clearlyRead } }
    }

    /// Whether the search for another reading stops here: settled or clearly read.
    var endsSearch: Bool { isSettled || isClearlyRead }

    /// Whether this reading is taken instead of `current` (an earlier candidate, look or position
    /// of the band): the first reading; a settled one; or a clearly read one where the current is
    /// neither, if it passes at least as many check digits as the current — unless the current
    /// passes them because the check digits changed characters (they make a reading pass). A
    /// look that reads a bent page's zeros clearly as `O` fails more of them than the unclear
    /// reading of the look before; a look that reads a `Q` printed in a date clearly beats one
    /// whose check digits turned a `0` into an `O` to pass.
    func replaces(_ current: MRZScanner.Outcome?) -> Bool {
        guard let current else { return true }
        if isSettled { return true }
        guard isClearlyRead, !current.endsSearch else { return false }
        return (current.reading?.checkDigitCorrections ?? 0) > 0 || passingCheckDigits >= current.passingCheckDigits
    }

    /// Whether this reading of a band moved along its lines (``MRZScanner/realigned(_:_:bothEnds:)``,
    /// ``MRZScanner/beyondEdge(_:width:height:)``) is taken instead of the reading before the move
    /// (`current`), where neither settles nor reads clearly: when it passes at least two check
    /// digits more. A finger over the first characters of every line of a TD1 leaves the band laid
    /// out from the first character in view, one position early; read so, every check digit falls
    /// on the wrong cell and fails. Moved back, the characters under the finger stay unknown
    /// (unsure, the reading unverified), but the check digits over the characters in view hold,
    /// and the characters in view are read at their own positions.
    func replacesAsMoved(_ current: MRZScanner.Outcome) -> Bool {
        guard !current.endsSearch, parsed != nil else { return false }
        return passingCheckDigits >= current.passingCheckDigits + 2
    }

    /// Whether this reading of a two-line band widened to 44-character lines is taken instead of
    /// the reading of the band as found (`current`): when it is settled and the current is not,
    /// when it is verified, or when it is a valid MRZ that passes more check digits than the
    /// current. A TD3 found 36 characters wide can read as a valid TD2 (its composite a 1-in-10
    /// chance), and the whole TD3 as valid too, unverified both where the print is faint
    /// (bench-scan's `print-06`); a TD2 read as 44 characters passes a TD3's five check digits
    /// only by a 1-in-10⁵ chance.
    func replacesAsWidened(_ current: MRZScanner.Outcome) -> Bool {
        guard isSettled else { return false }
        return !current.isSettled || reading?.verified == true
            || (parsed?.isValid == true && passingCheckDigits > current.passingCheckDigits)
    }

    /// Whether this reading of the deblurred image is taken instead of the reading of the image
    /// as it is (`current`, not verified): when that found nothing, when this one is verified,
    /// when this one is settled and that one is not, or when both are alike in that and this one
    /// leaves fewer fields unsure. Deblurring with an estimated kernel can also ring or sharpen
    /// noise; the check digits and the recognizer's certainty judge either way.
    func replacesAsDeblurred(_ current: MRZScanner.Outcome?) -> Bool {
        guard band != nil, let reading else { return false }
        guard let current, let currentReading = current.reading else { return true }
        if reading.verified { return true }
        if isSettled != current.isSettled { return isSettled }
        return reading.unsureFields.count < currentReading.unsureFields.count
    }

    /// How many of the layout's check digits hold (−1 when the lines are no MRZ).
    var passingCheckDigits: Int { parsed?.checkDigits.present.filter { $0 == .valid }.count ?? -1 }
}

extension MRZScanner {
    /// Whether a reading is print of another kind that chained into a band: it settles nothing
    /// (``Outcome/isSettled``), its characters are as tall as print the recognizer reads surely
    /// (``otherPrintMinimumHeight``), the recognizer is unsure of them on average (mean
    /// confidence under ``otherPrintConfidence``), and no line holds two fillers in a row. A
    /// page's body text in a proportional face (the facing page of an open booklet, a card's
    /// notes) reads as letters the network trained on OCR-B weighs far apart; an MRZ of that size,
    /// even blurred, bent, misprinted or with a character under a finger, reads with most of its
    /// characters sure. Every MRZ layout separates the name's primary and secondary identifiers
    /// by `<<` and pads its fields with `<` (ICAO 9303-3 §4.6, Parts 4–7), the one feature even a
    /// faint zone read out of step keeps. A thumbnail's MRZ reads as unsurely as body text and
    /// stays an MRZ read in doubt (the scan's hint: too small).
    static func isOtherPrint(_ outcome: Outcome) -> Bool {
        guard !outcome.isSettled, let band = outcome.band, band.characterHeight >= otherPrintMinimumHeight,
              let reading = outcome.reading, !reading.lines.contains(where: { $0.contains("<<") }) else { return false }
        let all = reading.confidence.joined()
        return !all.isEmpty && all.reduce(0, +) / Double(all.count) < otherPrintConfidence
    }

    /// The mean character confidence under which a reading that settles nothing is not an MRZ.
    /// Every reading that is exact has a mean of 0.943 or more (992 of them: the real specimens at
    /// full size and shrunk, the capture-condition photos of both generators, 600 stress photos);
    /// body text read as a band, 0.64.
    static let otherPrintConfidence = 0.8

    /// The character height, in pixels, from which MRZ print reads surely: the real specimens
    /// whose characters are 9 px or taller are all verified (the scan's `isAdequateResolution`).
    static let otherPrintMinimumHeight = 9.0

    /// The confidence at which every character of a reading counts as clearly read
    /// (``Outcome/isClearlyRead``). Measured on 5,000 generated photos, half with confusions injected
    /// into the print, when a clear reading still settled the search outright: 0.8 and 0.95 read
    /// all of them, the 300 of bench-scan and the real specimens (at full, 0.7, 0.5 and 0.35 times
    /// their size) alike; the higher one is kept.
    static let clearlyRead = 0.95
}
