/* UIKit's UIImage on Linux: images decoded and encoded through FFmpeg's libavcodec and libswscale
 * (Debian: libavcodec-dev, libswscale-dev): PNG, JPEG, WebP, GIF (its first frame), BMP and TIFF
 * read; PNG and JPEG written. Pixels are 8-bit RGBA, rows packed, not premultiplied. */
#ifndef AUDIOSESSION_IMAGE_CODEC_H
#define AUDIOSESSION_IMAGE_CODEC_H

#include <stddef.h>
#include <stdint.h>

/* Decodes an image into RGBA (malloc'd: free with image_codec_free). 0, or -1 with why in `error`. */
int image_codec_decode(const uint8_t *data, size_t size, uint8_t **rgba, int *width, int *height, char *error,
                       size_t error_size);

/* Encodes RGBA as PNG (quality < 0) or JPEG (quality 0…1). 0 and the bytes (malloc'd), or -1. */
int image_codec_encode(const uint8_t *rgba, int width, int height, double quality, uint8_t **out, size_t *out_size,
                       char *error, size_t error_size);

void image_codec_free(void *pointer);

#endif
