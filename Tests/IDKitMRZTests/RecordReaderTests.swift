import Foundation
import Testing
import IDKitMRZ

/// The MRZ record stream as a library type, for every front end that reads records.
@Suite struct RecordReaderTests {
    static func records(_ text: String) throws -> [MRZRecord] {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } == bytes.count)
        close(fds[1])
        defer { close(fds[0]) }
        var reader = MRZRecordReader(fd: fds[0])
        var out: [MRZRecord] = []
        while let r = reader.next() { out.append(r) }
        #expect(reader.readError == 0)
        return out
    }

    @Test func blankLinesCommentsJSONAndOverlongLines() throws {
        let td3 = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
        let text = "# a comment\n" + td3.joined(separator: "\n") + "\n\n{\"mrz\": \"x\"}\n" + String(repeating: "A", count: 2000) + "\n"
            + td3.joined(separator: "\n") + "\n"
        let r = try Self.records(text)
        #expect(r.map(\.kind) == [.text, .json, .tooLong, .text])
        #expect(r[0].bytes == Array(td3.joined(separator: "\n").utf8))
        #expect(r[0].startLine == 2)
        #expect(r[1].startLine == 5)
        #expect(r[2].startLine == 6)
        #expect(r[2].bytes.isEmpty)
        #expect(r[3].startLine == 7)
    }

    @Test func backToBackMRZsAreSplitByLineCount() throws {
        let td1 = ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]
        let r = try Self.records((td1 + td1).joined(separator: "\n") + "\n")
        #expect(r.count == 2)
        #expect(r.map(\.lineCount) == [3, 3])
        #expect(r[1].startLine == 4)
    }
}
