import Foundation
import IDKitImage
import IDKitMRZ

// What the recognizer sees of a band, for the benchmark's debugging tools.
extension MRZScanner {
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
}
