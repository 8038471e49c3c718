import Foundation
import IDKitImage
import IDKitMRZ
import IDKitMRZReading

// The document placed around an MRZ by its format's geometry.
extension DocumentDetector {
    /// The document placed around an MRZ by its format's geometry: the characters 2.54 mm apart
    /// (ICAO 9303-3 §4.2), the first character's center and the last line's center where documents
    /// print them (``MRZPlacement``), the page as wide as tall per millimeter as the MRZ is along its
    /// lines (the line spacing, which issuers vary from 4.2 to 6.7 mm, gives only the direction
    /// down the page). An estimate (issuers place the MRZ within a millimeter or two), reported
    /// with low confidence and moved onto the image's edges where they line up.
    package static func placed(from band: MRZBand) -> DetectedDocument? {
        let format = DocumentFormat(mrz: band.format)
        guard let size = format.millimeters, let first = band.lines.first, let last = band.lines.last else { return nil }
        let placement = MRZPlacement(band.format)
        let n = Double(band.lineLength)
        let startX = placement.firstCenterFromLeft, endX = startX + (n - 1) * 2.54
        let lastY = size.height - placement.lastCenterAboveBottom
        // The band's line ends are character centers: an affine map from millimeters to pixels.
        let ex = Point(x: (first.end.x - first.start.x) / (endX - startX), y: (first.end.y - first.start.y) / (endX - startX))
        let scale = hypot(ex.x, ex.y)
        var down = Point(x: -ex.y / scale, y: ex.x / scale)
        if band.lines.count > 1 {
            // Down the page as the lines follow one another (a camera's shear), if it agrees.
            let across = unit(sub(last.start, first.start))
            if dot(across, down) > 0.9 { down = across }
        }
        let ey = Point(x: down.x * scale, y: down.y * scale)
        let origin = last.start
        func map(_ x: Double, _ y: Double) -> Point {
            Point(x: origin.x + ex.x * (x - startX) + ey.x * (y - lastY), y: origin.y + ex.y * (x - startX) + ey.y * (y - lastY))
        }
        let corners = Quadrilateral(topLeft: map(0, 0), topRight: map(size.width, 0), bottomRight: map(size.width, size.height),
                                    bottomLeft: map(0, size.height))
        return DetectedDocument(corners: corners, confidence: 0.4, widthHeightRatio: size.width / size.height, format: format,
                                band: band, outlineFound: false)
    }
}
