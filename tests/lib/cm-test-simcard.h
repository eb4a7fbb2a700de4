/* cm-test-simcard.h — what the app tests that need a simulated card
 * share: the system services started (tests/env/services-up) and a card
 * attached (tests/simcard/simcard-up), taken down however the test ends.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char     *cm_test_services_up  (void) G_GNUC_WARN_UNUSED_RESULT;
gboolean  cm_test_simcard_up   (const char * const *args,
                                GHashTable         *values,
                                GPid               *guard_pid,
                                int                *guard_fd);
void      cm_test_simcard_down (const char         *dir,
                                GPid               *guard_pid,
                                int                 guard_fd);

G_END_DECLS
