import CIDKit
import Foundation
import IDKitAAMVA
import IDKitChip
import IDKitCore
import IDKitDocument
import IDKitImage
import IDKitMRZ

/// What the exports share: reading the input and the options, running the call, and turning its
/// answer or its error into an `idkit_result` allocated with `malloc` (freed by
/// `idkit_result_free`, in C).
enum CABI {
    /// `idkit_version()`'s static string (never freed).
    nonisolated(unsafe) static let version: UnsafePointer<CChar> = {    // immutable after its one initialization
        let bytes = Array(IDKitVersion.string.utf8CString)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        return UnsafePointer(copy)
    }()

    /// The options of the MRZ functions.
    static let mrzOptions = MRZRecordValidator.Options.names

    /// An error of the C interface itself, or one the call wants reported with its own status.
    struct Failure: Error {
        var status: Int32
        var kind: String
        var message: String
        var line: Int?
        var column: Int?
        var offset: Int?
    }

    /// The options object, read once; each accessor checks its member's type.
    struct Options {
        var members: [String: Any] = [:]

        init(_ text: UnsafePointer<CChar>?, allowed: Set<String>) throws(Failure) {
            guard let text else { return }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
            // The common "no options" spellings, without a JSON parser.
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) { return }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] else {
                throw Failure(status: Int32(IDKIT_INVALID_OPTIONS), kind: "invalidOptions", message: "the options are not a JSON object")
            }
            if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
                let known = allowed.isEmpty ? "no options" : allowed.sorted().joined(separator: ", ")
                throw Failure(status: Int32(IDKIT_INVALID_OPTIONS), kind: "invalidOptions",
                              message: "unknown option \"\(unknown.prefix(40))\" (this function reads \(known))")
            }
            members = object
        }

        static func wrong(_ name: String, _ what: String) -> Failure {
            Failure(status: Int32(IDKIT_INVALID_OPTIONS), kind: "invalidOptions", message: "option \(name) must be \(what)")
        }

        static func wrong(_ w: OptionValue.Wrong) -> Failure {
            Failure(status: w.errorClass.cStatus, kind: w.kindName, message: "option " + w.message)
        }

        /// The member `name`, `nil` when absent or `null`. Most calls pass no options: an absent
        /// one is answered here, before the value parsers (a tenth of a single MRZ call's work).
        private func member(_ name: String) -> Any? {
            guard !members.isEmpty, let value = members[name], !(value is NSNull) else { return nil }
            return value
        }

        /// A JSON `true` or `false` (not a number), `nil` when absent or `null`.
        func flag(_ name: String) throws(Failure) -> Bool? {
            guard let value = member(name) else { return nil }
            do { return try OptionValue.flag(value, name, text: false) } catch { throw Self.wrong(error) }
        }

        /// A date `"YYYY-MM-DD"`, `nil` when absent or `null`.
        func date(_ name: String) throws(Failure) -> CalendarDate? {
            guard let value = member(name) else { return nil }
            do { return try OptionValue.date(value, name) } catch { throw Self.wrong(error) }
        }

        /// `redaction`: the object of `idkit serve --redaction FILE` (`{"default": {"mode", …},
        /// "rules": […]}`), read by the same parser.
        func redaction() throws(Failure) -> RedactionPolicy? {
            guard let value = member("redaction") else { return nil }
            guard value is [String: Any], let data = try? JSONSerialization.data(withJSONObject: value) else {
                throw Self.wrong("redaction", "an object ({\"default\": {\"mode\": …}, \"rules\": […]})")
            }
            do {
                return try RedactionRules(json: Array(data)).policy
            } catch {
                throw Failure(status: Int32(IDKIT_INVALID_OPTIONS), kind: "invalidOptions", message: "option redaction: \(error.message)")
            }
        }

        /// `csca` (a certificate file or a folder of them) or `masterList` (an ICAO CSCA master
        /// list file): the trust anchors of a chip's passive authentication, read at each call.
        func cscas() throws(Failure) -> CSCAStore? {
            func path(_ name: String) throws(Failure) -> String? {
                guard let value = member(name) else { return nil }
                guard let text = value as? String, !text.isEmpty else { throw Self.wrong(name, "a file or folder path (a string)") }
                return text
            }
            let csca = try path("csca"), list = try path("masterList")
            if csca != nil && list != nil { throw Failure(status: Int32(IDKIT_INVALID_OPTIONS), kind: "invalidOptions", message: "give option csca or masterList, not both") }
            do {
                if let csca { return try CSCAStore(contentsOf: csca) }
                if let list {
                    guard let data = FileManager.default.contents(atPath: list), data.count <= 64 << 20 else {
                        throw Failure(status: Int32(IDKIT_INVALID_OPTIONS), kind: "invalidOptions", message: "option masterList: \(list) cannot be read or is over 64 MiB")
                    }
                    return try CSCAStore(masterList: Array(data), name: "master list \(list)")
                }
            } catch let error as Failure {
                throw error
            } catch let error as ChipError {
                throw Failure(status: Int32(IDKIT_INVALID_OPTIONS), kind: "invalidOptions", message: "option csca: \(error.message)")
            } catch {
                throw Failure(status: Int32(IDKIT_INVALID_OPTIONS), kind: "invalidOptions", message: "option masterList: \(error)")
            }
            return nil
        }

        /// The options of `idkit validate` (today as the reference date unless given).
        func mrz() throws(Failure) -> MRZRecordValidator.Options {
            var o = MRZRecordValidator.Options()
            guard !members.isEmpty else { return o }
            do { try o.apply(members.filter { !($0.value is NSNull) }, text: false) } catch { throw Self.wrong(error) }
            return o
        }
    }

    /// Runs `body` over the input bytes and the options and makes the result. Every error becomes
    /// a status and an error object; only an exhausted `malloc` gives `NULL`.
    static func call(_ input: UnsafePointer<UInt8>?, _ length: Int, _ options: UnsafePointer<CChar>?, allowed: Set<String>,
                     _ body: ([UInt8], Options, inout JSONWriter) throws -> Void) -> UnsafeMutablePointer<idkit_result>? {
        do {
            guard length >= 0, input != nil || length == 0 else {
                throw Failure(status: Int32(IDKIT_INTERNAL_ERROR), kind: "invalidArgument", message: "the input pointer is NULL but its length is \(length)")
            }
            let bytes = input.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
            let parsed = try Options(options, allowed: allowed)
            var w = JSONWriter(capacity: 1024)
            try body(bytes, parsed, &w)
            return w.withBytes { result(Int32(IDKIT_OK), $0) }
        } catch {
            return result(failure(error))
        }
    }

    /// A Swift error as the C interface reports it.
    static func failure(_ error: any Error) -> Failure {
        switch error {
        case let f as Failure:
            return f
        // The status from the one table every front end uses (ErrorClass); the position where the
        // error type has one.
        case let e as MRZError:
            return Failure(status: e.errorClass.cStatus, kind: e.kindName, message: e.message, line: e.line, column: e.column)
        case let e as AAMVAError:
            return Failure(status: e.errorClass.cStatus, kind: e.kindName, message: e.message, offset: e.offset)
        case let e as any ClassifiedError:
            return Failure(status: e.errorClass.cStatus, kind: e.kindName, message: e.message)
        default:
            return Failure(status: Int32(IDKIT_INTERNAL_ERROR), kind: "internal", message: "\(error)")
        }
    }

    /// `{"error": {"kind", "message", "line", "column", "offset"}}`.
    static func result(_ f: Failure) -> UnsafeMutablePointer<idkit_result>? {
        var w = JSONWriter(capacity: 256 + f.message.utf8.count)
        w.beginObject()
        w.key("error")
        w.beginObject()
        w.key("kind"); w.string(f.kind)
        w.key("message"); w.string(f.message)
        w.key("line"); w.int(f.line)
        w.key("column"); w.int(f.column)
        w.key("offset"); w.int(f.offset)
        w.endObject()
        w.endObject()
        return w.withBytes { result(f.status, $0) }
    }

    /// The result with a NUL-terminated copy of `json`, both from `malloc`.
    static func result(_ status: Int32, _ json: UnsafeRawBufferPointer) -> UnsafeMutablePointer<idkit_result>? {
        guard let raw = malloc(MemoryLayout<idkit_result>.size), let text = malloc(json.count + 1) else { return nil }
        let chars = text.assumingMemoryBound(to: CChar.self)
        if let base = json.baseAddress { text.copyMemory(from: base, byteCount: json.count) }
        chars[json.count] = 0
        let r = raw.bindMemory(to: idkit_result.self, capacity: 1)
        r.initialize(to: idkit_result(status: status, json: chars, length: json.count))
        return r
    }
}
