import Foundation
import IDKitCore
import Testing
@testable import IDKitChip

/// The public chip samples of ../shared/testdata/emrtd (read in place, never copied here): every
/// EF.SOD check its manifest records — BSI, ETSI, Dutch and PersoSim test documents, the SODs of 15
/// issued documents, and the damaged variants with the outcome each must get.
enum EMRTDSamples {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/testdata/emrtd")
    static var available: Bool { FileManager.default.fileExists(atPath: directory.appendingPathComponent("manifest.json").path) }

    struct SODCase: CustomTestStringConvertible, Sendable {
        var set: String
        var sod: String
        var dataGroups: [Int: String]
        /// Per DG: "match", "MISMATCH …" or "not listed in SOD".
        var expectedHashes: [Int: String]
        var signatureValid: Bool?
        var expect: String?
        var testDescription: String { "\(set)/\(sod)" }
    }

    static var sodCases: [SODCase] {
        guard available, let data = try? Data(contentsOf: directory.appendingPathComponent("manifest.json")),
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let sets = manifest["sets"] as? [[String: Any]] else { return [] }
        var out: [SODCase] = []
        for set in sets {
            let name = set["name"] as? String ?? ""
            let files = set["files"] as? [[String: Any]] ?? []
            for check in set["checks"] as? [[String: Any]] ?? [] where check["type"] as? String == "EF.SOD" {
                let file = check["file"] as? String ?? ""
                let dgFiles = (check["dg_files"] as? [String: String] ?? [:]).reduce(into: [Int: String]()) { $0[Int($1.key)!] = $1.value }
                let hashes = (check["dg_check"] as? [String: String] ?? [:]).reduce(into: [Int: String]()) { $0[Int($1.key)!] = $1.value }
                let signer = check["signer"] as? [String: Any]
                let expect = files.first { $0["path"] as? String == file }?["expect"] as? String
                // A signature over signed attributes whose messageDigest is not the eContent's hash
                // does not sign this content: the SOD's signature is invalid.
                let valid = (signer?["signature_valid"] as? Bool).map { $0 && (signer?["message_digest_matches"] as? Bool ?? true) }
                out.append(SODCase(set: name, sod: file, dataGroups: dgFiles, expectedHashes: hashes, signatureValid: valid, expect: expect))
            }
        }
        return out
    }

    static func bytes(_ set: String, _ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(set).appendingPathComponent(path)))
    }
}

@Suite(.enabled(if: EMRTDSamples.available, "needs ../shared/testdata/emrtd (public eMRTD chip samples); absent here"))
struct PassiveAuthenticationSampleTests {
    @Test("every EF.SOD check of the manifest: each data group's hash, the signature, and the damaged SODs refused",
          arguments: EMRTDSamples.sodCases)
    func sodAsTheManifestSays(_ c: EMRTDSamples.SODCase) throws {
        var groups: [Int: [UInt8]] = [:]
        for (number, path) in c.dataGroups { groups[number] = try EMRTDSamples.bytes(c.set, path) }
        let pa = PassiveAuthentication(sod: try EMRTDSamples.bytes(c.set, c.sod), dataGroups: groups)
        if let expect = c.expect, expect.hasPrefix("reject") {
            // Damaged structure (content type, SignedData or LDSSecurityObject version, trailing bytes).
            #expect(pa.result == .failed, "\(pa.reasons)")
            if case .invalid = pa.structure {} else if case .invalid = pa.signature {} else {
                Issue.record("neither the structure nor the signature is invalid: \(pa.reasons)")
            }
            return
        }
        #expect(pa.structure == .valid, "\(pa.reasons)")
        for (number, expected) in c.expectedHashes {
            let check = pa.dataGroupHashes.first { $0.number == number }?.check
            switch expected {
            case "match": #expect(check == .valid, "DG\(number): \(String(describing: check))")
            case let m where m.hasPrefix("MISMATCH"):
                if case .invalid = check {} else { Issue.record("DG\(number) should not match: \(String(describing: check))") }
            default:
                if case .notPerformed = check {} else { Issue.record("DG\(number) is not in the SOD: \(String(describing: check))") }
            }
        }
        if let valid = c.signatureValid {
            #expect(pa.signature.name == (valid ? "valid" : "invalid"), "\(pa.reasons)")
        }
        // Never `passed` without a CSCA: at best incomplete.
        #expect(pa.result != .passed)
        let anyInvalid = pa.signature.name == "invalid" || pa.dataGroupHashes.contains { $0.check.name == "invalid" }
        #expect(pa.result == (anyInvalid ? .failed : .incomplete))
        if pa.signature == .valid { #expect(pa.documentSigner?.serialNumber.isEmpty == false) }
    }

    @Test func theBSIReferenceSODInDetail() throws {
        let set = "bsi-tr03105-5-refdata"
        let pa = PassiveAuthentication(sod: try EMRTDSamples.bytes(set, "EF_SOD.bin"),
                                       dataGroups: [1: try EMRTDSamples.bytes(set, "EF_DG1.bin"), 15: try EMRTDSamples.bytes(set, "EF_DG15.bin")])
        let sod = try #require(pa.securityObject)
        #expect(sod.hashAlgorithm == "SHA-256" && sod.version == 0 && sod.signedDataVersion == 3)
        #expect(sod.dataGroupHashes.map(\.number) == [1, 2, 3, 14, 4])
        #expect(Hex.encode(sod.dataGroupHashes[0].hash).lowercased() == "4170ca879fce6a22ffef1567ff88079f415c66ead250ab5f23781ac2cdbf42b6")
        #expect(pa.signature == .valid)
        #expect(pa.documentSigner?.subject == "CN=HJP PB DS,OU=Document Signer,O=HJP Consulting,C=DE")
        #expect(pa.documentSigner?.serialNumber == "0142FD5CF927")
        #expect(pa.documentSigner?.notBefore == "2013-12-16" && pa.documentSigner?.notAfter == "2014-12-11")
        #expect(pa.dataGroupHashes.map(\.number) == [1, 2, 3, 4, 14, 15])
        #expect(pa.dataGroupHashes.first { $0.number == 15 }?.check.name == "notPerformed")
        #expect(pa.result == .incomplete)
        var w = JSONWriter()
        pa.writeJSON(to: &w)
        let json = String(decoding: w.bytes, as: UTF8.self)
        #expect(json.hasPrefix(#"{"result":"incomplete","dataGroupHashes":{"DG1":"valid","DG2":"notPerformed","DG3":"notPerformed","DG4":"notPerformed","DG14":"notPerformed","DG15":"notPerformed"},"signature":"valid","certificateChain":"notPerformed","documentSigner":{"subject":"CN=HJP PB DS,OU=Document Signer,O=HJP Consulting,C=DE""#), "\(json)")
    }
}

/// BER-TLV reading (ICAO 9303-10 §4.5, ISO/IEC 7816-4 §5.2) with made-up bytes.
@Suite struct BERTLVTests {
    @Test func tagsAndLengthsInEveryForm() throws {
        // 5F1F (two-byte tag), long-form length 81 05.
        let bytes: [UInt8] = [0x61, 0x07, 0x5F, 0x1F, 0x81, 0x03, 0x41, 0x42, 0x43, 0x00]
        let outer = try BERTLV.read(bytes, at: 0, within: 0..<9)
        #expect(outer.tag == 0x61 && outer.value == 2..<9 && outer.isConstructed)
        let inner = try outer.children(bytes)
        #expect(inner.count == 1 && inner[0].tag == 0x5F1F && inner[0].value == 6..<9 && !inner[0].isConstructed)
        #expect(throws: LDSError.self) { try BERTLV.file(bytes, tag: 0x61, name: "EF.DG1") }   // the trailing 00
    }

    @Test func damageIsAnErrorWithItsOffsetAndTag() {
        func error(_ bytes: [UInt8]) -> LDSError? {
            do { _ = try BERTLV.read(bytes, at: 0, within: 0..<bytes.count).children(bytes) } catch { return error }
            return nil
        }
        let truncated = error([0x61, 0x05, 0x5F, 0x1F])
        #expect(truncated?.kind == .truncated && truncated?.offset == 0 && truncated?.tag == 0x61)
        #expect(error([0x61, 0x80, 0x00, 0x00])?.kind == .invalidLength)
        #expect(error([0x61, 0x85, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00])?.kind == .invalidLength)
        #expect(error([0x61, 0x03, 0x5F, 0x1F, 0x05])?.kind == .truncated)      // the child's value runs past its parent
        #expect(error([0x5F])?.kind == .truncated)
        #expect(error([0x61, 0x02, 0x5F, 0x1F]).map { $0.description.contains("byte") } == true)
    }

    @Test func objectIdentifiersAndIntegers() throws {
        let oid: [UInt8] = [0x06, 0x06, 0x67, 0x81, 0x08, 0x01, 0x01, 0x01]    // 2.23.136.1.1.1
        #expect(try BERTLV.read(oid, at: 0, within: 0..<oid.count).objectIdentifier(oid, of: "t") == "2.23.136.1.1.1")
        let sha256: [UInt8] = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
        #expect(try BERTLV.read(sha256, at: 0, within: 0..<sha256.count).objectIdentifier(sha256, of: "t") == "2.16.840.1.101.3.4.2.1")
        let minusOne: [UInt8] = [0x02, 0x01, 0xFF]
        #expect(try BERTLV.read(minusOne, at: 0, within: 0..<3).integer(minusOne, of: "v") == -1)
        let cut: [UInt8] = [0x06, 0x02, 0x2A, 0x86]
        #expect(throws: LDSError.self) { try BERTLV.read(cut, at: 0, within: 0..<4).objectIdentifier(cut, of: "t") }
    }
}

/// Chains to CSCAs: the issued documents' own CSCA certificates, and the German and Dutch CSCA
/// master lists, as ../shared/testdata/emrtd's manifest records them.
@Suite(.enabled(if: EMRTDSamples.available, "needs ../shared/testdata/emrtd (public eMRTD chip samples); absent here"))
struct CSCAChainTests {
    static let documents = ["AT", "AU", "CN", "DE", "FI", "FR", "GB", "ID", "MY", "NZ", "PH", "RU", "SG", "US", "NZ-2011"]

    static func dataGroups(_ country: String) throws -> [Int: [UInt8]] {
        let folder = EMRTDSamples.directory.appendingPathComponent("real-documents/\(country)")
        var out: [Int: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasPrefix("EF_DG") {
            out[Int(name.dropFirst(5).dropLast(4))!] = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        return out
    }

    @Test("each issued document's Document Signer chains to its country's CSCA (the 2011 NZ one to none: its CSCA is a later one)",
          arguments: documents)
    func ownCSCA(_ country: String) throws {
        let folder = EMRTDSamples.directory.appendingPathComponent("real-documents/\(country)")
        // The Indonesian folder holds its CSCA series (with link certificates); the 2011 NZ
        // passport has only the NZ CSCA of today.
        let trusted = country == "ID" ? folder : EMRTDSamples.directory.appendingPathComponent("real-documents/\(country == "NZ-2011" ? "NZ" : country)/CSCA.der")
        let store = try CSCAStore(contentsOf: trusted.path)
        let groups = try Self.dataGroups(country)
        let pa = PassiveAuthentication(sod: Array(try Data(contentsOf: folder.appendingPathComponent("EF_SOD.bin"))), dataGroups: groups,
                                       cscas: store, referenceDate: "2026-11-30")
        #expect(pa.signature == .valid, "\(pa.reasons)")
        if country == "NZ-2011" {
            #expect(pa.certificateChain.name == "notPerformed" && pa.csca == nil, "\(pa.reasons)")
            #expect(pa.result == .incomplete)
            return
        }
        #expect(pa.certificateChain == .valid, "\(pa.reasons)")
        #expect(pa.csca?.subject == pa.documentSigner?.issuer)
        // With the data groups the set holds (DG14 or DG15, some none), everything given checks out.
        #expect(pa.result == (groups.isEmpty ? .incomplete : .passed), "\(pa.reasons)")
    }

    @Test("the deviations of issued documents are accepted and said: BER indefinite lengths, rsaEncryption, id-data, a SignerInfo matched by serial")
    func deviationsAreWarnings() throws {
        func warnings(_ country: String) throws -> [String] {
            let folder = EMRTDSamples.directory.appendingPathComponent("real-documents/\(country)")
            return PassiveAuthentication(sod: Array(try Data(contentsOf: folder.appendingPathComponent("EF_SOD.bin"))), dataGroups: [:]).warnings
        }
        let nz = try warnings("NZ")
        #expect(nz.contains { $0.contains("BER indefinite lengths") } && nz.contains { $0.contains("rsaEncryption") })
        #expect(try warnings("US").contains { $0.contains("rsaEncryption") })
        #expect(try warnings("CN").contains { $0.contains("id-data") })
        #expect(try warnings("MY").contains { $0.contains("matched by serial number") })
        #expect(try warnings("DE").isEmpty)
        let bsi = PassiveAuthentication(sod: try EMRTDSamples.bytes("bsi-tr03105-5-refdata", "EF_SOD.bin"), dataGroups: [:])
        #expect(bsi.warnings == ["the SOD lists its data-group hashes out of order (DG1, DG2, DG3, DG14, DG4)"])
    }

    @Test func anotherCountrysCSCAIsNoChain() throws {
        let de = EMRTDSamples.directory.appendingPathComponent("real-documents/DE")
        let store = try CSCAStore(contentsOf: EMRTDSamples.directory.appendingPathComponent("real-documents/AT/CSCA.der").path)
        let pa = PassiveAuthentication(sod: Array(try Data(contentsOf: de.appendingPathComponent("EF_SOD.bin"))),
                                       dataGroups: try Self.dataGroups("DE"), cscas: store)
        #expect(pa.certificateChain.name == "notPerformed")
        #expect(pa.result == .incomplete)
        #expect(pa.reasons.contains { $0.contains("no CSCA among 1 certificate from") })
    }

    @Test("the German and Dutch master lists: signatures verified, 588 and 411 CSCAs, and the chains the manifest records")
    func masterLists() throws {
        let folder = EMRTDSamples.directory.appendingPathComponent("master-lists")
        let de = try CSCAStore(masterList: Array(try Data(contentsOf: folder.appendingPathComponent("DE_ML_2026-05-28-08-28-45.ml"))))
        let nl = try CSCAStore(masterList: Array(try Data(contentsOf: folder.appendingPathComponent("NL_ML_2026-07-22.ml"))))
        #expect(de.certificates.count == 588 && nl.certificates.count == 411)
        // The manifest: which master list's CSCAs verify each issued document's Document Signer.
        let data = try Data(contentsOf: EMRTDSamples.directory.appendingPathComponent("manifest.json"))
        let sets = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["sets"] as? [[String: Any]] ?? []
        let expected = sets.flatMap { $0["checks"] as? [[String: Any]] ?? [] }
            .first { $0["type"] as? String == "DS certificate verified by a CSCA taken from the master lists" }?["result"] as? [String: [String]]
        let table = try #require(expected)
        #expect(table.count >= 14)
        for (file, lists) in table {
            let country = String(file.split(separator: "/")[0])
            let sod = Array(try Data(contentsOf: EMRTDSamples.directory.appendingPathComponent("real-documents/\(file)")))
            for (name, store) in [("DE_ML_2026-05-28-08-28-45.ml", de), ("NL_ML_2026-07-22.ml", nl)] {
                let pa = PassiveAuthentication(sod: sod, dataGroups: [:], cscas: store)
                #expect((pa.certificateChain == .valid) == lists.contains(name), "\(country) with \(name): \(pa.reasons)")
            }
        }
        // A master list whose signature is broken is refused.
        var broken = Array(try Data(contentsOf: folder.appendingPathComponent("NL_ML_2026-07-22.ml")))
        broken[broken.count - 10] ^= 0x01
        #expect(throws: LDSError.self) { try CSCAStore(masterList: broken) }
    }
}

/// The LDS files of ICAO 9303-10's worked examples and of the test sets (../shared/testdata/emrtd).
@Suite(.enabled(if: EMRTDSamples.available, "needs ../shared/testdata/emrtd (public eMRTD chip samples); absent here"))
struct LDSFileTests {
    static func file(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: EMRTDSamples.directory.appendingPathComponent(path))) }

    @Test func efCOMOfPart10A1() throws {
        let com = try EFCOM(try Self.file("icao9303-worked-examples/p10-A1_EF_COM.bin"))
        #expect(com.ldsVersion == "1.7" && com.unicodeVersion == "4.0.0" && com.dataGroups == [1, 2, 4, 12])
    }

    @Test func dg1OfEveryLayout() throws {
        let td3 = try DataGroup1(try Self.file("icao9303-worked-examples/p4-B_EF_DG1_TD3.bin"), referenceDate: CalendarDate(year: 2010, month: 1, day: 1))
        #expect(td3.mrz.format == .td3 && td3.mrz.fields.documentNumber == "L898902C3" && td3.mrz.isValid)
        #expect(td3.lines == ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"])
        let td1 = try DataGroup1(try Self.file("icao9303-worked-examples/p10-A2.1_EF_DG1_TD1.bin"))
        #expect(td1.mrz.format == .td1 && td1.lines.count == 3)
        let td2 = try DataGroup1(try Self.file("icao9303-worked-examples/p10-A2.2_EF_DG1_TD2.bin"))
        #expect(td2.mrz.format == .td2)
        // A DG1 in a DG11's place.
        #expect(throws: LDSError.self) { try DataGroup1(try Self.file("icao9303-worked-examples/p10-A5_EF_DG11.bin")) }
    }

    @Test func dg11OfPart10A5AndDG12() throws {
        let dg11 = try AdditionalDetails(try Self.file("icao9303-worked-examples/p10-A5_EF_DG11.bin"), group: 11)
        #expect(dg11.fields.map(\.name) == ["fullName", "placeOfBirth", "address", "telephone", "profession"])
        #expect(dg11.fields.map(\.value) == ["SMITH<<JOHN<J", "ANYTOWN<MN", "123 MAPLE RD<ANYTOWN<MN", "16125551212", "TRAVEL<AGENT"])
        let dg12 = try AdditionalDetails(try Self.file("tsemrtd-synthetic/EF_DG12.bin"), group: 12)
        #expect(dg12.fields.first { $0.name == "issuingAuthority" }?.value == "TEST")
        #expect(dg12.fields.first { $0.name == "dateOfIssue" }?.value == "20240101")
        #expect(dg12.others == ["William"])
    }

    @Test func dg2FacesJPEG2000AndJPEG() throws {
        let dg2 = try DataGroup2(try Self.file("bsi-tr03105-5-refdata/EF_DG2.bin"))
        #expect(dg2.faces.count == 1)
        #expect(dg2.faces.first.map { ($0.imageType, $0.width, $0.height) } ?? ("", 0, 0) == ("JPEG2000", 337, 449))
        let record = try Self.file("iso-biometric-records/ISO19794_Test1_Data.bin")
        let faces = try DataGroup2.faces(in: record, at: 0)
        let jpeg = try Self.file("iso-biometric-records/ISO19794_Test1_Face.jpg")
        #expect(faces.count == 1 && faces[0].imageType == "JPEG" && faces[0].image == jpeg)
    }

    /// LDS 2 faces: the data block 7F2E holds an ISO/IEC 39794-5 record (gmrtd's two DG2 files). The
    /// size is the record's when it states one (the all-fields record: 572 x 731), else the JPEG
    /// 2000 header's (413 x 531, the size OpenJPEG decodes); the image is the embedded file.
    @Test func dg2FacesInISO39794Part5() throws {
        let face = try Self.file("iso-biometric-records/ICAO_39794_5_AP_DG2_Face.jpg")
        let all = try DataGroup2(try Self.file("iso-biometric-records/ICAO_39794_5_AP_DG2_AllFields.dat"))
        #expect(all.faces.map { "\($0.imageType) \($0.width)x\($0.height)" } == ["JPEG2000 572x731"])
        #expect(all.faces.first?.image == face)
        let mandatory = try DataGroup2(try Self.file("iso-biometric-records/ICAO_39794_5_AP_DG2_MandFields.dat"))
        #expect(mandatory.faces.map { "\($0.imageType) \($0.width)x\($0.height)" } == ["JPEG2000 413x531"])
        #expect(mandatory.faces.first?.image == face)
        // Cut inside the record: an error with its place, never a crash.
        let cut = Array(try Self.file("iso-biometric-records/ICAO_39794_5_AP_DG2_MandFields.dat").prefix(60))
        #expect(throws: LDSError.self) { try DataGroup2(cut) }
    }

    /// EF.DG7, the displayed signature (tsemrtd's synthetic one: a 550 x 142 JPEG 2000).
    @Test func dg7DisplayedSignature() throws {
        let dg7 = try DataGroup7(try Self.file("tsemrtd-synthetic/EF_DG7.bin"))
        // 67 82 0129, 02 01 01, 5F43 82 0121: one image of 0x121 = 289 bytes.
        #expect(dg7.images.map { "\($0.imageType) \($0.width)x\($0.height) \($0.image.count)" } == ["JPEG2000 550x142 289"])
        #expect(dg7.images.first?.image.starts(with: [0, 0, 0, 0x0C, 0x6A, 0x50]) == true)
        #expect(ImageHeader.size(try Self.file("iso-biometric-records/ISO19794_Test1_Face.jpg")).map { "\($0.width)x\($0.height)" } == "148x70")
        #expect(throws: LDSError.self) { try DataGroup7([0x67, 0x03, 0x02, 0x01, 0x02]) }   // says 2 images, holds none
    }
}

/// EF.DG14 and EF.CardAccess: every SecurityInfos check of the manifest (13 files), OID for OID.
@Suite(.enabled(if: EMRTDSamples.available, "needs ../shared/testdata/emrtd (public eMRTD chip samples); absent here"))
struct SecurityInfosTests {
    @Test func everyUnsignedSecurityInfosAsTheManifestLists() throws {
        let data = try Data(contentsOf: EMRTDSamples.directory.appendingPathComponent("manifest.json"))
        let sets = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["sets"] as? [[String: Any]] ?? []
        var checked = 0
        for set in sets {
            for check in set["checks"] as? [[String: Any]] ?? [] where check["type"] as? String == "SecurityInfos" {
                let name = set["name"] as! String, file = check["file"] as! String
                let infos = try SecurityInfos(try EMRTDSamples.bytes(name, file))
                let expected = check["infos"] as? [[String: Any]] ?? []
                #expect(infos.infos.map(\.oid) == expected.map { $0["oid"] as! String }, "\(name)/\(file)")
                for (info, want) in zip(infos.infos, expected) {
                    let params = (want["params"] as? [Any] ?? []).map { "\($0)" }
                    #expect(info.parameters.map(\.description) == params, "\(name)/\(file) \(info.oid)")
                    if let n = want["name"] as? String, !n.isEmpty { #expect(info.name == n, "\(info.oid)") }
                }
                checked += 1
            }
        }
        #expect(checked >= 12)
    }
}

/// EF.CardSecurity: the chip's SecurityInfos signed by a Document Signer (BSI TR-03110-3 §A.1.2),
/// every EF.CardSecurity check of the manifest (PersoSim, the German and Finnish documents, JMRTD's
/// Utopia chip without signed attributes): signature, signer, and the signed SecurityInfos OID for OID.
@Suite(.enabled(if: EMRTDSamples.available, "needs ../shared/testdata/emrtd (public eMRTD chip samples); absent here"))
struct CardSecurityTests {
    @Test func everyCardSecurityAsTheManifestLists() throws {
        let data = try Data(contentsOf: EMRTDSamples.directory.appendingPathComponent("manifest.json"))
        let sets = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["sets"] as? [[String: Any]] ?? []
        var signatures = 0, contents = 0
        for set in sets {
            let name = set["name"] as! String
            for check in set["checks"] as? [[String: Any]] ?? [] {
                let file = check["file"] as? String ?? ""
                switch check["type"] as? String {
                case "EF.CardSecurity":
                    let card = CardSecurity(try EMRTDSamples.bytes(name, file))
                    let signer = check["signer"] as? [String: Any] ?? [:]
                    #expect(card.structure == .valid, "\(name)/\(file): \(card.reasons)")
                    #expect(card.signature.name == ((signer["signature_valid"] as? Bool) == true ? "valid" : "invalid"), "\(name)/\(file): \(card.reasons)")
                    #expect(card.result == .incomplete)   // no CSCA given
                    signatures += 1
                case "SecurityInfos (signed content)":
                    let infos = try #require(CardSecurity(try EMRTDSamples.bytes(name, file)).securityInfos)
                    let expected = check["infos"] as? [[String: Any]] ?? []
                    #expect(infos.infos.map(\.oid) == expected.map { $0["oid"] as! String }, "\(name)/\(file)")
                    for (info, want) in zip(infos.infos, expected) {
                        #expect(info.parameters.map(\.description) == (want["params"] as? [Any] ?? []).map { "\($0)" }, "\(name)/\(file) \(info.oid)")
                    }
                    contents += 1
                default: continue
                }
            }
        }
        // Four EF.CardSecurity files, and PersoSim's EF.ChipSecurity, which is signed the same way.
        #expect(signatures == 4 && contents == 5)
    }

    @Test func chainedToTheirCSCAsAndDamageFails() throws {
        for country in ["DE", "FI"] {
            let store = CSCAStore(certificates: [try EMRTDSamples.bytes("real-documents", "\(country)/CSCA.der")], source: "\(country)/CSCA.der")
            let card = CardSecurity(try EMRTDSamples.bytes("real-documents", "\(country)/EF_CardSecurity.bin"), cscas: store, referenceDate: "2026-12-01")
            #expect(card.result == .passed, "\(country): \(card.reasons)")
            #expect(card.csca?.subject.contains("CSCA") == true || card.csca?.subject.contains("csca") == true)
        }
        let ut = CardSecurity(try EMRTDSamples.bytes("jmrtd-misc", "EF_CardSecurity_UT.bin"), referenceDate: "2026-12-01")
        #expect(ut.signature == .valid && ut.documentSigner?.subject == "CN=DS-1,C=UT")
        #expect(ut.warnings == ["the Document Signer certificate expired on 2016-04-07 (reference date 2026-12-01)"])
        // The last byte is the signature's: it no longer verifies. Cut short: a structure error with its place.
        var damaged = try EMRTDSamples.bytes("real-documents", "DE/EF_CardSecurity.bin")
        damaged[damaged.count - 1] ^= 0x01
        #expect(CardSecurity(damaged).result == .failed && CardSecurity(damaged).signature.name == "invalid")
        let cut = CardSecurity(Array(damaged.prefix(700)))
        #expect(cut.result == .failed && cut.securityInfos == nil && cut.signature.name == "notPerformed")
        // An EF.SOD is no EF.CardSecurity: its content type says so.
        let sod = try EMRTDSamples.bytes("real-documents", "DE/EF_SOD.bin")
        #expect(CardSecurity(Array(sod[4...])).structure.name == "invalid")
    }
}
