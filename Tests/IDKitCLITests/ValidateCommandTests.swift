import Foundation
import Testing
import IDKitTestSupport

@Suite struct ValidateCommandTests {
    static let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors/mrz")
    let line1 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"
    let line2 = "L898902C36UTO7408122F1204159ZE184226B<<<<<10"

    @Test func validArgumentsExitZero() throws {
        let r = try IDKitBinary.run(["validate", "--reference-date", "2025-01-01", line1, line2])
        #expect(r.status == 0)
        #expect(r.stdout.contains("TD3  valid"))
        #expect(r.stdout.contains("document number       L898902C3   check digit valid"))
        #expect(r.stdout.contains("date of birth         740812 (1974-08-12)   check digit valid"))
    }

    @Test func invalidShowsCaretAndExitsOne() throws {
        let bad = line2.replacingOccurrences(of: "L898902C36", with: "L898902C37")
        let r = try IDKitBinary.run(["validate", line1, bad])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let at = try #require(lines.firstIndex { $0.contains("error: line 2, column 10: check digit of documentNumber is '7', expected '6'") })
        #expect(lines[at + 1] == "    " + bad)
        #expect(lines[at + 2] == "    " + String(repeating: " ", count: 9) + "^")
    }

    @Test func structuralErrorPointsAtTheColumn() throws {
        let r = try IDKitBinary.run(["validate", "p" + line1.dropFirst(), line2])
        #expect(r.status == 1)
        #expect(r.stdout.contains("error: line 1, column 1: expected A–Z, 0–9 or '<', found lower-case 'p'"))
        #expect(r.stdout.contains("    ^"))
    }

    @Test func jsonStreamFromStdinKeepsIDsAndOrder() throws {
        let stream = """
        {"id": "a", "lines": ["\(line1)", "\(line2)"]}
        {"id": 7, "mrz": "\(line1)\\n\(line2.dropLast())"}
        not json at all

        """
        let r = try IDKitBinary.run(["validate", "--json", "-"], stdin: stream)
        #expect(r.status == 1)
        let objects = try r.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 3)
        #expect((objects[0]["input"] as? [String: Any])?["id"] as? String == "a")
        #expect(objects[0]["valid"] as? Bool == true)
        #expect(objects[0]["format"] as? String == "TD3")
        #expect((objects[1]["input"] as? [String: Any])?["id"] as? String == "7")
        #expect(objects[1]["format"] is NSNull)
        #expect(((objects[1]["errors"] as? [[String: Any]])?.first?["code"]) as? String == "lineLength")
        #expect(((objects[2]["errors"] as? [[String: Any]])?.first?["code"]) as? String == "lowercaseCharacter")
        #expect((objects[2]["input"] as? [String: Any])?["line"] as? Int == 3)
    }

    @Test func fileWithBlankLineSeparatedRecords() throws {
        let file = Self.vectors.appendingPathComponent("samples.txt").path
        let r = try IDKitBinary.run(["validate", "--json", file])
        #expect(r.status == 0)
        let objects = r.stdout.split(separator: "\n")
        #expect(objects.count == 8)
        let human = try IDKitBinary.run(["validate", file])
        #expect(human.stdout.hasSuffix("8 MRZs: 8 valid, 0 invalid\n"))
    }

    @Test func backToBackRecordsAreSplitByLineCount() throws {
        let td1 = ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]
        let text = ([line1, line2] + td1 + [line1, line2]).joined(separator: "\n") + "\n"
        let r = try IDKitBinary.run(["validate", "--json"], stdin: text)
        #expect(r.status == 0)
        let formats = try r.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["format"] as? String
        }
        #expect(formats == ["TD3", "TD1", "TD3"])
    }

    @Test func correctShowsChanges() throws {
        let noisy = line2.replacingOccurrences(of: "7408122", with: "74O8I22")
        let r = try IDKitBinary.run(["validate", "--correct", "--json", line1, noisy])
        #expect(r.status == 0)
        let o = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let correction = try #require(o["correction"] as? [String: Any])
        #expect(correction["outcome"] as? String == "corrected")
        let changes = try #require(correction["changes"] as? [[String: Any]])
        #expect(changes.count == 2)
        #expect(changes[0]["column"] as? Int == 16 && changes[0]["from"] as? String == "O" && changes[0]["to"] as? String == "0")
        #expect((o["lines"] as? [String])?[1] == line2)
    }

    @Test func usageErrorsExit64() throws {
        let r = try IDKitBinary.run(["validate", "--frobnicate"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("unknown option '--frobnicate'"))
        let date = try IDKitBinary.run(["validate", "--reference-date", "2025-13-01", line1, line2])
        #expect(date.status == 64)
        #expect(date.stderr.contains("'2025-13-01' is not a date"))
        #expect(try IDKitBinary.run(["frob"]).status == 64)
        #expect(try IDKitBinary.run([]).status == 64)
    }

    @Test func unreadableInputExits66() throws {
        let r = try IDKitBinary.run(["validate", "/nonexistent/mrz.txt"])
        #expect(r.status == 66)
        #expect(r.stderr.contains("cannot read '/nonexistent/mrz.txt'"))
    }

    @Test func helpHasExamples() throws {
        let r = try IDKitBinary.run(["validate", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("EXAMPLES"))
        #expect(r.stdout.contains("--correct"))
    }

    @Test func overlongLineIsAnErrorRecordNotAMemoryProblem() throws {
        let huge = String(repeating: "A", count: 200_000) + "\n" + line1 + "\n" + line2 + "\n"
        let r = try IDKitBinary.run(["validate", "--json"], stdin: huge)
        #expect(r.status == 1)
        let objects = r.stdout.split(separator: "\n")
        #expect(objects.count == 2)
        #expect(objects[0].contains("\"invalidRecord\""))
        #expect(objects[1].contains("\"valid\":true"))
    }
}

@Suite struct StrictAndCommentTests {
    @Test func strictCountsWarningsAsInvalid() throws {
        // An unknown but well-formed issuing state ('UTQ'): a warning, which only --strict fails.
        let lines = ["I<UTQD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]
        let lenient = try IDKitBinary.run(["validate"] + lines)
        #expect(lenient.status == 0)
        #expect(lenient.stdout.contains("warning: line 1, column 3: issuingState 'UTQ' is not an ISO 3166-1 alpha-3 code"))
        let strict = try IDKitBinary.run(["validate", "--strict"] + lines)
        #expect(strict.status == 1)
    }

    @Test func digitInIssuingStateIsAnErrorWithoutStrict() throws {
        // 'UT0' for 'UTO': no check digit covers the issuing state, and no state has a digit in its code.
        let lines = ["I<UT0D231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]
        let r = try IDKitBinary.run(["validate", "--json"] + lines)
        #expect(r.status == 1)
        #expect(r.stdout.contains("\"valid\":false"))
        #expect(r.stdout.contains("\"errors\":[{\"code\":\"digitInCode\",\"field\":\"issuingState\",\"line\":1,\"column\":5"))
    }

    @Test func commentLinesSeparateRecords() throws {
        let text = "# first\nP<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10\n# second\nI<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<\nD231458907UTO7408122F1204159<<<<<<<6\n"
        let r = try IDKitBinary.run(["validate", "--json"], stdin: text)
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").count == 2)
    }
}
