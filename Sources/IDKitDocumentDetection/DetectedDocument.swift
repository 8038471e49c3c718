internal import COpenCVShim
import Foundation
import IDKitImage
import IDKitMRZ
import IDKitMRZReading

/// One document found in an image.
public struct DetectedDocument: Sendable, Equatable {
    /// Top-left, top-right, bottom-right, bottom-left of the upright document (its MRZ at the
    /// bottom when it has one), in image pixels. They may lie outside the image when the document
    /// is cut by the frame.
    public var corners: Quadrilateral
    /// 0…1: how much of the outline follows edges in the image, lowered when its shape matches no
    /// document format, raised when an MRZ inside it sits where its format puts one.
    public var confidence: Double
    /// Mean width over mean height of the outline as seen (perspective shortens one pair of sides).
    public var widthHeightRatio: Double
    public var format: DocumentFormat
    /// The MRZ band inside the document (reading order), if one was found there.
    public var band: MRZBand?
    /// The outline was found in the image's edges; `false`: placed from the MRZ by the format's
    /// geometry, where no outline around it was found.
    public var outlineFound: Bool
    /// The share of its worst-supported side that lies on edges (0 for an outline placed from the
    /// MRZ alone): an outline with no MRZ or barcode in it is a document only with all four sides
    /// on edges.
    public var weakestSide: Double = 0

    public init(corners: Quadrilateral, confidence: Double, widthHeightRatio: Double, format: DocumentFormat, band: MRZBand? = nil,
                outlineFound: Bool, weakestSide: Double = 0) {
        self.corners = corners
        self.confidence = confidence
        self.widthHeightRatio = widthHeightRatio
        self.format = format
        self.band = band
        self.outlineFound = outlineFound
        self.weakestSide = weakestSide
    }

    /// Area in square pixels.
    public var area: Double { corners.area }
}
