import Foundation
import IDKitBarcode
import IDKitCore
import IDKitDocument
import IDKitImage
import IDKitMRZ
import IDKitScan

/// `POST /v1/barcode` and `POST /v1/scan`: an encoded image as the body (any format the image
/// layer reads: JPEG, PNG, PGM, BMP, TIFF, WebP, HEIC/HEIF, GIF), answered with the JSON of
/// `idkit barcode --json` and `idkit scan --json` for it, `"file": "-"`. An image that cannot be
/// decoded is a problem: 415 for a format the image layer does not read, 413 over the pixel or
/// size limit, 400 for a corrupt or empty one; a scan that finds nothing of a document (no MRZ,
/// no barcode, no outline) is 422 with the scan's `status` and `reason` as members.
enum ImageRoutes {
    /// 415 when the body has the signature of no format the image layer reads.
    static func unsupported(_ body: [UInt8]) -> HTTPResponse? {
        do { _ = try ImageDecoder.Format.required(body) } catch { return imageProblem(error) }
        return nil
    }

    static func imageProblem(_ error: ImageError, partLabel: String? = nil) -> HTTPResponse {
        let (slug, title): (String, String) = switch error.errorClass {
        case .unsupported: ("unsupported-image", "Unsupported image format")
        case .tooLarge: ("image-too-large", "Image too large")
        default: ("bad-image", "Unreadable image")
        }
        return Problem(error, slug: slug, title: title, detailPrefix: partLabel.map { $0 + ": " } ?? "").response
    }

    static func barcode(_ request: HTTPRequest) -> HTTPResponse {
        let pdf417: Bool
        do { pdf417 = try RouteOption.flag(request.query["pdf417"], "pdf417") ?? false } catch { return error.response }
        do { return .json(try BarcodeReport.json(imageData: request.body, pdf417: pdf417)) } catch { return imageProblem(error) }
    }

    static func scan(_ request: HTTPRequest, referenceDate: CalendarDate?, redaction: RedactionPolicy = .fixed(.none)) -> HTTPResponse {
        if let reason = DocumentScanner.modelError {
            var problem = Problem(status: ErrorClass.unavailable.httpStatus, slug: "model-unavailable", title: "MRZ recognizer unavailable", detail: reason)
            problem.kind = "modelUnavailable"
            return problem.response
        }
        let barcodes: Bool, wantsCrops: Bool, viz: Bool
        var date = referenceDate ?? .today
        do throws(Problem) {
            barcodes = try RouteOption.flag(request.query["barcodes"], "barcodes") ?? true
            wantsCrops = try RouteOption.flag(request.query["crops"], "crops") ?? false
            viz = try RouteOption.flag(request.query["viz"], "viz") ?? false
            date = try RouteOption.date(request.query["referenceDate"], "referenceDate") ?? date
        } catch { return error.response }
        if viz, let error = DocumentScanner.vizError {
            return Problem(error, slug: "viz-unavailable", title: "Visual zone reader unavailable").response
        }
        let scanner = DocumentScanner(readBarcodes: barcodes, referenceDate: date, redaction: redaction, readVIZ: viz)
        // Both sides of one card: two parts named `front` and `back` (`idkit scan --sides`).
        let names = Set(request.parts.map(\.name))
        if !names.isDisjoint(with: ["front", "back"]) {
            guard request.parts.count == 2, names == ["front", "back"] else {
                var problem = Problem(status: 400, slug: "bad-sides", title: "Bad sides",
                                      detail: "both sides of a card are two parts named 'front' and 'back'; found parts named "
                                          + request.parts.map { "'\($0.name)'" }.joined(separator: ", "))
                problem.kind = ErrorClass.invalidInput.rawValue
                return problem.response
            }
            if let error = DocumentScanner.vizError {
                return Problem(error, slug: "viz-unavailable", title: "Visual zone reader unavailable").response
            }
            var sides: [String: GrayImage] = [:]
            for (k, part) in request.parts.enumerated() {
                if let problem = unsupported(part.data) { return problem }
                do {
                    sides[part.name] = try scanner.uprightImage(data: part.data)
                } catch {
                    return imageProblem(error, partLabel: "part \(k + 1) (\(part.name))")
                }
            }
            return answer(scanner.scan(front: sides["front"]!, back: sides["back"]!))
        }
        // Several frames of one document (multipart/form-data, one image per part, in order): their
        // per-character evidence added before decoding, as `idkit scan --fuse`.
        if !request.parts.isEmpty {
            var frames: [GrayImage] = []
            for (k, part) in request.parts.enumerated() {
                if let problem = unsupported(part.data) { return problem }
                do {
                    frames.append(try scanner.uprightImage(data: part.data))
                } catch {
                    return imageProblem(error, partLabel: "part \(k + 1) (\(part.name))")
                }
            }
            return answer(scanner.scan(frames: frames))
        }
        // Not an image the layer reads at all: said before scanning.
        if let problem = unsupported(request.body) { return problem }
        do { _ = try ImageDecoder.pageCount(request.body) } catch { return imageProblem(error) }
        var (scan, color) = wantsCrops ? scanner.scanKeepingColor(data: request.body) : (scanner.scan(data: request.body), nil)
        if scan.status == .unsupportedImage { return imageProblem(scan.imageError) }
        // ?crops: each document straightened at 300 dpi, its face and its signature, as base64 PNG
        // in `crops` (the command line writes files and names them there).
        if let color {
            for (k, images) in scanner.crops(of: scan, in: color).enumerated() where k < scan.documents.count {
                for (key, image) in [("document", images.document), ("face", images.face), ("signature", images.signature)] {
                    if let image, let png = try? ImageEncoder.png(image) { scan.documents[k].crops[key] = Data(png).base64EncodedString() }
                }
            }
            if let primary = scan.documents.first { scan.crops = primary.crops }
        }
        return answer(scan)
    }

    /// The scan's JSON, or 422 when it found nothing of a document.
    static func answer(_ scan: DocumentScan) -> HTTPResponse {
        let json = scan.json(file: "-")
        if scan.foundNothing {
            var problem = Problem(status: 422, slug: "no-document", title: "No document found",
                                  detail: scan.reason ?? "no MRZ, barcode or document outline in the image")
            problem.strings = [("scanStatus", scan.status.rawValue)]
            return problem.response
        }
        return HTTPResponse(status: 200, contentType: "application/json", body: Array(json.utf8) + [0x0A])
    }
}
