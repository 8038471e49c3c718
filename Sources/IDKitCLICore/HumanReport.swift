import IDKitMRZ

/// The human-readable report of `idkit validate`: fields, each check digit's verdict, and for every
/// problem the MRZ line with a caret under the column.
package enum HumanReport {
    package static func render(_ result: MRZResult, correction: MRZCorrection?, source: String, line: Int, id: String?) -> String {
        var out = header(source: source, line: line, id: id)
        let verdict = result.isValid ? "valid" : (result.isValidAcceptingDeviations ? "invalid (valid with known issuer deviations)" : "invalid")
        out += "\(result.format.rawValue)  \(verdict)\n"
        let f = result.fields
        let c = result.checkDigits
        func row(_ name: String, _ value: String?, _ check: CheckDigitStatus? = nil, _ resolved: CalendarDate? = nil) {
            let shown: String
            if let value { shown = value.isEmpty ? "(empty)" : value } else { shown = "— (not in this layout)" }
            var text = "  " + name.padding(toLength: 22, withPad: " ", startingAt: 0) + shown
            if let resolved { text += " (\(resolved))" }
            if let check, check != .absent { text += "   check digit \(check.rawValue)" }
            out += text + "\n"
        }
        row("document code", f.documentCode)
        row("issuing state", f.issuingState)
        row("document number", f.documentNumber, c.documentNumber)
        row("primary identifier", f.primaryIdentifier)
        row("secondary identifier", f.secondaryIdentifier)
        row("nationality", f.nationality)
        row("date of birth", f.dateOfBirth, c.dateOfBirth, result.dateOfBirth)
        row("sex", f.sex)
        row("date of expiry", f.dateOfExpiry, c.dateOfExpiry, result.dateOfExpiry)
        row("optional data 1", f.optionalData1, c.optionalData)
        row("optional data 2", f.optionalData2)
        if c.composite != .absent { out += "  composite check digit \(c.composite.rawValue)\n" }

        let lines = result.lines
        for issue in result.errors { out += caret("error", issue.description, lines, issue.line, issue.column) }
        for issue in result.deviations { out += caret("deviation", issue.description, lines, issue.line, issue.column) }
        for issue in result.warnings { out += caret("warning", issue.description, lines, issue.line, issue.column) }
        if let correction {
            out += "  correction: \(correction.outcome.rawValue)\n"
            for change in correction.changes {
                out += "    line \(change.line), column \(change.column): '\(change.from)' → '\(change.to)'\n"
            }
            for (n, alternative) in correction.alternatives.enumerated() {
                out += "    candidate \(n + 1):\n" + alternative.split(separator: "\n").map { "      \($0)\n" }.joined()
            }
            if correction.outcome != .unchanged {
                out += "  reading:\n" + lines.map { "    \($0)\n" }.joined()
            }
        }
        return out + "\n"
    }

    package static func render(error: MRZError, lines: [String], source: String, line: Int, id: String?) -> String {
        var out = header(source: source, line: line, id: id)
        out += "not an MRZ\n"
        out += caret("error", error.message, lines, error.line, error.column)
        return out + "\n"
    }

    package static func header(source: String, line: Int, id: String?) -> String {
        "\(source):\(line)" + (id.map { " [\($0)]" } ?? "") + "  "
    }

    /// The message, then the line it points into with `^` under the column.
    package static func caret(_ label: String, _ message: String, _ lines: [String], _ line: Int?, _ column: Int?) -> String {
        var out = "  \(label): \(message)\n"
        if let line, line >= 1, line <= lines.count {
            out += "    \(lines[line - 1])\n"
            if let column, column >= 1 { out += "    " + String(repeating: " ", count: column - 1) + "^\n" }
        }
        return out
    }
}
