import Foundation
import IDKitCore
import IDKitMRZ

extension DocumentScan {
    /// The `idkit scan --json` contract (README): one object, one line.
    public func json(file: String) -> String {
        let scan = self
        var w = JSONWriter(capacity: 8192)
        func number(_ v: Double) { w.raw(Array(String(format: "%.3f", v).utf8)) }
        w.beginObject()
        w.key("file"); w.string(file)
        w.key("status"); w.string(scan.status.rawValue)
        w.key("reason"); w.string(scan.reason)
        w.key("mrz")
        if let band = scan.band {
            w.beginObject()
            w.key("format"); w.string((scan.reading?.format ?? band.format).rawValue)
            w.key("quad"); w.beginArray()
            for p in band.quad.corners { w.beginArray(); number(p.x); number(p.y); w.endArray() }
            w.endArray()
            if let reading = scan.reading {
                w.key("lines"); w.beginArray(); for l in reading.lines { w.string(l) }; w.endArray()
                w.key("confidence"); w.beginArray()
                for line in reading.confidence { w.beginArray(); for c in line { number(c) }; w.endArray() }
                w.endArray()
                w.key("verified"); w.bool(reading.verified)
                w.key("unsureFields"); w.beginArray(); for f in reading.unsureFields { w.string(f) }; w.endArray()
                w.key("recognizer"); w.string(reading.recognizer.rawValue)
                w.key("checkDigitCorrections"); w.int(reading.checkDigitCorrections)
            }
            w.key("parsed")
            if let parsed = scan.parsed { w.beginObject(); parsed.writeJSONMembers(to: &w); w.endObject() } else { w.null() }
            w.endObject()
        } else {
            w.null()
        }
        w.key("quality")
        if let q = scan.quality {
            w.beginObject()
            w.key("brightness"); number(q.brightness)
            w.key("sharpness"); if let s = q.sharpness { number(s) } else { w.null() }
            w.key("glare"); number(q.glare)
            w.key("mrzCharHeightPx"); if let h = q.mrzCharHeightPx { number(h) } else { w.null() }
            w.key("isSharp"); w.bool(q.isSharp)
            w.key("isGlareFree"); w.bool(q.isGlareFree)
            w.key("isAdequateResolution"); w.bool(q.isAdequateResolution)
            w.key("hints"); w.beginArray(); for h in q.hints { w.string(h) }; w.endArray()
            w.endObject()
        } else {
            w.null()
        }
        w.key("barcodes"); BarcodeReport.writeBarcodes(scan.barcodes, to: &w)
        w.key("document")
        if let document = scan.document, let data = try? DocumentScan.encoder.encode(document) { w.raw(Array(data)) } else { w.null() }
        w.key("timingsMs"); w.beginObject()
        for key in ["decode", "locate", "read", "barcodes", "total"] {
            if let v = scan.timingsMs[key] { w.key(dynamic: key); number(v) }
        }
        w.endObject()
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()
}
