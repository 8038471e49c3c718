public import IDKitCore

/// SecurityInfos (ICAO 9303-11 §9.2, BSI TR-03110-3 §A.1): what EF.DG14 and EF.CardAccess say the
/// chip supports — PACE, chip authentication, terminal authentication, active authentication — as
/// a SET OF SecurityInfo { protocol OBJECT IDENTIFIER, requiredData ANY, optionalData ANY OPTIONAL }.
public struct SecurityInfos: Sendable, Equatable {
    public struct Info: Sendable, Equatable {
        /// The protocol's OID and its name (`nil` for one IDKit does not know).
        public let oid: String
        public let name: String?
        /// The data after the OID: INTEGERs as numbers, other values as `"SEQUENCE(n bytes)"`,
        /// `"tag 03"` and so on (a public key or domain parameters, shown by size).
        public let parameters: [Parameter]
    }

    public enum Parameter: Sendable, Equatable, CustomStringConvertible {
        case integer(Int)
        case structure(String)
        public var description: String {
            switch self {
            case .integer(let n): "\(n)"
            case .structure(let s): s
            }
        }
    }

    public let infos: [Info]

    /// EF.DG14 (`6E` around the SET) or EF.CardAccess (the SET itself).
    public init(_ bytes: [UInt8]) throws(LDSError) {
        var set: BERTLV
        if bytes.first == 0x6E {
            let file = try BERTLV.file(bytes, tag: 0x6E, name: "EF.DG14")
            set = try BERTLV.read(bytes, at: file.value.lowerBound, within: file.value)
        } else {
            set = try BERTLV.file(bytes, tag: 0x31, name: "EF.CardAccess")
        }
        guard set.tag == 0x31 else { throw LDSError(.unexpectedTag, offset: set.offset, tag: set.tag, "SecurityInfos must be a SET (31)") }
        var infos: [Info] = []
        for info in try set.children(bytes, depth: 1) {
            let parts = try info.children(bytes, depth: 2)
            guard info.tag == 0x30, let first = parts.first else {
                throw LDSError(.invalidContent, offset: info.offset, tag: info.tag, "a SecurityInfo is a SEQUENCE starting with its protocol's OID")
            }
            let oid = try first.objectIdentifier(bytes, of: "a SecurityInfo's protocol")
            let parameters = parts.dropFirst().map { p -> Parameter in
                if p.tag == 0x02, let n = try? p.integer(bytes, of: "a parameter") { return .integer(n) }
                return .structure(p.tag == 0x30 ? "SEQUENCE(\(p.value.count) bytes)" : "tag \(BERTLV.hex(p.tag))")
            }
            infos.append(Info(oid: oid, name: Self.name(of: oid), parameters: parameters))
        }
        self.infos = infos
    }

    /// BSI TR-03110-3 §A.1.1 and ICAO 9303-11 §9.2 names under bsi-de 0.4.0.127.0.7.2.2 and icao 2.23.136.1.1.
    static func name(of oid: String) -> String? {
        let icao = ["2.23.136.1.1.5": "id-icao-mrtd-security-aaProtocolObject (ActiveAuthenticationInfo)",
                    "2.23.136.1.1.6": "id-icao-mrtd-security-efDir"]
        if let n = icao[oid] { return n }
        let base = "0.4.0.127.0.7.2.2."
        guard oid.hasPrefix(base) else { return nil }
        let arcs = oid.dropFirst(base.count).split(separator: ".").compactMap { Int($0) }
        let ciphers = [1: "3DES-CBC-CBC", 2: "AES-CBC-CMAC-128", 3: "AES-CBC-CMAC-192", 4: "AES-CBC-CMAC-256"]
        let hashes = [1: "SHA-1", 2: "SHA-224", 3: "SHA-256", 4: "SHA-384", 5: "SHA-512"]
        switch arcs {
        case [1, 1]: return "id-PK-DH (ChipAuthenticationPublicKeyInfo)"
        case [1, 2]: return "id-PK-ECDH (ChipAuthenticationPublicKeyInfo)"
        case [2]: return "id-TA (TerminalAuthenticationInfo)"
        case [3, 1]: return "id-CA-DH (ChipAuthenticationDomainParameterInfo)"
        case [3, 2]: return "id-CA-ECDH (ChipAuthenticationDomainParameterInfo)"
        case let a where a.count == 3 && a[0] == 3 && (1...2).contains(a[1]):
            return ciphers[a[2]].map { "id-CA-\(a[1] == 1 ? "DH" : "ECDH")-\($0)" }
        case let a where a.count >= 2 && a[0] == 4:
            let mappings = [1: "DH-GM", 2: "ECDH-GM", 3: "DH-IM", 4: "ECDH-IM", 6: "ECDH-CAM"]
            guard let mapping = mappings[a[1]] else { return nil }
            if a.count == 2 { return "id-PACE-\(mapping) (PACEDomainParameterInfo)" }
            return a.count == 3 ? ciphers[a[2]].map { "id-PACE-\(mapping)-\($0)" } : nil
        case [5, 1]: return "id-RI-DH (RestrictedIdentificationDomainParameterInfo)"
        case [5, 2]: return "id-RI-ECDH (RestrictedIdentificationDomainParameterInfo)"
        case let a where a.count == 3 && a[0] == 5 && (1...2).contains(a[1]):
            return hashes[a[2]].map { "id-RI-\(a[1] == 1 ? "DH" : "ECDH")-\($0)" }
        case [6]: return "id-CI (CardInfoLocator)"
        case [7]: return "id-PT (PrivilegedTerminalInfo)"
        default: return nil
        }
    }
}

extension SecurityInfos {
    /// `[{"oid", "name", "parameters": [number | "SEQUENCE(n bytes)" …]}]`.
    public func writeJSON(to w: inout JSONWriter) {
        w.beginArray()
        for i in infos {
            w.beginObject(); w.key("oid"); w.string(i.oid); w.key("name"); w.string(i.name)
            w.key("parameters"); w.beginArray()
            for p in i.parameters { if case .integer(let n) = p { w.int(n) } else { w.string(p.description) } }
            w.endArray(); w.endObject()
        }
        w.endArray()
    }
}
