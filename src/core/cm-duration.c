/* cm-duration.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A time left, as every job's progress says it: "25 seconds",
 * "4 min 05 s", "3 h 20 min".
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-duration.h"

char *
cm_duration_format (double seconds)
{
  /* Bounded before the conversion, which is undefined past an int and
   * for NaN (which fails "> 0"). */
  int s = (int) ((seconds > 0 ? MIN (seconds, 1e8) : 0) + 0.5);

  if (s < 60)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d second", "%d seconds", s), s);
  if (s < 3600)
    return g_strdup_printf (_("%d min %02d s"), s / 60, s % 60);
  return g_strdup_printf (_("%d h %02d min"), s / 3600, s / 60 % 60);
}
