/* cm-health-transport.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Asking a card for its health: CMD56 through the MMC_IOC_CMD ioctl of
 * a card in a built-in slot, or, for the tests, replies saved in a
 * folder (CARDMARK_TEST_GEN_CMD_DIR, in builds with test hooks).
 */

#pragma once

#include <gio/gio.h>

#include "cm-health.h"

G_BEGIN_DECLS

/* Each command waits this long at most: some cards stall for about a
 * second before they answer. */
#define CM_HEALTH_COMMAND_TIMEOUT_MS 3000

/* One CMD56 of @argument: a read of one 512-byte block into @reply, or
 * (@write) a block of zeros sent. Read-only for the card's data. */
gboolean cm_health_ask_card    (int          fd,
                                guint32      argument,
                                gboolean     write,
                                guint8      *reply,
                                GError     **error);
/* One CMD56, as cm_health_ask_card () sends it, by whatever way the
 * caller reaches the card. */
typedef gboolean (*CmHealthAskFunc) (gpointer     data,
                                     guint32      argument,
                                     gboolean     write,
                                     guint8      *reply,
                                     GError     **error);
/* Asks through @ask in every layout in turn until one answers in it;
 * stops with G_IO_ERROR_PERMISSION_DENIED at the first refusal. */
void     cm_health_read_with   (CmHealthAskFunc  ask,
                                gpointer         data,
                                CmHealth        *health,
                                GError         **error);
/* The card behind @fd (the whole device of a built-in slot), asked in
 * every layout in turn until one answers in it. */
void     cm_health_read_card   (int          fd,
                                CmHealth    *health,
                                GError     **error);
/* Replies saved in @folder: ARG.N.bin for the Nth ask of ARG in this
 * process (ARG as 8 hex digits, N from 1), else ARG.bin. */
void     cm_health_read_replay (const char  *folder,
                                CmHealth    *health);
/* The replay folder of the tests, or NULL. */
const char *cm_health_replay_folder (void);

G_END_DECLS
