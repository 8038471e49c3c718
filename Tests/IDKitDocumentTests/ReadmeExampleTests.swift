import Testing
import IDKitDocument
import IDKitMRZ

/// The document example of docs/swift.md, as written there.
@Suite struct DocumentReadmeExampleTests {
    @Test func readmeExample() throws {
        let input = try DocumentInput(json: Array(#"""
            {"mrz": ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"],
             "viz": {"front": {"lastName": "Eriksson", "dateOfBirth": "12 AUG/AOUT 74"}}}
            """#.utf8))
        let result = try DocumentMerger(referenceDate: CalendarDate(year: 2010, month: 6, day: 1)).merge(input)
        let line = "\(result[.lastName].value!) \(result[.lastName].source!) \(result.dataMatch.dateOfBirth) \(result.derived.age!)"
        #expect(line == "Eriksson vizFront match 35")
    }
}
