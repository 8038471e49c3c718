import Foundation
import Testing
@testable import IDKitChip
import IDKitTestSupport

/// Passive authentication against IDKit's own test PKI, made for each run by
/// TestVectors/chip/make_pki.sh with the openssl command: SODs in RSA PKCS#1 v1.5, RSA-PSS and
/// ECDSA (P-256; brainpoolP384r1 under a CSCA with explicit curve parameters), SHA-1 to SHA-512,
/// and damaged ones — a changed data group, a wrong signature, a Document Signer expired when it
/// signed, one from an untrusted CSCA, one its CSCA revoked (CRL), a truncated SOD, a SOD listing
/// a data group not sent.
@Suite struct PassiveAuthenticationPKITests {
    struct PKI {
        let directory: URL
        let cases: [(name: String, groups: [String], expected: String)]
        let store: CSCAStore
    }

    static let pki: PKI? = {
        guard let out = TestPKI.directory, let table = try? String(contentsOf: out.appendingPathComponent("cases.tsv"), encoding: .utf8),
              let store = try? CSCAStore(contentsOf: out.appendingPathComponent("csca").path).adding(crlsAt: out.appendingPathComponent("crl").path)
        else { return nil }
        let cases = table.split(separator: "\n").map { line -> (String, [String], String) in
            let f = line.split(separator: "\t").map(String.init)
            return (f[0], f[1].split(separator: ",").map(String.init), f[2])
        }
        return PKI(directory: out, cases: cases, store: store)
    }()

    static func run(_ name: String, _ pki: PKI, groups: [String]) throws -> PassiveAuthentication {
        var files: [Int: [UInt8]] = [:]
        for g in groups {
            let number = Int(g.split(separator: "-")[0])!
            files[number] = Array(try Data(contentsOf: pki.directory.appendingPathComponent("EF_DG\(g).bin")))
        }
        return PassiveAuthentication(sod: Array(try Data(contentsOf: pki.directory.appendingPathComponent("sod/\(name).bin"))),
                                     dataGroups: files, cscas: pki.store, referenceDate: "2026-12-01")
    }

    @Test func everyCaseGetsItsOutcome() throws {
        let pki = try #require(Self.pki, "TestVectors/chip/make_pki.sh failed (it needs openssl and python3)")
        #expect(pki.cases.count == 15)
        for c in pki.cases {
            let pa = try Self.run(c.name, pki, groups: c.groups)
            switch c.expected {
            case "passed-with-dg2-not-given":
                #expect(pa.result == .passed, "\(c.name): \(pa.reasons)")
                #expect(pa.dataGroupHashes.first { $0.number == 2 }?.check.name == "notPerformed")
            default:
                #expect(pa.result.rawValue == c.expected, "\(c.name): \(pa.reasons)")
            }
        }
    }

    @Test func eachFailureSaysWhy() throws {
        let pki = try #require(Self.pki, "TestVectors/chip/make_pki.sh failed (it needs openssl and python3)")
        func reasons(_ name: String, _ groups: [String] = ["1", "15"]) throws -> [String] { try Self.run(name, pki, groups: groups).reasons }
        #expect(try reasons("changed-dg1", ["1-changed", "15"]).contains("the hash of DG1 is not the one the SOD lists"))
        #expect(try reasons("wrong-signature").contains { $0.hasPrefix("the SOD's signature does not verify") })
        let expired = try reasons("expired-ds")
        #expect(expired.contains { $0.contains("was not valid when it signed the SOD") }, "\(expired)")
        #expect(try reasons("other-csca").contains { $0.hasPrefix("no CSCA among 2 certificates") })
        #expect(try reasons("truncated").contains { $0.contains("byte") })
        #expect(try reasons("revoked-ds").contains { $0.hasPrefix("the Document Signer is revoked by its CSCA's CRL (since ") })
        // Without the CRL the revoked signer passes: revocation is only as good as the CRLs given.
        let withoutCRL = PassiveAuthentication(sod: Array(try Data(contentsOf: pki.directory.appendingPathComponent("sod/revoked-ds.bin"))),
                                               dataGroups: [1: Array(try Data(contentsOf: pki.directory.appendingPathComponent("EF_DG1.bin")))],
                                               cscas: try CSCAStore(contentsOf: pki.directory.appendingPathComponent("csca").path))
        #expect(withoutCRL.result == .passed)
        let pss = try Self.run("rsa-pss-sha512", pki, groups: ["1", "15"])
        #expect(pss.securityObject?.hashAlgorithm == "SHA-512" && pss.csca?.subject == "CN=IDKit Test CSCA RSA,C=UT")
        let ec = try Self.run("ecdsa-bp384-sha384", pki, groups: ["1", "15"])
        #expect(ec.csca?.subject == "CN=IDKit Test CSCA EC,C=UT")
    }
}
