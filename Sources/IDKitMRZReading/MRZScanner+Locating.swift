import Foundation
import IDKitImage
import IDKitMRZ

// The band searches (looks) and where they found bands.
extension MRZScanner {
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
    /// can chain: for small print only (``MRZBandLocator/enlargedPrint``), which halves what an
    /// image without an MRZ spends there; the shrunk real specimens read as exactly as before.
    public func locate(_ image: GrayImage) -> Located {
        let looks = Self.looks(image)
        for (k, look) in looks.enumerated() where look.searches {
            let bands = look.bands()
            if !bands.isEmpty { return Located(bands: bands, looksRun: k + 1) }
        }
        if image.width * image.height < Self.smallImagePixels, let enlarged = Self.enlarged(image) {
            return Located(bands: MRZBandLocator.enlargedPrint.locate(in: enlarged).map { $0.scaled(by: 0.5) }, looksRun: looks.count)
        }
        return Located(bands: [], looksRun: looks.count)
    }

    /// The band searches, in the order they are tried: the image as it is; the ink thickened by
    /// a pixel (`darkened3x3`: faded or thin print whose strokes break into specks holds
    /// together); thinned (`lightened3x3`: spread ink whose characters touch comes apart); and
    /// thickened again with lines built of short pieces (``MRZBandLocator/fragmentedPrint``: thin
    /// light print on a patterned page, where some characters stay broken whatever the ink);
    /// thickened twice over at half the contrast (starved print); and the ink's depth below the
    /// paper (starved print on a guilloche as light and dark as its ink).
    /// The thickened image and its ink components are made once for both looks that search it.
    /// ``locate(_:)`` stops at the first that finds a band; ``scan(_:located:)`` reads the bands
    /// of the looks after it when those give nothing valid.
    package static func looks(_ image: GrayImage) -> [Look] {
        let darkened = Memo { InkComponents(image.darkened3x3()) }
        return [Look { MRZBandLocator().locate(in: image) },
                Look { MRZBandLocator().locate(in: darkened.value) },
                // After the plain and the thickened looks found nothing, the thinned one finds no
                // band either (on the real specimens, bench-scan's photos and the stress images) and
                // would add much to the search of a photo without an MRZ (the locator prefers
                // MRZ-length lines to a text line touching the MRZ). Its bands are still read when
                // those of the looks before read as no valid MRZ: some stress images read
                // differently without them.
                Look(searches: false) { MRZBandLocator().locate(in: image.lightened3x3()) },
                Look { MRZBandLocator.fragmentedPrint.locate(in: darkened.value) },
                // Starved print: strokes a pixel wide and a few gray levels dark, broken in
                // patches, of which the fillers keep only their point at the threshold above. With
                // the ink thickened twice (a 5 × 5 neighborhood) and half the contrast asked of a
                // pixel, each '<' holds together as one. Its bands are read after another look's
                // read as no valid MRZ too: on starved print the fragmented look finds pieces of
                // two lines as a band of the wrong layout (a TD1's two lines as a TD2).
                Look {
                    MRZBandLocator.fragmentedPrint.locate(in: InkComponents(image.darkened3x3().darkened3x3(), contrast: 0.06, minimumDifference: 6))
                },
                // Starved print on a patterned page: strokes a pixel wide and 20-40 gray levels
                // dark on paper whose guilloche varies as much, which no threshold of the gray
                // separates. Their depth below the paper (``GrayImage/inkDepth(kernel:gain:)``:
                // the paper's closing by a square wider than a stroke) does, thickened by a pixel
                // as in the second look; the reading is made on the image itself. At full
                // resolution whatever the image's size: at half, starved print of 18-20 px in a
                // 1.5 MP photo is lost. A small image (under ``smallImagePixels``) is left to the
                // enlarged search: its print is small, and the square would close the gaps between
                // its characters. The look costs a photo without an MRZ 0-5 ms (the real
                // specimens cut above their MRZ).
                Look {
                    guard image.width * image.height >= smallImagePixels,
                          let depth = image.inkDepth(kernel: faintPrintKernel, gain: faintPrintGain) else { return [] }
                    return MRZBandLocator.evenPaper.locate(in: depth.darkened3x3())
                }]
    }

    /// Images under this many pixels are searched enlarged twice when no look finds a band
    /// (their characters are 6-9 px), and the look at the ink's depth skips them.
    static let smallImagePixels = 400_000

    /// The square (pixels) whose gray closing is the paper under starved print: wider than its
    /// strokes (1-3 px), narrower than a guilloche's waves and than the gaps of 14 px characters.
    static let faintPrintKernel = 7
    /// How many times its depth below the paper a faint stroke is darkened.
    static let faintPrintGain = 3

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
}
