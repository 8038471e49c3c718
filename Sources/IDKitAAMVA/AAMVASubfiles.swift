internal import IDKitCore

// MARK: - Subfiles and elements

/// Where a designated subfile was found: its type's offset, where its elements begin, and which
/// designator (-1: none) announced it.
struct SubfileStart {
    var index: Int
    var content: Int
    var type: SubfileType
    var designator: Int
}

extension PayloadReader {
    /// Where the elements begin when a subfile of `type` plausibly starts at `i`: the type, an
    /// optional separator, then an element identifier (`DAQ`, `DCA`, ... for DL/ID; the subfile's
    /// own letters for jurisdiction subfiles). `nil` when no subfile starts there.
    private func subfileContent(_ type: SubfileType, at i: Int) -> Int? {
        guard i >= 0, i + 5 <= data.count, data[i] == type.first, data[i + 1] == type.second else { return nil }
        var c = i + 2
        if data[c] == Byte.lf || data[c] == Byte.cr { c += 1 }
        guard c + 3 <= data.count else { return nil }
        return isElementStart(at: c, subfileType: type) ? c : nil
    }

    private func isElementStart(at c: Int, subfileType type: SubfileType) -> Bool {
        guard c >= 0, c + 3 <= data.count else { return false }
        if type.isJurisdiction {
            return data[c] == type.first && data[c + 1] == type.second && Byte.isUpperOrDigit(data[c + 2])
        }
        return AAMVAElementCatalog.allCodes.contains(ElementTable.code(data[c], data[c + 1], data[c + 2]))
    }

    /// Finds designator `n`'s subfile: at its offset, near it (±12 bytes), or anywhere after the
    /// header; warns when it is not where the header says.
    private mutating func locate(_ designator: Designator, number n: Int, header: Header,
                                 besides found: [SubfileStart]) -> SubfileStart? {
        let type = designator.type
        let searchFrom = header.designatorStart + 2
        let expected = designator.offset.map { header.complianceIndex + $0 }
        if let e = expected, let c = subfileContent(type, at: e) {
            return SubfileStart(index: e, content: c, type: type, designator: n)
        }
        var start: SubfileStart?
        if let e = expected {
            for k in 0..<24 {
                let i = k & 1 == 0 ? e - (k / 2 + 1) : e + (k / 2 + 1)
                if i >= searchFrom, let c = subfileContent(type, at: i) {
                    start = SubfileStart(index: i, content: c, type: type, designator: n)
                    break
                }
            }
        }
        if start == nil {
            var i = searchFrom
            search: while i + 5 <= data.count {
                if let c = subfileContent(type, at: i) {
                    if !found.contains(where: { $0.index == i }) { start = SubfileStart(index: i, content: c, type: type, designator: n); break search }
                }
                i += 1
            }
        }
        let name = type.string
        if start == nil, n == 0, !type.isJurisdiction, isElementStart(at: header.endOfHeader, subfileType: type) {
            // Some version 01 cards (Connecticut, West Virginia) leave out the subfile type:
            // the first element follows the designators directly.
            warn(.subfileOffsetWrong, "subfile \(name) has no \"\(name)\" type before its first element", at: header.endOfHeader)
            return SubfileStart(index: header.endOfHeader, content: header.endOfHeader, type: type, designator: n)
        }
        if let start {
            if let e = expected {
                let delta = start.index - e
                warn(.subfileOffsetWrong, "subfile \(name) is designated at offset \(designator.offset!) but starts at \(start.index - header.complianceIndex) (\(delta > 0 ? "+" : "")\(delta))", at: designator.at)
            }
        } else {
            warn(.subfileMissing, "subfile \(name) designated in the header was not found", at: designator.at)
        }
        return start
    }

    mutating func readLayout(_ header: Header) throws(AAMVAError) -> AAMVAPayload {
        // Locate every designated subfile.
        var starts: [SubfileStart] = []
        starts.reserveCapacity(max(1, header.designators.count))
        for (n, designator) in header.designators.enumerated() {
            if let start = locate(designator, number: n, header: header, besides: starts) { starts.append(start) }
        }
        // Without designators (or when none was found), the first DL/ID subfile after the header.
        if starts.isEmpty {
            let searchFrom = header.designatorStart + 2
            search: for type in [SubfileType.dl, .id] {
                var i = searchFrom
                while i + 5 <= data.count {
                    if let c = subfileContent(type, at: i) {
                        starts.append(SubfileStart(index: i, content: c, type: type, designator: -1))
                        break search
                    }
                    i += 1
                }
            }
            if starts.isEmpty, isElementStart(at: header.endOfHeader, subfileType: .dl) {
                starts.append(SubfileStart(index: header.endOfHeader, content: header.endOfHeader, type: .dl, designator: -1))
            }
        }
        guard !starts.isEmpty else {
            throw AAMVAError(.noElements, offset: originalOffset(header.endOfHeader), "no DL, ID or jurisdiction subfile follows the header")
        }

        var raws: [AAMVAContent.RawSubfile] = []
        raws.reserveCapacity(starts.count)
        var sawCRLF = false
        var sawWedge = false
        for start in starts {
            var nextStart = data.count
            for other in starts where other.index > start.index && other.index < nextStart { nextStart = other.index }
            let designator = start.designator >= 0 ? header.designators[start.designator] : nil
            let (table, end) = readElements(from: start.content, to: nextStart, header: header, subfileType: start.type,
                                            sawCRLF: &sawCRLF, sawWedge: &sawWedge)
            if let designator, let length = designator.length, designator.offset != nil {
                let actual = end - start.index
                // The designated length may or may not count the terminator; both are accepted.
                if abs(actual - length) > 1 {
                    warn(.subfileLengthWrong, "subfile \(start.type.string) is designated \(length) bytes long but is \(actual)", at: designator.at + 6)
                }
            }
            raws.append(AAMVAContent.RawSubfile(type: start.type.string, designatedOffset: designator?.offset,
                                                designatedLength: designator?.length,
                                                offset: originalOffset(start.index), table: table))
        }
        if sawCRLF { warn(.crlfLineEnds, "elements end in CR LF: the scanner rewrote the line ends", at: nil) }
        if raws.allSatisfy({ $0.table.count == 0 }) {
            throw AAMVAError(.noElements, offset: originalOffset(starts[0].index), "the subfiles hold no data elements")
        }

        let primary = AAMVASubfile.primaryIndex(ofTypes: raws.lazy.map(\.type))
        // (The jurisdiction is a struct of four Strings: copied once, into the payload.)
        let iinCountry = header.jurisdiction?.country
        if iinCountry == nil { warn(.unknownIIN, "IIN \(header.iin) is not assigned to a jurisdiction", at: nil) }
        if let primary { checkMandatory(version: header.version, isDL: raws[primary].type == "DL", table: raws[primary].table) }
        let primaryType = primary.map { raws[$0].type }
        var interpreter = FieldInterpreter(table: primary.map { raws[$0].table } ?? ElementTable.empty,
                                           version: header.version, subfileType: primaryType, iinCountry: iinCountry)
        interpreter.validate()
        let content = AAMVAContent(raw: raws, primary: primary, version: header.version,
                                   primaryType: primaryType, iinCountry: iinCountry)
        return AAMVAPayload(encoding: .pdf417, fileType: header.fileType, version: header.version,
                            jurisdictionVersion: header.jurisdictionVersion, iin: header.iin, jurisdiction: header.jurisdiction,
                            country: interpreter.country, numberOfEntries: header.entries,
                            warnings: interpreter.warnings.isEmpty ? warnings : warnings + interpreter.warnings,
                            content: content)
    }

    private mutating func checkMandatory(version: Int, isDL: Bool, table: ElementTable) {
        for code in AAMVAElementCatalog.mandatoryCodes(version: min(version, 11), isDL: isDL)
        where table.index(code) == nil {
            // The identifier and its name are made only for the warning.
            let id = ElementTable.identifier(of: code)
            let name = AAMVAElementCatalog.name(of: id, version: version) ?? id
            warnings.append(AAMVAWarning(.mandatoryElementMissing, "\(id) (\(name)) is mandatory in version \(version) but absent", offset: nil))
        }
        if version == 1, table.index(ElementTable.code("DAA")) == nil, table.index(ElementTable.code("DAB")) == nil {
            warnings.append(AAMVAWarning(.mandatoryElementMissing, "DAA (Driver license name) is mandatory in version 1 (or DAB/DAC) but absent", offset: nil))
        }
    }
}
