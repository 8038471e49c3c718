import Foundation
import IDKitImage
import IDKitMRZ

/// The recognizer's view of one MRZ: for every line and position, evidence per symbol.
struct MRZScores: Sendable {
    var format: MRZFormat
    /// `[line][position][symbol]` (`OCRBTemplates.symbols` order): log-likelihoods up to a constant
    /// per position — the network's calibrated logits, or the template correlations times
    /// ``MRZDecoder/beta``. Evidence from several frames adds.
    var evidence: [[[Float]]]
    /// Which recognizer produced the evidence.
    var recognizer: MRZRecognizer
    /// `[line][position]`: the network's probability that the cell holds no character (covered,
    /// or past the text's end); empty for the templates, which cannot tell.
    var blank: [[Float]] = []
    /// `[line]`: the network's input windows of the line, one after another (28 × 32 floats each,
    /// normalized as the network saw them), for comparing a doubtful glyph with the document's own
    /// clear ones (``MRZOwnGlyphs``); empty for the templates and for fused frames.
    var windows: [[Float]] = []
    /// `[line][position]`: each window's spread of gray levels before normalizing, and how much of
    /// its cell lies outside the image: with ``windows``, what another network needs to read the
    /// same cells (``rescored(by:)``). Empty where `windows` is.
    var spreads: [[Float]] = []
    var outside: [[Double]] = []

    /// The same windows read by another network (the hard-capture one): no strip cut again.
    /// `nil` without the network's windows, or when it cannot run.
    func rescored(by model: MRZGlyphModel) -> MRZScores? {
        guard recognizer == .network, !windows.isEmpty, spreads.count == windows.count, outside.count == windows.count else { return nil }
        return MRZLineReader.networkScores(format: format, windows: windows.flatMap { $0 }, spreads: spreads, outside: outside, model: model)
    }

    /// Whether there is evidence for every position of every line of `band` (none when its lines
    /// could not be cut out of the image).
    func isComplete(for band: MRZBand) -> Bool {
        evidence.count == band.lines.count && evidence.allSatisfy { $0.count == band.lineLength }
    }

    /// How many cells at the band's start and at its end hold no character on most lines: a
    /// band placed a few positions off its text (its first characters too faint to be found)
    /// shows blank cells at one end.
    var blankEnds: (leading: Int, trailing: Int) {
        guard let first = blank.first, !first.isEmpty else { return (0, 0) }
        let mean = first.indices.map { i in blank.reduce(Float(0)) { $0 + $1[i] } / Float(blank.count) }
        let leading = mean.prefix { $0 > 0.5 }.count
        let trailing = mean.reversed().prefix { $0 > 0.5 }.count
        return (leading, trailing)
    }
}
