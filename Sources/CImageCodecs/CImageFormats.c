// See include/CImageCodecs.h: the formats after JPEG and PNG. libtiff, libwebp, giflib and libheif
// do the decoding; this file checks every size against the pixel limit before any pixel memory is
// allocated, keeps the libraries' messages out of stderr, and writes gray or RGB as asked. BMP, which
// none of them reads, is a small reader of the uncompressed layouts.
#include "CImageCodecs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>
#include <openjpeg.h>
#include <libheif/heif.h>
#include <tiffio.h>
#include <webp/decode.h>
#include <webp/demux.h>

static void put_message(char *message, size_t capacity, const char *format, ...) {
    if (message == NULL || capacity == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(message, capacity, format, args);
    va_end(args);
}

/// Gray from RGB with integer weights that sum to 256 (ITU-R BT.601 luma): (v, v, v) stays v.
static inline uint8_t gray_of(uint32_t r, uint32_t g, uint32_t b) {
    return (uint8_t)((77u * r + 150u * g + 29u * b + 128u) >> 8);
}

/// A pixel composited on white by its alpha, as the PNG decoder does.
static inline uint8_t on_white(uint8_t v, uint32_t alpha) {
    return (uint8_t)((v * alpha + 255u * (255u - alpha) + 127u) / 255u);
}

/// Pixel `i` of an image of `channels` (1: gray, 3: RGB) bytes a pixel, composited on white.
static inline void put_pixel(uint8_t *out, size_t i, int32_t channels, uint32_t r, uint32_t g, uint32_t b, uint32_t alpha) {
    if (channels == 3) {
        out[3 * i] = on_white((uint8_t)r, alpha);
        out[3 * i + 1] = on_white((uint8_t)g, alpha);
        out[3 * i + 2] = on_white((uint8_t)b, alpha);
    } else {
        out[i] = on_white(gray_of(r, g, b), alpha);
    }
}

static int32_t check_size(uint64_t w, uint64_t h, uint64_t maxPixels, int32_t *width, int32_t *height,
                          char *message, size_t capacity) {
    *width = w > INT32_MAX ? INT32_MAX : (int32_t)w;
    *height = h > INT32_MAX ? INT32_MAX : (int32_t)h;
    if (w == 0 || h == 0) {
        put_message(message, capacity, "the image has no pixels (%llu×%llu)", (unsigned long long)w, (unsigned long long)h);
        return IDK_IMAGE_CORRUPT;
    }
    if (w > INT32_MAX || h > INT32_MAX || w * h > maxPixels) {
        put_message(message, capacity, "image has more pixels than the limit");
        return IDK_IMAGE_TOO_LARGE;
    }
    return IDK_IMAGE_OK;
}

static uint8_t *allocate(size_t count, char *message, size_t capacity) {
    uint8_t *p = malloc(count ? count : 1);
    if (p == NULL) put_message(message, capacity, "out of memory for the decoded image");
    return p;
}

// MARK: TIFF

typedef struct {
    const uint8_t *data;
    size_t length;
    size_t offset;
    char *message;
    size_t capacity;
} idk_tiff_source;

static tmsize_t tiff_read(thandle_t h, void *buffer, tmsize_t size) {
    idk_tiff_source *s = (idk_tiff_source *)h;
    if (size < 0 || s->offset >= s->length) return 0;
    size_t n = (size_t)size < s->length - s->offset ? (size_t)size : s->length - s->offset;
    memcpy(buffer, s->data + s->offset, n);
    s->offset += n;
    return (tmsize_t)n;
}

static tmsize_t tiff_write(thandle_t h, void *buffer, tmsize_t size) {
    (void)h; (void)buffer; (void)size;
    return 0;
}

static toff_t tiff_seek(thandle_t h, toff_t offset, int whence) {
    idk_tiff_source *s = (idk_tiff_source *)h;
    uint64_t base = whence == SEEK_CUR ? s->offset : (whence == SEEK_END ? s->length : 0);
    uint64_t target = base + offset;
    if (target > s->length) return (toff_t)-1;
    s->offset = (size_t)target;
    return (toff_t)target;
}

static int tiff_close(thandle_t h) { (void)h; return 0; }
static toff_t tiff_size(thandle_t h) { return (toff_t)((idk_tiff_source *)h)->length; }

/// libtiff's errors go into the caller's message (the first one wins); warnings are dropped.
static int tiff_error(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif; (void)module;
    idk_tiff_source *s = (idk_tiff_source *)user;
    if (s->message != NULL && s->capacity > 0 && s->message[0] == '\0') vsnprintf(s->message, s->capacity, format, args);
    return 1;
}

static int tiff_warning(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif; (void)user; (void)module; (void)format; (void)args;
    return 1;
}

/// The TIFF in `source`, its messages routed to the source's buffer; NULL with a message when
/// libtiff cannot open it.
static TIFF *tiff_open(idk_tiff_source *source) {
    if (source->message && source->capacity) source->message[0] = '\0';
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) return NULL;
    TIFFOpenOptionsSetErrorHandlerExtR(options, tiff_error, source);
    TIFFOpenOptionsSetWarningHandlerExtR(options, tiff_warning, source);
    TIFF *tif = TIFFClientOpenExt("memory", "rm", (thandle_t)source, tiff_read, tiff_write, tiff_seek, tiff_close,
                                  tiff_size, NULL, NULL, options);
    TIFFOpenOptionsFree(options);
    if (tif == NULL && source->message && source->capacity && source->message[0] == '\0') {
        put_message(source->message, source->capacity, "not a readable TIFF file");
    }
    return tif;
}

int32_t idk_tiff_page_count(const uint8_t *data, size_t length, int32_t *pages, char *message, size_t messageCapacity) {
    idk_tiff_source source = {data, length, 0, message, messageCapacity};
    *pages = 0;
    TIFF *tif = tiff_open(&source);
    if (tif == NULL) return IDK_IMAGE_CORRUPT;
    int32_t n = 1;
    while (n < IDK_TIFF_MAX_PAGES && TIFFReadDirectory(tif)) n++;
    TIFFClose(tif);
    *pages = n;
    return IDK_IMAGE_OK;
}

int32_t idk_tiff_decode(const uint8_t *data, size_t length, int32_t page, uint64_t maxPixels, int32_t channels,
                             uint8_t **pixels, int32_t *width, int32_t *height, int32_t *orientation,
                             char *message, size_t messageCapacity) {
    *pixels = NULL;
    *width = 0;
    *height = 0;
    *orientation = 0;
    idk_tiff_source source = {data, length, 0, message, messageCapacity};
    TIFF *tif = tiff_open(&source);
    if (tif == NULL) return IDK_IMAGE_CORRUPT;
    if (page > 0 && !TIFFSetDirectory(tif, (tdir_t)page)) {
        TIFFClose(tif);
        put_message(message, messageCapacity, "the TIFF file has no page %d", page + 1);
        return IDK_IMAGE_CORRUPT;
    }
    uint32_t w = 0, h = 0;
    uint16_t stored = ORIENTATION_TOPLEFT;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h);
    TIFFGetFieldDefaulted(tif, TIFFTAG_ORIENTATION, &stored);
    int32_t status = check_size(w, h, maxPixels, width, height, message, messageCapacity);
    if (status != IDK_IMAGE_OK) {
        TIFFClose(tif);
        return status;
    }
    uint32_t *raster = (uint32_t *)allocate((size_t)w * h * sizeof(uint32_t), message, messageCapacity);
    uint8_t *gray = raster ? allocate((size_t)w * h * (size_t)channels, message, messageCapacity) : NULL;
    if (gray == NULL) {
        free(raster);
        TIFFClose(tif);
        return IDK_IMAGE_NO_MEMORY;
    }
    // Rows in the order they are stored (the requested orientation is the file's own): the
    // caller turns them upright by the orientation tag, as it does for a JPEG's EXIF tag.
    if (!TIFFReadRGBAImageOriented(tif, w, h, raster, stored, 0)) {
        if (message && messageCapacity && message[0] == '\0') put_message(message, messageCapacity, "corrupt TIFF data");
        free(raster);
        free(gray);
        TIFFClose(tif);
        return IDK_IMAGE_CORRUPT;
    }
    for (size_t i = 0; i < (size_t)w * h; i++) {
        uint32_t p = raster[i];
        put_pixel(gray, i, channels, TIFFGetR(p), TIFFGetG(p), TIFFGetB(p), TIFFGetA(p));
    }
    free(raster);
    TIFFClose(tif);
    *orientation = stored >= 1 && stored <= 8 ? stored : 1;
    *pixels = gray;
    return IDK_IMAGE_OK;
}

// MARK: WebP

int32_t idk_webp_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                             uint8_t **pixels, int32_t *width, int32_t *height,
                             char *message, size_t messageCapacity) {
    *pixels = NULL;
    *width = 0;
    *height = 0;
    WebPBitstreamFeatures features;
    VP8StatusCode code = WebPGetFeatures(data, length, &features);
    if (code != VP8_STATUS_OK) {
        put_message(message, messageCapacity, code == VP8_STATUS_NOT_ENOUGH_DATA ? "truncated WebP file" : "corrupt WebP header");
        return IDK_IMAGE_CORRUPT;
    }
    if (features.has_animation) {
        put_message(message, messageCapacity, "animated WebP files are not read");
        return IDK_IMAGE_CORRUPT;
    }
    int32_t status = check_size((uint64_t)features.width, (uint64_t)features.height, maxPixels, width, height,
                                message, messageCapacity);
    if (status != IDK_IMAGE_OK) return status;
    size_t count = (size_t)features.width * (size_t)features.height;
    uint8_t *rgba = allocate(count * 4, message, messageCapacity);
    uint8_t *gray = rgba ? allocate(count * (size_t)channels, message, messageCapacity) : NULL;
    if (gray == NULL) {
        free(rgba);
        return IDK_IMAGE_NO_MEMORY;
    }
    if (WebPDecodeRGBAInto(data, length, rgba, count * 4, features.width * 4) == NULL) {
        put_message(message, messageCapacity, "corrupt or truncated WebP data");
        free(rgba);
        free(gray);
        return IDK_IMAGE_CORRUPT;
    }
    for (size_t i = 0; i < count; i++) {
        const uint8_t *p = rgba + 4 * i;
        put_pixel(gray, i, channels, p[0], p[1], p[2], p[3]);
    }
    free(rgba);
    *pixels = gray;
    return IDK_IMAGE_OK;
}

int32_t idk_webp_exif_orientation(const uint8_t *data, size_t length) {
    WebPData webp = {data, length};
    WebPDemuxer *demux = WebPDemux(&webp);
    if (demux == NULL) return 0;
    int32_t orientation = 0;
    WebPChunkIterator chunk;
    if (WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) {
        orientation = idk_exif_orientation(chunk.chunk.bytes, chunk.chunk.size);
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    WebPDemuxDelete(demux);
    return orientation;
}

// MARK: GIF

typedef struct {
    const uint8_t *data;
    size_t length;
    size_t offset;
} idk_gif_source;

static int gif_read(GifFileType *gif, GifByteType *buffer, int size) {
    idk_gif_source *s = (idk_gif_source *)gif->UserData;
    if (size <= 0 || s->offset >= s->length) return 0;
    size_t n = (size_t)size < s->length - s->offset ? (size_t)size : s->length - s->offset;
    memcpy(buffer, s->data + s->offset, n);
    s->offset += n;
    return (int)n;
}

/// The first frame, drawn on the logical screen (white where the frame does not cover it or is
/// transparent). Records are walked one by one, so that no frame is allocated before its size
/// has been checked (DGifSlurp would allocate whatever a frame's descriptor claims).
int32_t idk_gif_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                            uint8_t **pixels, int32_t *width, int32_t *height,
                            char *message, size_t messageCapacity) {
    *pixels = NULL;
    *width = 0;
    *height = 0;
    idk_gif_source source = {data, length, 0};
    int error = 0;
    GifFileType *gif = DGifOpen(&source, gif_read, &error);
    if (gif == NULL) {
        put_message(message, messageCapacity, "corrupt GIF header (%s)", GifErrorString(error) ? GifErrorString(error) : "unknown");
        return IDK_IMAGE_CORRUPT;
    }
    int32_t status = check_size((uint64_t)(gif->SWidth > 0 ? gif->SWidth : 0), (uint64_t)(gif->SHeight > 0 ? gif->SHeight : 0),
                                maxPixels, width, height, message, messageCapacity);
    if (status != IDK_IMAGE_OK) {
        DGifCloseFile(gif, &error);
        return status;
    }
    const size_t sw = (size_t)gif->SWidth, sh = (size_t)gif->SHeight;
    const size_t c = (size_t)channels;
    uint8_t *canvas = allocate(sw * sh * c, message, messageCapacity);
    if (canvas == NULL) {
        DGifCloseFile(gif, &error);
        return IDK_IMAGE_NO_MEMORY;
    }
    memset(canvas, 255, sw * sh * c);
    int transparent = -1;
    GifRecordType record;
    status = IDK_IMAGE_CORRUPT;
    put_message(message, messageCapacity, "the GIF file holds no image");
    while (DGifGetRecordType(gif, &record) == GIF_OK && record != TERMINATE_RECORD_TYPE) {
        if (record == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *block = NULL;
            if (DGifGetExtension(gif, &code, &block) != GIF_OK) break;
            if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL && block[0] >= 4 && (block[1] & 1)) transparent = block[4];
            while (block != NULL) {
                if (DGifGetExtensionNext(gif, &block) != GIF_OK) { block = NULL; record = TERMINATE_RECORD_TYPE; }
            }
            if (record == TERMINATE_RECORD_TYPE) break;
            continue;
        }
        if (record != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(gif) != GIF_OK) break;
        const GifImageDesc *d = &gif->Image;
        if (d->Width <= 0 || d->Height <= 0 || (uint64_t)d->Width * (uint64_t)d->Height > maxPixels
            || (size_t)d->Left + (size_t)d->Width > sw || (size_t)d->Top + (size_t)d->Height > sh) {
            put_message(message, messageCapacity, "a GIF frame of %d×%d at (%d, %d) does not fit its %zu×%zu screen",
                        d->Width, d->Height, d->Left, d->Top, sw, sh);
            break;
        }
        const ColorMapObject *map = d->ColorMap ? d->ColorMap : gif->SColorMap;
        if (map == NULL) {
            put_message(message, messageCapacity, "the GIF frame has no color table");
            break;
        }
        uint8_t lookup[256 * 3];
        for (int i = 0; i < 256; i++) {
            const GifColorType color = map->Colors[i < map->ColorCount ? i : 0];
            put_pixel(lookup, (size_t)i, channels, color.Red, color.Green, color.Blue, i == transparent ? 0 : 255);
        }
        GifPixelType *row = (GifPixelType *)allocate((size_t)d->Width, message, messageCapacity);
        if (row == NULL) { status = IDK_IMAGE_NO_MEMORY; break; }
        // Interlaced frames store rows in four passes (GIF89a, appendix E).
        static const int start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
        int ok = 1;
        for (int pass = 0; pass < (d->Interlace ? 4 : 1) && ok; pass++) {
            for (int y = d->Interlace ? start[pass] : 0; y < d->Height && ok; y += d->Interlace ? step[pass] : 1) {
                if (DGifGetLine(gif, row, d->Width) != GIF_OK) { ok = 0; break; }
                uint8_t *out = canvas + (((size_t)d->Top + (size_t)y) * sw + (size_t)d->Left) * c;
                for (int x = 0; x < d->Width; x++) memcpy(out + (size_t)x * c, lookup + (size_t)row[x] * c, c);
            }
        }
        free(row);
        if (!ok) {
            put_message(message, messageCapacity, "corrupt or truncated GIF data (%s)",
                        GifErrorString(gif->Error) ? GifErrorString(gif->Error) : "unknown");
            break;
        }
        status = IDK_IMAGE_OK;
        break;
    }
    DGifCloseFile(gif, &error);
    if (status != IDK_IMAGE_OK) {
        free(canvas);
        return status;
    }
    *pixels = canvas;
    return IDK_IMAGE_OK;
}

// MARK: HEIF

int32_t idk_heif_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                             uint8_t **pixels, int32_t *width, int32_t *height,
                             char *message, size_t messageCapacity) {
    *pixels = NULL;
    *width = 0;
    *height = 0;
    struct heif_context *context = heif_context_alloc();
    if (context == NULL) {
        put_message(message, messageCapacity, "out of memory for the HEIF decoder");
        return IDK_IMAGE_NO_MEMORY;
    }
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    int32_t status = IDK_IMAGE_CORRUPT;
    struct heif_error err = heif_context_read_from_memory_without_copy(context, data, length, NULL);
    if (err.code != heif_error_Ok) {
        put_message(message, messageCapacity, "%s", err.message);
        goto done;
    }
    err = heif_context_get_primary_image_handle(context, &handle);
    if (err.code != heif_error_Ok) {
        put_message(message, messageCapacity, "%s", err.message);
        goto done;
    }
    int w = heif_image_handle_get_width(handle), h = heif_image_handle_get_height(handle);
    status = check_size((uint64_t)(w > 0 ? w : 0), (uint64_t)(h > 0 ? h : 0), maxPixels, width, height, message, messageCapacity);
    if (status != IDK_IMAGE_OK) goto done;
    // The rotation and mirroring the file records (irot, imir) are applied by libheif.
    err = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, NULL);
    if (err.code != heif_error_Ok) {
        put_message(message, messageCapacity, "image data: %s", err.message);
        status = IDK_IMAGE_CORRUPT;
        goto done;
    }
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    int iw = heif_image_get_width(image, heif_channel_interleaved), ih = heif_image_get_height(image, heif_channel_interleaved);
    if (plane == NULL || iw != w || ih != h) {
        put_message(message, messageCapacity, "image data decoded to %d×%d for %d×%d", iw, ih, w, h);
        status = IDK_IMAGE_CORRUPT;
        goto done;
    }
    uint8_t *gray = allocate((size_t)w * (size_t)h * (size_t)channels, message, messageCapacity);
    if (gray == NULL) { status = IDK_IMAGE_NO_MEMORY; goto done; }
    for (int y = 0; y < h; y++) {
        const uint8_t *row = plane + (size_t)y * (size_t)stride;
        for (int x = 0; x < w; x++) put_pixel(gray, (size_t)y * w + x, channels, row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3]);
    }
    *pixels = gray;
    status = IDK_IMAGE_OK;
done:
    if (image) heif_image_release(image);
    if (handle) heif_image_handle_release(handle);
    heif_context_free(context);
    return status;
}

// MARK: BMP

static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/// The component of a pixel under a BI_BITFIELDS mask, scaled to 0–255.
static uint8_t masked(uint32_t v, uint32_t mask) {
    if (mask == 0) return 0;
    int shift = 0;
    while (!(mask & 1u)) { mask >>= 1; v >>= 1; shift++; }
    uint32_t max = mask;
    return (uint8_t)(((v & mask) * 255u + max / 2) / max);
}

/// Uncompressed Windows bitmaps (BI_RGB at 1, 4, 8, 16, 24 and 32 bits; BI_BITFIELDS at 16 and
/// 32), bottom-up or top-down, as document readers write them. RLE and embedded JPEG/PNG are
/// refused with a message.
int32_t idk_bmp_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                            uint8_t **pixels, int32_t *width, int32_t *height,
                            char *message, size_t messageCapacity) {
    *pixels = NULL;
    *width = 0;
    *height = 0;
    if (length < 26 || data[0] != 'B' || data[1] != 'M') {
        put_message(message, messageCapacity, "truncated BMP header");
        return IDK_IMAGE_CORRUPT;
    }
    uint32_t pixelOffset = le32(data + 10), headerSize = le32(data + 14);
    int64_t w, h;
    uint16_t bits;
    uint32_t compression = 0, colors = 0;
    if (headerSize == 12) {
        w = le16(data + 18);
        h = (int16_t)le16(data + 20);
        bits = le16(data + 24);
    } else if (headerSize >= 40 && length >= 14 + 40) {
        w = (int32_t)le32(data + 18);
        h = (int32_t)le32(data + 22);
        bits = le16(data + 28);
        compression = le32(data + 30);
        colors = le32(data + 46);
    } else {
        put_message(message, messageCapacity, "truncated or unknown BMP header (%u bytes)", headerSize);
        return IDK_IMAGE_CORRUPT;
    }
    const int topDown = h < 0;
    if (h < 0) h = -h;
    if (w < 0) w = 0;
    int32_t status = check_size((uint64_t)w, (uint64_t)h, maxPixels, width, height, message, messageCapacity);
    if (status != IDK_IMAGE_OK) return status;
    uint32_t masks[3] = {0, 0, 0};
    if (compression == 3 /* BI_BITFIELDS */ && (bits == 16 || bits == 32)) {
        size_t at = headerSize >= 52 ? 14 + 40 : 14 + headerSize;
        if (at + 12 > length) { put_message(message, messageCapacity, "truncated BMP color masks"); return IDK_IMAGE_CORRUPT; }
        for (int i = 0; i < 3; i++) masks[i] = le32(data + at + 4 * i);
    } else if (compression != 0 /* BI_RGB */) {
        put_message(message, messageCapacity, "compressed BMP files (compression %u) are not read", compression);
        return IDK_IMAGE_CORRUPT;
    } else if (bits == 16) {
        masks[0] = 0x7C00; masks[1] = 0x03E0; masks[2] = 0x001F;
    }
    if (bits != 1 && bits != 4 && bits != 8 && bits != 16 && bits != 24 && bits != 32) {
        put_message(message, messageCapacity, "BMP files of %u bits per pixel are not read", bits);
        return IDK_IMAGE_CORRUPT;
    }
    uint8_t palette[256 * 3];                       // red, green, blue
    if (bits <= 8) {
        const size_t entry = headerSize == 12 ? 3 : 4, count = colors ? colors : (1u << bits);
        const size_t at = 14 + (size_t)headerSize;
        if (count > 256 || at + count * entry > length) {
            put_message(message, messageCapacity, "truncated BMP color table");
            return IDK_IMAGE_CORRUPT;
        }
        memset(palette, 0, sizeof palette);
        for (size_t i = 0; i < count; i++) {
            const uint8_t *c = data + at + i * entry;   // blue, green, red
            palette[3 * i] = c[2]; palette[3 * i + 1] = c[1]; palette[3 * i + 2] = c[0];
        }
    }
    const size_t stride = (((size_t)w * bits + 31) / 32) * 4;
    if (pixelOffset > length || stride * (size_t)h > length - pixelOffset) {
        put_message(message, messageCapacity, "truncated BMP pixel data (%zu bytes needed after offset %u, %zu present)",
                    stride * (size_t)h, pixelOffset, length > pixelOffset ? length - pixelOffset : 0);
        return IDK_IMAGE_CORRUPT;
    }
    uint8_t *gray = allocate((size_t)w * (size_t)h * (size_t)channels, message, messageCapacity);
    if (gray == NULL) return IDK_IMAGE_NO_MEMORY;
    for (size_t y = 0; y < (size_t)h; y++) {
        const uint8_t *row = data + pixelOffset + stride * (topDown ? y : (size_t)h - 1 - y);
        const size_t base = y * (size_t)w;
        for (size_t x = 0; x < (size_t)w; x++) {
            uint32_t r, g, b;
            const uint8_t *entry = NULL;
            switch (bits) {
            case 1: entry = palette + 3 * ((row[x / 8] >> (7 - x % 8)) & 1); break;
            case 4: entry = palette + 3 * ((row[x / 2] >> (x % 2 ? 0 : 4)) & 15); break;
            case 8: entry = palette + 3 * row[x]; break;
            default: break;
            }
            if (entry != NULL) {
                r = entry[0]; g = entry[1]; b = entry[2];
            } else if (bits == 16) {
                uint32_t v = le16(row + 2 * x);
                r = masked(v, masks[0]); g = masked(v, masks[1]); b = masked(v, masks[2]);
            } else if (bits == 24) {
                r = row[3 * x + 2]; g = row[3 * x + 1]; b = row[3 * x];
            } else if (compression == 3) {
                uint32_t v = le32(row + 4 * x);
                r = masked(v, masks[0]); g = masked(v, masks[1]); b = masked(v, masks[2]);
            } else {
                r = row[4 * x + 2]; g = row[4 * x + 1]; b = row[4 * x];
            }
            put_pixel(gray, base + x, channels, r, g, b, 255);
        }
    }
    *pixels = gray;
    return IDK_IMAGE_OK;
}

// MARK: JPEG 2000 (OpenJPEG)

typedef struct {
    const uint8_t *data;
    size_t length, offset;
} idk_jp2_source;

static OPJ_SIZE_T jp2_read(void *buffer, OPJ_SIZE_T count, void *user) {
    idk_jp2_source *s = user;
    if (s->offset >= s->length) return (OPJ_SIZE_T)-1;
    size_t n = s->length - s->offset < count ? s->length - s->offset : count;
    memcpy(buffer, s->data + s->offset, n);
    s->offset += n;
    return n;
}

static OPJ_OFF_T jp2_skip(OPJ_OFF_T count, void *user) {
    idk_jp2_source *s = user;
    if (count < 0) return -1;
    size_t n = (size_t)count > s->length - s->offset ? s->length - s->offset : (size_t)count;
    s->offset += n;
    return (OPJ_OFF_T)n;
}

static OPJ_BOOL jp2_seek(OPJ_OFF_T position, void *user) {
    idk_jp2_source *s = user;
    if (position < 0 || (size_t)position > s->length) return OPJ_FALSE;
    s->offset = (size_t)position;
    return OPJ_TRUE;
}

typedef struct { char *message; size_t capacity; } idk_jp2_messages;

static void jp2_error(const char *text, void *user) {
    idk_jp2_messages *m = user;
    // OpenJPEG's messages end in a newline; the first error is the one to tell.
    if (m->message != NULL && m->capacity > 0 && m->message[0] == '\0') {
        put_message(m->message, m->capacity, "%s", text);
        size_t n = strlen(m->message);
        if (n > 0 && m->message[n - 1] == '\n') m->message[n - 1] = '\0';
    }
}

static void jp2_quiet(const char *text, void *user) { (void)text; (void)user; }

/// A JP2 file or a raw J2K codestream: the header read first and its size checked against the
/// limit before anything is decoded; gray from one component, RGB from three (8 bits scaled from
/// the components' precision); subsampled components are refused.
int32_t idk_jp2_decode(const uint8_t *data, size_t length, uint64_t maxPixels, int32_t channels,
                       uint8_t **pixels, int32_t *width, int32_t *height,
                       char *message, size_t messageCapacity) {
    *pixels = NULL;
    *width = 0;
    *height = 0;
    if (message != NULL && messageCapacity > 0) message[0] = '\0';
    const OPJ_CODEC_FORMAT format = length >= 2 && data[0] == 0xFF && data[1] == 0x4F ? OPJ_CODEC_J2K : OPJ_CODEC_JP2;
    opj_codec_t *codec = opj_create_decompress(format);
    if (codec == NULL) {
        put_message(message, messageCapacity, "OpenJPEG cannot make a decoder");
        return IDK_IMAGE_CORRUPT;
    }
    idk_jp2_messages messages = {message, messageCapacity};
    opj_set_error_handler(codec, jp2_error, &messages);
    opj_set_warning_handler(codec, jp2_quiet, NULL);
    opj_set_info_handler(codec, jp2_quiet, NULL);
    opj_dparameters_t parameters;
    opj_set_default_decoder_parameters(&parameters);
    int32_t status = IDK_IMAGE_CORRUPT;
    opj_image_t *image = NULL;
    idk_jp2_source source = {data, length, 0};
    opj_stream_t *stream = opj_stream_create(1 << 16, OPJ_TRUE);
    if (stream == NULL || !opj_setup_decoder(codec, &parameters)) {
        put_message(message, messageCapacity, "OpenJPEG cannot set up its decoder");
        goto done;
    }
    opj_stream_set_user_data(stream, &source, NULL);
    opj_stream_set_user_data_length(stream, length);
    opj_stream_set_read_function(stream, jp2_read);
    opj_stream_set_skip_function(stream, jp2_skip);
    opj_stream_set_seek_function(stream, jp2_seek);
    if (!opj_read_header(stream, codec, &image) || image == NULL) {
        if (message != NULL && message[0] == '\0') put_message(message, messageCapacity, "the JPEG 2000 header cannot be read");
        goto done;
    }
    const uint64_t w = image->x1 > image->x0 ? image->x1 - image->x0 : 0, h = image->y1 > image->y0 ? image->y1 - image->y0 : 0;
    status = check_size(w, h, maxPixels, width, height, message, messageCapacity);
    if (status != IDK_IMAGE_OK) goto done;
    status = IDK_IMAGE_CORRUPT;
    if (!opj_decode(codec, stream, image) || !opj_end_decompress(codec, stream)) {
        if (message != NULL && message[0] == '\0') put_message(message, messageCapacity, "the JPEG 2000 data cannot be decoded");
        goto done;
    }
    const OPJ_UINT32 comps = image->numcomps;
    if (comps == 0 || (comps != 1 && comps < 3)) {
        put_message(message, messageCapacity, "a JPEG 2000 image of %u components (1 or 3 and more are read)", comps);
        goto done;
    }
    for (OPJ_UINT32 k = 0; k < (comps == 1 ? 1u : 3u); k++) {
        const opj_image_comp_t *c = &image->comps[k];
        if (c->data == NULL || c->dx != 1 || c->dy != 1 || c->w != w || c->h != h || c->prec == 0 || c->prec > 16) {
            put_message(message, messageCapacity, "JPEG 2000 component %u is subsampled or of %u bits (full-size components of 1-16 bits are read)", k, c->prec);
            goto done;
        }
    }
    uint8_t *out = allocate((size_t)w * (size_t)h * (size_t)channels, message, messageCapacity);
    if (out == NULL) { status = IDK_IMAGE_NO_MEMORY; goto done; }
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        uint32_t v[3];
        for (OPJ_UINT32 k = 0; k < 3; k++) {
            const opj_image_comp_t *c = &image->comps[comps == 1 ? 0 : k];
            int64_t x = c->data[i] + (c->sgnd ? (1 << (c->prec - 1)) : 0);
            x = c->prec >= 8 ? x >> (c->prec - 8) : x << (8 - c->prec);
            v[k] = (uint32_t)(x < 0 ? 0 : (x > 255 ? 255 : x));
        }
        put_pixel(out, i, channels, v[0], v[1], v[2], 255);
    }
    *pixels = out;
    status = IDK_IMAGE_OK;
done:
    if (image != NULL) opj_image_destroy(image);
    if (stream != NULL) opj_stream_destroy(stream);
    opj_destroy_codec(codec);
    return status;
}
