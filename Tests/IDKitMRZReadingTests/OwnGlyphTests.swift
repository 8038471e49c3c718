import Foundation
import Testing
import IDKitMRZ
@testable import IDKitMRZReading

/// ``MRZOwnGlyphs``: a doubtful `0`/`O` judged against the document's own zeros (from its dates)
/// and its own letter O (from its name), with constructed windows and scores, not images.
@Suite struct OwnGlyphTests {
    static let symbols = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<")
    /// A Slovenian ID (../shared/testdata/mrz-real image 004): its optional data
    /// `0706966505468` has zeros at composite weights 3 and 7, so `O7O6…` passes every check digit.
    static let truth = ["I<SI<09999100180706966505468<<", "6606079F0807276SI<<<<<<<<<<<<0", "VZOREC<<TINA<<<<<<<<<<<<<<<<<<"]

    /// A 28 × 32 window (ink, as the network sees it) with a ring of half-width `rx` and
    /// half-height 11 around the cell's center, or a symbol-specific bar pattern for other
    /// symbols; a little deterministic noise, different in every cell.
    static func window(_ ch: Character, zeroWidth: Float, cell: Int) -> [Float] {
        var out = [Float](repeating: 0, count: 28 * 32)
        var state = UInt32(truncatingIfNeeded: cell &* 2_654_435_761 &+ 12345)
        func noise() -> Float { state = state &* 1_664_525 &+ 1_013_904_223; return Float(state >> 8) / Float(1 << 24) - 0.5 }
        let code = Int(ch.asciiValue!)
        for y in 0..<32 {
            for x in 0..<28 {
                let dx = Float(x) - 13.5, dy = Float(y) - 16
                var v: Float
                switch ch {
                case "0", "O":
                    let rx: Float = ch == "0" ? zeroWidth : 9
                    let r = ((dx / rx) * (dx / rx) + (dy / 11) * (dy / 11)).squareRoot()
                    v = abs(r - 1) < 0.18 ? 1 : 0
                case "<":
                    v = abs(abs(dx) * 0.8 - dy) < 1.2 && dx < 6 ? 1 : 0
                default:
                    v = (y + code) % 7 < 2 && abs(dx) < 7 && abs(dy) < 12 ? 1 : 0
                    if (x + code) % 5 == 0 && abs(dy) < 12 && abs(dx) < 8 { v = 1 }
                }
                out[y * 28 + x] = v + 0.15 * noise()
            }
        }
        return out
    }

    /// Scores that read `truth` with certainty except the optional data's two zeros, which the
    /// recognizer reads as `O` (+2.5 nats) and as a toss-up; windows drawn with `zeroWidth`.
    static func scores(zeroWidth: Float) -> MRZScores {
        var evidence = truth.map { line in
            line.map { ch -> [Float] in
                var v = [Float](repeating: -20, count: 37)
                v[symbols.firstIndex(of: ch)!] = 0
                return v
            }
        }
        let o = symbols.firstIndex(of: "O")!
        evidence[0][15][o] = 2.5
        evidence[0][17][o] = 0
        // The document's own zeros in its dates: the recognizer leans to `O` on one of them too.
        evidence[1][2][o] = -1
        let windows = truth.enumerated().map { l, line in
            line.enumerated().flatMap { p, ch in window(ch, zeroWidth: zeroWidth, cell: l * 100 + p) }
        }
        return MRZScores(format: .td1, evidence: evidence, recognizer: .network, windows: windows)
    }

    @Test func theDocumentsOwnZerosSettleTheOptionalData() {
        let o = Self.symbols.firstIndex(of: "O")!, zero = Self.symbols.firstIndex(of: "0")!
        let s = Self.scores(zeroWidth: 6)
        let adapted = MRZOwnGlyphs.adapted(s, classes: MRZFormat.td1.characterClasses)
        // The `O` the recognizer preferred by 2.5 nats is now well behind the zero.
        #expect(adapted[0][15][zero] - adapted[0][15][o] > 3)
        #expect(adapted[0][17][zero] - adapted[0][17][o] > 5)
        // A date's zero is not changed: its class allows no letter.
        #expect(adapted[1][2] == s.evidence[1][2])
        let r = MRZDecoder().decode(s)
        #expect(r.lines == Self.truth)
        #expect(!r.unsureFields.contains("optionalData1"))
        #expect(r.verified)
    }

    @Test func zerosPrintedLikeTheLetterOLeaveItUnsure() {
        // This printer's zeros are as wide as its O: nothing to tell them apart by.
        let s = Self.scores(zeroWidth: 9)
        let o = Self.symbols.firstIndex(of: "O")!, zero = Self.symbols.firstIndex(of: "0")!
        let adapted = MRZOwnGlyphs.adapted(s, classes: MRZFormat.td1.characterClasses)
        #expect(abs((adapted[0][15][zero] - adapted[0][15][o]) - (s.evidence[0][15][zero] - s.evidence[0][15][o])) < 1)
        let r = MRZDecoder().decode(s)
        #expect(!r.verified)
        #expect(r.unsureFields.contains("optionalData1"))
    }

    @Test func withoutWindowsTheEvidenceIsUnchanged() {
        var s = Self.scores(zeroWidth: 6)
        s.windows = []
        #expect(MRZOwnGlyphs.adapted(s, classes: MRZFormat.td1.characterClasses) == s.evidence)
    }
}
