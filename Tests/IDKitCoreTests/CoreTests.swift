import Testing
import Foundation
import IDKitCore

/// The primitives every module takes from IDKitCore, checked where they live.
@Suite struct CalendarDateRuleTests {
    @Test(arguments: [(2000, true), (1900, false), (2024, true), (2023, false), (2100, false), (1600, true)])
    func gregorianLeapYears(_ year: Int, _ leap: Bool) {
        #expect(CalendarDate.isLeapYear(year) == leap)
        #expect(CalendarDate.daysInMonth(year: year, month: 2) == (leap ? 29 : 28))
    }

    @Test func monthLengthsAndValidity() {
        #expect((1...12).map { CalendarDate.daysInMonth(year: 2023, month: $0) } == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        #expect(CalendarDate.isValid(year: 2024, month: 2, day: 29))
        #expect(!CalendarDate.isValid(year: 2023, month: 2, day: 29))
        #expect(!CalendarDate.isValid(year: 2023, month: 13, day: 1))
        #expect(!CalendarDate.isValid(year: 2023, month: 4, day: 31))
        #expect(!CalendarDate.isValid(year: 2023, month: 1, day: 0))
        #expect(CalendarDate(iso8601: "2024-02-29")?.description == "2024-02-29")
        #expect(CalendarDate(iso8601: "2023-02-29") == nil)
    }
}

@Suite struct HexTests {
    @Test func upperCaseOutEitherCaseIn() throws {
        #expect(Hex.encode([0x00, 0x9F, 0xAB, 0xFF]) == "009FABFF")
        #expect(try Hex.decode("00 9f AB ff") == [0x00, 0x9F, 0xAB, 0xFF])
        #expect(try Hex.decode("") == [])
    }

    @Test func errorsSayWhatAndWhere() {
        #expect(throws: HexError.oddDigitCount(3)) { try Hex.decode("ABC") }
        #expect(throws: HexError.notADigit(position: 4, character: "G")) { try Hex.decode("AB 0G") }
    }
}

@Suite struct FileInputTests {
    @Test func readsWholeFilesAndRefusesWhatIsTooLargeOrMissing() throws {
        let path = "/tmp/idkit-core-test-\(getpid()).bin"
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try FileInput.readAll(path: path, limit: 1000) == bytes)
        #expect(throws: FileInputError.tooLarge(limit: 999)) { try FileInput.readAll(path: path, limit: 999) }
        #expect(throws: FileInputError.system(SystemCallError(call: "open", code: ENOENT))) {
            try FileInput.readAll(path: path + ".missing", limit: 10)
        }
        #expect(SystemCallError(call: "open", code: ENOENT).message == "No such file or directory")
    }
}

@Suite struct SystemCallsTests {
    @Test func writeAllThenReadBackThroughAPipe() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let bytes = Array("idkit".utf8)
        try bytes.withUnsafeBytes { b in try SystemCalls.writeAll(fds[1], b) }
        SystemCalls.close(fds[1])
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = try buffer.withUnsafeMutableBytes { b in try SystemCalls.read(fds[0], into: b) }
        #expect(Array(buffer[0..<n]) == bytes)
        #expect(try buffer.withUnsafeMutableBytes { b in try SystemCalls.read(fds[0], into: b) } == 0)
        SystemCalls.close(fds[0])
    }

    @Test func failuresNameTheCallAndTheErrno() {
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(throws: SystemCallError(call: "read", code: EBADF)) {
            try buffer.withUnsafeMutableBytes { b in try SystemCalls.read(-1, into: b) }
        }
        #expect(throws: SystemCallError(call: "open", code: ENOENT)) { try SystemCalls.openForReading("/nonexistent/idkit") }
        #expect(throws: SystemCallError(call: "open", code: EISDIR)) { try SystemCalls.writeFile("/tmp", [1]) }
    }

    @Test func writeFileCreatesAndTruncates() throws {
        let path = "/tmp/idkit-writefile-\(getpid())"
        defer { unlink(path) }
        try SystemCalls.writeFile(path, Array("a longer first text".utf8))
        try SystemCalls.writeFile(path, Array("short".utf8))
        #expect(try FileInput.readAll(path: path, limit: 100) == Array("short".utf8))
    }
}

@Suite struct NullWhenAbsentTests {
    struct Sample: Codable, Equatable {
        var name: String
        @NullWhenAbsent var nickname: String?
        @NullWhenAbsent var age: Int?
    }

    @Test func absentValuesAreWrittenAsNull() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let none = String(decoding: try encoder.encode(Sample(name: "A", nickname: nil, age: nil)), as: UTF8.self)
        #expect(none == #"{"age":null,"name":"A","nickname":null}"#)
        let empty = String(decoding: try encoder.encode(Sample(name: "A", nickname: "", age: 7)), as: UTF8.self)
        #expect(empty == #"{"age":7,"name":"A","nickname":""}"#)
    }

    @Test func nullAndMissingKeysDecodeAsAbsentAndValuesRoundTrip() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Sample.self, from: Data(#"{"name":"A"}"#.utf8)) == Sample(name: "A", nickname: nil, age: nil))
        #expect(try decoder.decode(Sample.self, from: Data(#"{"name":"A","nickname":null,"age":3}"#.utf8)) == Sample(name: "A", nickname: nil, age: 3))
        let value = Sample(name: "B", nickname: "", age: 0)
        #expect(try decoder.decode(Sample.self, from: JSONEncoder().encode(value)) == value)
        #expect(throws: DecodingError.self) { try decoder.decode(Sample.self, from: Data(#"{"name":"A","age":"x"}"#.utf8)) }
    }
}
