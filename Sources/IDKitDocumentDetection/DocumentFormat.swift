internal import COpenCVShim
import Foundation
import IDKitImage
import IDKitMRZ
import IDKitMRZReading

/// The physical format a detected document matches (ICAO 9303 Parts 4–7).
public enum DocumentFormat: String, Sendable, Codable, Equatable, CaseIterable {
    /// ID-1 card (85.60 × 53.98 mm, ISO/IEC 7810), TD1 MRZ.
    case td1 = "TD1"
    /// ID-2 (105 × 74 mm), TD2 MRZ.
    case td2 = "TD2"
    /// ID-3 passport data page (125 × 88 mm), TD3 MRZ.
    case td3 = "TD3"
    /// A visa sticker (MRV-A 80 × 120 mm, MRV-B 74 × 105 mm).
    case visa
    case unknown

    /// Width over height of the format's nominal size (MRV-A for visas); `nil` for unknown.
    public var nominalRatio: Double? {
        switch self {
        case .td1: 85.6 / 53.98
        case .td2: 105.0 / 74.0
        case .td3: 125.0 / 88.0
        case .visa: 120.0 / 80.0
        case .unknown: nil
        }
    }

    /// Nominal size in millimeters (width, height); `nil` for unknown.
    public var millimeters: (width: Double, height: Double)? {
        switch self {
        case .td1: (85.6, 53.98)
        case .td2: (105, 74)
        case .td3: (125, 88)
        case .visa: (120, 80)
        case .unknown: nil
        }
    }

    /// The format an MRZ layout is printed on.
    public init(mrz: MRZFormat) {
        switch mrz {
        case .td1: self = .td1
        case .td2: self = .td2
        case .td3: self = .td3
        case .mrvA, .mrvB: self = .visa
        default: self = .unknown
        }
    }
}
