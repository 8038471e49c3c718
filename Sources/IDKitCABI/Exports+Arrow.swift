import CIDKit
import IDKitArrow
import IDKitMRZ

// The Arrow exports of idkit.h: a column of inputs in, a struct array out (docs/arrow.md). The
// outputs are filled only on IDKIT_OK; the input is read, never released.

@_cdecl("idkit_mrz_validate_arrow")
public func idkitMRZValidateArrow(_ texts: UnsafePointer<ArrowArray>?, _ textsSchema: UnsafePointer<ArrowSchema>?,
                                  _ options: UnsafePointer<CChar>?, _ outSchema: UnsafeMutablePointer<ArrowSchema>?,
                                  _ outArray: UnsafeMutablePointer<ArrowArray>?) -> UnsafeMutablePointer<idkit_result>? {
    CABI.callArrow(texts, textsSchema, options, allowed: CABI.mrzOptions, outSchema, outArray) { input, o, array, schema in
        let options = try o.mrz()
        let validator = MRZRecordValidator(options: options)
        var table = MRZTable(correct: options.correct, capacity: input.count)
        for i in 0..<input.count {
            guard let text = input.value(i) else { table.append(nil); continue }
            if let clean = validator.judgeClean(utf8: text) { table.append(clean: clean, text: text) } else {
                table.append(validator.judge(utf8: text))
            }
        }
        try table.export(to: array, schema)
    }
}

@_cdecl("idkit_aamva_parse_arrow")
public func idkitAAMVAParseArrow(_ payloads: UnsafePointer<ArrowArray>?, _ payloadsSchema: UnsafePointer<ArrowSchema>?,
                                 _ options: UnsafePointer<CChar>?, _ outSchema: UnsafeMutablePointer<ArrowSchema>?,
                                 _ outArray: UnsafeMutablePointer<ArrowArray>?) -> UnsafeMutablePointer<idkit_result>? {
    CABI.callArrow(payloads, payloadsSchema, options, allowed: [], outSchema, outArray) { input, _, array, schema in
        var table = AAMVATable(capacity: input.count)
        for i in 0..<input.count { table.append(input.value(i)) }
        try table.export(to: array, schema)
    }
}

extension CABI {
    /// Reads the input column and the options, runs `body`, and answers `{"rows": N}` or the
    /// error object (input Arrow types and layouts as `invalidInput`, a table over its limits as
    /// `tooLarge`).
    static func callArrow(_ input: UnsafePointer<ArrowArray>?, _ inputSchema: UnsafePointer<ArrowSchema>?,
                          _ options: UnsafePointer<CChar>?, allowed: Set<String>,
                          _ outSchema: UnsafeMutablePointer<ArrowSchema>?, _ outArray: UnsafeMutablePointer<ArrowArray>?,
                          _ body: (ArrowStringInput, Options, UnsafeMutablePointer<ArrowArray>, UnsafeMutablePointer<ArrowSchema>) throws -> Void)
        -> UnsafeMutablePointer<idkit_result>? {
        do {
            guard let outSchema, let outArray else {
                throw Failure(status: Int32(IDKIT_INTERNAL_ERROR), kind: "invalidArgument", message: "out_schema or out_array is NULL")
            }
            let parsed = try Options(options, allowed: allowed)
            let column: ArrowStringInput
            do { column = try ArrowStringInput(array: input, schema: inputSchema) } catch {
                throw Failure(status: Int32(IDKIT_INVALID_INPUT), kind: "invalidArrowInput", message: error.message)
            }
            do { try body(column, parsed, outArray, outSchema) } catch let error as ArrowTableError {
                throw Failure(status: Int32(error.tooLarge ? IDKIT_TOO_LARGE : IDKIT_INTERNAL_ERROR),
                              kind: error.tooLarge ? "tooLarge" : "memoryExhausted", message: error.message)
            }
            var w = JSONWriter(capacity: 32)
            w.beginObject()
            w.key("rows"); w.int(column.count)
            w.endObject()
            return w.withBytes { result(Int32(IDKIT_OK), $0) }
        } catch {
            return result(failure(error))
        }
    }
}
