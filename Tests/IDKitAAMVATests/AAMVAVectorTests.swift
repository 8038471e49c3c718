import Foundation
import IDKitAAMVA
import Testing

/// `TestVectors/aamva/expected.json`, written by `TestVectors/aamva/make_payloads.py`.
enum AAMVAVectors {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestVectors/aamva")

    /// A JSON scalar of the expected fields: string, integer, bool or null.
    enum Value: Decodable, Equatable, Sendable, CustomStringConvertible {
        case string(String), int(Int), bool(Bool), null
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let i = try? c.decode(Int.self) { self = .int(i) }
            else { self = .string(try c.decode(String.self)) }
        }
        var description: String {
            switch self {
            case .string(let s): "\"\(s)\""
            case .int(let i): "\(i)"
            case .bool(let b): "\(b)"
            case .null: "null"
            }
        }
    }

    struct Generated: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var source: String
        var version: Int?
        var iin: String
        var jurisdiction: String
        var country: String
        var documentType: String?
        var fields: [String: Value]
        var warnings: [String]
        var testDescription: String { file }
    }

    struct Public: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var unreadable: String?
        var magneticStripe: Bool?
        var iin: String?
        var version: Int?
        var documentNumber: String?
        var dateOfBirth: String?
        var testDescription: String { file }
    }

    struct File: Decodable, Sendable {
        var generated: [Generated]
        var `public`: [Public]
    }

    static let file: File = {
        let data = try! Data(contentsOf: directory.appendingPathComponent("expected.json"))
        return try! JSONDecoder().decode(File.self, from: data)
    }()

    static func bytes(_ name: String) -> [UInt8] {
        Array(try! Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// A field of `AAMVAFields` by name, as the JSON contract spells it.
    static func field(_ fields: AAMVAFields, _ name: String) -> Value? {
        for child in Mirror(reflecting: fields).children where child.label == name {
            switch child.value {
            case let v as String?: return v.map(Value.string) ?? .null
            case let v as Int?: return v.map(Value.int) ?? .null
            case let v as Bool?: return v.map(Value.bool) ?? .null
            default: return nil
            }
        }
        return nil
    }
}

@Suite("AAMVA test vectors")
struct AAMVAVectorTests {
    @Test("our payloads of every version parse to the values they were made from", arguments: AAMVAVectors.file.generated)
    func generated(_ c: AAMVAVectors.Generated) throws {
        let payload = try AAMVAParser().parse(AAMVAVectors.bytes(c.file))
        #expect(payload.version == c.version)
        #expect(payload.iin == c.iin)
        #expect(payload.jurisdiction?.code == c.jurisdiction)
        #expect(payload.country == c.country)
        #expect(payload.fields.documentType == c.documentType)
        for (name, expected) in c.fields {
            let actual = AAMVAVectors.field(payload.fields, name)
            #expect(actual == expected, "\(name): expected \(expected), read \(actual.map(String.init(describing:)) ?? "no such field")")
        }
        let codes = Set(payload.warnings.map(\.code.rawValue))
        for code in c.warnings {
            #expect(codes.contains(code), "expected warning \(code); got \(codes.sorted())")
        }
        if c.warnings.isEmpty {
            #expect(payload.warnings.isEmpty, "clean payload raised \(payload.warnings)")
        }
        // Elements are kept as read: every generated element is present in its subfile.
        #expect(payload.primarySubfile?.value("DAQ").map { $0.trimmingCharacters(in: .whitespaces) } == {
            if case .string(let s)? = c.fields["documentNumber"] { return s } else { return nil }
        }())
    }

    @Test("public payloads from other open projects", arguments: AAMVAVectors.file.public)
    func publicPayloads(_ c: AAMVAVectors.Public) throws {
        let bytes = AAMVAVectors.bytes(c.file)
        if c.unreadable != nil {
            // Damaged beyond use: either an error or a result without a document number.
            let payload = try? AAMVAParser().parse(bytes)
            #expect(payload?.fields.documentNumber == nil)
            return
        }
        let payload = try AAMVAParser().parse(bytes)
        if c.magneticStripe == true {
            #expect(payload.encoding == .magneticStripe)
            #expect(payload.warnings.contains { $0.code == .magneticStripe })
        } else {
            #expect(payload.encoding == .pdf417)
            #expect(payload.version == c.version)
        }
        #expect(payload.iin == c.iin)
        if let iin = c.iin, let known = AAMVAJurisdiction.forIIN(iin) {
            #expect(payload.jurisdiction == known)
        }
        if let number = c.documentNumber {
            #expect(payload.fields.documentNumber == number)
        }
        if let dob = c.dateOfBirth {
            #expect(payload.fields.dateOfBirth == dob)
        }
    }
}
