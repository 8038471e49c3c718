import Foundation
import Testing
import IDKitMRZ

/// Stream validation as a library:
/// MRZRecordValidator judges and writes each record, MRZParallelStream runs a stream on the cores
/// and keeps the input order.
@Suite struct RecordValidatorTests {
    static let td3 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10"
    /// The same MRZ with the document number's check digit wrong (6 for 3).
    static let broken = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C<6UTO7408122F1204159ZE184226B<<<<<10"

    /// Runs the stream of `text` through a temporary file; returns the output and the counts.
    static func run(_ text: String, parts: Int, options: MRZRecordValidator.Options) throws -> (String, Int, Int) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("idkit-stream-\(UUID().uuidString).txt").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = try SystemCalls.openForReading(path)
        defer { SystemCalls.close(fd) }
        var reader = MRZRecordReader(fd: fd)
        let validator = MRZRecordValidator(options: options)
        var out: [UInt8] = [], accepted = 0, rejected = 0
        MRZParallelStream.run(&reader, parts: parts) { record, w in
            validator.writeJSONLine(for: record, source: "s", into: &w)
        } emit: { bytes, a, r in
            out += bytes
            accepted += a
            rejected += r
        }
        return (String(decoding: out, as: UTF8.self), accepted, rejected)
    }

    @Test func aStreamOfSeveralBatchesKeepsItsOrderOnEveryCore() throws {
        // 5,000 records (two batches of the stream): every seventh broken, every eleventh a JSON
        // record with an id.
        var records: [String] = []
        for i in 0..<5000 {
            if i % 11 == 0 {
                records.append(#"{"id": "r\#(i)", "lines": ["\#(Self.td3.split(separator: "\n")[0])", "\#(Self.td3.split(separator: "\n")[1])"]}"#)
            } else {
                records.append(i % 7 == 0 ? Self.broken : Self.td3)
            }
        }
        let text = records.joined(separator: "\n\n") + "\n"
        let options = MRZRecordValidator.Options(referenceDate: CalendarDate(year: 2010, month: 1, day: 1))
        let (two, accepted, rejected) = try Self.run(text, parts: 2, options: options)
        let (one, accepted1, rejected1) = try Self.run(text, parts: 1, options: options)
        #expect(two == one)
        let brokenCount = (0..<5000).filter { $0 % 7 == 0 && $0 % 11 != 0 }.count
        #expect(rejected == brokenCount && accepted == 5000 - brokenCount)
        #expect(accepted1 == accepted && rejected1 == rejected)
        let lines = two.split(separator: "\n")
        #expect(lines.count == 5000)
        // Input order: each record's `input.line` is where it starts (a blank line between records).
        var expectedStarts: [Int] = [], line = 1
        for record in records {
            expectedStarts.append(line)
            line += record.split(separator: "\n").count + 1
        }
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let starts = objects.map { ($0["input"] as? [String: Any])?["line"] as? Int ?? -1 }
        let outOfOrder = zip(starts, expectedStarts).filter { $0 != $1 }.count
        #expect(outOfOrder == 0)
        #expect((objects[77]["input"] as? [String: Any])?["id"] as? String == "r77")
        #expect(objects[77]["valid"] as? Bool == true)
        #expect(objects[14]["valid"] as? Bool == false)
        #expect((objects[14]["checkDigits"] as? [String: Any])?["documentNumber"] as? String == "invalid")
    }

    @Test func outcomesUnderTheOptions() {
        let strict = MRZRecordValidator(options: .init(strict: true, referenceDate: CalendarDate(year: 2010, month: 1, day: 1)))
        let plain = MRZRecordValidator(options: .init(referenceDate: CalendarDate(year: 2010, month: 1, day: 1)))
        let record = MRZRecord(kind: .text, bytes: Array(Self.td3.utf8), startLine: 1)
        #expect(plain.validate(record).isAccepted && strict.validate(record).isAccepted)
        // A digit in the name (no check digit covers it): a warning, which strict refuses.
        let digit = MRZRecord(kind: .text, bytes: Array(Self.td3.replacingOccurrences(of: "ERIKSSON", with: "ERIKSS0N").utf8), startLine: 1)
        #expect(plain.validate(digit).isAccepted)
        #expect(!strict.validate(digit).isAccepted)
        let notJSON = plain.validate(MRZRecord(kind: .json, bytes: Array(#"{"mrz": 7}"#.utf8), startLine: 1))
        guard case .error(let error, _) = notJSON.verdict else { Issue.record("expected an error"); return }
        #expect(error.kind == .invalidRecord)
        let tooLong = plain.validate(MRZRecord(kind: .tooLong, startLine: 9))
        guard case .error(let long, _) = tooLong.verdict else { Issue.record("expected an error"); return }
        #expect(long.found.contains("line 9"))
    }
}
