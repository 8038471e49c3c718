import Foundation
import IDKitMRZ

/// Judges a doubtful character against the same document's own clear glyphs.
///
/// Issuers print OCR-B with their own printers and cuts: on one document the digit `0` is a narrow
/// upright oval and the letter `O` a round one, on another both are the same width; the recognizer,
/// trained on generated print, cannot know which document it is looking at and spreads its belief
/// over the pair. The document itself can: its dates hold digits only (ICAO 9303-3 §4.2: the
/// layout fixes the character class of every position) and its names and codes letters only, so
/// every such glyph the recognizer reads shows how *this* printer draws that symbol. A character in
/// a field that allows both (a document number, optional data) is compared with the document's own
/// examples of the two symbols the recognizer hesitates between, and the comparison adds evidence.
///
/// The evidence is a log-likelihood ratio from the document's own spread: each example is compared
/// with the others of its symbol (leave one out) and with the other symbol's, which gives where a
/// glyph of either symbol falls on the difference of the two similarities and how far that varies
/// on this document (a Gaussian per symbol, one spread). Where the two symbols look alike on this
/// document the means meet and the ratio stays near zero; it never exceeds ``cap``.
struct MRZOwnGlyphs: Sendable {
    /// The most a comparison may add to a pair's log-ratio, in nats.
    static let cap: Float = 8
    /// The spread is at least this (correlation units) and a quarter of the distance between the
    /// two means: a few examples that agree perfectly must not make a certainty.
    static let minimumSpread: Float = 0.02
    /// At most this many examples of a symbol (the clearest).
    static let maximumExamples = 8
    /// Examples: a letter the recognizer reads at this probability or better among the letters of
    /// a letters-only position (names, codes), a filler read so anywhere, and a digit in a
    /// digits-only position (dates, check digits) at 0.5 among the digits already (the class
    /// settles digit against letter, and a weakly read `0` there is just what shows how this
    /// printer's zeros look).
    static let clearProbability: Float = 0.9
    static let digitInDigitField: Float = 0.5
    /// Only pairs the recognizer hesitates between: the partner within this many nats of the top
    /// (``MRZDecoder/verificationMargin``: a pair further apart changes no verdict).
    static let consideredGap: Float = 6

    // The compared crop of a 28 × 32 window: 22 × 28 from (3, 2), shifted by up to a pixel.
    static let cropX = 3, cropY = 2, cropW = 22, cropH = 28

    /// `scores.evidence` with the comparisons added (unchanged without the network's windows).
    static func adapted(_ scores: MRZScores, classes: [[MRZCharacterClass]]) -> [[[Float]]] {
        let ww = MRZGlyphModel.windowWidth, wh = MRZGlyphModel.windowHeight, size = ww * wh
        guard !scores.windows.isEmpty, scores.windows.count == scores.evidence.count else { return scores.evidence }
        let symbols = MRZDecoder.symbols
        func isDigit(_ s: Int) -> Bool { (26..<36).contains(s) }
        // The top symbol of each position overall, and the examples of each symbol: the top
        // symbol within the position's class and its probability there. A date's `0` that the
        // recognizer takes for an `O` is still a zero, and shows how this printer draws zeros
        // (the reading is not verified then anyway: the class overruled the recognizer there).
        var top: [[Int]] = []
        var examples: [Int: [(MRZPosition, Float)]] = [:]
        let classSymbols = MRZDecoder.classSymbolList
        for (l, line) in scores.evidence.enumerated() {
            top.append(line.map { e in e.indices.max { e[$0] < e[$1] }! })
            guard l < classes.count else { continue }
            for (p, e) in line.enumerated() where p < classes[l].count && (p + 1) * size <= scores.windows[l].count {
                if l < scores.blank.count, p < scores.blank[l].count, scores.blank[l][p] > 0.5 { continue }
                let c = classes[l][p], allowed = classSymbols[c]!
                guard let s = allowed.max(by: { e[$0] < e[$1] }) else { continue }
                let pr = 1 / allowed.reduce(Float(0)) { $0 + exp(e[$1] - e[s]) }
                let fits = isDigit(s) ? (c == .digit || c == .digitOrFiller) && pr >= digitInDigitField
                    : s < 26 ? c == .letterOrFiller && pr >= clearProbability
                    : pr >= clearProbability && top[l][p] == s
                if fits { examples[s, default: []].append((MRZPosition(line: l, column: p), pr)) }
            }
        }
        for s in examples.keys {
            examples[s] = Array(examples[s]!.sorted { $0.1 > $1.1 }.prefix(maximumExamples))
        }
        // Each glyph's crop at the nine shifts of a pixel (zero mean, unit norm), made on first use.
        var crops: [MRZPosition: [[Float]]] = [:]
        func shifted(_ at: MRZPosition) -> [[Float]] {
            if let c = crops[at] { return c }
            let base = at.column * size
            let made: [[Float]] = scores.windows[at.line].withUnsafeBufferPointer { w in
                (0..<9).map { k in
                    let dx = k % 3 - 1, dy = k / 3 - 1
                    var out = [Float](repeating: 0, count: cropW * cropH)
                    var mean: Float = 0
                    for r in 0..<cropH {
                        let row = base + (cropY + dy + r) * ww + cropX + dx
                        for c in 0..<cropW { out[r * cropW + c] = w[row + c]; mean += w[row + c] }
                    }
                    mean /= Float(out.count)
                    var norm: Float = 0
                    for i in out.indices { out[i] -= mean; norm += out[i] * out[i] }
                    let inv = norm > 1e-6 ? 1 / norm.squareRoot() : 0
                    for i in out.indices { out[i] *= inv }
                    return out
                }
            }
            crops[at] = made
            return made
        }
        func glyphs(_ of: [MRZPosition]) -> Glyphs { Glyphs(positions: of, crops: of.map(shifted)) }

        var evidence = scores.evidence
        var pairs: [PairKey: PairModel?] = [:]
        for l in scores.evidence.indices where l < classes.count {
            for p in scores.evidence[l].indices where p < classes[l].count && (p + 1) * size <= scores.windows[l].count {
                let here = MRZPosition(line: l, column: p)
                let a = top[l][p], e = scores.evidence[l][p]
                // A covered cell shows no glyph to compare (its evidence is flat on purpose).
                if l < scores.blank.count, p < scores.blank[l].count, scores.blank[l][p] > 0.5 { continue }
                for b in 0..<MRZDecoder.symbols.count where b != a && MRZDecoder.confusable.contains(a * 64 + b) {
                    guard classes[l][p].contains(symbols[a]), classes[l][p].contains(symbols[b]),
                          e[a] - e[b] < consideredGap else { continue }
                    let exA = (examples[a] ?? []).map(\.0), exB = (examples[b] ?? []).map(\.0)
                    // The glyph itself is left out of the examples it is judged by.
                    let key = PairKey(a: a, b: b, without: exA.contains(here) || exB.contains(here) ? here : nil)
                    if pairs[key] == nil {
                        pairs[key] = PairModel(glyphs(exA.filter { $0 != here }), glyphs(exB.filter { $0 != here }))
                    }
                    guard let model = pairs[key]! else { continue }
                    // Positive: the glyph is `a` rather than `b`.
                    evidence[l][p][b] -= model.ratio(shifted(here))
                }
            }
        }
        return evidence
    }

    struct PairKey: Hashable {
        var a: Int, b: Int
        var without: MRZPosition?
    }

    /// A symbol's examples on the document: where they stand and their crops at the nine shifts.
    struct Glyphs {
        var positions: [MRZPosition]
        var crops: [[[Float]]]

        /// The mean of the unshifted crops (all, or all but example `k`), unit norm.
        func template(without k: Int? = nil) -> [Float]? {
            guard let first = crops.first else { return nil }
            var t = [Float](repeating: 0, count: first[4].count)
            for (i, c) in crops.enumerated() where i != k { for j in t.indices { t[j] += c[4][j] } }
            let norm = t.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return norm > 1e-6 ? t.map { $0 / norm } : nil
        }
    }

    /// Best correlation of a glyph (nine shifted crops) with a template.
    static func similarity(_ glyph: [[Float]], _ t: [Float]) -> Float {
        var best: Float = -1
        for g in glyph {
            var s: Float = 0
            for i in g.indices { s += g[i] * t[i] }
            best = max(best, s)
        }
        return best
    }

    /// Two symbols as this document prints them: where a glyph of each falls on the difference of
    /// its similarities to the two templates, and how much that varies.
    struct PairModel {
        var tA: [Float], tB: [Float]
        var muA: Float, muB: Float, spread: Float

        /// `nil` when the document has too few examples to tell (one of each at least, and two
        /// of one of them) or they do not tell the symbols apart.
        init?(_ a: Glyphs, _ b: Glyphs) {
            guard !a.crops.isEmpty, !b.crops.isEmpty, a.crops.count + b.crops.count >= 3,
                  let tA = a.template(), let tB = b.template() else { return nil }
            // Where the examples fall, each compared with the others of its symbol.
            var dA: [Float] = [], dB: [Float] = []
            if a.crops.count >= 2 {
                for (k, g) in a.crops.enumerated() {
                    if let t = a.template(without: k) { dA.append(MRZOwnGlyphs.similarity(g, t) - MRZOwnGlyphs.similarity(g, tB)) }
                }
            }
            if b.crops.count >= 2 {
                for (k, g) in b.crops.enumerated() {
                    if let t = b.template(without: k) { dB.append(MRZOwnGlyphs.similarity(g, tA) - MRZOwnGlyphs.similarity(g, t)) }
                }
            }
            func mean(_ v: [Float]) -> Float { v.reduce(0, +) / Float(v.count) }
            // A symbol with one example: assumed placed as the other's mirror image.
            let muA = dA.isEmpty ? -mean(dB) : mean(dA)
            let muB = dB.isEmpty ? -mean(dA) : mean(dB)
            guard muA > muB else { return nil }
            let squares = dA.reduce(0) { $0 + ($1 - muA) * ($1 - muA) } + dB.reduce(0) { $0 + ($1 - muB) * ($1 - muB) }
            let n = dA.count + dB.count
            spread = max((squares / Float(max(1, n - 1))).squareRoot(), MRZOwnGlyphs.minimumSpread, (muA - muB) / 4)
            (self.tA, self.tB, self.muA, self.muB) = (tA, tB, muA, muB)
        }

        /// The log-likelihood ratio of A over B for a glyph, within ±``MRZOwnGlyphs/cap``.
        func ratio(_ glyph: [[Float]]) -> Float {
            let d = MRZOwnGlyphs.similarity(glyph, tA) - MRZOwnGlyphs.similarity(glyph, tB)
            let llr = ((d - muB) * (d - muB) - (d - muA) * (d - muA)) / (2 * spread * spread)
            return max(-MRZOwnGlyphs.cap, min(MRZOwnGlyphs.cap, llr))
        }
    }
}
