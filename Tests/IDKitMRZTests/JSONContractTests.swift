import Foundation
import Testing
@testable import IDKitMRZ

/// The JSON of a result is a contract: the fast writer and `Codable` agree, absent is `null`, empty is `""`.
@Suite struct JSONContractTests {
    let parser = MRZParser(referenceDate: TestVectors.referenceDate)

    func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test("fast writer equals JSONEncoder", arguments: TestVectors.specimens.cases.prefix(20) + TestVectors.invalid.cases.prefix(10))
    func writerMatchesCodable(_ c: TestVectors.ParseCase) throws {
        let result = try parser.parse(lines: c.lines)
        var w = JSONWriter()
        w.beginObject()
        result.writeJSONMembers(to: &w)
        w.endObject()
        let fast = try object(w.bytes) as NSDictionary
        let codable = try object(Array(JSONEncoder().encode(result))) as NSDictionary
        #expect(fast == codable)
        let decoded = try JSONDecoder().decode(MRZResult.self, from: JSONEncoder().encode(result))
        #expect(decoded == result)
    }

    @Test func nullVersusEmpty() throws {
        // TD3 Utopia: optional data 2 does not exist (null); TD1 Utopia: it exists and is empty ("").
        let td3 = try parser.parse(lines: TestVectors.specimens.cases.first { $0.id == "icao-td3-utopia" }!.lines)
        let td1 = try parser.parse(lines: TestVectors.specimens.cases.first { $0.id == "icao-td1-utopia" }!.lines)
        func fields(_ r: MRZResult) throws -> [String: Any] {
            var w = JSONWriter()
            w.beginObject()
            r.writeJSONMembers(to: &w)
            w.endObject()
            return try #require(try object(w.bytes)["fields"] as? [String: Any])
        }
        #expect(try fields(td3)["optionalData2"] is NSNull)
        #expect(try fields(td1)["optionalData2"] as? String == "")
        #expect(try fields(td1)["optionalData1"] as? String == "")
        let checks = try #require(try object({ var w = JSONWriter(); w.beginObject(); td1.writeJSONMembers(to: &w); w.endObject(); return w.bytes }())["checkDigits"] as? [String: Any])
        #expect(checks["optionalData"] is NSNull)
        #expect(checks["composite"] as? String == "valid")
        #expect(td3.fields.optionalData2 == nil)
        #expect(td1.fields.optionalData2 == "")
    }

    @Test func contractKeys() throws {
        let result = try parser.parse(lines: TestVectors.specimens.cases[0].lines)
        var w = JSONWriter()
        w.beginObject()
        result.writeJSONMembers(to: &w)
        w.endObject()
        let o = try object(w.bytes)
        for key in ["format", "valid", "fields", "checkDigits", "errors", "warnings"] { #expect(o[key] != nil, "\(key)") }
        let fields = try #require(o["fields"] as? [String: Any])
        #expect(Set(fields.keys) == ["documentCode", "issuingState", "documentNumber", "primaryIdentifier",
                                     "secondaryIdentifier", "nationality", "dateOfBirth", "sex", "dateOfExpiry",
                                     "optionalData1", "optionalData2"])
        let checks = try #require(o["checkDigits"] as? [String: Any])
        #expect(Set(checks.keys) == ["documentNumber", "dateOfBirth", "dateOfExpiry", "optionalData", "composite"])
    }

    @Test func failureObjectKeepsTheShape() throws {
        var w = JSONWriter()
        w.beginObject()
        let error = MRZError(kind: .lineLength, line: 2, column: nil, expected: "44 characters, as line 1", found: "43 characters")
        MRZResult.writeJSONMembers(for: error, lines: ["A\"B"], to: &w)
        w.endObject()
        let o = try object(w.bytes)
        #expect(o["format"] is NSNull)
        #expect(o["valid"] as? Bool == false)
        let fields = try #require(o["fields"] as? [String: Any])
        #expect(fields.count == 11 && fields.values.allSatisfy { $0 is NSNull })
        let errors = try #require(o["errors"] as? [[String: Any]])
        #expect(errors.first?["code"] as? String == "lineLength")
        #expect(errors.first?["column"] is NSNull)
        #expect((o["lines"] as? [String]) == ["A\"B"])
    }
}

@Suite struct JSONTemplateTests {
    /// The template writer gives the general writer's bytes, for every clean vector of every layout.
    @Test(arguments: VectorTests.parseCases)
    func templateEqualsGeneral(_ c: TestVectors.ParseCase) throws {
        let result = try MRZParser(referenceDate: TestVectors.referenceDate).parse(lines: c.lines)
        var fast = JSONWriter(), general = JSONWriter()
        fast.beginObject(); general.beginObject()
        fast.key("input"); fast.int(1); general.key("input"); general.int(1)
        let usedTemplate = result.writeCleanJSONMembers(to: &fast)
        result.writeGeneralJSONMembers(to: &general)
        fast.endObject(); general.endObject()
        if usedTemplate { #expect(fast.bytes == general.bytes, "\(String(decoding: fast.bytes, as: UTF8.self))") }
        #expect(usedTemplate == (result.errors.isEmpty && result.warnings.isEmpty && result.deviations.isEmpty && result.dateOfBirth != nil))
    }
}
