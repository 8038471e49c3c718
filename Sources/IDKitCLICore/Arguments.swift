import IDKitMRZ

/// Command-line tokens, split before they are given meaning (after swift-argument-parser's
/// `SplitArguments`): `--name`, `--name=value`, `-` (standard input), `--` (end of options).
package enum Token: Equatable {
    case option(name: String, value: String?)
    case positional(String)
    case stdin

    package static func split(_ arguments: [String]) -> [Token] {
        var tokens: [Token] = []
        var optionsEnded = false
        for argument in arguments {
            if optionsEnded { tokens.append(.positional(argument)); continue }
            if argument == "--" { optionsEnded = true; continue }
            if argument == "-" { tokens.append(.stdin); continue }
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    tokens.append(.option(name: String(body[..<eq]), value: String(body[body.index(after: eq)...])))
                } else {
                    tokens.append(.option(name: String(body), value: nil))
                }
            } else if argument.hasPrefix("-") && argument.count == 2 && !argument.hasPrefix("-<") {
                tokens.append(.option(name: String(argument.dropFirst()), value: nil))
            } else {
                tokens.append(.positional(argument))
            }
        }
        return tokens
    }
}

/// A usage error: what was wrong with the command line, shown with exit status 64.
package struct UsageError: Error, Equatable {
    package var message: String
    package init(message: String) { self.message = message }
}

/// Tokens read one at a time, so that an option's value may be given as `--name=value` or as the
/// next argument (`--name value`).
package struct TokenCursor {
    private var tokens: ArraySlice<Token>
    package init(_ arguments: [String]) { tokens = ArraySlice(Token.split(arguments)) }

    package mutating func next() -> Token? { tokens.popFirst() }

    /// The value of option `name`: the `=value` part, else the next argument.
    package mutating func value(of name: String, _ inline: String?, expecting what: String) throws(UsageError) -> String {
        if let inline { return inline }
        if case .positional(let next)? = tokens.first {
            tokens.removeFirst()
            return next
        }
        throw UsageError(message: "option --\(name) needs \(what)")
    }

    /// `--max-pixels N` (or `=`): the largest image accepted, for every command that reads images.
    package mutating func maxPixels(_ inline: String?) throws(UsageError) -> Int {
        let text = try value(of: "max-pixels", inline, expecting: "a positive number of pixels")
        guard let n = Int(text), n > 0 else { throw UsageError(message: "--max-pixels: '\(text)' is not a positive number") }
        return n
    }

    /// `--reference-date YYYY-MM-DD` (or `=`): the date two-digit years, ages and expiry are judged by.
    package mutating func referenceDate(_ inline: String?) throws(UsageError) -> CalendarDate {
        let text = try value(of: "reference-date", inline, expecting: "a date, as YYYY-MM-DD")
        guard let date = CalendarDate(iso8601: text) else {
            throw UsageError(message: "option --reference-date: '\(text)' is not a date of the form YYYY-MM-DD")
        }
        return date
    }
}

/// The start every subcommand shares: options parsed, `--help` printed, a usage error reported
/// with exit status 64.
package enum CommandStart {
    /// `parse` returns `nil` for `--help`. Gives the options, or `nil` and the status to exit with.
    package static func options<Options>(_ command: String, help: String, io: StandardIO,
                                 _ parse: () throws(UsageError) -> Options?) -> (Options?, IDKitCommand.ExitStatus) {
        do {
            guard let options = try parse() else {
                io.out.write(help)
                return (nil, .valid)
            }
            return (options, .valid)
        } catch {
            io.err.write("idkit \(command): \(error.message)\n\nRun 'idkit help \(command)' for usage.\n")
            return (nil, .usage)
        }
    }
}

/// The JSON object a command prints instead of a result when an input cannot be used:
/// `{"file"?, "error": {"kind", "offset"?, "message"}}`, one line.
package enum ErrorJSON {
    package static func line(file: String?, kind: String, offset: Int? = nil, message: String) -> String {
        var w = JSONWriter(capacity: 256 + message.utf8.count)
        w.beginObject()
        if let file { w.key("file"); w.string(file) }
        w.key("error"); w.beginObject()
        w.key("kind"); w.string(kind)
        if let offset { w.key("offset"); w.int(offset) }
        w.key("message"); w.string(message)
        w.endObject()
        w.endObject()
        w.newline()
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
