/*
 * The Arrow export of libidkit read back in plain C, without any Arrow library: the schema's
 * names and formats, the values of every kind of column (utf8, bool, date32, int32, list<utf8>,
 * map<utf8, utf8>), nulls, a child moved out before the parent is released, the input never
 * released by the library, and error statuses that leave the outputs untouched.
 * Built with AddressSanitizer by CABITests, so that a buffer freed twice, read after release or
 * never freed (LeakSanitizer at exit) fails the run.
 *
 * Usage: arrow_test AAMVA_PAYLOAD_FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "idkit.h"

static int checks = 0, failures = 0;
#define CHECK(cond, ...) do { checks++; if (!(cond)) { failures++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

/* An input utf8 array built here; its release counts its calls (libidkit must never call it). */
static int input_releases = 0;
static void release_input(struct ArrowArray *a) { input_releases++; a->release = NULL; }
static void release_input_schema(struct ArrowSchema *s) { s->release = NULL; }

typedef struct {
    struct ArrowArray array;
    struct ArrowSchema schema;
    const void *buffers[3];
    int32_t offsets[16];
    uint8_t validity[2];
    char data[4096];
} input_column;

/* values[i] NULL means a null row. */
static void make_input(input_column *in, const char *format, const char **values, int n) {
    memset(in, 0, sizeof *in);
    int32_t at = 0;
    in->offsets[0] = 0;
    int nulls = 0;
    for (int i = 0; i < n; i++) {
        if (values[i]) {
            in->validity[i / 8] |= (uint8_t)(1u << (i % 8));
            size_t len = strlen(values[i]);
            memcpy(in->data + at, values[i], len);
            at += (int32_t)len;
        } else {
            nulls++;
        }
        in->offsets[i + 1] = at;
    }
    in->buffers[0] = in->validity;
    in->buffers[1] = in->offsets;
    in->buffers[2] = in->data;
    in->array = (struct ArrowArray){.length = n, .null_count = nulls, .offset = 0, .n_buffers = 3, .n_children = 0,
                                    .buffers = in->buffers, .release = release_input};
    in->schema = (struct ArrowSchema){.format = format, .name = "", .flags = ARROW_FLAG_NULLABLE, .release = release_input_schema};
}

static int column_index(const struct ArrowSchema *schema, const char *name) {
    for (int64_t i = 0; i < schema->n_children; i++)
        if (strcmp(schema->children[i]->name, name) == 0) return (int)i;
    return -1;
}

static int is_valid(const struct ArrowArray *a, int64_t row) {
    const uint8_t *bits = a->buffers[0];
    row += a->offset;
    return bits == NULL || (bits[row / 8] >> (row % 8)) & 1;
}

/* Row `row` of a utf8 array as a NUL-terminated copy in `out` ("<null>" for null). */
static const char *utf8_at(const struct ArrowArray *a, int64_t row, char *out, size_t size) {
    if (!is_valid(a, row)) return "<null>";
    const int32_t *offsets = a->buffers[1];
    const char *data = a->buffers[2];
    int32_t start = offsets[row + a->offset], end = offsets[row + a->offset + 1];
    size_t n = (size_t)(end - start) < size - 1 ? (size_t)(end - start) : size - 1;
    memcpy(out, data + start, n);
    out[n] = 0;
    return out;
}

static const struct ArrowArray *column(const struct ArrowArray *batch, const struct ArrowSchema *schema, const char *name,
                                       const char *format) {
    int i = column_index(schema, name);
    CHECK(i >= 0, "no column %s", name);
    if (i < 0) return NULL;
    CHECK(strcmp(schema->children[i]->format, format) == 0, "column %s has format %s, expected %s", name,
          schema->children[i]->format, format);
    if (strcmp(schema->children[i]->format, format) != 0) return NULL;
    CHECK(batch->children[i]->length == batch->length, "column %s has %lld rows", name, (long long)batch->children[i]->length);
    return batch->children[i];
}

static void expect_utf8(const struct ArrowArray *batch, const struct ArrowSchema *schema, const char *name, int64_t row,
                        const char *expected) {
    const struct ArrowArray *a = column(batch, schema, name, "u");
    char buffer[256];
    if (a) CHECK(strcmp(utf8_at(a, row, buffer, sizeof buffer), expected) == 0, "%s[%lld] = %s, expected %s", name,
                 (long long)row, buffer, expected);
}

/* A dictionary-encoded column ("c": int8 indices into a utf8 dictionary), row `row` as its word. */
static void expect_word(const struct ArrowArray *batch, const struct ArrowSchema *schema, const char *name, int64_t row,
                        const char *expected) {
    const struct ArrowArray *a = column(batch, schema, name, "c");
    if (!a) return;
    int i = column_index(schema, name);
    CHECK(schema->children[i]->dictionary && strcmp(schema->children[i]->dictionary->format, "u") == 0 && a->dictionary,
          "column %s has a utf8 dictionary", name);
    if (!a->dictionary) return;
    char buffer[64];
    const char *word = "<null>";
    if (is_valid(a, row)) {
        int8_t index = ((const int8_t *)a->buffers[1])[row + a->offset];
        CHECK(index >= 0 && index < a->dictionary->length, "%s[%lld]: index %d outside its dictionary", name, (long long)row, index);
        if (index < 0 || index >= a->dictionary->length) return;
        word = utf8_at(a->dictionary, index, buffer, sizeof buffer);
    }
    CHECK(strcmp(word, expected) == 0, "%s[%lld] = %s, expected %s", name, (long long)row, word, expected);
}

static const char *TD3 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10";
static const char *TD3_BAD = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<11";

static void test_mrz(void) {
    const char *values[] = {TD3, NULL, "HELLO", TD3_BAD};
    input_column in;
    make_input(&in, "u", values, 4);
    struct ArrowSchema schema;
    struct ArrowArray batch;
    idkit_result *r = idkit_mrz_validate_arrow(&in.array, &in.schema, "{\"referenceDate\":\"2010-01-01\"}", &schema, &batch);
    CHECK(r && r->status == IDKIT_OK, "status %d: %s", r ? r->status : -1, r ? r->json : "");
    CHECK(r && strcmp(r->json, "{\"rows\":4}") == 0, "json %s", r ? r->json : "");
    idkit_result_free(r);
    CHECK(input_releases == 0, "libidkit released the input");
    CHECK(strcmp(schema.format, "+s") == 0 && batch.length == 4 && batch.n_children == schema.n_children,
          "a struct array of 4 rows (%s, %lld)", schema.format, (long long)batch.length);

    expect_word(&batch, &schema, "format", 0, "TD3");
    expect_utf8(&batch, &schema, "documentNumber", 0, "L898902C3");
    expect_utf8(&batch, &schema, "secondaryIdentifier", 0, "ANNA MARIA");
    expect_utf8(&batch, &schema, "optionalData2", 0, "<null>");
    expect_utf8(&batch, &schema, "dateOfBirthRaw", 0, "740812");
    expect_word(&batch, &schema, "verdict", 0, "valid");
    expect_word(&batch, &schema, "verdict", 1, "<null>");
    expect_word(&batch, &schema, "verdict", 2, "notAnMRZ");
    expect_word(&batch, &schema, "verdict", 3, "invalid");
    expect_word(&batch, &schema, "checkDigitComposite", 3, "invalid");
    expect_word(&batch, &schema, "format", 2, "<null>");

    const struct ArrowArray *valid = column(&batch, &schema, "valid", "b");
    if (valid) {
        const uint8_t *bits = valid->buffers[1];
        CHECK((bits[0] & 1) == 1 && is_valid(valid, 0), "valid[0] true");
        CHECK(!is_valid(valid, 1) && valid->null_count == 1, "valid[1] null (null input)");
        CHECK(is_valid(valid, 2) && ((bits[0] >> 2) & 1) == 0, "valid[2] false");
    }
    const struct ArrowArray *birth = column(&batch, &schema, "dateOfBirth", "tdD");
    if (birth) CHECK(((const int32_t *)birth->buffers[1])[0] == 1684, "dateOfBirth[0] = %d days, expected 1684 (1974-08-12)",
                     ((const int32_t *)birth->buffers[1])[0]);
    const struct ArrowArray *expiry = column(&batch, &schema, "dateOfExpiry", "tdD");
    if (expiry) CHECK(((const int32_t *)expiry->buffers[1])[0] == 15445, "dateOfExpiry[0] = %d days, expected 15445 (2012-04-15)",
                      ((const int32_t *)expiry->buffers[1])[0]);

    /* errors: list<utf8>; row 1 ["nullInput"], row 2 ["lineCount"], row 3 ["invalidCheckDigit"]. */
    const struct ArrowArray *errors = column(&batch, &schema, "errors", "+l");
    if (errors) {
        const int32_t *offsets = errors->buffers[1];
        const struct ArrowArray *items = errors->children[0];
        char buffer[64];
        CHECK(offsets[1] - offsets[0] == 0, "row 0 has no errors");
        CHECK(offsets[2] - offsets[1] == 1 && strcmp(utf8_at(items, offsets[1], buffer, sizeof buffer), "nullInput") == 0,
              "row 1's error is nullInput (%s)", buffer);
        CHECK(strcmp(utf8_at(items, offsets[2], buffer, sizeof buffer), "lineCount") == 0, "row 2's error is lineCount (%s)", buffer);
        CHECK(strcmp(utf8_at(items, offsets[3], buffer, sizeof buffer), "invalidCheckDigit") == 0, "row 3's error (%s)", buffer);
    }

    /* A consumer may move a child out: take `lines`, release the batch, then the child alone. */
    int lines = column_index(&schema, "lines");
    struct ArrowArray moved = *batch.children[lines];
    batch.children[lines]->release = NULL;
    batch.release(&batch);
    CHECK(batch.release == NULL, "the batch is marked released");
    const struct ArrowArray *line_items = moved.children[0];
    char buffer[64];
    CHECK(strcmp(utf8_at(line_items, 1, buffer, sizeof buffer), "L898902C36UTO7408122F1204159ZE184226B<<<<<10") == 0,
          "the moved column outlives its parent (%s)", buffer);
    moved.release(&moved);
    CHECK(moved.release == NULL, "the moved child is marked released");
    schema.release(&schema);
    CHECK(schema.release == NULL, "the schema is marked released");

    in.array.release(&in.array);
    CHECK(input_releases == 1, "the input released once, by its owner");
}

static void test_errors(void) {
    const char *values[] = {TD3};
    input_column in;
    make_input(&in, "i", values, 1);
    struct ArrowSchema schema = {0};
    struct ArrowArray batch = {0};
    idkit_result *r = idkit_mrz_validate_arrow(&in.array, &in.schema, NULL, &schema, &batch);
    CHECK(r && r->status == IDKIT_INVALID_INPUT && strstr(r->json, "invalidArrowInput"), "an int32 column is invalid input: %s",
          r ? r->json : "");
    CHECK(schema.release == NULL && batch.release == NULL, "outputs untouched on error");
    idkit_result_free(r);
    make_input(&in, "u", values, 1);
    r = idkit_mrz_validate_arrow(&in.array, &in.schema, "{\"nope\":1}", &schema, &batch);
    CHECK(r && r->status == IDKIT_INVALID_OPTIONS, "unknown option");
    CHECK(schema.release == NULL && batch.release == NULL, "outputs untouched on bad options");
    idkit_result_free(r);
    /* Offsets that go backwards would read outside the data: refused, not followed. */
    const char *two[] = {TD3, TD3};
    make_input(&in, "u", two, 2);
    in.offsets[1] = 500;
    r = idkit_mrz_validate_arrow(&in.array, &in.schema, NULL, &schema, &batch);
    CHECK(r && r->status == IDKIT_INVALID_INPUT && strstr(r->json, "backwards"), "offsets going backwards: %s", r ? r->json : "");
    CHECK(schema.release == NULL && batch.release == NULL, "outputs untouched on bad offsets");
    idkit_result_free(r);
    r = idkit_mrz_validate_arrow(NULL, NULL, NULL, &schema, &batch);
    CHECK(r && r->status == IDKIT_INVALID_INPUT, "NULL input");
    idkit_result_free(r);
}

static void test_aamva(const char *path) {
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f) return;
    static char payload[4096];
    size_t n = fread(payload, 1, sizeof payload - 1, f);
    fclose(f);
    payload[n] = 0;
    const char *values[] = {payload, "not a payload", NULL};
    input_column in;
    make_input(&in, "z", values, 3);
    struct ArrowSchema schema;
    struct ArrowArray batch;
    idkit_result *r = idkit_aamva_parse_arrow(&in.array, &in.schema, NULL, &schema, &batch);
    CHECK(r && r->status == IDKIT_OK, "aamva status %d: %s", r ? r->status : -1, r ? r->json : "");
    idkit_result_free(r);
    if (!r || batch.release == NULL) return;
    expect_utf8(&batch, &schema, "lastName", 0, "GARCIA");
    expect_utf8(&batch, &schema, "jurisdiction", 0, "VA");
    expect_utf8(&batch, &schema, "error", 0, "<null>");
    expect_utf8(&batch, &schema, "error", 1, "notAAMVA");
    expect_utf8(&batch, &schema, "error", 2, "nullInput");
    expect_utf8(&batch, &schema, "lastName", 1, "<null>");
    const struct ArrowArray *version = column(&batch, &schema, "version", "i");
    if (version) CHECK(((const int32_t *)version->buffers[1])[0] == 10, "version 10");
    const struct ArrowArray *height = column(&batch, &schema, "heightCm", "i");
    if (height) CHECK(((const int32_t *)height->buffers[1])[0] == 196, "heightCm 196");
    const struct ArrowArray *birth = column(&batch, &schema, "dateOfBirth", "tdD");
    if (birth) CHECK(((const int32_t *)birth->buffers[1])[0] == -6866, "dateOfBirth 1951-03-16 = -6866 days (%d)",
                     ((const int32_t *)birth->buffers[1])[0]);
    /* elements: map<utf8, utf8>, sorted by identifier; find DAQ. */
    const struct ArrowArray *elements = column(&batch, &schema, "elements", "+m");
    if (elements) {
        const int32_t *offsets = elements->buffers[1];
        const struct ArrowArray *entries = elements->children[0];
        char key[16], value[64];
        int found = 0;
        for (int32_t i = offsets[0]; i < offsets[1]; i++)
            if (strcmp(utf8_at(entries->children[0], i, key, sizeof key), "DAQ") == 0)
                found = strcmp(utf8_at(entries->children[1], i, value, sizeof value), "Y17895625") == 0;
        CHECK(found, "elements[DAQ] = Y17895625");
        CHECK(!is_valid(elements, 1), "no elements for a payload that is not AAMVA");
    }
    batch.release(&batch);
    schema.release(&schema);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: arrow_test AAMVA_PAYLOAD\n"); return 2; }
    test_mrz();
    test_errors();
    test_aamva(argv[1]);
    /* Many tables made and released: LeakSanitizer reports any buffer left at exit. */
    for (int i = 0; i < 200; i++) {
        const char *values[] = {TD3, TD3_BAD, NULL, "x"};
        input_column in;
        make_input(&in, "u", values, 4);
        struct ArrowSchema schema;
        struct ArrowArray batch;
        idkit_result *r = idkit_mrz_validate_arrow(&in.array, &in.schema, "{\"correct\":true}", &schema, &batch);
        if (r && r->status == IDKIT_OK) { batch.release(&batch); schema.release(&schema); }
        idkit_result_free(r);
    }
    if (failures) { fprintf(stderr, "%d of %d checks failed\n", failures, checks); return 1; }
    printf("ok %d checks\n", checks);
    return 0;
}
