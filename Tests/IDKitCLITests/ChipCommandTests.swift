import Foundation
import Testing
import IDKitTestSupport

/// `idkit chip verify` on the public chip samples of ../shared/testdata/emrtd (read in place).
enum ChipSamples {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/testdata/emrtd")
    static var available: Bool { FileManager.default.fileExists(atPath: directory.appendingPathComponent("manifest.json").path) }
    static func path(_ p: String) -> String { directory.appendingPathComponent(p).path }
}

@Suite(.enabled(if: ChipSamples.available, "needs ../shared/testdata/emrtd (public eMRTD chip samples); absent here"))
struct ChipCommandTests {
    @Test func aGermanPassportFolderPassesWithItsCSCA() throws {
        let r = try IDKitBinary.run(["chip", "verify", "--json", ChipSamples.path("real-documents/DE"), "--csca", ChipSamples.path("real-documents/DE/CSCA.der")])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let pa = try #require(json["passiveAuthentication"] as? [String: Any])
        #expect(pa["result"] as? String == "passed")
        #expect((pa["dataGroupHashes"] as? [String: String])?["DG14"] == "valid")
        #expect((pa["csca"] as? [String: Any])?["subject"] as? String == "CN=csca-germany,OU=bsi,O=bund,C=DE")
        #expect(json["activeAuthentication"] is NSNull)
        // The folder's EF.CardSecurity, chained to the same CSCA, and its EF.CardAccess.
        let card = try #require(json["cardSecurity"] as? [String: Any])
        #expect(card["result"] as? String == "passed" && (card["securityInfos"] as? [Any])?.count == 7)
        #expect((((json["dataGroups"] as? [String: Any])?["CardAccess"] as? [String: Any])?["securityInfos"] as? [Any])?.isEmpty == false)
    }

    @Test func theSameWithTheDutchMasterList() throws {
        let r = try IDKitBinary.run(["chip", "verify", ChipSamples.path("real-documents/DE"), "--masterlist", ChipSamples.path("master-lists/NL_ML_2026-07-22.ml")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("passive authentication  passed\n"))
        #expect(r.stdout.contains("certificate chain     valid"))
    }

    @Test func aChangedHashFailsAndTheDataGroupsAreRead() throws {
        let set = "etsi-tr103200"
        let r = try IDKitBinary.run(["chip", "verify", "--json", "--sod", ChipSamples.path("\(set)/negative/SOD_dg1-hash-modified.bin"),
                                     "--dg", ChipSamples.path("\(set)/EF_DG1.bin"), "--reference-date", "2012-01-01"])
        #expect(r.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let pa = try #require(json["passiveAuthentication"] as? [String: Any])
        #expect(pa["result"] as? String == "failed")
        #expect(pa["signature"] as? String == "invalid")
        #expect((pa["dataGroupHashes"] as? [String: String])?["DG1"] == "invalid")
        let dg1 = try #require((json["dataGroups"] as? [String: Any])?["DG1"] as? [String: Any])
        #expect(dg1["format"] as? String == "TD3")
    }

    @Test func thePrintedMRZIsComparedWithDG1() throws {
        let set = ChipSamples.path("bsi-tr03105-5-refdata")
        let dg1 = try IDKitBinary.run(["chip", "verify", "--json", "--sod", set + "/EF_SOD.bin", "--dg", set + "/EF_DG1.bin"])
        let lines = try #require(((try JSONSerialization.jsonObject(with: Data(dg1.stdout.utf8)) as? [String: Any])?["dataGroups"] as? [String: Any])
            .flatMap { ($0["DG1"] as? [String: Any])?["lines"] as? [String] })
        let same = try IDKitBinary.run(["chip", "verify", "--json", "--sod", set + "/EF_SOD.bin", "--dg", set + "/EF_DG1.bin", "--mrz", lines.joined(separator: "\n")])
        #expect(same.stdout.contains("\"mrzMatchesChip\":true"))
        var changed = lines
        changed[1] = "X" + changed[1].dropFirst()
        let other = try IDKitBinary.run(["chip", "verify", "--json", "--sod", set + "/EF_SOD.bin", "--dg", set + "/EF_DG1.bin", "--mrz", changed.joined(separator: "\n")])
        #expect(other.status == 1)
        #expect(other.stdout.contains("\"mrzMatchesChip\":false") && other.stdout.contains("the printed MRZ differs from the chip's (DG1)"))
    }

    @Test func dg14DG15AndAnActiveAuthenticationAnswerThatIsNoSignature() throws {
        let r = try IDKitBinary.run(["chip", "verify", "--json", ChipSamples.path("etsi-tr103200"), "--reference-date", "2012-01-01",
                                     "--aa-challenge", "0102030405060708", "--aa-signature", "00"])
        #expect(r.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let groups = try #require(json["dataGroups"] as? [String: Any])
        #expect((groups["DG15"] as? [String: Any])?["bits"] as? Int == 1024)
        #expect(((groups["DG14"] as? [String: Any])?["securityInfos"] as? [[String: Any]])?.first?["name"] as? String == "id-PK-ECDH (ChipAuthenticationPublicKeyInfo)")
        let aa = try #require(json["activeAuthentication"] as? [String: Any])
        #expect(aa["result"] as? String == "invalid" && (aa["reason"] as? String)?.contains("an RSA-1024 signature has 128") == true)
    }

    @Test func badUseIsSaid() throws {
        #expect(try IDKitBinary.run(["chip", "verify"]).status == 64)
        #expect(try IDKitBinary.run(["chip", "apdu", "--wrap", "00B0000004"]).status == 64)
        #expect(try IDKitBinary.run(["chip", "frobnicate"]).status == 64)
        let notLDS = try IDKitBinary.run(["chip", "verify", "--sod", ChipSamples.path("manifest.json")])
        #expect(notLDS.status == 1 && notLDS.stderr.contains("not an LDS file"))
        let missing = try IDKitBinary.run(["chip", "verify", "--sod", "/nonexistent/EF_SOD.bin"])
        #expect(missing.status == 66)
    }
}

/// `idkit chip apdu` with ICAO 9303-11 Appendix D.4's keys and counter (needs nothing of ../shared).
@Suite struct ChipAPDUCommandTests {
    static let keys = ["--ks-enc", "979EC13B1CBFE9DCD01AB0FED307EAE5", "--ks-mac", "F1CB1F1FB5ADF208806B89DC579DC1F8"]

    @Test func selectEFCOMWrappedAndItsAnswerUnwrapped() throws {
        let wrapped = try IDKitBinary.run(["chip", "apdu", "--json", "--ssc", "887022120C06C226", "--wrap", "00 A4 02 0C 02 01 1E"] + Self.keys)
        #expect(wrapped.status == 0, "\(wrapped.stderr)")
        #expect(wrapped.stdout == #"{"apdu":"0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800","ssc":"887022120C06C227"}"# + "\n")
        let answer = try IDKitBinary.run(["chip", "apdu", "--ssc", "887022120C06C227", "--unwrap", "990290008E08FA855A5D4C50A8ED9000"] + Self.keys)
        #expect(answer.stdout == "data   \nstatus 9000\nssc    887022120C06C228\n")
        let forged = try IDKitBinary.run(["chip", "apdu", "--json", "--ssc", "887022120C06C227", "--unwrap", "990290018E08FA855A5D4C50A8ED9000"] + Self.keys)
        #expect(forged.status == 1 && forged.stdout.contains("macMismatch"))
    }
}

/// `idkit merge --chip` on a whole document of IDKit's own test PKI (TestVectors/chip/make_pki.sh).
@Suite struct MergeChipCommandTests {
    /// The test PKI, with the whole document's files in one folder, as a phone app would send them.
    static let pki: URL? = {
        guard let out = TestPKI.directory else { return nil }
        let folder = out.appendingPathComponent("document")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, file) in TestPKI.documentFiles where name != "EF_DG15.bin" {
            let to = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: to.path) || (try? FileManager.default.copyItem(at: out.appendingPathComponent(file), to: to)) != nil else { return nil }
        }
        return out
    }()

    @Test func aChipFolderWithItsCSCAIsTheFirstSource() throws {
        let pki = try #require(Self.pki, "TestVectors/chip/make_pki.sh failed (it needs openssl and python3)")
        let r = try IDKitBinary.run(["merge", "--json", "--chip", pki.appendingPathComponent("document").path, "--csca", pki.appendingPathComponent("csca").path,
                                     "--reference-date", "2026-12-01", "--redact-face", "-"],
                                    stdin: #"{"mrz": ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]}"#)
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let chip = try #require(json["chip"] as? [String: Any])
        #expect(chip["passiveAuthentication"] as? String == "passed")
        #expect(chip["dataGroups"] as? [String] == ["DG1", "DG2", "DG11", "DG12"])
        #expect((chip["faces"] as? [[String: Any]])?.first?["image"] is NSNull)
        let fields = try #require(json["fields"] as? [String: [String: Any]])
        #expect(fields["documentNumber"]?["source"] as? String == "chip" && fields["documentNumber"]?["value"] as? String == "L898902C3")
        #expect(fields["dateOfIssue"]?["value"] as? String == "2002-04-16")
        #expect(json["redacted"] as? [String] == ["face"])
        // Without the CSCA the print comes first and the human report says why.
        let plain = try IDKitBinary.run(["merge", "--chip", pki.appendingPathComponent("document").path, "--reference-date", "2026-12-01", "-"],
                                        stdin: #"{"mrz": ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]}"#)
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("documentNumber            L898902C3  [mrz]"))
        #expect(plain.stdout.contains("chip                      passive authentication incomplete; DG1, DG2, DG11, DG12; face JPEG2000 48×30"))
        #expect(plain.stdout.contains("warning: chipNotAuthenticated: chip: passive authentication incomplete (no CSCA was given; DG15 is listed in the SOD but was not given)"))
    }

    @Test func badChipInputIsSaid() throws {
        let pki = try #require(Self.pki, "TestVectors/chip/make_pki.sh failed")
        let notLDS = try IDKitBinary.run(["merge", "--chip", pki.appendingPathComponent("cases.tsv").path])
        #expect(notLDS.status == 1 && notLDS.stderr.contains("cases.tsv: not an LDS file"))
        let noSOD = try IDKitBinary.run(["merge", "--json", "--chip", pki.appendingPathComponent("EF_DG1.bin").path])
        #expect(noSOD.status == 1 && noSOD.stdout.contains("\"kind\":\"invalidChip\"") && noSOD.stdout.contains("no EF.SOD among the chip files"))
        #expect(try IDKitBinary.run(["merge", "--crl", "x", "--chip", pki.path]).status == 64)
        #expect(try IDKitBinary.run(["merge", "--chip", "/nonexistent/EF_SOD.bin"]).status == 66)
    }
}
