import IDKitImage

/// The ink components of one image per binarization window, at full and at half resolution, each
/// found on first use and kept: the band searches over one image share them. One search's: not
/// shared between threads.
final class InkComponents {
    let image: GrayImage
    private var halfImage: GrayImage?
    private var found: [Int: [Component]] = [:]

    init(_ image: GrayImage) { self.image = image }

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
        let made = ConnectedComponents.find(in: halved ? half : image, radius: radius)
        found[key] = made
        return made
    }
}
