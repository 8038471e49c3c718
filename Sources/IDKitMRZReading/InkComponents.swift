import IDKitImage

/// The ink components of one image per binarization window, at full and at half resolution, each
/// found on first use and kept: the band searches over one image share them. One search's: not
/// shared between threads.
final class InkComponents {
    let image: GrayImage
    private var halfImage: GrayImage?
    private var found: [Int: [Component]] = [:]

    /// How much darker than its neighborhood's mean a pixel must be to be ink (fraction, and gray
    /// levels): ``ConnectedComponents/find(in:radius:contrast:minimumDifference:maximumComponents:)``.
    let contrast: Double, minimumDifference: Int

    init(_ image: GrayImage, contrast: Double = 0.12, minimumDifference: Int = 12) {
        (self.image, self.contrast, self.minimumDifference) = (image, contrast, minimumDifference)
    }

    /// The image at half resolution (``MRZBandLocator/halved(_:)``).
    var half: GrayImage {
        if let halfImage { return halfImage }
        let made = MRZBandLocator.halved(image)
        halfImage = made
        return made
    }

    func components(radius: Int, halved: Bool) -> [Component] {
        let key = halved ? -radius : radius
        if let known = found[key] { return known }
        let made = ConnectedComponents.find(in: halved ? half : image, radius: radius, contrast: contrast, minimumDifference: minimumDifference)
        found[key] = made
        return made
    }
}
