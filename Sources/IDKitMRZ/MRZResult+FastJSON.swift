/// JSON for the common case — a clean result from the fast path: no errors, warnings or deviations —
/// written from a per-layout template: the constant text between values is copied in large pieces
/// and only the values are written. It produces exactly the bytes the general writer produces
/// (tested), at a fraction of the cost, which is what `idkit validate --json` spends most time on.
final class JSONTemplate: Sendable {
    enum Value: Sendable {
        case field(Int)
        case dateOfBirth
        case dateOfExpiry
        case line(Int)
    }

    /// `constants[i]` is written before `values[i]`; the last constant closes the members.
    let constants: [[UInt8]]
    let values: [Value]
    /// The constants end to end, and where each starts (one more entry than constants: the end).
    let joined: [UInt8]
    let starts: [Int]

    init(_ format: MRZFormat) {
        let layout = MRZLayout.of(format)
        var constants: [[UInt8]] = []
        var values: [Value] = []
        var pending = ""
        func value(_ v: Value) { constants.append(Array(pending.utf8)); values.append(v); pending = "" }
        pending += "\"format\":\"\(format.rawValue)\",\"valid\":true,\"validWithDeviations\":true,\"fields\":{"
        let present = [true, true, true, true, true, layout.nationality != nil, true, true, layout.dateOfExpiry != nil,
                       layout.optionalData1 != nil, layout.optionalData2 != nil]
        for (i, key) in MRZFields.CodingKeys.allCases.enumerated() {
            pending += (i > 0 ? "," : "") + "\"\(key.stringValue)\":"
            if present[i] {
                pending += "\""
                value(.field(i))
                pending += "\""
            } else {
                pending += "null"
            }
        }
        func status(_ exists: Bool) -> String { exists ? "\"valid\"" : "null" }
        pending += "},\"checkDigits\":{\"documentNumber\":\"valid\",\"dateOfBirth\":\"valid\","
            + "\"dateOfExpiry\":\(status(layout.dateOfExpiry != nil)),\"optionalData\":\(status(layout.optionalDataCheck != nil)),"
            + "\"composite\":\(status(layout.composite != nil))},"
            + "\"errors\":[],\"warnings\":[],\"deviations\":[],\"resolvedDates\":{\"dateOfBirth\":\""
        value(.dateOfBirth)
        pending += "\",\"dateOfExpiry\":"
        if layout.dateOfExpiry != nil {
            pending += "\""
            value(.dateOfExpiry)
            pending += "\""
        } else {
            pending += "null"
        }
        pending += "},\"lines\":[\""
        for line in 0..<format.lineCount {
            if line > 0 { pending += "\",\"" }
            value(.line(line))
        }
        pending += "\"]"
        constants.append(Array(pending.utf8))
        self.constants = constants
        self.values = values
        joined = constants.flatMap { $0 }
        starts = constants.reduce(into: [0]) { $0.append($0.last! + $1.count) }
    }

    static let td1 = JSONTemplate(.td1)
    static let td2 = JSONTemplate(.td2)
    static let td3 = JSONTemplate(.td3)
    static let mrvA = JSONTemplate(.mrvA)
    static let mrvB = JSONTemplate(.mrvB)
    static let franceID1988 = JSONTemplate(.franceID1988)

    static func of(_ format: MRZFormat) -> JSONTemplate {
        switch format {
        case .td1: return td1
        case .td2: return td2
        case .td3: return td3
        case .mrvA: return mrvA
        case .mrvB: return mrvB
        case .franceID1988: return franceID1988
        }
    }
}

extension FieldIndex {
    @inline(__always) subscript(i: Int) -> FieldRef {
        switch i {
        case 0: return documentCode
        case 1: return issuingState
        case 2: return documentNumber
        case 3: return primaryIdentifier
        case 4: return secondaryIdentifier
        case 5: return nationality
        case 6: return dateOfBirth
        case 7: return sex
        case 8: return dateOfExpiry
        case 9: return optionalData1
        default: return optionalData2
        }
    }
}

extension MRZResult {
    /// Writes the members through the layout's template when the result is clean; `false` otherwise.
    func writeCleanJSONMembers(to w: inout JSONWriter) -> Bool {
        guard extras == nil, let birth = dateOfBirth,
              dateOfExpiry != nil || format == .franceID1988 else { return false }
        let index = self.index
        let template = JSONTemplate.of(format)
        let width = format.lineLength
        let comma = w.hasPendingMember
        var written = false
        MRZResult.withUTF8(text) { t in
            guard t.count == format.lineCount * (width + 1) - 1 else { return }
            template.joined.withUnsafeBufferPointer { constants in
                template.starts.withUnsafeBufferPointer { starts in
                    // Constants, values (at most the MRZ text plus separators) and two dates fit in this.
                    w.withReservedSpace(constants.count + 2 * t.count + 32) { out in
                        var k = 0
                        @inline(__always) func put(_ p: UnsafePointer<UInt8>, _ n: Int) {
                            (out + k).update(from: p, count: n)
                            k &+= n
                        }
                        @inline(__always) func date(_ d: CalendarDate) { k &+= d.writeISO8601(to: out + k) }
                        if comma { out[0] = UInt8(ascii: ","); k = 1 }
                        let c = constants.baseAddress!
                        var i = 0
                        for value in template.values {
                            put(c + starts[i], starts[i &+ 1] &- starts[i])
                            switch value {
                            case .field(let f): index[f].withBytes(in: t) { if $0.count > 0 { put($0.baseAddress!, $0.count) } }
                            case .dateOfBirth: date(birth)
                            case .dateOfExpiry: date(dateOfExpiry!)
                            case .line(let l): put(t.baseAddress! + l &* (width &+ 1), width)
                            }
                            i &+= 1
                        }
                        put(c + starts[i], starts[i &+ 1] &- starts[i])
                        return k
                    }
                }
            }
            written = true
        }
        if written { w.endMember() }
        return written
    }
}
