public import IDKitImage

/// What redaction applies to (the reference SDKs' `RedactionSettings.mode`).
public enum RedactionMode: String, Sendable, Codable, CaseIterable, Hashable {
    case none
    /// The result is redacted; the document image is left alone.
    case resultFieldsOnly
    /// The MRZ band and barcode are blacked out in the image; the result is left alone.
    case imageOnly
    /// Both.
    case fullResult
}

/// How much of the document number stays readable: `prefixVisible` leading and `suffixVisible`
/// trailing characters, the rest as `*`. When they would show the whole number, none is shown.
public struct DocumentNumberRedaction: Sendable, Codable, Equatable, Hashable {
    public var prefixVisible: Int
    public var suffixVisible: Int
    public init(prefixVisible: Int = 0, suffixVisible: Int = 0) {
        self.prefixVisible = max(0, prefixVisible)
        self.suffixVisible = max(0, suffixVisible)
    }

    func mask(_ text: String) -> String {
        let chars = Array(text)
        guard prefixVisible + suffixVisible < chars.count else { return String(repeating: "*", count: chars.count) }
        return String(chars.prefix(prefixVisible)) + String(repeating: "*", count: chars.count - prefixVisible - suffixVisible)
            + String(chars.suffix(suffixVisible))
    }
}

/// What to redact. A redacted result holds no redacted value anywhere: not in its fields, the
/// other sources' readings, the raw MRZ lines or barcode bytes, derived values, chip keys or
/// warning text.
public struct RedactionSettings: Sendable, Codable, Equatable, Hashable {
    public var mode: RedactionMode
    /// Fields to redact. Names are linked: redacting `firstName` or `lastName` also redacts
    /// `fullName`, and the other way round.
    public var fields: Set<DocumentFieldName>
    /// With `documentNumber` in ``fields``: the characters left visible (default: none).
    public var documentNumber: DocumentNumberRedaction?
    /// Withhold the raw MRZ lines entirely (otherwise only redacted fields are masked in them).
    public var redactMRZ: Bool
    /// Withhold the raw barcode bytes entirely (otherwise only redacted values are masked in them).
    public var redactBarcode: Bool

    public init(mode: RedactionMode, fields: Set<DocumentFieldName> = [], documentNumber: DocumentNumberRedaction? = nil,
                redactMRZ: Bool = false, redactBarcode: Bool = false) {
        self.mode = mode
        self.fields = fields
        self.documentNumber = documentNumber
        self.redactMRZ = redactMRZ
        self.redactBarcode = redactBarcode
    }

    public static let none = RedactionSettings(mode: .none)

    public var redactsResult: Bool {
        (mode == .resultFieldsOnly || mode == .fullResult) && (!fields.isEmpty || redactMRZ || redactBarcode)
    }

    public var redactsImage: Bool {
        (mode == .imageOnly || mode == .fullResult) && (!fields.isEmpty || redactMRZ || redactBarcode)
    }

    /// The fields redacted once the name links are applied.
    var effectiveFields: Set<DocumentFieldName> {
        var f = fields
        if !f.isDisjoint(with: [.firstName, .lastName, .fullName]) { f.formUnion([.firstName, .lastName, .fullName]) }
        return f
    }
}

/// One setting for every document, or settings chosen per document (by issuing State, region and
/// type), as the reference SDKs' `RedactionSettingsResolver` does.
public enum RedactionPolicy: Sendable {
    case fixed(RedactionSettings)
    case resolver(@Sendable (DocumentClass?) -> RedactionSettings)

    public func settings(for documentClass: DocumentClass?) -> RedactionSettings {
        switch self {
        case .fixed(let settings): return settings
        case .resolver(let resolve): return resolve(documentClass)
        }
    }
}

/// Where the image front end found the MRZ band and the barcodes, so that redaction can black
/// them out (`imageOnly`, `fullResult`).
public struct DocumentImageRegions: Sendable, Equatable, Hashable, Codable {
    public var mrz: Quadrilateral?
    public var barcodes: [Quadrilateral]
    public init(mrz: Quadrilateral? = nil, barcodes: [Quadrilateral] = []) {
        self.mrz = mrz
        self.barcodes = barcodes
    }
}

extension RedactionSettings {
    /// Blacks out (value 0) the MRZ band and every barcode, each grown by 4% around its centre so
    /// that a quadrilateral found a pixel short still covers the print. Does nothing unless the
    /// mode redacts the image.
    public func redact(_ image: inout GrayImage, regions: DocumentImageRegions) {
        guard redactsImage else { return }
        for quad in [regions.mrz].compactMap({ $0 }) + regions.barcodes {
            let cx = quad.corners.map(\.x).reduce(0, +) / 4, cy = quad.corners.map(\.y).reduce(0, +) / 4
            let grown = quad.mapped { Point(x: cx + ($0.x - cx) * 1.04, y: cy + ($0.y - cy) * 1.04) }
            Self.fill(&image, grown)
        }
    }

    /// Fills a convex quadrilateral row by row between its leftmost and rightmost edge crossings.
    static func fill(_ image: inout GrayImage, _ quad: Quadrilateral) {
        let c = quad.corners
        let top = max(0, Int(c.map(\.y).min()!.rounded(.down)))
        let bottom = min(image.height - 1, Int(c.map(\.y).max()!.rounded(.up)))
        guard top <= bottom, image.width > 0 else { return }
        for y in top...bottom {
            let yc = Double(y) + 0.5
            var lo = Double.infinity, hi = -Double.infinity
            for i in 0..<4 {
                let a = c[i], b = c[(i + 1) % 4]
                guard (a.y <= yc && b.y >= yc) || (b.y <= yc && a.y >= yc) else { continue }
                let x = a.y == b.y ? min(a.x, b.x) : a.x + (yc - a.y) * (b.x - a.x) / (b.y - a.y)
                let x2 = a.y == b.y ? max(a.x, b.x) : x
                lo = min(lo, x)
                hi = max(hi, x2)
            }
            guard lo <= hi else { continue }
            let from = max(0, Int(lo.rounded(.down))), to = min(image.width - 1, Int(hi.rounded(.up)))
            guard from <= to else { continue }
            for x in from...to { image.pixels[y * image.width + x] = 0 }
        }
    }
}
