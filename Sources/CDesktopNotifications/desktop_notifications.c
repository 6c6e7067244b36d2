/* P4: see desktop_notifications.h. sd-bus's types come from its header; its functions from
 * libsystemd.so.0, loaded at the first question. */
#include "desktop_notifications.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

static struct {
    int (*open_user)(sd_bus **);
    int (*set_method_call_timeout)(sd_bus *, uint64_t);
    int (*match_signal)(sd_bus *, sd_bus_slot **, const char *, const char *, const char *, const char *,
                        sd_bus_message_handler_t, void *);
    int (*call_method)(sd_bus *, const char *, const char *, const char *, const char *, sd_bus_error *,
                       sd_bus_message **, const char *, ...);
    int (*message_read)(sd_bus_message *, const char *, ...);
    int (*message_is_signal)(sd_bus_message *, const char *, const char *);
    sd_bus_message *(*message_unref)(sd_bus_message *);
    int (*process)(sd_bus *, sd_bus_message **);
    int (*wait)(sd_bus *, uint64_t);
    sd_bus_slot *(*slot_unref)(sd_bus_slot *);
    sd_bus *(*flush_close_unref)(sd_bus *);
    void (*error_free)(sd_bus_error *);
} bus_api;
static const char *load_failure;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        load_failure = "libsystemd.so.0 is not installed";
        return;
    }
#define FIND(field, name)                                                                                              \
    if (!(*(void **)&bus_api.field = dlsym(library, name))) {                                                          \
        load_failure = "libsystemd.so.0 lacks " name;                                                                  \
        return;                                                                                                        \
    }
    FIND(open_user, "sd_bus_open_user")
    FIND(set_method_call_timeout, "sd_bus_set_method_call_timeout")
    FIND(match_signal, "sd_bus_match_signal")
    FIND(call_method, "sd_bus_call_method")
    FIND(message_read, "sd_bus_message_read")
    FIND(message_is_signal, "sd_bus_message_is_signal")
    FIND(message_unref, "sd_bus_message_unref")
    FIND(process, "sd_bus_process")
    FIND(wait, "sd_bus_wait")
    FIND(slot_unref, "sd_bus_slot_unref")
    FIND(flush_close_unref, "sd_bus_flush_close_unref")
    FIND(error_free, "sd_bus_error_free")
#undef FIND
}

#define ANSWERS 16
struct asn_bus {
    sd_bus *bus;
    sd_bus_slot *slots[2];
    struct {
        uint32_t id;
        int answer;
    } answers[ANSWERS];
    int count;
};

static int on_signal(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    (void)error;
    asn_bus *self = userdata;
    uint32_t id = 0, reason = 0;
    const char *action = NULL;
    int answer;
    if (bus_api.message_is_signal(message, "org.freedesktop.Notifications", "ActionInvoked") > 0) {
        if (bus_api.message_read(message, "us", &id, &action) < 0) return 0;
        answer = strcmp(action, "allow") == 0 ? ASN_ALLOW : strcmp(action, "deny") == 0 ? ASN_DENY : ASN_CLOSED;
    } else {
        if (bus_api.message_read(message, "uu", &id, &reason) < 0) return 0;
        answer = ASN_CLOSED;
    }
    if (self->count < ANSWERS) {
        self->answers[self->count].id = id;
        self->answers[self->count].answer = answer;
        self->count++;
    }
    return 0;
}

int asn_open(asn_bus **out, char *error, size_t size) {
    pthread_once(&loaded, load);
    if (load_failure) {
        snprintf(error, size, "%s", load_failure);
        return -1;
    }
    asn_bus *self = calloc(1, sizeof *self);
    if (!self) {
        snprintf(error, size, "out of memory");
        return -1;
    }
    int r = bus_api.open_user(&self->bus);
    if (r < 0) {
        snprintf(error, size, "no session bus: %s", strerror(-r));
        free(self);
        return -1;
    }
    bus_api.set_method_call_timeout(self->bus, 2000000);
    const char *members[2] = {"ActionInvoked", "NotificationClosed"};
    for (int i = 0; i < 2; i++) {
        r = bus_api.match_signal(self->bus, &self->slots[i], NULL, "/org/freedesktop/Notifications",
                                 "org.freedesktop.Notifications", members[i], on_signal, self);
        if (r < 0) {
            snprintf(error, size, "cannot listen to the notification server: %s", strerror(-r));
            asn_free(self);
            return -1;
        }
    }
    *out = self;
    return 0;
}

int asn_notify(asn_bus *self, const char *app_name, const char *summary, const char *body, uint32_t *id, char *error,
               size_t size) {
    sd_bus_error failure = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = bus_api.call_method(self->bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                "org.freedesktop.Notifications", "Notify", &failure, &reply, "susssasa{sv}i", app_name,
                                0u, "audio-input-microphone", summary, body, 4, "allow", "Allow", "deny",
                                "Don't Allow", 1, "urgency", "y", (uint8_t)2, 0);
    if (r >= 0) {
        r = bus_api.message_read(reply, "u", id);
        bus_api.message_unref(reply);
    }
    if (r < 0) {
        if (failure.name && strcmp(failure.name, "org.freedesktop.DBus.Error.ServiceUnknown") == 0)
            snprintf(error, size, "the session bus has no notification server");
        else
            snprintf(error, size, "the notification failed: %s", failure.message ? failure.message : strerror(-r));
    }
    bus_api.error_free(&failure);
    return r < 0 ? -1 : 0;
}

void asn_close_notification(asn_bus *self, uint32_t id) {
    bus_api.call_method(self->bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                        "org.freedesktop.Notifications", "CloseNotification", NULL, NULL, "u", id);
}

int asn_next_answer(asn_bus *self, uint64_t timeout_us, uint32_t *id, int *answer) {
    int r;
    while ((r = bus_api.process(self->bus, NULL)) > 0) {}
    if (r < 0) return -1;
    if (self->count == 0) {
        bus_api.wait(self->bus, timeout_us);
        while ((r = bus_api.process(self->bus, NULL)) > 0) {}
        if (r < 0) return -1;
    }
    if (self->count == 0) return 0;
    *id = self->answers[0].id;
    *answer = self->answers[0].answer;
    memmove(&self->answers[0], &self->answers[1], (size_t)(self->count - 1) * sizeof self->answers[0]);
    self->count--;
    return 1;
}

void asn_free(asn_bus *self) {
    if (!self) return;
    for (int i = 0; i < 2; i++)
        if (self->slots[i]) bus_api.slot_unref(self->slots[i]);
    if (self->bus) bus_api.flush_close_unref(self->bus);
    free(self);
}
