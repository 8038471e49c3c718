import Foundation
import IDKitImage
import IDKitMRZ

// The second recognizer's evidence averaged with the first's.
extension MRZScanner {
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
}
