import IDKitCore
import IDKitMRZ

/// The elementary files of the LDS (ICAO 9303-10 §4.7) that IDKit reads, each from its bytes as
/// read from the chip. Every reader checks the file's tag and structure with ``BERTLV`` and says
/// what and where when they are wrong.
public enum LDSFile {
    /// The tag of each data group's file (9303-10 §4.6, table 34): DG1 `61` … DG16 `70`.
    public static let dataGroupTags: [Int: UInt32] = [1: 0x61, 2: 0x75, 3: 0x63, 4: 0x76, 5: 0x65, 6: 0x66, 7: 0x67, 8: 0x68,
                                                      9: 0x69, 10: 0x6A, 11: 0x6B, 12: 0x6C, 13: 0x6D, 14: 0x6E, 15: 0x6F, 16: 0x70]

    /// The data group a file is, from its first byte (`nil` for EF.COM, EF.SOD and anything else).
    public static func dataGroup(of bytes: [UInt8]) -> Int? {
        guard let first = bytes.first else { return nil }
        return dataGroupTags.first { $0.value == UInt32(first) }?.key
    }

    static func text(_ bytes: [UInt8], _ tlv: BERTLV) -> String { String(decoding: bytes[tlv.value], as: UTF8.self) }
}

/// EF.COM (9303-10 §4.6.1): LDS version, Unicode version and the data groups present.
public struct EFCOM: Sendable, Equatable {
    /// `"1.7"` (from `0107`), `"4.0.0"` (from `040000`).
    public let ldsVersion: String
    public let unicodeVersion: String
    public let dataGroups: [Int]

    public init(_ bytes: [UInt8]) throws(LDSError) {
        let file = try BERTLV.file(bytes, tag: 0x60, name: "EF.COM")
        let parts = try file.children(bytes)
        func value(_ tag: UInt32, _ what: String) throws(LDSError) -> BERTLV {
            guard let v = parts.first(where: { $0.tag == tag }) else { throw LDSError(.unexpectedTag, offset: file.offset, tag: 0x60, "EF.COM has no \(what) (\(BERTLV.hex(tag)))") }
            return v
        }
        let lds = LDSFile.text(bytes, try value(0x5F01, "LDS version")), unicode = LDSFile.text(bytes, try value(0x5F36, "Unicode version"))
        guard lds.count == 4, unicode.count == 6, (lds + unicode).allSatisfy(\.isNumber) else {
            throw LDSError(.invalidContent, offset: file.offset, tag: 0x60, "versions '\(lds)' and '\(unicode)' are not aabb and aabbcc digits")
        }
        func dotted(_ s: String) -> String {
            stride(from: 0, to: s.count, by: 2).map { i in String(Int(s.dropFirst(i).prefix(2))!) }.joined(separator: ".")
        }
        ldsVersion = dotted(lds)
        unicodeVersion = dotted(unicode)
        let list = try value(0x5C, "tag list")
        dataGroups = try bytes[list.value].map { tag throws(LDSError) -> Int in
            guard let dg = LDSFile.dataGroupTags.first(where: { $0.value == UInt32(tag) })?.key else {
                throw LDSError(.invalidContent, offset: list.value.lowerBound, tag: 0x5C, "the tag list names \(BERTLV.hex(UInt32(tag))), no data group's tag")
            }
            return dg
        }
    }
}

/// EF.DG1 (9303-10 §4.7.1): the MRZ as printed, parsed by IDKit's MRZ core.
public struct DataGroup1: Sendable {
    /// The MRZ's lines.
    public let lines: [String]
    public let mrz: MRZResult

    public init(_ bytes: [UInt8], referenceDate: CalendarDate = .today) throws(LDSError) {
        let file = try BERTLV.file(bytes, tag: 0x61, name: "EF.DG1")
        let data = try file.child(0x5F1F, in: bytes, of: "EF.DG1")
        let text = LDSFile.text(bytes, data)
        do {
            mrz = try MRZParser(referenceDate: referenceDate).parse(text)
        } catch {
            throw LDSError(.invalidContent, offset: data.value.lowerBound, tag: 0x5F1F, "the MRZ of EF.DG1: \(error.message)")
        }
        lines = mrz.lines
    }
}

/// EF.DG11 (additional personal details) and EF.DG12 (additional document details), 9303-10
/// §4.7.11 and §4.7.12: the elements present, by name, as text; other names (DG11) and other
/// persons (DG12) as lists.
public struct AdditionalDetails: Sendable, Equatable {
    public let fields: [(name: String, value: String)]
    public let others: [String]

    public static func == (a: Self, b: Self) -> Bool { a.fields.map(\.name) == b.fields.map(\.name) && a.fields.map(\.value) == b.fields.map(\.value) && a.others == b.others }

    static let dg11: [UInt32: String] = [0x5F0E: "fullName", 0x5F10: "personalNumber", 0x5F2B: "fullDateOfBirth", 0x5F11: "placeOfBirth",
                                         0x5F42: "address", 0x5F12: "telephone", 0x5F13: "profession", 0x5F14: "title",
                                         0x5F15: "personalSummary", 0x5F16: "proofOfCitizenship", 0x5F17: "otherValidTDNumbers",
                                         0x5F18: "custodyInformation"]
    static let dg12: [UInt32: String] = [0x5F19: "issuingAuthority", 0x5F26: "dateOfIssue", 0x5F1B: "endorsementsAndObservations",
                                         0x5F1C: "taxOrExitRequirements", 0x5F55: "personalizationTime",
                                         0x5F56: "personalizationDeviceSerialNumber"]

    /// `group`: 11 or 12.
    public init(_ bytes: [UInt8], group: Int) throws(LDSError) {
        let isDG11 = group == 11
        let file = try BERTLV.file(bytes, tag: isDG11 ? 0x6B : 0x6C, name: "EF.DG\(group)")
        let names = isDG11 ? Self.dg11 : Self.dg12
        var fields: [(name: String, value: String)] = []
        var others: [String] = []
        for element in try file.children(bytes) {
            if let name = names[element.tag] {
                fields.append((name, Self.value(bytes, element)))
            } else if element.tag == 0xA0 {
                // Other names (DG11: 5F0F) or other persons (DG12: 5F1A), after a count (02).
                for inner in try element.children(bytes, depth: 1) where inner.tag == (isDG11 ? 0x5F0F : 0x5F1A) {
                    others.append(LDSFile.text(bytes, inner))
                }
            }
            // 5C (the tag list) and the images of DG12 (5F1D, 5F1E) are not text.
        }
        self.fields = fields
        self.others = others
    }

    /// Dates are `yyyymmdd` text or, on some chips, four BCD bytes; text otherwise.
    static func value(_ bytes: [UInt8], _ element: BERTLV) -> String {
        let raw = bytes[element.value]
        if [0x5F26, 0x5F55, 0x5F2B].contains(element.tag), raw.count == 4 || raw.count == 7,
           raw.allSatisfy({ $0 >> 4 <= 9 && $0 & 0xF <= 9 }), !raw.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return raw.map { String(format: "%02x", $0) }.joined()
        }
        return String(decoding: raw, as: UTF8.self)
    }

    public func writeJSON(to w: inout JSONWriter, othersKey: StaticString) {
        w.beginObject()
        for (name, value) in fields { w.key(dynamic: name); w.string(value) }
        w.key(othersKey); w.beginArray()
        for o in others { w.string(o) }
        w.endArray()
        w.endObject()
    }
}

/// EF.DG2 (9303-10 §4.7.2): the facial images, each an ISO/IEC 19794-5 record ("FAC") inside a
/// biometric information template (`7F61` → `7F60` → `5F2E`/`7F2E`).
public struct DataGroup2: Sendable {
    public struct Face: Sendable {
        /// `"JPEG"` or `"JPEG2000"`.
        public let imageType: String
        public let width: Int
        public let height: Int
        /// The encoded image as stored.
        public let image: [UInt8]
    }

    public let faces: [Face]

    public init(_ bytes: [UInt8]) throws(LDSError) {
        let file = try BERTLV.file(bytes, tag: 0x75, name: "EF.DG2")
        let group = try file.child(0x7F61, in: bytes, of: "EF.DG2")
        var faces: [Face] = []
        for template in try group.children(bytes, depth: 1) where template.tag == 0x7F60 {
            guard let block = try template.children(bytes, depth: 2).first(where: { $0.tag == 0x5F2E || $0.tag == 0x7F2E }) else {
                throw LDSError(.unexpectedTag, offset: template.offset, tag: 0x7F60, "a biometric information template without its data block (5F2E or 7F2E)")
            }
            // 5F2E holds an ISO/IEC 19794-5 record as bytes; 7F2E (LDS 2) an ISO/IEC 39794-5 one as TLVs.
            faces += block.tag == 0x5F2E ? try Self.faces(in: Array(bytes[block.value]), at: block.value.lowerBound)
                                         : try Self.faces39794(bytes, block)
        }
        self.faces = faces
    }

    /// The faces of an ISO/IEC 39794-5:2019 record (DER, context tags): the data block `7F2E` holds
    /// `A1` → `FaceImageDataBlock` (`65`: `[0]` version, `[1]` representation blocks); each
    /// representation block (`30`) has `[1]` `ImageRepresentation` → `[0]` 2D → `[0]` its block:
    /// `[0]` the image, `[1]` `ImageInformation2DBlock` with `[0]` the data format (`[0]` code: 2
    /// JPEG, 3 and 4 JPEG 2000 lossy and lossless, 5 PNG) and, optionally, `[7]` the image size
    /// (`[0]` width, `[1]` height). Without that size, the image's own header gives it.
    static func faces39794(_ bytes: [UInt8], _ block: BERTLV) throws(LDSError) -> [Face] {
        func only(_ tag: UInt32, in parent: BERTLV, depth: Int, _ what: String) throws(LDSError) -> BERTLV {
            guard let found = try parent.children(bytes, depth: depth).first(where: { $0.tag == tag }) else {
                throw LDSError(.unexpectedTag, offset: parent.offset, tag: parent.tag, "the ISO/IEC 39794-5 record has no \(what) (\(BERTLV.hex(tag)))")
            }
            return found
        }
        func number(_ tlv: BERTLV) -> Int { bytes[tlv.value].prefix(4).reduce(0) { $0 << 8 | Int($1) } }
        let record = try only(0x65, in: try only(0xA1, in: block, depth: 3, "face image data block"), depth: 4, "FaceImageDataBlock (65)")
        let representations = try only(0xA1, in: record, depth: 5, "representation blocks")
        var faces: [Face] = []
        for representation in try representations.children(bytes, depth: 6) where representation.tag == 0x30 {
            let image2D = try only(0xA0, in: try only(0xA0, in: try only(0xA1, in: representation, depth: 7, "image representation"),
                                                     depth: 8, "2D image representation"), depth: 9, "2D image representation block")
            let data = try only(0x80, in: image2D, depth: 10, "image data")
            let information = try only(0xA1, in: image2D, depth: 10, "image information")
            let parts = try information.children(bytes, depth: 11)
            let format = try parts.first { $0.tag == 0xA0 }.map { f throws(LDSError) in try f.children(bytes, depth: 12).first { $0.tag == 0x80 }.map(number) } ?? nil
            let image = Array(bytes[data.value])
            let type: String = switch format {
            case 2: "JPEG"
            case 3, 4: "JPEG2000"
            case 5: "PNG"
            default: ImageHeader.type(image)
            }
            var size = ImageHeader.size(image)
            if let box = parts.first(where: { $0.tag == 0xA7 }) {
                let wh = try box.children(bytes, depth: 12)
                if let w = wh.first(where: { $0.tag == 0x80 }).map(number), let h = wh.first(where: { $0.tag == 0x81 }).map(number) { size = (w, h) }
            }
            faces.append(Face(imageType: type, width: size?.width ?? 0, height: size?.height ?? 0, image: image))
        }
        guard !faces.isEmpty else { throw LDSError(.invalidContent, offset: representations.offset, tag: 0xA1, "the ISO/IEC 39794-5 record holds no 2D image") }
        return faces
    }

    /// The faces of an ISO/IEC 19794-5:2005 record: "FAC\0", version, length, count, then per face
    /// a 20-byte facial header, 8 bytes per feature point, 12 bytes of image information, the image.
    static func faces(in r: [UInt8], at base: Int) throws(LDSError) -> [Face] {
        func u(_ at: Int, _ n: Int) throws(LDSError) -> Int {
            guard at >= 0, at + n <= r.count else { throw LDSError(.truncated, offset: base + at, tag: 0x5F2E, "the ISO/IEC 19794-5 record ends early") }
            return r[at..<(at + n)].reduce(0) { $0 << 8 | Int($1) }
        }
        guard r.count >= 14, Array(r.prefix(4)) == Array("FAC\0".utf8) else {
            throw LDSError(.invalidContent, offset: base, tag: 0x5F2E, "the biometric data block is not an ISO/IEC 19794-5 record (\"FAC\\0\"); ISO/IEC 39794-5 is not read yet")
        }
        let count = try u(12, 2)
        var at = 14
        var out: [Face] = []
        for _ in 0..<count {
            let length = try u(at, 4), points = try u(at + 4, 2)
            let info = at + 20 + 8 * points
            let dataType = try u(info + 1, 1), width = try u(info + 2, 2), height = try u(info + 4, 2)
            let start = info + 12, end = at + length
            guard length >= 32, end <= r.count, start <= end else {
                throw LDSError(.truncated, offset: base + at, tag: 0x5F2E, "a facial record of \(length) bytes does not fit the data block")
            }
            let image = Array(r[start..<end])
            // The bytes say what they are; the record's data type (0 JPEG, 1 JPEG 2000) otherwise.
            let seen = ImageHeader.type(image)
            let type = seen != "unknown" ? seen : (dataType == 1 ? "JPEG2000" : "JPEG")
            out.append(Face(imageType: type, width: width, height: height, image: image))
            at = end
        }
        return out
    }
}

/// EF.DG7 (9303-10 §4.7.7): the displayed signature or usual mark, one or more images (`5F43`),
/// each JPEG or JPEG 2000, after a count (`02`).
public struct DataGroup7: Sendable {
    public struct Image: Sendable {
        /// `"JPEG"`, `"JPEG2000"` or `"unknown"`.
        public let imageType: String
        /// From the image's own header; 0 when it does not say.
        public let width: Int
        public let height: Int
        public let image: [UInt8]
    }

    public let images: [Image]

    public init(_ bytes: [UInt8]) throws(LDSError) {
        let file = try BERTLV.file(bytes, tag: 0x67, name: "EF.DG7")
        let parts = try file.children(bytes)
        let count = try parts.first { $0.tag == 0x02 }.map { c throws(LDSError) in try c.integer(bytes, of: "the number of images") }
        images = parts.filter { $0.tag == 0x5F43 }.map { tlv in
            let image = Array(bytes[tlv.value])
            let size = ImageHeader.size(image)
            return Image(imageType: ImageHeader.type(image), width: size?.width ?? 0, height: size?.height ?? 0, image: image)
        }
        if let count, count != images.count {
            throw LDSError(.invalidContent, offset: file.offset, tag: 0x67, "EF.DG7 says \(count) images and holds \(images.count)")
        }
    }
}

/// What an image's first bytes say of its encoding and size: the JPEG 2000 file's `ihdr` box or
/// codestream `SIZ` marker (ISO/IEC 15444-1 Annexes A.5.1 and I.5.3.1), the JPEG `SOFn` marker
/// (ITU-T T.81 B.2.2). Only the header is read: decoding is OpenJPEG's and libjpeg's.
enum ImageHeader {
    static func type(_ image: [UInt8]) -> String {
        if image.starts(with: [0xFF, 0xD8]) { return "JPEG" }
        if image.starts(with: [0, 0, 0, 0x0C, 0x6A, 0x50]) || image.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) { return "JPEG2000" }
        if image.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "PNG" }
        return "unknown"
    }

    static func size(_ b: [UInt8]) -> (width: Int, height: Int)? {
        func u(_ at: Int, _ n: Int) -> Int? { at >= 0 && at + n <= b.count ? b[at..<(at + n)].reduce(0) { $0 << 8 | Int($1) } : nil }
        switch type(b) {
        case "JPEG2000":
            if b.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) {
                // SIZ: Lsiz, Rsiz, Xsiz, Ysiz, XOsiz, YOsiz.
                guard let x = u(8, 4), let y = u(12, 4), let x0 = u(16, 4), let y0 = u(20, 4), x > x0, y > y0 else { return nil }
                return (x - x0, y - y0)
            }
            // Boxes to the header box (jp2h), then its image header box (ihdr: height, width).
            var i = 0, end = b.count
            while let length = u(i, 4), let kind = u(i + 4, 4), i + 8 <= end {
                let size = length == 0 ? end - i : length
                guard size >= 8 else { return nil }
                if kind == 0x6A70_3268 { end = min(b.count, i + size); i += 8; continue }   // jp2h: descend
                if kind == 0x6968_6472, let h = u(i + 8, 4), let w = u(i + 12, 4) { return (w, h) }   // ihdr
                i += size
            }
            return nil
        case "JPEG":
            var i = 2
            while i + 4 <= b.count, b[i] == 0xFF {
                let marker = b[i + 1]
                guard let length = u(i + 2, 2) else { return nil }
                if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                    guard let h = u(i + 5, 2), let w = u(i + 7, 2) else { return nil }
                    return (w, h)
                }
                i += 2 + length
            }
            return nil
        default:
            return nil
        }
    }
}
