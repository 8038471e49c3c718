import IDKitMRZ

/// Where documents print their MRZ, in millimeters from the document's left and bottom edges:
/// the first character's center and the last line's center. ICAO 9303 Parts 4–7 fix the zone's
/// position within tolerances; these are the means measured on the real specimens of
/// `../shared/testdata/mrz-real` against their outlines labeled by eye
/// (`TestVectors/mrz-real/document-corners.json`), where each issuer sits within 1–2 mm of them:
/// TD1 cards 3.9–6.9 mm and 5.8–7.3 mm (six flat scans), TD3 pages 5.7–8.5 mm and 7.0–10.7 mm
/// (fourteen), the one MRV-A 4.7 and 4.0 mm, the two TD2 8.5–8.9 and 7.9–9.4 mm. The line
/// spacing is not used: 4.2–4.4 mm on cards, 5.9–6.7 mm on passports.
struct MRZPlacement {
    var firstCenterFromLeft: Double
    var lastCenterAboveBottom: Double

    init(_ format: MRZFormat) {
        switch format {
        case .td1: (firstCenterFromLeft, lastCenterAboveBottom) = (5.3, 6.7)
        case .td2, .mrvB: (firstCenterFromLeft, lastCenterAboveBottom) = (8.3, 8.5)
        case .mrvA: (firstCenterFromLeft, lastCenterAboveBottom) = (4.6, 5.0)
        default: (firstCenterFromLeft, lastCenterAboveBottom) = (6.9, 9.4)
        }
    }
}
