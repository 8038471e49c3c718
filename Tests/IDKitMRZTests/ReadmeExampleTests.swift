import Testing
import IDKitMRZ

/// The README's Swift example, run as written; its printed line is the README's stated output.
@Test func readmeExample() throws {
    let mrz = try MRZParser().parse("""
        P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<
        L898902C36UTO7408122F1204159ZE184226B<<<<<10
        """)
    let printed = "\(mrz.format) \(mrz.isValid) \(mrz.fields.documentNumber) \(mrz.fields.secondaryIdentifier) \(mrz.dateOfBirth!)"
    #expect(printed == "TD3 true L898902C3 ANNA MARIA 1974-08-12")
}
