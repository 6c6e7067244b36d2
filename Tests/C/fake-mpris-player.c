/* A scriptable MPRIS player for the players bridge's edge cases (SPEC §16, PL3, PL6), on sd-bus.
 * It plays nothing; it owns org.mpris.MediaPlayer2.NAME, reports a PlaybackStatus and answers
 * Play, Pause and Stop as told:
 *
 *   fake-mpris-player NAME [--status Playing|Paused|Stopped] [--cannot-pause] [--slow-pause MS]
 *                          [--fail-pause] [--malformed-status] [--replays-after MS]
 *                          [--two-connections] [--seeked-on-pause-play]
 *                          [--can-pause-after-play] [--late-export MS] [--silent-seek MS]
 *
 * --cannot-pause: CanPause is false (the bridge must Stop it instead). --slow-pause MS: Pause is
 * answered after MS ms. --fail-pause: Pause answers an error. --malformed-status: PlaybackStatus
 * is an integer. --replays-after MS: after a Pause, it plays again by itself MS ms later.
 * --two-connections: as VLC, a second bus connection owns NAME.instancePID and serves the same
 * player (one program, one player: PL1).
 * --seeked-on-pause-play: as Chromium and Firefox, sends Seeked with its current position on
 * every pause and play. SIGUSR1: the user seeks 60 s ahead (a Seeked that is a seek). Its
 * Position moves on while it plays. SIGUSR2: the user seeks MS ms ahead (--silent-seek, 30000 by
 * default) and nothing is announced, as Celluloid (and Rhythmbox while paused) do (PL5 revision 6).
 * --can-pause-after-play: as VLC before its first track, CanPause is false until its first Play,
 * then true (announced). --late-export MS: as Firefox, it owns its name MS ms before it exports
 * its player object (until then the bus answers "no such object"; PL6 revision 5).
 * Each change of status is announced (PropertiesChanged) and printed with the time
 * ("status Paused at NS", nanoseconds since 1970: scripts/bench-players reads it). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

static const char *status = "Playing";
static int can_pause = 1, fail_pause = 0, malformed = 0, can_pause_after_play = 0;
static long late_export_ms = 0;
static long slow_pause_ms = 0, replay_after_ms = -1;
static uint64_t replay_at = 0;
static sd_bus *bus;
static sd_bus *second; /* --two-connections */
static int seeked_on_pause_play = 0;
static volatile sig_atomic_t seek_requested = 0, silent_seek_requested = 0;
static long silent_seek_ms = 30000;
/* The position (µs) at `position_at` (ms, monotonic); it moves on while Playing. */
static int64_t position_us = 5000000;
static uint64_t position_at = 0;

static uint64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static int64_t position_now(void) {
    if (strcmp(status, "Playing") != 0) return position_us;
    uint64_t now = now_ms();
    return position_us + (int64_t)(now - position_at) * 1000;
}

static void emit_seeked(void) {
    sd_bus_emit_signal(bus, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "Seeked", "x", position_now());
}

static void set_status(const char *value) {
    if (strcmp(status, value) == 0) return;
    position_us = position_now();
    position_at = now_ms();
    status = value;
    if (seeked_on_pause_play) emit_seeked(); /* as browsers: where it is, before the status */
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    printf("status %s at %lld\n", status, (long long)t.tv_sec * 1000000000LL + t.tv_nsec);
    fflush(stdout);
    sd_bus_emit_properties_changed(bus, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "PlaybackStatus", NULL);
    if (second)
        sd_bus_emit_properties_changed(second, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "PlaybackStatus",
                                       NULL);
}

static int method_play(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    if (can_pause_after_play && !can_pause) {
        can_pause = 1;
        sd_bus_emit_properties_changed(bus, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "CanPause", NULL);
    }
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

static int get_position(sd_bus *b, const char *path, const char *interface, const char *property, sd_bus_message *reply,
                        void *userdata, sd_bus_error *error) {
    return sd_bus_message_append(reply, "x", position_now());
}

static void on_usr1(int signal) {
    (void)signal;
    seek_requested = 1;
}

static void on_usr2(int signal) {
    (void)signal;
    silent_seek_requested = 1;
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
    SD_BUS_PROPERTY("CanPause", "b", get_bool, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("CanControl", "b", get_bool, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("CanPlay", "b", get_bool, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Metadata", "a{sv}", get_metadata, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Position", "x", get_position, 0, 0),
    SD_BUS_VTABLE_END,
};

/* The player object on a connection. */
static void export_player(sd_bus *connection, char *identity) {
    sd_bus_add_object_vtable(connection, NULL, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2", root_vtable, identity);
    sd_bus_add_object_vtable(connection, NULL, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", player_vtable,
                             NULL);
}

/* A connection serving the player under `name` (its object exported now, or later: --late-export); 0, or -errno. */
static int serve(sd_bus **connection, const char *name, char *identity) {
    int r = sd_bus_open_user(connection);
    if (r < 0) return r;
    if (late_export_ms <= 0) export_player(*connection, identity);
    return sd_bus_request_name(*connection, name, 0);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: fake-mpris-player NAME [options]\n");
        return 2;
    }
    char name[256], identity[256];
    int two_connections = 0;
    snprintf(name, sizeof name, "org.mpris.MediaPlayer2.%s", argv[1]);
    snprintf(identity, sizeof identity, "Fake %s", argv[1]);
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--status") == 0 && i + 1 < argc) status = argv[++i];
        else if (strcmp(argv[i], "--cannot-pause") == 0) can_pause = 0;
        else if (strcmp(argv[i], "--slow-pause") == 0 && i + 1 < argc) slow_pause_ms = atol(argv[++i]);
        else if (strcmp(argv[i], "--fail-pause") == 0) fail_pause = 1;
        else if (strcmp(argv[i], "--malformed-status") == 0) malformed = 1;
        else if (strcmp(argv[i], "--replays-after") == 0 && i + 1 < argc) replay_after_ms = atol(argv[++i]);
        else if (strcmp(argv[i], "--two-connections") == 0) two_connections = 1;
        else if (strcmp(argv[i], "--seeked-on-pause-play") == 0) seeked_on_pause_play = 1;
        else if (strcmp(argv[i], "--can-pause-after-play") == 0) can_pause_after_play = 1, can_pause = 0;
        else if (strcmp(argv[i], "--late-export") == 0 && i + 1 < argc) late_export_ms = atol(argv[++i]);
        else if (strcmp(argv[i], "--silent-seek") == 0 && i + 1 < argc) silent_seek_ms = atol(argv[++i]);
        else {
            fprintf(stderr, "fake-mpris-player: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    position_at = now_ms();
    struct sigaction usr1 = {0};
    usr1.sa_handler = on_usr1; /* no SA_RESTART: the wait returns */
    sigaction(SIGUSR1, &usr1, NULL);
    struct sigaction usr2 = {0};
    usr2.sa_handler = on_usr2;
    sigaction(SIGUSR2, &usr2, NULL);
    sigset_t usr1_only; /* a test's thread may have started it with signals blocked */
    sigemptyset(&usr1_only);
    sigaddset(&usr1_only, SIGUSR1);
    sigaddset(&usr1_only, SIGUSR2);
    sigprocmask(SIG_UNBLOCK, &usr1_only, NULL);
    int r = serve(&bus, name, identity);
    if (r < 0) {
        fprintf(stderr, "fake-mpris-player: cannot own %s on the session bus: %s\n", name, strerror(-r));
        return 1;
    }
    if (two_connections) {
        char instance[300];
        snprintf(instance, sizeof instance, "%s.instance%d", name, (int)getpid());
        r = serve(&second, instance, identity);
        if (r < 0) {
            fprintf(stderr, "fake-mpris-player: cannot own %s on the session bus: %s\n", instance, strerror(-r));
            return 1;
        }
    }
    printf("ready %s status %s\n", name, status);
    fflush(stdout);
    uint64_t export_at = late_export_ms > 0 ? now_ms() + (uint64_t)late_export_ms : 0;
    for (;;) {
        if (export_at && now_ms() >= export_at) {
            export_at = 0;
            export_player(bus, identity);
            printf("exported\n");
            fflush(stdout);
            sd_bus_emit_properties_changed(bus, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "PlaybackStatus",
                                           NULL);
            continue;
        }
        r = sd_bus_process(bus, NULL);
        int r2 = second ? sd_bus_process(second, NULL) : 0;
        if ((r < 0 && r != -EINTR) || r2 < 0) return 1;
        if (seek_requested) {
            seek_requested = 0;
            position_us = position_now() + 60000000;
            position_at = now_ms();
            printf("seeked to %lld\n", (long long)position_us);
            fflush(stdout);
            emit_seeked();
            continue;
        }
        if (silent_seek_requested) {
            silent_seek_requested = 0;
            position_us = position_now() + (int64_t)silent_seek_ms * 1000;
            position_at = now_ms();
            printf("seeked silently to %lld\n", (long long)position_us);
            fflush(stdout);
            continue;
        }
        if (replay_at && now_ms() >= replay_at) {
            replay_at = 0;
            set_status("Playing");  // plays again by itself (PL2, PL5)
            continue;
        }
        if (r > 0 || r2 > 0) continue;
        uint64_t wait = replay_at ? (replay_at > now_ms() ? (replay_at - now_ms()) * 1000 : 0) : UINT64_MAX;
        if (export_at) wait = export_at > now_ms() ? (export_at - now_ms()) * 1000 : 0;
        if (!second) {
            sd_bus_wait(bus, wait);
            continue;
        }
        struct pollfd fds[2] = {{sd_bus_get_fd(bus), (short)sd_bus_get_events(bus), 0},
                                {sd_bus_get_fd(second), (short)sd_bus_get_events(second), 0}};
        poll(fds, 2, wait == UINT64_MAX ? -1 : (int)(wait / 1000));
    }
}
