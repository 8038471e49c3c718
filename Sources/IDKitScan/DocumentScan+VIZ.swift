import Foundation
import IDKitCore
import IDKitDocument
import IDKitDocumentDetection
import IDKitImage
import IDKitVIZ

extension DocumentScan {
    /// The `viz` member: `null`, or `{"side", "fields": {NAME: {"text", "value", "confidence",
    /// "quad", "matchesMRZ"}}, "lines": [{"text", "confidence", "quad"}]}` with quads in the image's
    /// pixels. Under result redaction the lines are withheld (any of them may print a redacted
    /// value) and so are the redacted fields, the names together (``RedactionSettings/effectiveFields``).
    func writeVIZ(to w: inout JSONWriter) {
        Self.write(viz, toImage: pageToImage, side: Self.vizSide(detection?.format) == .vizBack ? "back" : "front",
                   redaction: redaction, to: &w)
    }

    /// A `viz` object: `side`, `fields` and `lines`, with quads mapped into the image by `toImage`.
    static func write(_ viz: VIZPage?, toImage: Homography?, side: String, redaction: RedactionSettings, to w: inout JSONWriter) {
        guard let viz, let toImage else { w.null(); return }
        func quad(_ b: VIZBox) {
            w.beginArray()
            for q in Self.quad(b, toImage).corners { w.beginArray(); Self.number(q.x, &w, digits: 1); Self.number(q.y, &w, digits: 1); w.endArray() }
            w.endArray()
        }
        let redacting = redaction.redactsResult
        let hidden = redacting ? redaction.effectiveFields : []
        w.beginObject()
        w.key("side"); w.string(side)
        w.key("fields"); w.beginObject()
        for name in DocumentFieldName.allCases where !hidden.contains(name) {
            guard let f = viz.fields[name] else { continue }
            w.key(dynamic: name.rawValue); w.beginObject()
            w.key("text"); w.string(f.text)
            w.key("value"); w.string(f.value)
            w.key("confidence"); Self.number(f.confidence, &w)
            w.key("quad"); quad(f.box)
            w.key("matchesMRZ"); if let m = f.matchesMRZ { w.bool(m) } else { w.null() }
            w.endObject()
        }
        w.endObject()
        w.key("lines"); w.beginArray()
        if !redacting {
            for line in viz.lines {
                w.beginObject()
                w.key("text"); w.string(line.text)
                w.key("confidence"); Self.number(line.confidence, &w)
                w.key("quad"); quad(line.box)
                w.endObject()
            }
        }
        w.endArray()
        w.endObject()
    }

    /// The quadrilaterals, in image pixels, of the visual zone's printed values of the fields
    /// `settings` redacts (the names together): what image redaction blacks out besides the MRZ.
    public func vizQuads(redacting settings: RedactionSettings) -> [Quadrilateral] {
        guard let viz, let toImage = pageToImage else { return [] }
        let fields = settings.effectiveFields
        return viz.fields.filter { fields.contains($0.key) }.map { Self.quad($0.value.box, toImage) }
    }

    /// The straightened page's pixels mapped into the image's, by the document's outline.
    var pageToImage: Homography? {
        guard let viz, let detection else { return nil }
        return Self.pageToImage(viz, corners: detection.corners)
    }

    /// `viz`'s page mapped onto the outline `corners` of the image it was read from.
    static func pageToImage(_ viz: VIZPage, corners: Quadrilateral) -> Homography? {
        Homography(from: DocumentScanner.pageCorners(width: viz.pageWidth, height: viz.pageHeight), to: corners.corners)
    }

    /// The `sides` member: `null` for a scan of one image; for both sides of a card `{"match",
    /// "matchedFields", "reason", "reasonKind", "swapped", "frontCorners", "front"}`, `front` a `viz`
    /// object of the front image (quads in its pixels).
    func writeSides(to w: inout JSONWriter) {
        guard let sides else { w.null(); return }
        w.beginObject()
        w.key("match"); if let m = sides.match { w.bool(m) } else { w.null() }
        w.key("matchedFields"); w.beginArray(); for f in sides.matchedFields { w.string(f.rawValue) }; w.endArray()
        w.key("reason"); if let r = sides.reason { w.string(r) } else { w.null() }
        w.key("reasonKind"); if let r = sides.reasonKind { w.string(r) } else { w.null() }
        w.key("swapped"); w.bool(sides.swapped)
        w.key("frontCorners")
        if let c = sides.frontCorners {
            w.beginArray()
            for p in c.corners { w.beginArray(); Self.number(p.x, &w); Self.number(p.y, &w); w.endArray() }
            w.endArray()
        } else {
            w.null()
        }
        w.key("front")
        let toImage = sides.front.flatMap { page in sides.frontCorners.flatMap { Self.pageToImage(page, corners: $0) } }
        Self.write(sides.front, toImage: toImage, side: "front", redaction: redaction, to: &w)
        w.endObject()
    }

    static func quad(_ b: VIZBox, _ toImage: Homography) -> Quadrilateral {
        let c = [Point(x: Double(b.left), y: Double(b.top)), Point(x: Double(b.right), y: Double(b.top)),
                 Point(x: Double(b.right), y: Double(b.bottom)), Point(x: Double(b.left), y: Double(b.bottom))].map(toImage.apply)
        return Quadrilateral(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
    }

    /// Which side of the document an image with its MRZ shows, as a source of the merge: ICAO
    /// 9303 puts a TD1 card's MRZ on its back, a passport's and a TD2 card's on the side with the
    /// portrait.
    static func vizSide(_ format: DocumentFormat?) -> DocumentSource { format == .td1 ? .vizBack : .vizFront }
}
