/* cm-date.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A date as every face says it: in the reader's language and its own
 * long form, "7 December 2026", "7 de diciembre de 2026", "2026年12月7日".
 * Never "%x" ("12/07/26": 12 July or 7 December?), and never the month
 * of the C library's time locale ("%b"), which is English where the
 * reader chose a language (LANGUAGE) but not a locale: the month's
 * name comes from the translations, as the words around it do.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-date.h"

static const char *months[] = {
  NC_("month", "January"), NC_("month", "February"), NC_("month", "March"),
  NC_("month", "April"), NC_("month", "May"), NC_("month", "June"),
  NC_("month", "July"), NC_("month", "August"), NC_("month", "September"),
  NC_("month", "October"), NC_("month", "November"), NC_("month", "December"),
};

/* @when's day in local time: "7 December 2026". */
char *
cm_date_format_day (GDateTime *when)
{
  g_autoptr(GDateTime) local = NULL;
  const char *month;

  if (when == NULL)
    return NULL;
  local = g_date_time_to_local (when);
  month = g_dpgettext2 (GETTEXT_PACKAGE, "month", months[g_date_time_get_month (local) - 1]);
  /* Translators: a date in your language's long form: %1$d the day,
   * %2$s the month's name (translated with the context "month"), %3$d
   * the year, "7 December 2026" */
  return g_strdup_printf (_("%1$d %2$s %3$d"),
                          g_date_time_get_day_of_month (local), month, g_date_time_get_year (local));
}

/* @when in local time, its day and its time: "7 December 2026, 09:40". */
char *
cm_date_format_time (GDateTime *when)
{
  g_autoptr(GDateTime) local = NULL;
  g_autofree char *day = NULL;
  g_autofree char *time = NULL;

  if (when == NULL)
    return NULL;
  local = g_date_time_to_local (when);
  day = cm_date_format_day (local);
  time = g_date_time_format (local, "%H:%M");
  /* Translators: a date (%1$s, "7 December 2026") and a time of day
   * (%2$s, "09:40") */
  return g_strdup_printf (_("%1$s, %2$s"), day, time);
}
