// See include/CImageCodecs.h. libjpeg and libpng do the decoding; this file only manages errors,
// limits and memory around them.
#include "CImageCodecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

static void copy_message(const char *text, char *message, size_t capacity) {
    if (message == NULL || capacity == 0) return;
    strncpy(message, text, capacity - 1);
    message[capacity - 1] = '\0';
}

// MARK: JPEG

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf escape;
    char text[JMSG_LENGTH_MAX];
} idk_jpeg_error;

static void idk_jpeg_error_exit(j_common_ptr cinfo) {
    idk_jpeg_error *err = (idk_jpeg_error *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->text);
    longjmp(err->escape, 1);
}

// Corrupt-data warnings (premature end of data, bad Huffman codes) make libjpeg fill with gray
// and go on; a truncated upload must be an error, not a silently half-gray picture.
static void idk_jpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level < 0) {
        idk_jpeg_error *err = (idk_jpeg_error *)cinfo->err;
        (*cinfo->err->format_message)(cinfo, err->text);
        longjmp(err->escape, 1);
    }
}

static uint16_t read16(const uint8_t *p, int little) {
    return little ? (uint16_t)(p[0] | (p[1] << 8)) : (uint16_t)((p[0] << 8) | p[1]);
}

static uint32_t read32(const uint8_t *p, int little) {
    return little ? (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24)
                  : ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/// The Orientation tag (0x0112) of IFD0 in Exif data (Exif 2.32 §4.6.4), or 0: a JPEG APP1
/// segment ("Exif\0\0" then a TIFF structure) or a WebP EXIF chunk (the TIFF structure, with or
/// without that prefix).
int32_t idk_exif_orientation(const uint8_t *d, size_t n) {
    if (n >= 6 && memcmp(d, "Exif\0\0", 6) == 0) { d += 6; n -= 6; }
    if (n < 8) return 0;
    const uint8_t *t = d;
    size_t tn = n;
    int little;
    if (t[0] == 'I' && t[1] == 'I') little = 1;
    else if (t[0] == 'M' && t[1] == 'M') little = 0;
    else return 0;
    uint32_t ifd = read32(t + 4, little);
    if ((size_t)ifd + 2 > tn) return 0;
    uint16_t count = read16(t + ifd, little);
    for (uint32_t i = 0; i < count; i++) {
        size_t entry = (size_t)ifd + 2 + 12 * (size_t)i;
        if (entry + 12 > tn) return 0;
        if (read16(t + entry, little) == 0x0112) {
            uint16_t v = read16(t + entry + 8, little);
            return (v >= 1 && v <= 8) ? v : 0;
        }
    }
    return 0;
}

int32_t idk_jpeg_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                             uint8_t **pixels, int32_t *width, int32_t *height,
                             int32_t *exifOrientation, char *message, size_t messageCapacity) {
    struct jpeg_decompress_struct cinfo;
    idk_jpeg_error err;
    uint8_t *volatile buffer = NULL;
    volatile int32_t status = IDK_IMAGE_CORRUPT;
    *pixels = NULL;
    *width = 0;
    *height = 0;
    *exifOrientation = 0;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&err.base);
    err.base.error_exit = idk_jpeg_error_exit;
    err.base.emit_message = idk_jpeg_emit_message;
    err.text[0] = '\0';
    if (setjmp(err.escape)) {
        free(buffer);
        jpeg_destroy_decompress(&cinfo);
        copy_message(err.text[0] ? err.text : "corrupt JPEG data", message, messageCapacity);
        return status;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);
    *width = (int32_t)cinfo.image_width;
    *height = (int32_t)cinfo.image_height;
    if ((uint64_t)cinfo.image_width * (uint64_t)cinfo.image_height > maxPixels) {
        jpeg_destroy_decompress(&cinfo);
        copy_message("image has more pixels than the limit", message, messageCapacity);
        return IDK_IMAGE_TOO_LARGE;
    }
    for (jpeg_saved_marker_ptr m = cinfo.marker_list; m != NULL; m = m->next) {
        if (m->marker == JPEG_APP0 + 1) {
            int32_t o = m->data_length >= 6 && memcmp(m->data, "Exif\0\0", 6) == 0 ? idk_exif_orientation(m->data, m->data_length) : 0;
            if (o) { *exifOrientation = o; break; }
        }
    }
    cinfo.out_color_space = channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_start_decompress(&cinfo);
    size_t w = cinfo.output_width, h = cinfo.output_height, c = (size_t)cinfo.output_components;
    buffer = malloc(w * h * c ? w * h * c : 1);
    if (buffer == NULL) {
        status = IDK_IMAGE_NO_MEMORY;
        copy_message("out of memory for the decoded image", err.text, sizeof err.text);
        longjmp(err.escape, 1);
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = buffer + (size_t)cinfo.output_scanline * w * c;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    *pixels = buffer;
    *width = (int32_t)w;
    *height = (int32_t)h;
    return IDK_IMAGE_OK;
}

// MARK: PNG (libpng's simplified API does its own setjmp internally)

int32_t idk_png_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                            uint8_t **pixels, int32_t *width, int32_t *height,
                            char *message, size_t messageCapacity) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    *pixels = NULL;
    *width = 0;
    *height = 0;
    if (!png_image_begin_read_from_memory(&image, data, length)) {
        copy_message(image.message, message, messageCapacity);
        png_image_free(&image);
        return IDK_IMAGE_CORRUPT;
    }
    *width = (int32_t)image.width;
    *height = (int32_t)image.height;
    if ((uint64_t)image.width * (uint64_t)image.height > maxPixels) {
        png_image_free(&image);
        copy_message("image has more pixels than the limit", message, messageCapacity);
        return IDK_IMAGE_TOO_LARGE;
    }
    // Gray is derived from RGB with the BT.601 weights every other decoder uses (libpng's own
    // gray conversion is gamma-aware and gives other values), so that a color decode's derived
    // gray (ColorImage.gray) is the same image. A gray PNG stays as it is.
    const int fromColor = channels == 1 && (image.format & PNG_FORMAT_FLAG_COLOR);
    image.format = channels == 3 || fromColor ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
    size_t size = PNG_IMAGE_SIZE(image);
    uint8_t *buffer = malloc(size ? size : 1);
    if (buffer == NULL) {
        png_image_free(&image);
        copy_message("out of memory for the decoded image", message, messageCapacity);
        return IDK_IMAGE_NO_MEMORY;
    }
    png_color white = {255, 255, 255};
    if (!png_image_finish_read(&image, &white, buffer, 0, NULL)) {
        copy_message(image.message, message, messageCapacity);
        free(buffer);
        png_image_free(&image);
        return IDK_IMAGE_CORRUPT;
    }
    if (fromColor) {
        const size_t count = (size_t)image.width * image.height;
        for (size_t i = 0; i < count; i++) {
            const uint8_t *p = buffer + 3 * i;
            buffer[i] = (uint8_t)((77u * p[0] + 150u * p[1] + 29u * p[2] + 128u) >> 8);
        }
        uint8_t *shrunk = realloc(buffer, count ? count : 1);
        if (shrunk != NULL) buffer = shrunk;
    }
    *pixels = buffer;
    return IDK_IMAGE_OK;
}

int32_t idk_png_encode(const uint8_t *pixels, int32_t width, int32_t height, int32_t channels,
                       uint8_t **out, size_t *outLength, char *message, size_t messageCapacity) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)width;
    image.height = (png_uint_32)height;
    image.format = channels == 3 ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
    *out = NULL;
    *outLength = 0;
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&image, NULL, &size, 0, pixels, 0, NULL)) {
        copy_message(image.message, message, messageCapacity);
        return IDK_IMAGE_CORRUPT;
    }
    uint8_t *buffer = malloc(size);
    if (buffer == NULL) return IDK_IMAGE_NO_MEMORY;
    if (!png_image_write_to_memory(&image, buffer, &size, 0, pixels, 0, NULL)) {
        copy_message(image.message, message, messageCapacity);
        free(buffer);
        return IDK_IMAGE_CORRUPT;
    }
    *out = buffer;
    *outLength = size;
    return IDK_IMAGE_OK;
}
