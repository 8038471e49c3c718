import IDKitAAMVA
import Testing

/// The value forms seen on real cards, one element at a time in a minimal version 10 payload.
@Suite("AAMVA value forms")
struct AAMVAFieldRuleTests {
    static func payload(_ elements: String) throws -> AAMVAPayload {
        try AAMVAParser().parse("@\n\u{1E}\rANSI 636000100001DL00310000DLDAQT1\n\(elements)\r")
    }

    @Test("heights in every form", arguments: [
        ("DAU069 IN", 69, 175), ("DAU069 in", 69, 175), ("DAU175 CM", 69, 175), ("DAU509", 69, 175),
        ("DAU5'-09\"", 69, 175), ("DAU5-09", 69, 175), ("DAU072", 72, 183), ("DAV175", 69, 175),
    ])
    func height(_ element: String, _ inches: Int, _ cm: Int) throws {
        let f = try Self.payload(element).fields
        #expect(f.heightIn == inches)
        #expect(f.heightCm == cm)
    }

    @Test("weights in pounds, kilograms, and kilograms written into DAW", arguments: [
        ("DAW165", 165, 75), ("DAX075", 165, 75), ("DAW75 KG", 165, 75),
    ])
    func weight(_ element: String, _ pounds: Int, _ kg: Int) throws {
        let f = try Self.payload(element).fields
        #expect(f.weightLb == pounds)
        #expect(f.weightKg == kg)
    }

    /// The element table is sized from the subfile's length (an element takes at least four
    /// bytes: identifier and separator); a subfile of nothing but such elements must keep all.
    @Test("a subfile of the shortest possible elements keeps every one, in order, with its offset")
    func shortestElements() throws {
        let ids = "ABCD".flatMap { second in "ABCDEFGHIJKLMNOPRSTUVWXYZ".map { "D\(second)\($0)" } }   // no DAQ
        let p = try Self.payload(ids.joined(separator: "\n"))
        let elements = try #require(p.subfiles.first?.elements)
        #expect(elements.count == ids.count + 1)
        #expect(elements.dropFirst().map(\.id) == ids)
        #expect(elements.dropFirst().allSatisfy { $0.value == "" })
        #expect(elements.last?.offset == 39 + 4 * (ids.count - 1))     // the first one at 39
        #expect(!p.warnings.contains { $0.code == .duplicateElement })
    }

    @Test("a height that is not one is a warning at its element")
    func badHeight() throws {
        let p = try Self.payload("DAUTALL")
        #expect(p.fields.heightIn == nil)
        #expect(p.warnings.contains { $0.code == .invalidValue && $0.message == "DAU \"TALL\" is not a height" && $0.offset == 39 })
    }
}
