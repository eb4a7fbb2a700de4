/* cm-duration.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *cm_duration_format (double seconds) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
