import Foundation
import IDKitCore
import IDKitMRZ

extension DocumentScan {
    /// The `idkit scan --json` contract (docs/contracts.md): one object, one line.
    public func json(file: String) -> String {
        var w = JSONWriter(capacity: 8192)
        w.beginObject()
        w.key("file"); w.string(file)
        writeDocumentMembers(to: &w)
        w.key("quality")
        if let q = quality {
            w.beginObject()
            w.key("brightness"); Self.number(q.brightness, &w)
            w.key("sharpness"); if let s = q.sharpness { Self.number(s, &w) } else { w.null() }
            w.key("glare"); Self.number(q.glare, &w)
            w.key("mrzCharHeightPx"); if let h = q.mrzCharHeightPx { Self.number(h, &w) } else { w.null() }
            w.key("isSharp"); w.bool(q.isSharp)
            w.key("isGlareFree"); w.bool(q.isGlareFree)
            w.key("isAdequateResolution"); w.bool(q.isAdequateResolution)
            w.key("hints"); w.beginArray(); for h in q.hints { w.string(h) }; w.endArray()
            w.endObject()
        } else {
            w.null()
        }
        w.key("documents"); w.beginArray()
        for d in documents { w.beginObject(); d.writeDocumentMembers(to: &w); w.endObject() }
        w.endArray()
        w.key("sides"); writeSides(to: &w)
        w.key("timingsMs"); w.beginObject()
        for key in ["decode", "locate", "read", "barcodes", "detect", "viz", "front", "total"] {
            if let v = timingsMs[key] { w.key(dynamic: key); Self.number(v, &w) }
        }
        w.endObject()
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static func number(_ v: Double, _ w: inout JSONWriter, digits: Int = 3) { w.raw(Array(String(format: "%.\(digits)f", v).utf8)) }

    /// What one document says: its MRZ reading, barcodes and merged result, and its outline
    /// (`corners` top-left first, clockwise, in image pixels; `confidence`; `widthHeightRatio`;
    /// `documentFormat`; `crops`: the files `--crop` wrote).
    func writeDocumentMembers(to w: inout JSONWriter) {
        w.key("status"); w.string(status.rawValue)
        w.key("reason"); w.string(reason)
        w.key("reasonKind"); w.string(reasonKind)
        w.key("mrz")
        if let band {
            w.beginObject()
            w.key("format"); w.string((reading?.format ?? band.format).rawValue)
            w.key("quad"); w.beginArray()
            for p in band.quad.corners { w.beginArray(); Self.number(p.x, &w); Self.number(p.y, &w); w.endArray() }
            w.endArray()
            if let reading {
                w.key("lines"); w.beginArray(); for l in reading.lines { w.string(l) }; w.endArray()
                w.key("confidence"); w.beginArray()
                for line in reading.confidence { w.beginArray(); for c in line { Self.number(c, &w) }; w.endArray() }
                w.endArray()
                w.key("verified"); w.bool(reading.verified)
                w.key("unsureFields"); w.beginArray(); for f in reading.unsureFields { w.string(f) }; w.endArray()
                w.key("recognizer"); w.string(reading.recognizer.rawValue)
                w.key("checkDigitCorrections"); w.int(reading.checkDigitCorrections)
            }
            w.key("parsed")
            if let parsed { w.beginObject(); parsed.writeJSONMembers(to: &w); w.endObject() } else { w.null() }
            w.endObject()
        } else {
            w.null()
        }
        w.key("barcodes"); BarcodeReport.writeBarcodes(barcodes, to: &w)
        w.key("document")
        if let document, let data = try? DocumentScan.encoder.encode(document) { w.raw(Array(data)) } else { w.null() }
        // Corners only where the image shows the document's edges: an outline the format places
        // from the MRZ alone (none found around it: a crop inside the page, a page on a background
        // of its own color) is an estimate, not an outline, and gives none.
        w.key("corners")
        if let corners = outlineCorners {
            w.beginArray()
            for p in corners.corners { w.beginArray(); Self.number(p.x, &w); Self.number(p.y, &w); w.endArray() }
            w.endArray()
        } else {
            w.null()
        }
        w.key("confidence"); if let detection { Self.number(detection.confidence, &w) } else { w.null() }
        w.key("widthHeightRatio"); if let detection { Self.number(detection.widthHeightRatio, &w) } else { w.null() }
        w.key("documentFormat"); if let detection { w.string(detection.format.rawValue) } else { w.null() }
        w.key("crops"); w.beginObject()
        for key in ["document", "face", "signature"] {
            w.key(dynamic: key)
            if let path = crops[key] { w.string(path) } else { w.null() }
        }
        w.endObject()
        w.key("viz"); writeVIZ(to: &w)
    }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()
}
