/* P4: the daemon's question to the desktop's notification server (org.freedesktop.Notifications
 * on the user's session bus). libsystemd's sd-bus is loaded with dlopen when the first question
 * is asked, never linked: the daemon runs where there is no libsystemd (a device's image) and
 * links no sd-bus (issue 41); without it every question is unanswered and the fallback answers. */
#ifndef AUDIOSESSION_DESKTOP_NOTIFICATIONS_H
#define AUDIOSESSION_DESKTOP_NOTIFICATIONS_H

#include <stddef.h>
#include <stdint.h>

typedef struct asn_bus asn_bus;

/* What the user did with a notification. */
enum { ASN_ALLOW = 1, ASN_DENY = 2, ASN_CLOSED = 3 };

/* Opens the user's session bus (DBUS_SESSION_BUS_ADDRESS, else the user's bus) and listens for
 * the notification server's ActionInvoked and NotificationClosed. 0, or -1 with why in `error`. */
int asn_open(asn_bus **bus, char *error, size_t size);

/* Notify with Allow ("allow") and Don't Allow ("deny"), critical, never expiring: 0 and the id,
 * or -1 with why in `error` ("no notification server" when the bus has none). */
int asn_notify(asn_bus *bus, const char *app_name, const char *summary, const char *body, uint32_t *id, char *error,
               size_t size);

/* CloseNotification. */
void asn_close_notification(asn_bus *bus, uint32_t id);

/* Reads what the bus brought, waiting up to `timeout_us` when it brought nothing; 1 with the id
 * and ASN_ALLOW, ASN_DENY or ASN_CLOSED for an answer seen, 0 for none yet, -1 for a broken bus. */
int asn_next_answer(asn_bus *bus, uint64_t timeout_us, uint32_t *id, int *answer);

void asn_free(asn_bus *bus);

#endif
