/// EF.SOD, the Document Security Object (ICAO 9303-10 §4.6.2, 9303-11 §5.1): a CMS SignedData
/// (RFC 5652) in an application tag `77`, whose encapsulated content is the LDSSecurityObject —
/// the hash algorithm and one hash per data group — signed by the Document Signer.
///
/// The structure is read here with ``BERTLV`` (every rule of 9303-10 checked, each failure with its
/// offset); the signature is libcrypto's (``LibCrypto/verifySignedData(_:)``).
public struct SecurityObject: Sendable {
    /// `id-icao-mrtd-security-ldsSecurityObject` (9303-10 §4.6.2.2).
    public static let ldsSecurityObjectType = "2.23.136.1.1.1"
    /// The SignedData's version: 3 (9303-10 §4.6.2.2).
    public let signedDataVersion: Int
    /// The signed content: hash algorithm and data-group hashes.
    public let content: LDSSecurityObject
    /// What the SOD does that ICAO 9303-10 does not allow but issued documents do.
    public let warnings: [String]
    /// The CMS SignedData (inside the `77` wrapper).
    let signedData: ArraySlice<UInt8>

    public var version: Int { content.version }
    public var hashAlgorithm: String { content.hashAlgorithm }
    public var hashAlgorithmOID: String { content.hashAlgorithmOID }
    public var dataGroupHashes: [(number: Int, hash: [UInt8])] { content.dataGroupHashes }

    /// EF.SOD's bytes read and checked against 9303-10: the `77` wrapper filled exactly, a
    /// ContentInfo of type signedData, SignedData version 3, eContentType the LDSSecurityObject's
    /// (id-data accepted with a warning), then the LDSSecurityObject (``LDSSecurityObject``).
    /// The CMS may be BER with indefinite lengths and a constructed eContent.
    public init(_ bytes: [UInt8]) throws(LDSError) {
        let wrapper = try BERTLV.file(bytes, tag: 0x77, name: "EF.SOD")
        let cms = try SignedContent(bytes, within: wrapper.value, expecting: Self.ldsSecurityObjectType, what: "the LDSSecurityObject's")
        signedDataVersion = cms.version
        guard signedDataVersion == 3 else {
            throw LDSError(.invalidContent, offset: cms.versionOffset, tag: 0x02, "SignedData version \(signedDataVersion): ICAO 9303-10 requires 3")
        }
        do throws(LDSError) {
            content = try LDSSecurityObject(cms.content)
        } catch {
            throw LDSError(error.kind, offset: cms.contentOffset + error.offset, tag: error.tag, "in the LDSSecurityObject: " + error.message)
        }
        var warnings = cms.warnings
        let numbers = content.dataGroupHashes.map(\.number)
        if numbers != numbers.sorted() {
            warnings.append("the SOD lists its data-group hashes out of order (\(numbers.map { "DG\($0)" }.joined(separator: ", ")))")
        }
        self.warnings = warnings
        signedData = cms.contentInfo
    }

    /// The hash of a data group's file (its bytes as read from the chip, tag and all) with this
    /// SOD's algorithm.
    public func hash(_ file: [UInt8]) -> [UInt8] {
        // Every algorithm LDSSecurityObject accepts is one libcrypto has.
        LibCrypto.digest(named: LibCrypto.digestNames[content.hashAlgorithmOID]!.fetch, file[...]) ?? []
    }
}

/// The LDSSecurityObject (ICAO 9303-10 §4.6.2.3): version 0, or 1 with LDSVersionInfo; a known
/// hash algorithm; data group numbers 1–16, each listed once. Offsets of errors are in its bytes.
public struct LDSSecurityObject: Sendable {
    public let version: Int
    /// OID of the data-group hash algorithm, and its name (`SHA-256`).
    public let hashAlgorithmOID: String
    public let hashAlgorithm: String
    /// One hash per data group number, in the order the SOD lists them.
    public let dataGroupHashes: [(number: Int, hash: [UInt8])]
    public let ldsVersion: String?
    public let unicodeVersion: String?

    public init(_ bytes: [UInt8]) throws(LDSError) {
        let object = try BERTLV.read(bytes, at: 0, within: 0..<bytes.count)
        guard object.tag == 0x30, object.end == bytes.count else {
            throw LDSError(.invalidContent, offset: object.offset, tag: object.tag, "the eContent must be one LDSSecurityObject SEQUENCE")
        }
        let fields = try object.children(bytes, depth: 5)
        guard fields.count == 3 || fields.count == 4 else {
            throw LDSError(.invalidContent, offset: object.offset, tag: 0x30, "LDSSecurityObject has \(fields.count) fields, 3 or 4 expected")
        }
        version = try fields[0].integer(bytes, of: "LDSSecurityObject's version")
        guard version == (fields.count == 4 ? 1 : 0) else {
            throw LDSError(.invalidContent, offset: fields[0].offset, tag: 0x02,
                           "LDSSecurityObject version \(version) \(fields.count == 4 ? "with" : "without") LDSVersionInfo (v\(fields.count == 4 ? 1 : 0) expected)")
        }
        let algorithm = try fields[1].children(bytes, depth: 6)
        guard fields[1].tag == 0x30, let oid = algorithm.first else {
            throw LDSError(.invalidContent, offset: fields[1].offset, tag: fields[1].tag, "hashAlgorithm must be an AlgorithmIdentifier SEQUENCE")
        }
        hashAlgorithmOID = try oid.objectIdentifier(bytes, of: "hashAlgorithm")
        guard let known = LibCrypto.digestNames[hashAlgorithmOID] else {
            throw LDSError(.invalidContent, offset: oid.offset, tag: 0x06, "hash algorithm \(hashAlgorithmOID) is none of SHA-1, SHA-224, SHA-256, SHA-384, SHA-512")
        }
        hashAlgorithm = known.name
        var hashes: [(number: Int, hash: [UInt8])] = []
        for entry in try fields[2].children(bytes, depth: 6) {
            let pair = try entry.children(bytes, depth: 7)
            guard entry.tag == 0x30, pair.count == 2, pair[1].tag == 0x04 else {
                throw LDSError(.invalidContent, offset: entry.offset, tag: entry.tag, "a DataGroupHash is a SEQUENCE of a number and an OCTET STRING")
            }
            let number = try pair[0].integer(bytes, of: "dataGroupNumber")
            guard (1...16).contains(number), !hashes.contains(where: { $0.number == number }) else {
                throw LDSError(.invalidContent, offset: pair[0].offset, tag: 0x02, "data group number \(number) is not 1–16 or is listed twice")
            }
            hashes.append((number, Array(bytes[pair[1].value])))
        }
        guard fields[2].tag == 0x30, !hashes.isEmpty else {
            throw LDSError(.invalidContent, offset: fields[2].offset, tag: fields[2].tag, "dataGroupHashValues must be a SEQUENCE of DataGroupHash")
        }
        dataGroupHashes = hashes
        if fields.count == 4 {
            let info = try fields[3].children(bytes, depth: 6)
            guard info.count == 2 else { throw LDSError(.invalidContent, offset: fields[3].offset, tag: fields[3].tag, "LDSVersionInfo holds two strings") }
            ldsVersion = String(decoding: bytes[info[0].value], as: UTF8.self)
            unicodeVersion = String(decoding: bytes[info[1].value], as: UTF8.self)
        } else {
            (ldsVersion, unicodeVersion) = (nil, nil)
        }
    }
}

/// A CMS ContentInfo of type signedData (RFC 5652 §3, §5) as the chip's signed files hold it
/// (EF.SOD, EF.CardSecurity): read with ``BERTLV``, BER indefinite lengths and a constructed
/// eContent allowed, the encapsulated content type checked and the content taken out. The
/// signature is libcrypto's (``LibCrypto/verifySignedData(_:)``) over ``contentInfo``.
struct SignedContent {
    static let signedDataType = "1.2.840.113549.1.7.2"
    static let dataType = "1.2.840.113549.1.7.1"

    let version: Int
    let versionOffset: Int
    /// The eContent's bytes, and where they start in the file.
    let content: [UInt8]
    let contentOffset: Int
    /// The ContentInfo's bytes.
    let contentInfo: ArraySlice<UInt8>
    /// Deviations accepted: id-data as the content type, BER indefinite lengths, rsaEncryption
    /// named without a hash.
    let warnings: [String]

    /// The ContentInfo that fills `range` of `bytes`, whose eContentType must be `expected`
    /// (`what`: its name in messages; id-data is accepted with a warning).
    init(_ bytes: [UInt8], within range: Range<Int>, expecting expected: String, what: String) throws(LDSError) {
        let contentInfo = try BERTLV.read(bytes, at: range.lowerBound, within: range, indefinite: true)
        guard contentInfo.tag == 0x30, contentInfo.end == range.upperBound else {
            throw LDSError(.unexpectedTag, offset: contentInfo.offset, tag: contentInfo.tag, "the file must hold one ContentInfo SEQUENCE (30)")
        }
        let info = try contentInfo.children(bytes, indefinite: true)
        guard info.count == 2, info[1].tag == 0xA0 else {
            throw LDSError(.invalidContent, offset: contentInfo.offset, tag: 0x30, "a ContentInfo is a content type and [0] content")
        }
        let type = try info[0].objectIdentifier(bytes, of: "ContentInfo's contentType")
        guard type == Self.signedDataType else {
            throw LDSError(.invalidContent, offset: info[0].offset, tag: 0x06, "the content type is \(type), not signedData (\(Self.signedDataType))")
        }
        let signed = try BERTLV.read(bytes, at: info[1].value.lowerBound, within: info[1].value, indefinite: true, depth: 2)
        guard signed.tag == 0x30 else { throw LDSError(.unexpectedTag, offset: signed.offset, tag: signed.tag, "SignedData must be a SEQUENCE (30)") }
        let parts = try signed.children(bytes, depth: 2, indefinite: true)
        guard parts.count >= 4 else { throw LDSError(.invalidContent, offset: signed.offset, tag: 0x30, "SignedData has \(parts.count) parts, at least 4 expected") }
        version = try parts[0].integer(bytes, of: "SignedData's version")
        versionOffset = parts[0].offset
        // encapContentInfo: eContentType and [0] EXPLICIT OCTET STRING eContent.
        let encapsulated = try parts[2].children(bytes, depth: 3, indefinite: true)
        guard parts[2].tag == 0x30, encapsulated.count == 2, encapsulated[1].tag == 0xA0 else {
            throw LDSError(.invalidContent, offset: parts[2].offset, tag: parts[2].tag, "encapContentInfo must hold eContentType and [0] eContent")
        }
        let contentType = try encapsulated[0].objectIdentifier(bytes, of: "eContentType")
        var warnings: [String] = []
        if contentType == Self.dataType {
            // Issued documents do this (a Chinese passport of ../shared/testdata/emrtd): accepted,
            // said; the content type is a signed attribute, so the signature still binds it.
            warnings.append("eContentType is id-data (\(Self.dataType)), not \(what) (\(expected)) as ICAO 9303 requires")
        } else if contentType != expected {
            throw LDSError(.invalidContent, offset: encapsulated[0].offset, tag: 0x06, "eContentType \(contentType), not \(what) (\(expected))")
        }
        let octets = try BERTLV.read(bytes, at: encapsulated[1].value.lowerBound, within: encapsulated[1].value, indefinite: true, depth: 4)
        // eContent: an OCTET STRING, in BER also constructed of primitive segments.
        var eContent: [UInt8] = []
        switch octets.tag {
        case 0x04: eContent = Array(bytes[octets.value])
        case 0x24:
            for segment in try octets.children(bytes, depth: 4, indefinite: true) {
                guard segment.tag == 0x04 else { throw LDSError(.unexpectedTag, offset: segment.offset, tag: segment.tag, "a segment of eContent must be an OCTET STRING (04)") }
                eContent += bytes[segment.value]
            }
        default: throw LDSError(.unexpectedTag, offset: octets.offset, tag: octets.tag, "eContent must be an OCTET STRING (04)")
        }
        content = eContent
        contentOffset = octets.value.lowerBound
        // Deviations issued documents show, accepted and said (the manifest of ../shared/testdata/emrtd
        // lists them): BER indefinite lengths, rsaEncryption named without a hash.
        if contentInfo.end != contentInfo.value.upperBound || signed.end != signed.value.upperBound {
            warnings.append("the CMS uses BER indefinite lengths, where DER (definite) is expected")
        }
        // SignerInfo: version, sid, digestAlgorithm, [0] signedAttrs, signatureAlgorithm, signature (04), …
        if let infos = parts.last, infos.tag == 0x31, let first = try? infos.children(bytes, depth: 3, indefinite: true).first,
           let fields = try? first.children(bytes, depth: 4, indefinite: true),
           let signature = fields.firstIndex(where: { $0.tag == 0x04 }), signature > 0,
           let oid = try? fields[signature - 1].children(bytes, depth: 5, indefinite: true).first?.objectIdentifier(bytes, of: "signatureAlgorithm"),
           oid == "1.2.840.113549.1.1.1" {
            warnings.append("the SignerInfo names its signature algorithm rsaEncryption, without a hash; the digest algorithm's is used")
        }
        self.warnings = warnings
        self.contentInfo = bytes[contentInfo.range]
    }
}
