import Foundation
import IDKitMRZ

extension DocumentInput {
    /// The largest merge input accepted (an MRZ, a barcode payload of a few KB, two small maps and
    /// a chip's files with a face of a few hundred KB fit many times over); beyond it the input is
    /// refused before it is parsed.
    public static let maximumJSONSize = 8 << 20

    /// Reads `{"mrz": "l1\nl2" | ["l1", "l2"], "barcode": base64, "viz": {"front": {…}, "back": {…}},
    /// "chip": [base64, …], "referenceDate": "YYYY-MM-DD"}`. Every key is optional; an unknown key, a wrong type or bad
    /// base64 is an error that names the key.
    public init(json: [UInt8]) throws(DocumentError) {
        guard json.count <= Self.maximumJSONSize else {
            throw DocumentError(.invalidInput, "input: \(json.count) bytes, more than the \(Self.maximumJSONSize)-byte limit for a merge input")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(json))
        } catch {
            let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
            throw DocumentError(.invalidInput, "input: not valid JSON (\(detail))")
        }
        guard let top = object as? [String: Any] else {
            throw DocumentError(.invalidInput, "input: expected a JSON object at the top level")
        }
        self.init()
        for (key, value) in top {
            switch key {
            case "mrz":
                if let text = value as? String {
                    mrz = text.split(whereSeparator: \.isNewline).map(String.init)
                } else if let lines = value as? [Any], lines.allSatisfy({ $0 is String }) {
                    mrz = lines.map { $0 as! String }
                } else if !(value is NSNull) {
                    throw DocumentError(.invalidInput, "mrz: expected a string or an array of strings")
                }
            case "barcode":
                if value is NSNull { continue }
                guard let text = value as? String else { throw DocumentError(.invalidInput, "barcode: expected a base64 string") }
                guard let bytes = Base64.decode(text.filter { !$0.isWhitespace }) else {
                    throw DocumentError(.invalidBarcode, "barcode: not valid base64")
                }
                barcode = bytes
            case "chip":
                if value is NSNull { continue }
                guard let items = value as? [Any] else { throw DocumentError(.invalidInput, "chip: expected an array of base64 strings (EF.SOD and the data groups)") }
                chip = try items.enumerated().map { (i, item) throws(DocumentError) -> [UInt8] in
                    guard let text = item as? String else { throw DocumentError(.invalidInput, "chip[\(i)]: expected a base64 string") }
                    guard let bytes = Base64.decode(text.filter { !$0.isWhitespace }) else { throw DocumentError(.invalidChip, "chip[\(i)]: not valid base64") }
                    return bytes
                }
            case "viz":
                guard let sides = value as? [String: Any] else { throw DocumentError(.invalidInput, "viz: expected an object with \"front\" and/or \"back\"") }
                for (side, fields) in sides {
                    guard side == "front" || side == "back" else {
                        throw DocumentError(.invalidInput, "viz.\(side): unknown side; expected \"front\" or \"back\"")
                    }
                    guard let map = fields as? [String: Any] else { throw DocumentError(.invalidInput, "viz.\(side): expected an object of field → string") }
                    var names: [String: String] = [:]
                    for (name, v) in map {
                        if v is NSNull { continue }
                        guard let s = v as? String else { throw DocumentError(.invalidInput, "viz.\(side).\(name): expected a string") }
                        names[name] = s
                    }
                    let reading = try VIZReading(names: names, side: "viz.\(side)")
                    if side == "front" { vizFront = reading } else { vizBack = reading }
                }
            case "referenceDate":
                guard let text = value as? String, let date = CalendarDate(iso8601: text) else {
                    throw DocumentError(.invalidInput, "referenceDate: expected a date YYYY-MM-DD")
                }
                referenceDate = date
            default:
                throw DocumentError(.invalidInput, "\(key): unknown key; expected mrz, barcode, viz, chip, referenceDate")
            }
        }
    }
}
