import Foundation
import IDKitImage
import IDKitMRZ

/// Several frames of one document read as one: each character's evidence added across them.
extension MRZScanner {
    /// The most one frame's evidence counts against a symbol, relative to that frame's first
    /// choice (nats): e^4, the margin within which the verifier already treats an alternative as
    /// plausible. Frames of one document are not independent views of it (the same print, the
    /// same recognizer), and one blurred frame that reads a `0` as `O` e^7 likelier must not
    /// outvote two that read the `0`: summed unclipped it did (the generated frames of
    /// `TestVectors/images`); clipped, two frames that agree still add to e^8 against it.
    static let frameEvidenceFloor: Float = 4

    /// Several frames of the same document: per-character evidence added over the frames whose
    /// layout agrees with the first readable one (log-likelihoods add, each frame's floored at
    /// ``frameEvidenceFloor`` below its first choice), then decoded once.
    public func scan(frames: [GrayImage]) -> Outcome {
        let t0 = Date()
        var collected: [(MRZBand, MRZScores)] = []
        for frame in frames {
            if let s = scores(frame), collected.isEmpty || s.1.format == collected[0].1.format { collected.append(s) }
        }
        guard let first = collected.first else {
            return Outcome(band: nil, reading: nil, parsed: nil, locateMilliseconds: Date().timeIntervalSince(t0) * 1000, readMilliseconds: 0)
        }
        let fused = Self.fused(collected.map(\.1))
        let reading = MRZDecoder().decode(fused)
        return Self.asRead(Outcome(band: first.0, reading: reading, parsed: try? MRZParser().parse(lines: reading.lines),
                                   locateMilliseconds: Date().timeIntervalSince(t0) * 1000, readMilliseconds: 0))
    }

    /// The frames' evidence added position by position and symbol by symbol, each frame's floored
    /// at ``frameEvidenceFloor`` below its own first choice. The frames must share a layout.
    static func fused(_ frames: [MRZScores]) -> MRZScores {
        var fused = frames[0]
        fused.windows = []            // the evidence is several frames', the windows one frame's
        for (l, line) in fused.evidence.enumerated() {
            for (p, _) in line.enumerated() {
                let tops = frames.map { $0.evidence[l][p].max() ?? 0 }
                for s in 0..<OCRBClassifier.symbolCount {
                    fused.evidence[l][p][s] = zip(frames, tops).reduce(0) { sum, frame in
                        sum + max(frame.0.evidence[l][p][s], frame.1 - frameEvidenceFloor)
                    }
                }
            }
        }
        return fused
    }
}
