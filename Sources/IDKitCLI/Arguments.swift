/// Command-line tokens, split before they are given meaning (after swift-argument-parser's
/// `SplitArguments`): `--name`, `--name=value`, `-` (standard input), `--` (end of options).
enum Token: Equatable {
    case option(name: String, value: String?)
    case positional(String)
    case stdin

    static func split(_ arguments: [String]) -> [Token] {
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
struct UsageError: Error, Equatable {
    var message: String
}

/// Tokens read one at a time, so that an option's value may be given as `--name=value` or as the
/// next argument (`--name value`).
struct TokenCursor {
    private var tokens: ArraySlice<Token>
    init(_ arguments: [String]) { tokens = ArraySlice(Token.split(arguments)) }

    mutating func next() -> Token? { tokens.popFirst() }

    /// The value of option `name`: the `=value` part, else the next argument.
    mutating func value(of name: String, _ inline: String?, expecting what: String) throws(UsageError) -> String {
        if let inline { return inline }
        if case .positional(let next)? = tokens.first {
            tokens.removeFirst()
            return next
        }
        throw UsageError(message: "option --\(name) needs \(what)")
    }
}
