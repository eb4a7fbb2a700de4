/* cm-test-files.h — folders the core tests make and clean up.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Deletes the files in @folder (not below it), then @folder. */
void cm_test_remove_folder (const char *folder);

G_END_DECLS
