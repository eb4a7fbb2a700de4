/* cm-health-helper.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Asking a card for its health as a user who is not root. The kernel
 * lets only CAP_SYS_RAWIO send CMD56 (MMC_IOC_CMD) and UDisks passes no
 * such command on, so CardMark runs a tiny read-only helper,
 * cardmark-read-health (src/helper/), as root through pkexec; polkit
 * asks for the administrator's password once (auth_admin_keep). The
 * helper prints each reply it read; this side decodes them.
 */

#pragma once

#include <gio/gio.h>

#include "cm-health.h"

G_BEGIN_DECLS

/* The helper's name in libexecdir. */
#define CM_HEALTH_HELPER_NAME "cardmark-read-health"

/* How long pkexec and the helper may take, the password typed included. */
#define CM_HEALTH_HELPER_TIMEOUT_MS (120 * 1000)

/* The most the helper prints: a line per argument asked. */
#define CM_HEALTH_HELPER_OUTPUT_MAX (16 * 1024)

/* Whether a refused CMD56 may be asked again through the helper: the
 * process is not root (root was refused for another reason). */
gboolean cm_health_helper_may_help   (void);

/* One line of the helper's output: the argument as 8 hex digits, a
 * space, the 512-byte reply as 1024 hex digits. */
char    *cm_health_helper_format     (guint32        argument,
                                      const guint8  *reply) G_GNUC_WARN_UNUSED_RESULT;

/* Decodes the helper's output, in the layouts' order as the card was
 * asked; FALSE with @error when a line is not the helper's. Replies in
 * no known layout (zeros, 0xFF) leave @health not known. */
gboolean cm_health_helper_parse      (const char    *output,
                                      CmHealth      *health,
                                      GError       **error);

/* Runs the helper on @device through pkexec and decodes its replies
 * into @health; with @error (and @health not known) when pkexec is not
 * there (a Flatpak), the password was not given, the helper refused the
 * device or it did not answer in time. */
void     cm_health_read_through_helper (const char   *device,
                                        CmHealth     *health,
                                        GCancellable *cancellable,
                                        GError      **error);

/* The card behind @fd, the whole @device of a built-in slot (@fd -1
 * when opening it was not allowed); where the kernel refuses a user who
 * is not root, asked again through the helper. @error says why @health
 * is not known, when it is not. */
void     cm_health_read_as_user        (int           fd,
                                        const char   *device,
                                        CmHealth     *health,
                                        GCancellable *cancellable,
                                        GError      **error);

G_END_DECLS
