/* P4's test notification server: owns org.freedesktop.Notifications on the session bus
 * (DBUS_SESSION_BUS_ADDRESS) and answers every Notify as the user would, 300 ms later:
 *   notification_server BEHAVIOUR...   (one per Notify, in order; the last one for the rest)
 * BEHAVIOUR: allow|deny|close|none; allow/deny: ActionInvoked(id, "allow"|"deny"); close: NotificationClosed(id, 2, dismissed);
 * none: nothing (nobody there). Each call it gets is printed on stdout, a line each:
 *   Notify app=A summary=S body=B actions=K1,L1,K2,L2 timeout=T
 *   CloseNotification id=N */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

static char **behaviours;
static int behaviour_count, notified;
static const char *behaviour = "none";
static uint32_t next_id = 7, pending_id;
static double pending_at;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int notify(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata;
    (void)error;
    const char *app, *icon, *summary, *body, *action;
    uint32_t replaces;
    int32_t timeout;
    char actions[512] = "";
    int r = sd_bus_message_read(m, "susss", &app, &replaces, &icon, &summary, &body);
    if (r < 0) return r;
    if ((r = sd_bus_message_enter_container(m, 'a', "s")) < 0) return r;
    while ((r = sd_bus_message_read(m, "s", &action)) > 0) {
        if (actions[0]) strncat(actions, ",", sizeof actions - strlen(actions) - 1);
        strncat(actions, action, sizeof actions - strlen(actions) - 1);
    }
    if (r < 0 || (r = sd_bus_message_exit_container(m)) < 0) return r;
    if ((r = sd_bus_message_skip(m, "a{sv}")) < 0) return r;
    if ((r = sd_bus_message_read(m, "i", &timeout)) < 0) return r;
    printf("Notify app=%s summary=%s body=%s actions=%s timeout=%d\n", app, summary, body, actions, timeout);
    fflush(stdout);
    behaviour = behaviours[notified < behaviour_count ? notified : behaviour_count - 1];
    notified++;
    pending_id = next_id++;
    pending_at = now() + 0.3;
    return sd_bus_reply_method_return(m, "u", pending_id);
}

static int close_notification(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata;
    (void)error;
    uint32_t id;
    int r = sd_bus_message_read(m, "u", &id);
    if (r < 0) return r;
    printf("CloseNotification id=%u\n", id);
    fflush(stdout);
    if (id == pending_id) pending_id = 0;
    return sd_bus_reply_method_return(m, "");
}

static int capabilities(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata;
    (void)error;
    return sd_bus_reply_method_return(m, "as", 2, "actions", "body");
}

static const sd_bus_vtable vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Notify", "susssasa{sv}i", "u", notify, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("CloseNotification", "u", "", close_notification, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("GetCapabilities", "", "as", capabilities, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL("ActionInvoked", "us", 0),
    SD_BUS_SIGNAL("NotificationClosed", "uu", 0),
    SD_BUS_VTABLE_END};

int main(int argc, char **argv) {
    static char *none[] = {"none"};
    behaviours = argc > 1 ? argv + 1 : none;
    behaviour_count = argc > 1 ? argc - 1 : 1;
    sd_bus *bus = NULL;
    sd_bus_slot *slot = NULL;
    int r = sd_bus_open_user(&bus);
    if (r < 0) {
        fprintf(stderr, "FAIL: no session bus: %s\n", strerror(-r));
        return 1;
    }
    r = sd_bus_add_object_vtable(bus, &slot, "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                                 vtable, NULL);
    if (r >= 0) r = sd_bus_request_name(bus, "org.freedesktop.Notifications", 0);
    if (r < 0) {
        fprintf(stderr, "FAIL: cannot serve org.freedesktop.Notifications: %s\n", strerror(-r));
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    for (;;) {
        while ((r = sd_bus_process(bus, NULL)) > 0) {}
        if (r < 0) break;
        if (pending_id && now() >= pending_at && strcmp(behaviour, "none") != 0) {
            if (strcmp(behaviour, "close") == 0)
                r = sd_bus_emit_signal(bus, "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                                       "NotificationClosed", "uu", pending_id, 2u);
            else
                r = sd_bus_emit_signal(bus, "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
                                       "ActionInvoked", "us", pending_id, behaviour);
            pending_id = 0;
        }
        sd_bus_wait(bus, 50000);
    }
    sd_bus_slot_unref(slot);
    sd_bus_flush_close_unref(bus);
    return 0;
}
