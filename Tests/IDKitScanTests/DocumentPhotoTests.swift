import Foundation
import Testing
import IDKitImage
import IDKitMRZ
import IDKitTestSupport
@testable import IDKitMRZReading
@testable import IDKitDocumentDetection
@testable import IDKitScan

/// `TestVectors/images/documents/manifest.json` (`make_images.py --pairs`, seeded): photos of a
/// passport page and a card side by side, each document's corners in reading order, its layout and
/// its MRZ lines (`null` for a card photographed from the front) and its signature box.
struct DocumentPhotos: Decodable, Sendable {
    struct Document: Decodable, Sendable {
        var layout: String
        var lines: [String]?
        var corners: [[Double]]
        /// The signature's box (x0, y0, x1, y1) as fractions of the upright document; `nil` where
        /// the side shown has none.
        var signature: [Double]?
    }
    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var documents: [Document]
        var testDescription: String { file }
    }
    var images: [Entry]

    static let directory = ImageVectors.directory.appendingPathComponent("documents")
    static let all: [Entry] = try! JSONDecoder().decode(
        DocumentPhotos.self, from: Data(contentsOf: directory.appendingPathComponent("manifest.json"))).images
    /// `TestVectors/images/documents-header/` (`make_images.py --pairs DIR --count 40 --picks 23 34
    /// 35`): photos whose outline search closed a document's contour through the first letter of
    /// its header, a corner pulled 3–5% of the diagonal inside (the sides' refit on edges with the
    /// background beyond them puts it back).
    static let headerDirectory = ImageVectors.directory.appendingPathComponent("documents-header")
    static let header: [Entry] = try! JSONDecoder().decode(
        DocumentPhotos.self, from: Data(contentsOf: headerDirectory.appendingPathComponent("manifest.json"))).images
}

@Suite struct DocumentPhotoTests {
    let scanner = DocumentScanner(readBarcodes: false, referenceDate: CalendarDate(year: 2025, month: 1, day: 1))

    /// Mean distance of four corners, over the document's diagonal.
    static func cornerError(_ found: Quadrilateral, _ truth: [[Double]]) -> Double {
        let t = truth.map { Point(x: $0[0], y: $0[1]) }
        let diagonal = hypot(t[0].x - t[2].x, t[0].y - t[2].y)
        return zip(found.corners, t).map { hypot($0.x - $1.x, $0.y - $1.y) }.reduce(0, +) / 4 / diagonal
    }

    /// Every document of the photo found, corners within 2% of its diagonal in reading
    /// order, its format right, its own MRZ read, and the larger one primary.
    @Test(arguments: DocumentPhotos.all)
    func findsEveryDocumentWithItsOwnMRZ(_ photo: DocumentPhotos.Entry) throws {
        let scan = scanner.scan(file: DocumentPhotos.directory.appendingPathComponent(photo.file).path)
        #expect(scan.documents.count == photo.documents.count)
        for truth in photo.documents {
            let match = scan.documents.min { a, b in
                Self.cornerError(a.detection?.corners ?? Quadrilateral(topLeft: .init(x: 0, y: 0), topRight: .init(x: 0, y: 0),
                                                                     bottomRight: .init(x: 0, y: 0), bottomLeft: .init(x: 0, y: 0)), truth.corners)
                    < Self.cornerError(b.detection?.corners ?? Quadrilateral(topLeft: .init(x: 0, y: 0), topRight: .init(x: 0, y: 0),
                                                                              bottomRight: .init(x: 0, y: 0), bottomLeft: .init(x: 0, y: 0)), truth.corners)
            }
            let found = try #require(match?.detection)
            #expect(Self.cornerError(found.corners, truth.corners) < 0.02, "\(truth.layout) corners \(found.corners)")
            if let lines = truth.lines {
                #expect(found.format.rawValue == truth.layout)
                #expect(match?.reading?.lines == lines)
                #expect(match?.status == .ok)
            } else {
                // A card's front: no MRZ, the format from its shape (ID-1 is 1.586 wide for 1; ID-2
                // and ID-3 share 1.42 and are not told apart by shape).
                #expect(found.format.rawValue == (truth.layout == "TD1" ? "TD1" : "unknown"))
                #expect(match?.status == .mrzNotFound)
            }
        }
        // The primary (the scan itself) is the larger document, the first of the truth.
        let primary = try #require(scan.detection)
        #expect(Self.cornerError(primary.corners, photo.documents[0].corners) < 0.02)
        #expect(scan.documents.first?.detection == scan.detection)
    }

    /// Every document right by the real specimens' judge (`OutlineJudge`: every corner within 2% of
    /// the diagonal), none more, where a header's first letter lies near a corner.
    @Test(arguments: DocumentPhotos.header)
    func cornersStayOffTheHeader(_ photo: DocumentPhotos.Entry) {
        let scan = scanner.scan(file: DocumentPhotos.headerDirectory.appendingPathComponent(photo.file).path)
        let label = OutlineLabels.Image(file: photo.file, imageSize: [], documents: photo.documents.map {
            OutlineLabels.Document(corners: $0.corners, hasMRZ: $0.lines != nil, cut: nil)
        })
        let judged = OutlineJudge.judge(label, entries: scan.documents.map { $0.outlineCorners.map { $0.corners.map { [$0.x, $0.y] } } })
        #expect(judged.documents == [.right, .right], "corner errors \(judged.errors)")
        #expect(judged.extra == 0)
    }

    /// The holder's signature (ICAO 9303 zone IV) found as the ink of its zone, not only
    /// the zone, on every straightened document whose layout has one on the side shown; none on a
    /// TD1 card's MRZ side.
    @Test(arguments: DocumentPhotos.all)
    func signatureIsTheInkOfZoneIV(_ photo: DocumentPhotos.Entry) throws {
        let path = DocumentPhotos.directory.appendingPathComponent(photo.file).path
        let scan = scanner.scan(file: path)
        let color = try ImageDecoder.decodeColorPage(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).image
        var checked = 0
        for truth in photo.documents {
            guard let match = scan.documents.first(where: { $0.detection.map { Self.cornerError($0.corners, truth.corners) < 0.02 } ?? false }),
                  let detection = match.detection else { continue }
            let straight = try #require(DocumentCropper.document(color, detection))
            let region = DocumentCropper.signatureRegion(in: straight.gray, format: detection.format, hasMRZ: match.band != nil)
            if detection.format == .td1 && match.band != nil { #expect(region == nil) }
            guard let box = truth.signature, let region else { continue }
            #expect(region.located)
            let w = Double(straight.width), h = Double(straight.height)
            let t = (x0: box[0] * w, y0: box[1] * h, x1: box[2] * w, y1: box[3] * h)
            let f = (x0: Double(region.box.x), y0: Double(region.box.y),
                     x1: Double(region.box.x + region.box.width), y1: Double(region.box.y + region.box.height))
            let overlap = max(0, min(t.x1, f.x1) - max(t.x0, f.x0)) * max(0, min(t.y1, f.y1) - max(t.y0, f.y0))
            let union = (t.x1 - t.x0) * (t.y1 - t.y0) + (f.x1 - f.x0) * (f.y1 - f.y0) - overlap
            // Half the union at least: the straightened page itself may be off by the corners'
            // 2% of the diagonal (25 px on a TD2 at 300 dpi), a signature a few millimeters tall.
            #expect(overlap / union > 0.5, "\(truth.layout) signature \(region.box) against \(t)")
            checked += 1
        }
        #expect(checked >= 1)
    }

    @Test func scanJSONCarriesTheDocuments() throws {
        let photo = DocumentPhotos.all[0]
        let scan = scanner.scan(file: DocumentPhotos.directory.appendingPathComponent(photo.file).path)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(scan.json(file: photo.file).utf8)) as? [String: Any])
        let corners = try #require(object["corners"] as? [[Double]])
        #expect(corners.count == 4)
        #expect(Self.cornerError(Quadrilateral(topLeft: Point(x: corners[0][0], y: corners[0][1]), topRight: Point(x: corners[1][0], y: corners[1][1]),
                                               bottomRight: Point(x: corners[2][0], y: corners[2][1]), bottomLeft: Point(x: corners[3][0], y: corners[3][1])),
                                  photo.documents[0].corners) < 0.02)
        #expect(object["documentFormat"] as? String == photo.documents[0].layout)
        #expect((object["widthHeightRatio"] as? Double).map { abs($0 - 1.42) < 0.08 } == true)
        let documents = try #require(object["documents"] as? [[String: Any]])
        #expect(documents.count == 2)
        #expect(documents.compactMap { $0["documentFormat"] as? String } == photo.documents.map(\.layout))
        #expect((documents[1]["mrz"] as? [String: Any])?["lines"] as? [String] == photo.documents[1].lines)
        let crops = try #require(object["crops"] as? [String: Any])
        #expect(crops["document"] is NSNull)
    }

    /// The capture hints, each on an image made to show it from a committed photo.
    @Test func captureHints() throws {
        let image = ImageVectors.image("clean-00-td3.jpg")
        #expect(scanner.scan(image).quality?.hints.contains { $0.hasPrefix("document") } == false)
        // Far: the photo (the document fills about 80% of it) in the middle of a frame nine times
        // its area: under the 15% share.
        var far = GrayImage(width: image.width * 3, height: image.height * 3, pixels: [UInt8](repeating: 90, count: image.width * image.height * 9))
        for y in 0..<image.height { for x in 0..<image.width { far.pixels[(y + image.height) * far.width + x + image.width] = image[x, y] } }
        let farHints = scanner.scan(far).quality?.hints ?? []
        #expect(farHints.contains("documentTooFar"))
        #expect(!farHints.contains("documentPartiallyVisible"))
        // Cut: the left third of the photo gone, document and all.
        let cut = image.cropped(x: image.width / 3, y: 0, width: image.width - image.width / 3, height: image.height)
        #expect(scanner.scan(cut).quality?.hints.contains("documentPartiallyVisible") == true)
        // Nothing: a flat gray frame.
        let blank = GrayImage(width: 800, height: 600, pixels: [UInt8](repeating: 128, count: 800 * 600))
        let nothing = scanner.scan(blank)
        #expect(nothing.quality?.hints.first == "documentNotDetected")
        #expect(nothing.documents.allSatisfy { $0.detection == nil })
    }

    @Test func tiltIsTheCornersDepartureFromSquare() {
        let square = [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 60), Point(x: 0, y: 60)]
        #expect(ImageQuality.cornerSkew(square) < 1e-9)
        let keystone = [Point(x: 20, y: 0), Point(x: 80, y: 0), Point(x: 100, y: 60), Point(x: 0, y: 60)]
        #expect(abs(ImageQuality.cornerSkew(keystone) - (90 - atan2(60.0, 20.0) * 180 / .pi)) < 1e-9)
    }

    /// The MRZ search inside one document's outline finds that document's MRZ; an outline that is
    /// nearly the whole frame is not searched again (the whole-image search has searched it with
    /// every look: on a frame without an MRZ that doubled the cost, for nothing).
    @Test func documentSearchSkipsTheWholeFrame() throws {
        let photo = try #require(DocumentPhotos.all.first { $0.documents.count == 2 && $0.documents.allSatisfy { $0.lines != nil } })
        let image = try ImageDecoder.decodeFile(atPath: DocumentPhotos.directory.appendingPathComponent(photo.file).path).image
        let truth = photo.documents[0]
        let c = truth.corners.map { Point(x: $0[0], y: $0[1]) }
        let outline = Quadrilateral(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
        let found = scanner.mrz(in: image, within: outline, scanner: MRZScanner())
        #expect(found?.reading?.lines == truth.lines)
        let w = Double(image.width), h = Double(image.height)
        let frame = Quadrilateral(topLeft: Point(x: 0, y: 0), topRight: Point(x: w, y: 0), bottomRight: Point(x: w, y: h), bottomLeft: Point(x: 0, y: h))
        #expect(scanner.mrz(in: image, within: frame, scanner: MRZScanner()) == nil)
        // A box just under the share is searched (and holds both documents: one of their MRZs is read).
        let inset = (1 - (DocumentScanner.wholeFrameShare - 0.02).squareRoot()) / 2
        let most = Quadrilateral(topLeft: Point(x: inset * w, y: inset * h), topRight: Point(x: (1 - inset) * w, y: inset * h),
                                 bottomRight: Point(x: (1 - inset) * w, y: (1 - inset) * h), bottomLeft: Point(x: inset * w, y: (1 - inset) * h))
        let read = try #require(scanner.mrz(in: image, within: most, scanner: MRZScanner())?.reading?.lines)
        #expect(photo.documents.contains { $0.lines == read })
    }
}
