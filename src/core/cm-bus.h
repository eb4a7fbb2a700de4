/* cm-bus.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fair measurement (issue 25): cards on one bus never run a benchmark's
 * measuring phase at the same time.
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef void (*CmBusWaitingFunc) (const char *holder,
                                  gpointer    user_data);

char    *cm_bus_key_for_device (const char        *device) G_GNUC_WARN_UNUSED_RESULT;
gboolean cm_bus_measure_begin  (const char        *key,
                                const char        *device,
                                GCancellable      *cancellable,
                                CmBusWaitingFunc   waiting,
                                gpointer           user_data);
void     cm_bus_measure_end    (const char        *key);

G_END_DECLS
