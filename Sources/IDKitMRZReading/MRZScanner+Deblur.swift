import IDKitImage
import IDKitMRZ

extension MRZScanner {
    /// The scan of `image` restored from its motion blur (``MotionBlur``), in `image`'s
    /// coordinates; `nil` when the blur is not one that smears an MRZ's characters.
    ///
    /// Only a noticeable blur (``MotionBlur/isNoticeable``) is restored: a sharp photo without an
    /// MRZ pays for the estimate alone. Where a band was found (`band`, read but not verified),
    /// only the region around it is restored and read, when its blur is between
    /// ``smearingBlur`` character heights: the estimate sees the zone's own print, and a large
    /// photo costs a fraction of restoring all of it.
    func deblurredScan(_ image: GrayImage, band: MRZBand?) -> Outcome? {
        guard let band else {
            guard let blur = image.motionBlur(), blur.isNoticeable, let sharper = image.deblurred(blur) else { return nil }
            return scan(sharper, located: locate(sharper), deblurs: false)
        }
        let h = band.characterHeight, corners = [band.quad.topLeft, band.quad.topRight, band.quad.bottomRight, band.quad.bottomLeft]
        // Wide enough for the blur's estimate to see print around the zone, and for a band found
        // as a shorter layout's (a TD3's middle, smeared at its ends) to hold the whole lines.
        let margin = 5 * h + Double(MRZFormat.td3.lineLength - band.lineLength) * band.pitch
        let x0 = Int((corners.map(\.x).min()! - margin).rounded(.down)), y0 = Int((corners.map(\.y).min()! - margin).rounded(.down))
        let x1 = Int((corners.map(\.x).max()! + margin).rounded(.up)), y1 = Int((corners.map(\.y).max()! + margin).rounded(.up))
        let region = image.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        let origin = Point(x: Double(max(0, x0)), y: Double(max(0, y0)))
        guard let blur = region.motionBlur(), blur.isNoticeable, Self.smearingBlur.contains(blur.length / h),
              let sharper = region.deblurred(blur) else { return nil }
        var next = scan(sharper, located: locate(sharper), deblurs: false)
        next.band = next.band?.translated(by: origin)
        return next
    }

    /// The blur, in character heights, that smears an MRZ's characters without wiping them out
    /// (ICAO 9303 print: a character's strokes stand about a third of its height apart).
    static let smearingBlur = 0.3...1.3
}
