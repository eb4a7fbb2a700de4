/* cm-bus.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fair measurement (issue 25): cards on one bus never run a benchmark's
 * measuring phase at the same time, and bulk jobs (verify, wear) on the
 * bus pause while one measures; a bulk job learns which cards moved data
 * beside it, so its document can say its speed was shared.
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
                                gpointer           user_data,
                                GError           **error);
void     cm_bus_measure_end    (const char        *key);

typedef struct _CmBusShare CmBusShare;

CmBusShare *cm_bus_share_begin           (const char   *key,
                                          const char   *device);
gint64      cm_bus_share_yield           (CmBusShare   *share,
                                          GCancellable *cancellable);
GStrv       cm_bus_share_take_neighbours (CmBusShare   *share) G_GNUC_WARN_UNUSED_RESULT;
typedef void (*CmBusPausedFunc) (const char *measurer,
                                 gpointer    user_data);
void        cm_bus_share_set_paused_func (CmBusShare      *share,
                                          CmBusPausedFunc  func,
                                          gpointer         user_data);
void        cm_bus_share_end             (CmBusShare   *share);

G_END_DECLS
