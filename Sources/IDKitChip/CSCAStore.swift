import Foundation

/// The Country Signing CA certificates a backend trusts, to which a Document Signer must chain
/// (ICAO 9303-12 §7): from certificate files (DER or PEM, a folder of them) or from an ICAO CSCA
/// master list (9303-12 §9) whose own CMS signature verifies.
public struct CSCAStore: Sendable {
    /// The certificates, DER.
    public let certificates: [[UInt8]]
    /// Where they came from, for reports ("3 certificates from DIR", "master list FILE: 588 certificates").
    public let source: String
    /// Certificate revocation lists (DER) the CSCAs issued: a Document Signer a verified CRL of
    /// its CSCA lists is revoked.
    public private(set) var crls: [[UInt8]] = []

    /// Each certificate parsed once, with its fields and its key decoded: a Document Signer's
    /// issuer picks its candidates, and each is checked, without libcrypto decoding a CSCA (and its
    /// explicit curve parameters, the costly part) again for each document.
    let parsed: [LibCrypto.Certificate]

    public init(certificates: [[UInt8]], source: String) {
        self.certificates = certificates
        self.source = source
        parsed = certificates.map(LibCrypto.Certificate.init)
    }

    /// The certificates whose subject is `issuer`, else (names encoded so differently that their
    /// text differs) all of them.
    func candidates(issuer: String) -> [LibCrypto.Certificate] {
        let named = parsed.filter { $0.fields.subject == issuer }
        return named.isEmpty ? parsed : named
    }

    /// The store with the CRLs of `path` (a folder of `.crl`, `.der`, `.pem` files, or one file).
    public func adding(crlsAt path: String) throws(ChipError) -> CSCAStore {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw ChipError(.invalidInput, "CRLs: no file or folder \(path)") }
        let files = isFolder.boolValue
            ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
                .filter { ["crl", "der", "pem"].contains(($0 as NSString).pathExtension.lowercased()) }.map { (path as NSString).appendingPathComponent($0) }
            : [path]
        var copy = self
        for file in files {
            guard let data = FileManager.default.contents(atPath: file), data.count <= 16 << 20 else { throw ChipError(.invalidInput, "CRLs: \(file) cannot be read or is over 16 MiB") }
            let found = LibCrypto.crls(inFile: Array(data))
            guard !found.isEmpty else { throw ChipError(.invalidInput, "CRLs: \(file) holds no DER or PEM CRL") }
            copy.crls += found
        }
        return copy
    }

    /// Every certificate file in `path` (a folder, or one file): `.der`, `.cer`, `.crt`, `.pem`.
    /// A file that holds no certificate is an error naming it.
    public init(contentsOf path: String) throws(ChipError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ChipError(.invalidInput, "CSCA certificates: no file or folder \(path)")
        }
        let files = isFolder.boolValue
            ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
                .filter { ["der", "cer", "crt", "pem"].contains(($0 as NSString).pathExtension.lowercased()) }
                .map { (path as NSString).appendingPathComponent($0) }
            : [path]
        var all: [[UInt8]] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file), data.count <= 1 << 20 else {
                throw ChipError(.invalidInput, "CSCA certificates: \(file) cannot be read or is over 1 MiB")
            }
            let found = LibCrypto.certificates(inFile: Array(data))
            guard !found.isEmpty else { throw ChipError(.invalidInput, "CSCA certificates: \(file) holds no DER or PEM certificate") }
            all += found
        }
        guard !all.isEmpty else { throw ChipError(.invalidInput, "CSCA certificates: no .der, .cer, .crt or .pem file in \(path)") }
        self.init(certificates: all, source: "\(all.count) certificate\(all.count == 1 ? "" : "s") from \(path)")
    }

    /// `id-icao-cscaMasterList` (9303-12 §9).
    static let masterListType = "2.23.136.1.1.2"

    /// An ICAO CSCA master list: its CMS signature must verify (with the signer certificate it
    /// carries), its content be a CscaMasterList of version 0. The signer's own chain (to its
    /// country's CSCA, usually in the list) is the operator's to trust, as with a CSCA folder.
    public init(masterList bytes: [UInt8], name: String = "master list") throws(LDSError) {
        let (signature, content) = try LibCrypto.masterList(bytes)
        switch signature {
        case .valid: break
        case .invalid(let reason, _):
            throw LDSError(.invalidSignedData, offset: 0, "the \(name)'s signature does not verify: \(reason)")
        case .noSignerCertificate:
            throw LDSError(.invalidSignedData, offset: 0, "the \(name) carries no signer certificate to check its signature with")
        }
        // CscaMasterList ::= SEQUENCE { version CscaMasterListVersion (v0), certList SET OF Certificate }
        let list = try BERTLV.read(content, at: 0, within: 0..<content.count)
        let fields = try list.children(content)
        guard list.tag == 0x30, fields.count == 2, fields[1].tag == 0x31 else {
            throw LDSError(.invalidContent, offset: 0, tag: list.tag, "a CscaMasterList is a SEQUENCE of a version and a SET OF Certificate")
        }
        let version = try fields[0].integer(content, of: "the master list's version")
        guard version == 0 else { throw LDSError(.invalidContent, offset: fields[0].offset, tag: 0x02, "master list version \(version) (0 expected)") }
        let certificates = try fields[1].children(content, depth: 2).map { Array(content[$0.range]) }
        self.init(certificates: certificates, source: "\(name): \(certificates.count) certificates")
    }
}
