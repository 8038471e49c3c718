/*
 * idkit.h — the C interface of libidkit (IDKit: machine-readable data of identity documents).
 *
 * The only header a program using libidkit includes. Every function takes bytes and an optional
 * options object (a NUL-terminated JSON object, or NULL for the defaults) and returns an
 * idkit_result: a status and JSON bytes in the same contracts as the `idkit` command line and the
 * `idkit serve` routes (docs/contracts.md), written by the same encoders.
 *
 *   idkit_result *r = idkit_mrz_validate((const uint8_t *)text, strlen(text), NULL);
 *   if (r && r->status == IDKIT_OK) puts(r->json);
 *   idkit_result_free(r);
 *
 * Thread safety: every function may be called from any number of threads at once; the library
 * keeps no global mutable state. Results belong to the caller until idkit_result_free.
 *
 * Bad input never aborts the host process: a malformed MRZ is a result (`"valid": false` with its
 * errors, as `idkit validate --json`); input that cannot be judged at all (not an AAMVA payload,
 * an image that cannot be decoded, options that are not a JSON object, ...) gives a status other
 * than IDKIT_OK and the JSON error object
 *
 *   {"error": {"kind": "...", "message": "...", "line": n|null, "column": n|null, "offset": n|null}}
 *
 * where `kind` is the module's error kind (the `kind` of the command line's and the service's
 * errors) and line, column and offset say where, when the input has such a place.
 *
 * Versioning: IDKIT_ABI_VERSION changes when a function's signature or the result's layout
 * changes; idkit_abi_version() is the library's, to compare with the header's at run time.
 */
#ifndef IDKIT_H
#define IDKIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IDKIT_ABI_VERSION 1

/* The status of a call. */
enum {
    /* `json` is the result. */
    IDKIT_OK = 0,
    /* The input cannot be judged (not AAMVA, an undecodable image, a merge input that is not the
       input document, ...): `json` is an error object. */
    IDKIT_INVALID_INPUT = 1,
    /* The options are not a JSON object, or a member has the wrong type or value. */
    IDKIT_INVALID_OPTIONS = 2,
    /* The input is larger than the function reads (an image over the pixel or byte limit, an
       AAMVA payload over 64 KiB, ...). */
    IDKIT_TOO_LARGE = 3,
    /* The image is fine but holds nothing of a document: no MRZ, no barcode, no outline
       (idkit_scan only; `json` is an error object whose kind is the scan's status). */
    IDKIT_NOT_FOUND = 4,
    /* A NULL input pointer with a nonzero length, or memory exhausted. */
    IDKIT_INTERNAL_ERROR = 5
};

typedef struct idkit_result {
    /* One of the IDKIT_ statuses above. */
    int32_t status;
    /* UTF-8 JSON, NUL-terminated (the NUL not counted in `length`). */
    char *json;
    size_t length;
} idkit_result;

/* The library's version ("MAJOR.MINOR.PATCH", as `idkit --version` prints it), a static string. */
const char *idkit_version(void);

/* The library's IDKIT_ABI_VERSION. */
int32_t idkit_abi_version(void);

/*
 * One MRZ (its 2 or 3 lines joined by '\n'; one line of 72, 88 or 90 characters is split) judged
 * as `idkit validate --json` judges a record: one JSON object, `input.source` "-".
 * Options: {"correct": bool, "strict": bool, "acceptDeviations": bool, "referenceDate": "YYYY-MM-DD"}.
 * Status IDKIT_OK whatever the MRZ's validity; the object's `valid` says it.
 */
idkit_result *idkit_mrz_validate(const uint8_t *text, size_t length, const char *options_json);

/*
 * A batch in the input format of `idkit validate` (records separated by blank lines, a line
 * starting with '{' a JSON record {"mrz"|"lines", "id"}), as a JSON array of the records of
 * `idkit validate --json`, in order. Options as idkit_mrz_validate.
 */
idkit_result *idkit_mrz_validate_many(const uint8_t *text, size_t length, const char *options_json);

/* A raw AAMVA DL/ID payload, as `idkit aamva --json` (without its "file" member). No options yet (pass NULL). */
idkit_result *idkit_aamva_parse(const uint8_t *payload, size_t length, const char *options_json);

/*
 * The barcodes in an encoded image (JPEG, PNG, PGM, BMP, TIFF, WebP, GIF, HEIC, JPEG 2000), as
 * `idkit barcode --json` with "file": "-". Options: {"pdf417": bool} (PDF417 only).
 */
idkit_result *idkit_barcode_read(const uint8_t *image, size_t length, const char *options_json);

/*
 * Documents found and read in an encoded image, as `idkit scan --json` with "file": "-".
 * Options: {"barcodes": bool, "referenceDate": "YYYY-MM-DD", "redaction": {"mode",
 * "fields", "documentNumber", "redactMRZ", "redactBarcode", "redactFace"}}.
 */
idkit_result *idkit_scan(const uint8_t *image, size_t length, const char *options_json);

/*
 * Both sides of one card read as one document, as `idkit scan --json --sides FRONT BACK`: two
 * encoded images, the front (visual zone, portrait) and the back (MRZ or barcode; given the other
 * way round they are swapped). The result's "sides" says whether the front belongs to the back's
 * document; a front of another card is status "sidesMismatch" (a result, IDKIT_OK), nothing of it
 * merged. Options as idkit_scan, without "viz" (the visual zones are always read here).
 */
idkit_result *idkit_scan_sides(const uint8_t *front, size_t front_length, const uint8_t *back, size_t back_length,
                               const char *options_json);

/*
 * The input document of `idkit merge` (MRZ, barcode and VIZ readings, chip files as
 * "chip": [base64 EF files], JSON) merged into one document result, as `idkit merge --json`.
 * Options: {"referenceDate", "redaction"} as idkit_scan, and the trust anchors of the chip's
 * passive authentication: "csca" (a certificate file or folder path) or "masterList" (an ICAO
 * CSCA master list file path), read at each call. Without them a chip's values come last.
 */
idkit_result *idkit_merge(const uint8_t *input_json, size_t length, const char *options_json);

/*
 * Chip access keys, as `idkit bac --json`, from the request object of `POST /v1/bac`:
 * {"lines": [...]} | {"mrz": "L1\nL2"} | {"documentNumber", "dateOfBirth", "dateOfExpiry"},
 * optionally "can", "rndIC", "rndIFD", "kIFD", "cardResponse" (hex). No options yet (pass NULL).
 */
idkit_result *idkit_bac_keys(const uint8_t *request_json, size_t length, const char *options_json);

/*
 * Columns for data pipelines: the Arrow C Data Interface (https://arrow.apache.org/docs/format/
 * CDataInterface.html), whose two structs are defined here as that specification defines them.
 *
 * Each function reads a column of inputs given as an Arrow array (`texts`/`payloads` with its
 * `*_schema`: utf8 "u", large utf8 "U", binary "z" or large binary "Z"; offset, length and nulls
 * honored) and fills `out_schema` and `out_array` with one struct array ("+s", a record batch):
 * one row per input, in order, every buffer allocated by libidkit.
 *
 * Ownership: the input stays the caller's (libidkit only reads it during the call and never calls
 * its release). On IDKIT_OK the two outputs are the caller's: call `out_array->release(out_array)`
 * and `out_schema->release(out_schema)` once each when done (an importer such as pyarrow's
 * `RecordBatch._import_from_c` takes them over and calls them itself). On any other status the
 * outputs are left untouched (their `release` is not set by libidkit). The `release` callbacks
 * are libidkit's code: keep the library loaded until the last of them has been called (a host
 * that opens it with dlopen and may free tables late opens it with RTLD_NODELETE, as the Python
 * package does). The result's JSON is {"rows": N} on IDKIT_OK, else the error object.
 *
 * The columns, their types and their meaning: docs/arrow.md.
 */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

/*
 * MRZ texts (a record each, lines joined by '\n', as idkit_mrz_validate takes one) judged into a
 * table with the values of `idkit validate --json`: format, valid, validWithDeviations, verdict,
 * the fields (dates of birth and expiry as date32, their six characters as *Raw), the check
 * digits, errors, warnings and deviations (their codes), lines, correction. A null input is a row
 * whose `valid` is null and whose `errors` is ["nullInput"]. Options as idkit_mrz_validate.
 */
idkit_result *idkit_mrz_validate_arrow(const struct ArrowArray *texts, const struct ArrowSchema *texts_schema,
                                       const char *options_json, struct ArrowSchema *out_schema,
                                       struct ArrowArray *out_array);

/*
 * Raw AAMVA DL/ID payloads parsed into a table: the header, every field of `idkit aamva --json`
 * (dates as date32, heights and weights as int32, flags as bool), `elements` as a map of every
 * element as read, `warnings` (their codes), and for a payload that is not AAMVA `error`,
 * `errorMessage` and `errorOffset` (every other column null). No options yet (pass NULL).
 */
idkit_result *idkit_aamva_parse_arrow(const struct ArrowArray *payloads, const struct ArrowSchema *payloads_schema,
                                      const char *options_json, struct ArrowSchema *out_schema,
                                      struct ArrowArray *out_array);

/* Frees a result (NULL is allowed). */
void idkit_result_free(idkit_result *result);

#ifdef __cplusplus
}
#endif

#endif /* IDKIT_H */
