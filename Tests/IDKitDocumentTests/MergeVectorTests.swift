import Foundation
import Testing
import IDKitDocument
import IDKitMRZ

/// `TestVectors/document/merge-cases.json` (written by `make_cases.py`).
struct MergeCase: Decodable, Sendable, CustomTestStringConvertible {
    struct Input: Decodable, Sendable {
        var mrz: [String]?
        var barcodeFile: String?
        var referenceDate: String
        var viz: [String: [String: String]]?
    }
    struct Expected: Decodable, Sendable {
        var fields: [String: [String?]]?
        var readings: [String: [String: String]]?
        var dataMatch: [String: String]?
        var derived: [String: JSONScalar]?
        var documentClass: [String: String?]??
        var bacReady: Bool?

        enum CodingKeys: String, CodingKey { case fields, readings, dataMatch, derived, documentClass, bacReady }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            fields = try c.decodeIfPresent([String: [String?]].self, forKey: .fields)
            readings = try c.decodeIfPresent([String: [String: String]].self, forKey: .readings)
            dataMatch = try c.decodeIfPresent([String: String].self, forKey: .dataMatch)
            derived = try c.decodeIfPresent([String: JSONScalar].self, forKey: .derived)
            // Absent key: not checked; `null`: the result must have no document class.
            documentClass = c.contains(.documentClass) ? .some(try c.decodeIfPresent([String: String?].self, forKey: .documentClass)) : nil
            bacReady = try c.decodeIfPresent(Bool.self, forKey: .bacReady)
        }
    }
    var id: String
    var source: String
    var input: Input
    var expected: Expected
    var testDescription: String { id }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors/document")

    static let all: [MergeCase] = {
        struct File: Decodable { var cases: [MergeCase] }
        let data = try! Data(contentsOf: directory.appendingPathComponent("merge-cases.json"))
        return try! JSONDecoder().decode(File.self, from: data).cases
    }()

    /// The input as `idkit merge` reads it.
    var documentInput: DocumentInput {
        var input = DocumentInput(mrz: self.input.mrz, referenceDate: CalendarDate(iso8601: self.input.referenceDate))
        if let file = self.input.barcodeFile {
            input.barcode = Array(try! Data(contentsOf: Self.directory.appendingPathComponent(file)))
        }
        if let front = self.input.viz?["front"] { input.vizFront = try! VIZReading(names: front) }
        if let back = self.input.viz?["back"] { input.vizBack = try! VIZReading(names: back) }
        return input
    }
}

enum JSONScalar: Decodable, Sendable, Equatable {
    case bool(Bool), int(Int)
    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { self = .bool(b) } else { self = .int(try c.decode(Int.self)) }
    }
}

@Suite struct MergeVectorTests {
    @Test(arguments: MergeCase.all)
    func mergedAsExpected(_ c: MergeCase) throws {
        let input = c.documentInput
        let result = try DocumentMerger(referenceDate: input.referenceDate!).merge(input)
        for (name, pair) in c.expected.fields ?? [:] {
            let field = result[try #require(DocumentFieldName(rawValue: name))]
            #expect(field.value == pair[0], "\(name) value")
            #expect(field.source?.rawValue == pair[1], "\(name) source")
        }
        for (name, expected) in c.expected.readings ?? [:] {
            let readings = result[try #require(DocumentFieldName(rawValue: name))].readings
            #expect(Dictionary(uniqueKeysWithValues: readings.all.map { ($0.source.rawValue, $0.value) }) == expected, "\(name) readings")
        }
        let match = result.dataMatch
        let states = ["documentNumber": match.documentNumber, "dateOfBirth": match.dateOfBirth, "dateOfExpiry": match.dateOfExpiry,
                      "wholeDocument": match.wholeDocument, "lastName": match.lastName, "firstName": match.firstName]
        for (name, state) in c.expected.dataMatch ?? [:] {
            #expect(states[name]?.rawValue == state, "dataMatch.\(name)")
        }
        let d = result.derived
        let derived: [String: JSONScalar?] = [
            "age": d.age.map(JSONScalar.int), "isUnder18": d.isUnder18.map(JSONScalar.bool),
            "isUnder21": d.isUnder21.map(JSONScalar.bool), "isExpired": d.isExpired.map(JSONScalar.bool),
            "isPermanentExpiry": d.isPermanentExpiry.map(JSONScalar.bool)]
        for (name, value) in c.expected.derived ?? [:] {
            #expect(derived[name] == .some(value), "derived.\(name)")
        }
        if let expectedClass = c.expected.documentClass {
            if let expectedClass {
                let dc = try #require(result.documentClass)
                #expect(dc.country == expectedClass["country"] ?? nil)
                #expect(dc.region == expectedClass["region"] ?? nil)
                #expect(dc.type?.rawValue == expectedClass["type"] ?? nil)
            } else {
                #expect(result.documentClass == nil)
            }
        }
        if let ready = c.expected.bacReady {
            #expect(result.chipAccess?.bacReady == ready)
        }
    }

    /// Every case survives JSON: what is written decodes to the same result, `null` and `""` apart.
    @Test(arguments: MergeCase.all)
    func jsonRoundTrip(_ c: MergeCase) throws {
        let input = c.documentInput
        let result = try DocumentMerger(referenceDate: input.referenceDate!).merge(input)
        let data = try JSONEncoder().encode(result)
        let decoded = try JSONDecoder().decode(DocumentResult.self, from: data)
        #expect(decoded.fields == result.fields)
        #expect(decoded.raw == result.raw)
        #expect(decoded.dataMatch == result.dataMatch)
    }
}
