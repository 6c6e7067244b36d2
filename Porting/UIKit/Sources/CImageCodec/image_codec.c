/* See image_codec.h. */
#if !__has_include(<libswscale/swscale.h>) || !__has_include(<libavcodec/avcodec.h>)
#error "C libraries missing: apt-get install libpulse-dev libsndfile1-dev libyaml-dev libsystemd-dev libsamplerate0-dev libsoundtouch-dev libavformat-dev libavcodec-dev libswresample-dev libswscale-dev (README, The two commands)"
#endif
#include "image_codec.h"

#include <libavcodec/avcodec.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libswscale/swscale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The codec of an image file, by its first bytes. */
static enum AVCodecID codec_of(const uint8_t *d, size_t n) {
    if (n >= 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0) return AV_CODEC_ID_PNG;
    if (n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF) return AV_CODEC_ID_MJPEG;
    if (n >= 6 && (memcmp(d, "GIF87a", 6) == 0 || memcmp(d, "GIF89a", 6) == 0)) return AV_CODEC_ID_GIF;
    if (n >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0) return AV_CODEC_ID_WEBP;
    if (n >= 2 && d[0] == 'B' && d[1] == 'M') return AV_CODEC_ID_BMP;
    if (n >= 4 && (memcmp(d, "II*\0", 4) == 0 || memcmp(d, "MM\0*", 4) == 0)) return AV_CODEC_ID_TIFF;
    return AV_CODEC_ID_NONE;
}

static void say(char *error, size_t size, const char *what, int code) {
    char reason[128] = "";
    if (code < 0) av_strerror(code, reason, sizeof reason);
    snprintf(error, size, "%s%s%s", what, code < 0 ? ": " : "", reason);
}

/* `frame` converted to packed RGBA (malloc'd). libswscale writes whole SIMD blocks: it gets an
 * aligned, padded picture of its own, copied out row by row. */
static uint8_t *to_rgba(const AVFrame *frame) {
    struct SwsContext *scale = sws_getContext(frame->width, frame->height, frame->format, frame->width, frame->height,
                                              AV_PIX_FMT_RGBA, SWS_BICUBIC, NULL, NULL, NULL);
    if (!scale) return NULL;
    uint8_t *planes[4] = {NULL};
    int strides[4] = {0};
    uint8_t *rgba = NULL;
    if (av_image_alloc(planes, strides, frame->width, frame->height + 1, AV_PIX_FMT_RGBA, 64) >= 0) {
        sws_scale(scale, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
        size_t row = (size_t)frame->width * 4;
        rgba = malloc(row * (size_t)frame->height);
        if (rgba)
            for (int y = 0; y < frame->height; y++) memcpy(rgba + row * (size_t)y, planes[0] + (size_t)strides[0] * (size_t)y, row);
        av_freep(&planes[0]);
    }
    sws_freeContext(scale);
    return rgba;
}

int image_codec_decode(const uint8_t *data, size_t size, uint8_t **rgba, int *width, int *height, char *error,
                       size_t error_size) {
    av_log_set_level(AV_LOG_QUIET);
    enum AVCodecID id = codec_of(data, size);
    const AVCodec *codec = id == AV_CODEC_ID_NONE ? NULL : avcodec_find_decoder(id);
    if (!codec) {
        say(error, error_size, id == AV_CODEC_ID_NONE ? "not an image (PNG, JPEG, WebP, GIF, BMP or TIFF)"
                                                       : "no decoder for this image's format",
            0);
        return -1;
    }
    AVCodecContext *context = avcodec_alloc_context3(codec);
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    int result = -1, r;
    if (!context || !packet || !frame) {
        say(error, error_size, "out of memory", 0);
        goto done;
    }
    if ((r = avcodec_open2(context, codec, NULL)) < 0) {
        say(error, error_size, "cannot open the decoder", r);
        goto done;
    }
    /* The whole file is one packet, with the padding FFmpeg's readers may read past its end. */
    if ((r = av_new_packet(packet, (int)size)) < 0) {
        say(error, error_size, "out of memory", r);
        goto done;
    }
    memcpy(packet->data, data, size);
    if ((r = avcodec_send_packet(context, packet)) < 0) {
        say(error, error_size, "the image is damaged", r);
        goto done;
    }
    avcodec_send_packet(context, NULL);
    if ((r = avcodec_receive_frame(context, frame)) < 0) {
        say(error, error_size, "the image is damaged or truncated", r);
        goto done;
    }
    if (frame->width <= 0 || frame->height <= 0 || frame->width > 16384 || frame->height > 16384) {
        say(error, error_size, "the image's size is not 1…16384 pixels a side", 0);
        goto done;
    }
    *rgba = to_rgba(frame);
    if (!*rgba) {
        say(error, error_size, "cannot convert the image's pixels", 0);
        goto done;
    }
    *width = frame->width;
    *height = frame->height;
    result = 0;
done:
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&context);
    return result;
}

int image_codec_encode(const uint8_t *rgba, int width, int height, double quality, uint8_t **out, size_t *out_size,
                       char *error, size_t error_size) {
    av_log_set_level(AV_LOG_QUIET);
    int jpeg = quality >= 0;
    const AVCodec *codec = avcodec_find_encoder(jpeg ? AV_CODEC_ID_MJPEG : AV_CODEC_ID_PNG);
    if (!codec) {
        say(error, error_size, jpeg ? "no JPEG encoder" : "no PNG encoder", 0);
        return -1;
    }
    enum AVPixelFormat format = jpeg ? AV_PIX_FMT_YUVJ420P : AV_PIX_FMT_RGBA;
    AVCodecContext *context = avcodec_alloc_context3(codec);
    AVFrame *frame = av_frame_alloc();
    AVPacket *packet = av_packet_alloc();
    struct SwsContext *scale = NULL;
    uint8_t *source[4] = {NULL};
    int source_strides[4] = {0};
    int result = -1, r;
    if (!context || !frame || !packet) {
        say(error, error_size, "out of memory", 0);
        goto done;
    }
    context->width = width;
    context->height = height;
    context->pix_fmt = format;
    context->time_base = (AVRational){1, 25};
    if (jpeg) {
        /* quality 1 → the finest quantizer (2), 0 → the coarsest (31). */
        double q = quality > 1 ? 1 : quality;
        context->flags |= AV_CODEC_FLAG_QSCALE;
        context->global_quality = (int)((2 + (1 - q) * 29) * FF_QP2LAMBDA);
        context->color_range = AVCOL_RANGE_JPEG;
    }
    if ((r = avcodec_open2(context, codec, NULL)) < 0) {
        say(error, error_size, "cannot open the encoder", r);
        goto done;
    }
    frame->width = width;
    frame->height = height;
    frame->format = format;
    if ((r = av_frame_get_buffer(frame, 0)) < 0) {
        say(error, error_size, "out of memory", r);
        goto done;
    }
    scale = sws_getContext(width, height, AV_PIX_FMT_RGBA, width, height, format, SWS_BICUBIC, NULL, NULL, NULL);
    if (!scale) {
        say(error, error_size, "cannot convert the image's pixels", 0);
        goto done;
    }
    /* The source as libswscale reads it: aligned and padded (it reads whole SIMD blocks). */
    if ((r = av_image_alloc(source, source_strides, width, height + 1, AV_PIX_FMT_RGBA, 64)) < 0) {
        say(error, error_size, "out of memory", r);
        goto done;
    }
    for (int y = 0; y < height; y++)
        memcpy(source[0] + (size_t)source_strides[0] * (size_t)y, rgba + (size_t)width * 4 * (size_t)y, (size_t)width * 4);
    sws_scale(scale, (const uint8_t *const *)source, source_strides, 0, height, frame->data, frame->linesize);
    if (jpeg) frame->quality = context->global_quality;
    if ((r = avcodec_send_frame(context, frame)) < 0 || (r = avcodec_send_frame(context, NULL)) < 0 ||
        (r = avcodec_receive_packet(context, packet)) < 0) {
        say(error, error_size, "the image could not be encoded", r);
        goto done;
    }
    *out = malloc((size_t)packet->size);
    if (!*out) {
        say(error, error_size, "out of memory", 0);
        goto done;
    }
    memcpy(*out, packet->data, (size_t)packet->size);
    *out_size = (size_t)packet->size;
    result = 0;
done:
    av_freep(&source[0]);
    sws_freeContext(scale);
    av_packet_free(&packet);
    av_frame_free(&frame);
    avcodec_free_context(&context);
    return result;
}

void image_codec_free(void *pointer) { free(pointer); }
