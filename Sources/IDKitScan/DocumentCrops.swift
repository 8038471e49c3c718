import Foundation
import IDKitImage
import IDKitDocumentDetection

/// The pictures a backend stores of one document: the document straightened at a
/// stated resolution, its face photo and its holder's signature, in color.
public struct DocumentImages: Sendable {
    public var document: ColorImage?
    public var face: ColorImage?
    /// The face was found as a photo-shaped outline in the document (`false`: the format's
    /// nominal zone V).
    public var faceLocated: Bool
    /// The holder's signature (ICAO 9303 zone IV), where the layout has one on this side.
    public var signature: ColorImage? = nil
    /// The signature was found as the ink in zone IV (`false`: the nominal zone).
    public var signatureLocated: Bool = false
}

extension DocumentScanner {
    /// The crops of every document of `scan` (in `scan.documents` order) from the color image it
    /// was read from (``scanPages(file:color:)``). With an image redaction mode, the MRZ bands and
    /// barcodes are blacked out first, as in the annotation.
    public func crops(of scan: DocumentScan, in color: ColorImage, dpi: Double = 300) -> [DocumentImages] {
        var source = color
        if scan.redaction.redactsImage {
            var mask = GrayImage(width: color.width, height: color.height, pixels: [UInt8](repeating: 255, count: color.width * color.height))
            for d in scan.documents {
                scan.redaction.redact(&mask, regions: DocumentImageRegions(mrz: d.band?.inkQuad, barcodes: d.barcodes.map(\.quad),
                                                                          viz: d.vizQuads(redacting: scan.redaction)))
            }
            for i in 0..<(color.width * color.height) where mask.pixels[i] == 0 {
                source.pixels[3 * i] = 0; source.pixels[3 * i + 1] = 0; source.pixels[3 * i + 2] = 0
            }
        }
        return scan.documents.map { d in
            guard let detection = d.detection, let straightened = DocumentCropper.document(source, detection, dpi: dpi) else {
                return DocumentImages(document: nil, face: nil, faceLocated: false)
            }
            let gray = straightened.gray
            let face = DocumentCropper.faceRegion(in: gray, format: detection.format, hasMRZ: d.band != nil)
            let signature = DocumentCropper.signatureRegion(in: gray, format: detection.format, hasMRZ: d.band != nil)
            return DocumentImages(document: straightened, face: face.flatMap { DocumentCropper.cropped(straightened, $0.box) },
                                  faceLocated: face?.located ?? false,
                                  signature: signature.flatMap { DocumentCropper.cropped(straightened, $0.box, margin: 0.03) },
                                  signatureLocated: signature?.located ?? false)
        }
    }
}
