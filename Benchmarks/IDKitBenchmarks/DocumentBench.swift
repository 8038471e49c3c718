import Foundation
import IDKitMRZ
import IDKitChip
import IDKitDocument

/// The document benchmarks: merging MRZ, barcode and VIZ (with and without redaction) and BAC keys.
enum DocumentBench {
    static func mergeAndBAC(_ wanted: (String) -> Bool) {
        let parser = benchParser
        // The TD3 specimen, the seeded Virginia license and two VIZ sides: every rule of the merge runs.
        let mrz = try! parser.parse("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10")
        if let barcode = FileManager.default.contents(atPath: "TestVectors/aamva/generated/v10-dl-va.bin").map({ Array($0) }) {
            let front = VIZReading([.lastName: "GARCIA", .firstName: "James Lee", .dateOfBirth: "03/16/1951", .documentNumber: "Y17895625"])
            let back = VIZReading([.address: "8721 ELM ST, ALBANY, VA 77837", .dateOfIssue: "09/20/2023"])
            let merger = DocumentMerger(referenceDate: CalendarDate(year: 2025, month: 1, day: 1))
            if let n = ProcessInfo.processInfo.environment["IDKIT_MERGE_LOOP"].flatMap(Int.init) {
                // For profiles: the merge alone, n times.
                var total = 0
                let m = ProcessInfo.processInfo.environment["IDKIT_MERGE_REDACT"] == nil ? merger
                    : DocumentMerger(referenceDate: merger.referenceDate,
                                     redaction: .fixed(RedactionSettings(mode: .fullResult, fields: [.documentNumber, .dateOfBirth, .lastName])))
                for _ in 0..<n { total &+= m.merge(mrz: mrz, barcode: barcode, vizFront: front, vizBack: back).fields.count }
                print(total)
                exit(0)
            }
            if wanted("merge") {
                let ns = measure(iterations: 5_000) { _ in
                    merger.merge(mrz: mrz, barcode: barcode, vizFront: front, vizBack: back).fields.count
                }
                report("merge MRZ+barcode+VIZ", ns, "ns/merge", fastest: lastFastest)
                let redacting = DocumentMerger(referenceDate: CalendarDate(year: 2025, month: 1, day: 1),
                                               redaction: .fixed(RedactionSettings(mode: .fullResult, fields: [.documentNumber, .dateOfBirth, .lastName])))
                let nsRedacted = measure(iterations: 5_000) { _ in
                    redacting.merge(mrz: mrz, barcode: barcode, vizFront: front, vizBack: back).redacted.count
                }
                report("  + redaction of 3 fields", nsRedacted, "ns/merge", fastest: lastFastest)
            }
        } else {
            print("merge: run from the repository root (TestVectors/aamva not found)")
        }
        if wanted("bac") {
            let information = try! MRZInformation(mrz: mrz)
            let ns = measure(iterations: 100_000) { _ in BACKeys(information).kEnc.count }
            report("BAC keys (K_seed, K_enc, K_mac)", ns, "ns/keys", fastest: lastFastest)
            let nsInfo = measure(iterations: 100_000) { _ in BACKeys(try! MRZInformation(mrz: mrz)).kMac.count }
            report("  from the parsed MRZ", nsInfo, "ns/keys", fastest: lastFastest)
        }
    }
}
