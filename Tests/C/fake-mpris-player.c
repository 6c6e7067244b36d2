/* A scriptable MPRIS player for the players bridge's edge cases (SPEC §16, PL3, PL6), on sd-bus.
 * It plays nothing; it owns org.mpris.MediaPlayer2.NAME, reports a PlaybackStatus and answers
 * Play, Pause and Stop as told:
 *
 *   fake-mpris-player NAME [--status Playing|Paused|Stopped] [--cannot-pause] [--slow-pause MS]
 *                          [--fail-pause] [--malformed-status] [--replays-after MS]
 *
 * --cannot-pause: CanPause is false (the bridge must Stop it instead). --slow-pause MS: Pause is
 * answered after MS ms. --fail-pause: Pause answers an error. --malformed-status: PlaybackStatus
 * is an integer. --replays-after MS: after a Pause, it plays again by itself MS ms later.
 * Each change of status is announced (PropertiesChanged) and printed with the time
 * ("status Paused at NS", nanoseconds since 1970: scripts/bench-players reads it). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

static const char *status = "Playing";
static int can_pause = 1, fail_pause = 0, malformed = 0;
static long slow_pause_ms = 0, replay_after_ms = -1;
static uint64_t replay_at = 0;
static sd_bus *bus;

static uint64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static void set_status(const char *value) {
    if (strcmp(status, value) == 0) return;
    status = value;
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    printf("status %s at %lld\n", status, (long long)t.tv_sec * 1000000000LL + t.tv_nsec);
    fflush(stdout);
    sd_bus_emit_properties_changed(bus, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "PlaybackStatus", NULL);
}

static int method_play(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    set_status("Playing");
    return sd_bus_reply_method_return(m, "");
}

static int method_pause(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    if (fail_pause) return sd_bus_error_set(error, "org.mpris.MediaPlayer2.Error", "this player refuses to pause");
    if (slow_pause_ms > 0) {
        struct timespec t = {slow_pause_ms / 1000, (slow_pause_ms % 1000) * 1000000};
        nanosleep(&t, NULL);
    }
    if (!can_pause) return sd_bus_error_set(error, "org.mpris.MediaPlayer2.Error", "CanPause is false");
    set_status("Paused");
    if (replay_after_ms >= 0) replay_at = now_ms() + (uint64_t)replay_after_ms;
    return sd_bus_reply_method_return(m, "");
}

static int method_stop(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    set_status("Stopped");
    return sd_bus_reply_method_return(m, "");
}

static int get_status(sd_bus *b, const char *path, const char *interface, const char *property, sd_bus_message *reply,
                      void *userdata, sd_bus_error *error) {
    if (malformed) return sd_bus_message_append(reply, "i", 42);
    return sd_bus_message_append(reply, "s", status);
}

static int get_bool(sd_bus *b, const char *path, const char *interface, const char *property, sd_bus_message *reply,
                    void *userdata, sd_bus_error *error) {
    int value = strcmp(property, "CanPause") == 0 ? can_pause : 1;
    return sd_bus_message_append(reply, "b", value);
}

static int get_identity(sd_bus *b, const char *path, const char *interface, const char *property, sd_bus_message *reply,
                        void *userdata, sd_bus_error *error) {
    return sd_bus_message_append(reply, "s", (const char *)userdata);
}

static int get_metadata(sd_bus *b, const char *path, const char *interface, const char *property, sd_bus_message *reply,
                        void *userdata, sd_bus_error *error) {
    return sd_bus_message_append(reply, "a{sv}", 1, "mpris:trackid", "o", "/fake/track/1");
}

static const sd_bus_vtable root_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("Identity", "s", get_identity, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable player_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Play", "", "", method_play, 0),
    SD_BUS_METHOD("Pause", "", "", method_pause, 0),
    SD_BUS_METHOD("Stop", "", "", method_stop, 0),
    SD_BUS_PROPERTY("PlaybackStatus", "s", get_status, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("CanPause", "b", get_bool, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("CanControl", "b", get_bool, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("CanPlay", "b", get_bool, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Metadata", "a{sv}", get_metadata, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END,
};

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: fake-mpris-player NAME [options]\n");
        return 2;
    }
    char name[256], identity[256];
    snprintf(name, sizeof name, "org.mpris.MediaPlayer2.%s", argv[1]);
    snprintf(identity, sizeof identity, "Fake %s", argv[1]);
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--status") == 0 && i + 1 < argc) status = argv[++i];
        else if (strcmp(argv[i], "--cannot-pause") == 0) can_pause = 0;
        else if (strcmp(argv[i], "--slow-pause") == 0 && i + 1 < argc) slow_pause_ms = atol(argv[++i]);
        else if (strcmp(argv[i], "--fail-pause") == 0) fail_pause = 1;
        else if (strcmp(argv[i], "--malformed-status") == 0) malformed = 1;
        else if (strcmp(argv[i], "--replays-after") == 0 && i + 1 < argc) replay_after_ms = atol(argv[++i]);
        else {
            fprintf(stderr, "fake-mpris-player: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    int r = sd_bus_open_user(&bus);
    if (r < 0) {
        fprintf(stderr, "fake-mpris-player: no session bus: %s\n", strerror(-r));
        return 1;
    }
    sd_bus_add_object_vtable(bus, NULL, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2", root_vtable, identity);
    sd_bus_add_object_vtable(bus, NULL, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", player_vtable, NULL);
    r = sd_bus_request_name(bus, name, 0);
    if (r < 0) {
        fprintf(stderr, "fake-mpris-player: cannot own %s: %s\n", name, strerror(-r));
        return 1;
    }
    printf("ready %s status %s\n", name, status);
    fflush(stdout);
    for (;;) {
        r = sd_bus_process(bus, NULL);
        if (r < 0) return 1;
        if (replay_at && now_ms() >= replay_at) {
            replay_at = 0;
            set_status("Playing");  // plays again by itself (PL2, PL5)
            continue;
        }
        if (r > 0) continue;
        uint64_t wait = replay_at ? (replay_at > now_ms() ? (replay_at - now_ms()) * 1000 : 0) : UINT64_MAX;
        sd_bus_wait(bus, wait);
    }
}
