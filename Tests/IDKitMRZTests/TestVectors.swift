import Foundation
import IDKitMRZ

/// Reads the JSON files of `TestVectors/mrz/` (written by `TestVectors/mrz/make_vectors.py`).
enum TestVectors {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestVectors/mrz")

    struct File<Case: Decodable & Sendable>: Decodable, Sendable {
        var referenceDate: String
        var cases: [Case]
    }

    struct Issue: Decodable, Equatable, Sendable, CustomStringConvertible {
        var code: String
        var field: String?
        var line: Int
        var column: Int
        var description: String { "\(code)(\(field ?? "-"))@\(line):\(column)" }
    }

    struct Expected: Decodable, Sendable {
        var format: String
        var valid: Bool
        var validWithDeviations: Bool
        var fields: [String: String?]
        var checkDigits: [String: String?]
        var errors: [Issue]
        var warnings: [Issue]
        var deviations: [Issue]
        var resolvedDates: [String: String?]
    }

    struct ParseCase: Decodable, Sendable, CustomTestStringConvertible {
        var id: String
        var source: String
        var lines: [String]
        var expected: Expected
        var published: [String: String]?
        var testDescription: String { id }
    }

    struct StructuralCase: Decodable, Sendable, CustomTestStringConvertible {
        struct Expected: Decodable, Sendable { var kind: String; var line: Int?; var column: Int? }
        var id: String
        var text: String
        var expected: Expected
        var testDescription: String { id }
    }

    struct OCRCase: Decodable, Sendable, CustomTestStringConvertible {
        struct Change: Decodable, Equatable, Sendable { var line: Int; var column: Int; var from: String; var to: String }
        struct Expected: Decodable, Sendable { var outcome: String; var lines: [String]; var changes: [Change] }
        var id: String
        var source: String
        var lines: [String]
        var expected: Expected
        var testDescription: String { id }
    }

    static func load<Case: Decodable & Sendable>(_ name: String, as: Case.Type) -> File<Case> {
        let url = directory.appendingPathComponent(name)
        do {
            return try JSONDecoder().decode(File<Case>.self, from: Data(contentsOf: url))
        } catch {
            fatalError("cannot read test vectors \(url.path): \(error)")
        }
    }

    static let specimens = load("specimens.json", as: ParseCase.self)
    static let invalid = load("invalid.json", as: ParseCase.self)
    static let tricky = load("tricky.json", as: ParseCase.self)
    static let structural = load("structural.json", as: StructuralCase.self)
    static let ocr = load("ocr.json", as: OCRCase.self)

    static let referenceDate = CalendarDate(iso8601: specimens.referenceDate)!
}

import Testing
