/*
 * A program that uses libidkit through idkit.h alone (issue 16), built and run by CABITests with
 * the system C compiler (the toolchain's clang under AddressSanitizer). It calls every function,
 * checks one value of each result, the error statuses, and calls from four threads at once.
 *
 *   abi_test AAMVA_PAYLOAD PDF417_IMAGE MRZ_PHOTO
 *
 * Prints "ok N checks" and exits 0, or prints each failed check and exits 1.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idkit.h"

static int checks = 0, failures = 0;

static void expect(int condition, const char *what, const idkit_result *r) {
    checks++;
    if (condition) return;
    failures++;
    fprintf(stderr, "FAILED: %s\n", what);
    if (r) fprintf(stderr, "  status %d, json %.400s\n", r->status, r->json ? r->json : "(null)");
}

static int has(const idkit_result *r, const char *needle) {
    return r && r->json && strstr(r->json, needle) != NULL;
}

static unsigned char *read_file(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "cannot open %s\n", path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)n);
    if (!bytes || fread(bytes, 1, (size_t)n, f) != (size_t)n) { fprintf(stderr, "cannot read %s\n", path); exit(2); }
    fclose(f);
    *length = (size_t)n;
    return bytes;
}

/* ICAO 9303-3 Appendix B's TD3 specimen (the one `idkit validate` documents). */
static const char *SPECIMEN = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10";

static void *validate_in_thread(void *arg) {
    int *ok = arg;
    *ok = 1;
    for (int i = 0; i < 2000; i++) {
        idkit_result *r = idkit_mrz_validate((const uint8_t *)SPECIMEN, strlen(SPECIMEN), "{\"referenceDate\": \"2010-01-01\"}");
        if (!r || r->status != IDKIT_OK || !has(r, "\"documentNumber\":\"L898902C3\"") || !has(r, "\"valid\":true")) *ok = 0;
        idkit_result_free(r);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 7) { fprintf(stderr, "usage: abi_test AAMVA_PAYLOAD PDF417_IMAGE MRZ_PHOTO OVERSIZED_PNG CARD_BACK OTHER_FRONT\n"); return 2; }
    idkit_result *r;

    expect(idkit_abi_version() == IDKIT_ABI_VERSION, "the library's ABI version is the header's", NULL);
    expect(strcmp(idkit_version(), "") != 0 && strchr(idkit_version(), '.') != NULL, "idkit_version() is a version", NULL);

    /* One MRZ: the validate --json record, with its fields and resolved dates. */
    r = idkit_mrz_validate((const uint8_t *)SPECIMEN, strlen(SPECIMEN), "{\"referenceDate\": \"2010-01-01\"}");
    expect(r && r->status == IDKIT_OK, "mrz_validate: status OK", r);
    expect(has(r, "\"format\":\"TD3\"") && has(r, "\"valid\":true") && has(r, "\"dateOfBirth\":\"1974-08-12\""),
           "mrz_validate: the specimen is a valid TD3 born 1974-08-12", r);
    expect(r && r->length == strlen(r->json), "mrz_validate: length is the JSON's", r);
    idkit_result_free(r);

    /* A malformed MRZ is a result, not an error. */
    r = idkit_mrz_validate((const uint8_t *)"HELLO", 5, NULL);
    expect(r && r->status == IDKIT_OK && has(r, "\"valid\":false") && has(r, "\"code\":\"lineCount\""), "mrz_validate: HELLO is invalid by its line count", r);
    idkit_result_free(r);

    /* Correction by the check digits, asked by an option. */
    const char *confused = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO74O8122F1204159ZE184226B<<<<<10";
    r = idkit_mrz_validate((const uint8_t *)confused, strlen(confused), "{\"correct\": true, \"referenceDate\": \"2010-01-01\"}");
    expect(r && r->status == IDKIT_OK && has(r, "\"dateOfBirth\":\"740812\"") && has(r, "\"correction\""), "mrz_validate: O corrected to 0 in the birth date", r);
    idkit_result_free(r);

    /* A batch: a JSON array, one record per MRZ, a JSON record's id kept. */
    const char *batch = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10\n\n"
                        "{\"id\": \"second\", \"mrz\": \"HELLO\"}\n";
    r = idkit_mrz_validate_many((const uint8_t *)batch, strlen(batch), NULL);
    expect(r && r->status == IDKIT_OK && r->json[0] == '[' && r->json[r->length - 1] == ']', "mrz_validate_many: a JSON array", r);
    expect(has(r, "\"valid\":true") && has(r, "\"id\":\"second\"") && has(r, "},{"), "mrz_validate_many: two records, the second with its id", r);
    idkit_result_free(r);

    /* Options that are not a JSON object, an unknown option, an option of the wrong type. */
    r = idkit_mrz_validate((const uint8_t *)SPECIMEN, strlen(SPECIMEN), "{not json");
    expect(r && r->status == IDKIT_INVALID_OPTIONS && has(r, "\"kind\":\"invalidOptions\""), "bad options JSON: IDKIT_INVALID_OPTIONS", r);
    idkit_result_free(r);
    r = idkit_mrz_validate((const uint8_t *)SPECIMEN, strlen(SPECIMEN), "{\"corect\": true}");
    expect(r && r->status == IDKIT_INVALID_OPTIONS && has(r, "corect"), "unknown option named", r);
    idkit_result_free(r);
    r = idkit_mrz_validate((const uint8_t *)SPECIMEN, strlen(SPECIMEN), "{\"strict\": 1}");
    expect(r && r->status == IDKIT_INVALID_OPTIONS && has(r, "strict must be true or false"), "strict: 1 refused", r);
    idkit_result_free(r);

    /* NULL input with a length. */
    r = idkit_mrz_validate(NULL, 10, NULL);
    expect(r && r->status == IDKIT_INTERNAL_ERROR && has(r, "\"kind\":\"invalidArgument\""), "NULL input with a length", r);
    idkit_result_free(r);

    /* AAMVA: a payload, and bytes that are not one (kind and offset). */
    size_t payload_length;
    unsigned char *payload = read_file(argv[1], &payload_length);
    r = idkit_aamva_parse(payload, payload_length, NULL);
    expect(r && r->status == IDKIT_OK && has(r, "\"version\":") && has(r, "\"DAQ\""), "aamva_parse: a payload with its version and DAQ", r);
    idkit_result_free(r);
    free(payload);
    r = idkit_aamva_parse((const uint8_t *)"garbage", 7, NULL);
    expect(r && r->status == IDKIT_INVALID_INPUT && has(r, "\"kind\":\"notAAMVA\"") && has(r, "\"offset\":0"), "aamva_parse: notAAMVA at offset 0", r);
    idkit_result_free(r);

    /* Barcodes in an image; bytes that are no image. */
    size_t image_length;
    unsigned char *image = read_file(argv[2], &image_length);
    r = idkit_barcode_read(image, image_length, "{\"pdf417\": true}");
    expect(r && r->status == IDKIT_OK && has(r, "\"format\":\"PDF417\"") && has(r, "\"file\":\"-\""), "barcode_read: a PDF417", r);
    idkit_result_free(r);
    free(image);
    r = idkit_barcode_read((const uint8_t *)"not an image", 12, NULL);
    expect(r && r->status == IDKIT_INVALID_INPUT && has(r, "\"kind\":\"unsupportedFormat\""), "barcode_read: not an image", r);
    idkit_result_free(r);

    /* A scan of a photo. */
    unsigned char *photo = read_file(argv[3], &image_length);
    r = idkit_scan(photo, image_length, "{\"barcodes\": false}");
    expect(r && r->status == IDKIT_OK && has(r, "\"status\":\"ok\"") && has(r, "\"verified\":true"), "scan: the photo's MRZ read and verified", r);
    idkit_result_free(r);
    free(photo);

    /* An image over the pixel limit: the same status and kind from the barcode reader and the scan. */
    unsigned char *oversized = read_file(argv[4], &image_length);
    r = idkit_barcode_read(oversized, image_length, NULL);
    expect(r && r->status == IDKIT_TOO_LARGE && has(r, "\"kind\":\"tooLarge\""), "barcode_read: 7000 x 7000 is tooLarge", r);
    idkit_result_free(r);
    r = idkit_scan(oversized, image_length, NULL);
    expect(r && r->status == IDKIT_TOO_LARGE && has(r, "\"kind\":\"tooLarge\""), "scan: 7000 x 7000 is tooLarge", r);
    idkit_result_free(r);
    free(oversized);

    /* Both sides of one card: a front of another card is a result that says so, not a merge. */
    size_t back_length, front_length;
    unsigned char *back = read_file(argv[5], &back_length), *front = read_file(argv[6], &front_length);
    r = idkit_scan_sides(front, front_length, back, back_length, "{\"barcodes\": false}");
    expect(r && r->status == IDKIT_OK && has(r, "\"status\":\"sidesMismatch\"") && has(r, "\"match\":false"), "scan_sides: another card's front", r);
    idkit_result_free(r);
    r = idkit_scan_sides(front, front_length, NULL, 5, NULL);
    expect(r && r->status != IDKIT_OK && has(r, "\"kind\":\"invalidArgument\""), "scan_sides: a NULL back with a length", r);
    idkit_result_free(r);
    free(back);
    free(front);

    /* Merge: the specimen's MRZ as the one source. */
    const char *merge = "{\"mrz\": [\"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\", \"L898902C36UTO7408122F1204159ZE184226B<<<<<10\"],"
                        " \"referenceDate\": \"2010-01-01\"}";
    r = idkit_merge((const uint8_t *)merge, strlen(merge), NULL);
    expect(r && r->status == IDKIT_OK && has(r, "\"source\":\"mrz\"") && has(r, "ERIKSSON"), "merge: fields from the MRZ", r);
    idkit_result_free(r);
    r = idkit_merge((const uint8_t *)"[]", 2, NULL);
    expect(r && r->status == IDKIT_INVALID_INPUT && has(r, "\"kind\":\"invalidInput\""), "merge: not the input document", r);
    idkit_result_free(r);

    /* BAC keys: ICAO 9303-11 Appendix D.1 (document L898902C<, born 690806, expiring 940623). */
    const char *bac = "{\"documentNumber\": \"L898902C<\", \"dateOfBirth\": \"690806\", \"dateOfExpiry\": \"940623\"}";
    r = idkit_bac_keys((const uint8_t *)bac, strlen(bac), NULL);
    expect(r && r->status == IDKIT_OK && has(r, "\"kSeed\":\"239AB9CB282DAF66231DC5A4DF6BFBAE\""), "bac_keys: K_seed of 9303-11 D.1", r);
    idkit_result_free(r);
    r = idkit_bac_keys((const uint8_t *)"{\"documentNumber\": 5}", 21, NULL);
    expect(r && r->status == IDKIT_INVALID_INPUT && has(r, "\"kind\":\"invalidRequest\""), "bac_keys: a member of the wrong type", r);
    idkit_result_free(r);

    idkit_result_free(NULL);

    /* Four threads at once. */
    pthread_t threads[4];
    int ok[4];
    for (int t = 0; t < 4; t++) pthread_create(&threads[t], NULL, validate_in_thread, &ok[t]);
    for (int t = 0; t < 4; t++) pthread_join(threads[t], NULL);
    for (int t = 0; t < 4; t++) expect(ok[t], "thread: 2000 calls each give the specimen's record", NULL);

    if (failures) { fprintf(stderr, "%d of %d checks failed\n", failures, checks); return 1; }
    printf("ok %d checks\n", checks);
    return 0;
}
