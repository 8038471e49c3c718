import Foundation
import IDKitCore
import IDKitDocument
import IDKitImage
import IDKitVIZ

extension DocumentScan {
    /// The `viz` member: `null`, or `{"side", "fields": {NAME: {"text", "value", "confidence",
    /// "quad", "matchesMRZ"}}, "lines": [{"text", "confidence", "quad"}]}` with quads in the image's
    /// pixels. Under result redaction the lines are withheld (any of them may print a redacted
    /// value) and so are the redacted fields, the names together (``RedactionSettings``'s links).
    func writeVIZ(to w: inout JSONWriter) {
        guard let viz, let detection else { w.null(); return }
        let rectangle = [Point(x: 0, y: 0), Point(x: Double(viz.pageWidth), y: 0),
                         Point(x: Double(viz.pageWidth), y: Double(viz.pageHeight)), Point(x: 0, y: Double(viz.pageHeight))]
        guard let toImage = Homography(from: rectangle, to: detection.corners.corners) else { w.null(); return }
        func number(_ v: Double, _ digits: Int) { w.raw(Array(String(format: "%.\(digits)f", v).utf8)) }
        func quad(_ b: VIZBox) {
            w.beginArray()
            for p in [Point(x: Double(b.left), y: Double(b.top)), Point(x: Double(b.right), y: Double(b.top)),
                      Point(x: Double(b.right), y: Double(b.bottom)), Point(x: Double(b.left), y: Double(b.bottom))] {
                let q = toImage.apply(p)
                w.beginArray(); number(q.x, 1); number(q.y, 1); w.endArray()
            }
            w.endArray()
        }
        let redacting = redaction.redactsResult
        var hidden = redacting ? redaction.fields : []
        if !hidden.isDisjoint(with: [.firstName, .lastName, .fullName]) { hidden.formUnion([.firstName, .lastName, .fullName]) }
        w.beginObject()
        // ICAO 9303: a TD1 card's MRZ is on its back; a passport's data page and a TD2 card carry
        // the MRZ on the side with the portrait.
        w.key("side"); w.string(detection.format == .td1 ? "back" : "front")
        w.key("fields"); w.beginObject()
        for name in DocumentFieldName.allCases where !hidden.contains(name) {
            guard let f = viz.fields[name] else { continue }
            w.key(dynamic: name.rawValue); w.beginObject()
            w.key("text"); w.string(f.text)
            w.key("value"); w.string(f.value)
            w.key("confidence"); number(f.confidence, 3)
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
                w.key("confidence"); number(line.confidence, 3)
                w.key("quad"); quad(line.box)
                w.endObject()
            }
        }
        w.endArray()
        w.endObject()
    }
}
