import IDKitAAMVA
import IDKitCABI
import IDKitChip
import IDKitCLI
import IDKitCLICore
public import IDKitCore
import IDKitDocument
import IDKitImage
import IDKitMRZ
import IDKitScan
import IDKitService

/// The JSON Schema file of every contract (docs/schemas), made from the descriptions beside the
/// writers: what `make schemas` writes and what `SchemaFileTests` holds the committed files to.
public enum ContractSchemas {
    /// One file: its name in docs/schemas, and its content.
    public struct File: Sendable {
        public let name: String
        public let schema: JSONSchema
        public let title: String
        public let description: String

        /// The file's text: draft 2020-12, members sorted, two-space indent, a final newline.
        public var text: String { schema.document(title: title, description: description).prettyText() }
    }

    public static var files: [File] {
        [
            File(name: "validate.schema.json", schema: MRZRecordValidator.recordSchema, title: "MRZ record",
                 description: "One line of idkit validate --json; the answer of POST /v1/mrz, idkit_mrz_validate and idkit.validate_mrz."),
            File(name: "aamva.schema.json", schema: AAMVAReport.jsonSchema, title: "AAMVA payload",
                 description: "idkit aamva --json, POST /v1/aamva, idkit_aamva_parse and idkit.parse_aamva; the aamva member of a PDF417 barcode."),
            File(name: "barcode.schema.json", schema: BarcodeReport.jsonSchema, title: "Barcodes of an image",
                 description: "One line of idkit barcode --json (an image's, or the Macro PDF417 sets after them); POST /v1/barcode, idkit_barcode_read and idkit.read_barcodes answer an image's."),
            File(name: "scan.schema.json", schema: DocumentScan.jsonSchema, title: "Scan",
                 description: "One line of idkit scan --json; the answer of POST /v1/scan, idkit_scan and idkit.scan."),
            File(name: "merge.schema.json", schema: DocumentResult.jsonSchema, title: "Document result",
                 description: "idkit merge --json, POST /v1/merge, idkit_merge and idkit.merge; the document member of a scan."),
            File(name: "bac.schema.json", schema: BACReport.jsonSchema, title: "Chip access keys",
                 description: "idkit bac --json, POST /v1/bac, idkit_bac_keys and idkit.bac_keys; keys in upper-case hex."),
            File(name: "chip-verify.schema.json", schema: ChipSchemas.verify, title: "Chip verification",
                 description: "idkit chip verify --json."),
            File(name: "chip-apdu.schema.json", schema: ChipSchemas.apdu, title: "Secure messaging",
                 description: "idkit chip apdu --json: the protected command (--wrap) or the answer's data and status word (--unwrap)."),
            File(name: "cli-error.schema.json", schema: cliError, title: "Command-line error",
                 description: "What idkit aamva, merge, bac and chip apdu print with --json instead of a result when an input cannot be used."),
            File(name: "c-error.schema.json", schema: CABISchemas.error, title: "C interface error",
                 description: "The JSON of an idkit_result whose status is not IDKIT_OK; Python raises idkit.IDKitError with its members."),
            File(name: "problem.schema.json", schema: ServiceSchemas.problem, title: "Service problem",
                 description: "An error answer of idkit serve (application/problem+json, RFC 9457)."),
        ]
    }

    /// The kinds of the errors the commands print as JSON: a payload that is not AAMVA, merge
    /// input that cannot be merged, chip input that cannot be used.
    static var cliError: JSONSchema {
        let kinds = AAMVAError.Kind.allCases.map(\.rawValue) + DocumentError.Kind.allCases.map(\.rawValue)
            + ChipError.Kind.allCases.map(\.rawValue)
        return ErrorJSON.schema(kinds: Array(Set(kinds)).sorted())
    }
}
