/* cm-date.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *cm_date_format_day  (GDateTime *when) G_GNUC_WARN_UNUSED_RESULT;
char *cm_date_format_time (GDateTime *when) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
