public import IDKitCore

extension ErrorJSON {
    /// The object ``line(file:kind:offset:message:)`` writes, with the kinds of the errors a
    /// command can give (the commands' modules own them, not this one).
    package static func schema(kinds: [String]) -> JSONSchema {
        .object([
            "file": JSONSchema.string.described("the input, for commands that read files"),
            "error": .object(["kind": .string(oneOf: kinds),
                              "offset": JSONSchema.integer.described("the byte offset where it was found (AAMVA payloads)"),
                              "message": .string], optional: ["offset"]),
        ], optional: ["file"])
    }
}
