import IDKitImage

extension MRZLineReader {
    /// A line strip whose paper is lit unevenly evened out: a shadow cast over one end of the zone
    /// (a hand's or a phone's) darkens paper and ink alike, and the glyphs in it keep their
    /// contrast against their own paper but not against the lit part of the line, so that the
    /// recognizer's windows there (normalized one by one, with a floor on their spread) read as
    /// covered. Each pixel is divided by its paper's brightness: the strip's gray closing by a
    /// rectangle wider and taller than a stroke (``paperKernel``), which removes the glyphs and
    /// keeps the shadow, its soft edge and a finger over the line (larger than a glyph) as they
    /// are. A finger thus becomes flat paper and is still judged covered; evening a column by its
    /// brightest row instead would leave a fingertip's rim as a dark upright stroke that reads `1`.
    ///
    /// A strip whose paper is lit evenly to within ``unevenLighting`` is returned as it is:
    /// dividing by a level that only noise moves would change nothing but the noise.
    static func evened(_ strip: GrayImage) -> GrayImage {
        let w = strip.width, h = strip.height
        guard w > 0, h > 0 else { return strip }
        // Whether to even is judged by each column's brightest pixel within half the closing's
        // width (every column of a strip has paper above and below its glyph; at least as bright
        // as the closing's brightest there): blurred bold print, which the closing cannot remove
        // from the glyphs' rows, does not make a strip look unevenly lit, and an evenly lit strip
        // costs no closing.
        var columns = [UInt8](repeating: 0, count: w)
        for y in 0..<h {
            for x in 0..<w { columns[x] = max(columns[x], strip.pixels[y * w + x]) }
        }
        let reach = paperKernel / 2
        let papers = (0..<w).map { x in columns[max(0, x - reach)...min(w - 1, x + reach)].max() ?? 0 }
        guard let brightest = papers.max(), let darkest = papers.min(), brightest > 0,
              Double(darkest) < unevenLighting * Double(brightest),
              let paper = strip.closed(kernelWidth: paperKernel, kernelHeight: paperKernel) else { return strip }
        let top = Double(brightest)
        var out = strip.pixels
        for i in out.indices {
            out[i] = UInt8(min(255, (Double(strip.pixels[i]) * top / Double(max(paper.pixels[i], 1))).rounded()))
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// The closing's rectangle, in strip pixels (a character is ``OCRBClassifier/width`` wide):
    /// twice an OCR-B stroke's width at the strip's scale and more, so that no stroke survives it,
    /// and less than half a glyph, so that a shadow's edge stays where it is.
    static let paperKernel = 9

    /// The darkest column's paper, as a share of the brightest's, below which a strip is evened.
    /// A shadow over the zone darkens its paper to 8–25% of the lit part; along the lines of the
    /// real specimens in `../shared/testdata/mrz-real` it varies by less than a quarter (glare, a
    /// laminate's sheen, a phone's vignetting: 0.79 at the lowest).
    static let unevenLighting = 0.6
}
