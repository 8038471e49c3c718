extension MRZResult {
    /// Writes the members of this result's JSON object (no braces), in contract order:
    /// `format, valid, validWithDeviations, fields, checkDigits, errors, warnings, deviations,
    /// resolvedDates, lines`.
    public func writeJSONMembers(to w: inout JSONWriter) {
        if writeCleanJSONMembers(to: &w) { return }
        writeGeneralJSONMembers(to: &w)
    }

    /// The general writer, for every result (tests compare it with the template writer).
    func writeGeneralJSONMembers(to w: inout JSONWriter) {
        w.key("format"); w.string(literal: format.jsonName)
        w.key("valid"); w.bool(isValid)
        w.key("validWithDeviations"); w.bool(isValidAcceptingDeviations)
        w.key("fields")
        if let fields = extras?.fields {
            fields.writeJSON(to: &w)
        } else {
            let index = self.index
            MRZResult.withUTF8(text) { index.writeJSON(in: $0, to: &w) }
        }
        w.key("checkDigits"); checkDigits.writeJSON(to: &w)
        w.key("errors"); MRZIssue.writeJSON(errors, to: &w)
        w.key("warnings"); MRZIssue.writeJSON(warnings, to: &w)
        w.key("deviations"); MRZIssue.writeJSON(deviations, to: &w)
        w.key("resolvedDates")
        w.beginObject()
        w.key("dateOfBirth"); w.date(dateOfBirth)
        w.key("dateOfExpiry"); w.date(dateOfExpiry)
        w.endObject()
        w.key("lines")
        w.beginArray()
        MRZResult.withUTF8(text) { t in
            var start = 0
            for i in 0...t.count where i == t.count || t[i] == 0x0A {
                w.plainString(UnsafeBufferPointer(rebasing: t[start..<i]))
                start = i + 1
            }
        }
        w.endArray()
    }

    /// The members of the result object for text that could not be read as an MRZ: the same keys,
    /// with `format` and every field and check digit `null`, and the error in `errors`.
    public static func writeJSONMembers(for error: MRZError, lines: [String], to w: inout JSONWriter) {
        w.key("format"); w.null()
        w.key("valid"); w.bool(false)
        w.key("validWithDeviations"); w.bool(false)
        w.key("fields")
        w.beginObject()
        for key in MRZFields.CodingKeys.allCases { w.key(dynamic: key.stringValue); w.null() }
        w.endObject()
        w.key("checkDigits")
        w.beginObject()
        for key in ["documentNumber", "dateOfBirth", "dateOfExpiry", "optionalData", "composite"] { w.key(dynamic: key); w.null() }
        w.endObject()
        w.key("errors")
        w.beginArray()
        w.beginObject()
        w.key("code"); w.string(error.kind.rawValue)
        w.key("line"); w.int(error.line)
        w.key("column"); w.int(error.column)
        w.key("expected"); w.string(error.expected)
        w.key("found"); w.string(error.found)
        w.key("message"); w.string(error.message)
        w.endObject()
        w.endArray()
        w.key("warnings"); w.beginArray(); w.endArray()
        w.key("deviations"); w.beginArray(); w.endArray()
        w.key("resolvedDates")
        w.beginObject()
        w.key("dateOfBirth"); w.null()
        w.key("dateOfExpiry"); w.null()
        w.endObject()
        w.key("lines")
        w.beginArray()
        for line in lines { w.string(line) }
        w.endArray()
    }
}

extension FieldIndex {
    func writeJSON(in text: UnsafeBufferPointer<UInt8>, to w: inout JSONWriter) {
        func field(_ name: StaticString, _ ref: FieldRef, _ w: inout JSONWriter) {
            w.key(name)
            if ref.mode == .absent { w.null() } else { ref.withBytes(in: text) { w.plainString($0) } }
        }
        w.beginObject()
        field("documentCode", documentCode, &w)
        field("issuingState", issuingState, &w)
        field("documentNumber", documentNumber, &w)
        field("primaryIdentifier", primaryIdentifier, &w)
        field("secondaryIdentifier", secondaryIdentifier, &w)
        field("nationality", nationality, &w)
        field("dateOfBirth", dateOfBirth, &w)
        field("sex", sex, &w)
        field("dateOfExpiry", dateOfExpiry, &w)
        field("optionalData1", optionalData1, &w)
        field("optionalData2", optionalData2, &w)
        w.endObject()
    }
}

extension MRZFields {
    public func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.key("documentCode"); w.string(documentCode)
        w.key("issuingState"); w.string(issuingState)
        w.key("documentNumber"); w.string(documentNumber)
        w.key("primaryIdentifier"); w.string(primaryIdentifier)
        w.key("secondaryIdentifier"); w.string(secondaryIdentifier)
        w.key("nationality"); w.string(nationality)
        w.key("dateOfBirth"); w.string(dateOfBirth)
        w.key("sex"); w.string(sex)
        w.key("dateOfExpiry"); w.string(dateOfExpiry)
        w.key("optionalData1"); w.string(optionalData1)
        w.key("optionalData2"); w.string(optionalData2)
        w.endObject()
    }
}

extension MRZCheckDigits {
    public func writeJSON(to w: inout JSONWriter) {
        func value(_ s: CheckDigitStatus, _ w: inout JSONWriter) {
            switch s {
            case .absent: w.null()
            case .valid: w.string(literal: "valid")
            case .invalid: w.string(literal: "invalid")
            }
        }
        w.beginObject()
        w.key("documentNumber"); value(documentNumber, &w)
        w.key("dateOfBirth"); value(dateOfBirth, &w)
        w.key("dateOfExpiry"); value(dateOfExpiry, &w)
        w.key("optionalData"); value(optionalData, &w)
        w.key("composite"); value(composite, &w)
        w.endObject()
    }
}

extension MRZIssue {
    public static func writeJSON(_ issues: [MRZIssue], to w: inout JSONWriter) {
        w.beginArray()
        for issue in issues {
            w.beginObject()
            w.key("code"); w.string(issue.code.rawValue)
            if let field = issue.field { w.key("field"); w.string(field) }
            w.key("line"); w.int(issue.line)
            w.key("column"); w.int(issue.column)
            if let expected = issue.expected { w.key("expected"); w.string(expected) }
            if let found = issue.found { w.key("found"); w.string(found) }
            w.key("message"); w.string(issue.message)
            w.endObject()
        }
        w.endArray()
    }
}

extension MRZCorrection {
    /// `{"outcome", "changes": [{"line","column","from","to"}], "alternatives": [[String]]}`.
    public func writeJSON(to w: inout JSONWriter) {
        w.beginObject()
        w.key("outcome"); w.string(outcome.rawValue)
        w.key("changes")
        w.beginArray()
        for c in changes {
            w.beginObject()
            w.key("line"); w.int(c.line)
            w.key("column"); w.int(c.column)
            w.key("from"); w.string(c.from)
            w.key("to"); w.string(c.to)
            w.endObject()
        }
        w.endArray()
        w.key("alternatives")
        w.beginArray()
        for alternative in alternatives {
            w.beginArray()
            for line in alternative.split(separator: "\n") { w.string(String(line)) }
            w.endArray()
        }
        w.endArray()
        w.endObject()
    }
}
