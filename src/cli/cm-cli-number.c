/* cm-cli-number.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every number an option takes, in one table: its bounds and the one
 * sentence that says them. A number is plain decimal digits (a point
 * and more digits where a fraction makes sense): no sign, no space, no
 * 0x, no exponent, no "inf". 0 is refused wherever leaving the option
 * out is what means "no limit", so no typed number means "for ever".
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <string.h>

#include "cm-cli-number.h"

typedef struct
{
  const char *name;      /* the long option, without its dashes */
  gboolean    whole;     /* a whole number, or one with a fraction */
  double      above;     /* the number must be greater than this */
  double      most;      /* and at most this */
  const char *sentence;  /* what it takes, said when it is not that */
} Number;

static const Number numbers[] = {
  { "hours", FALSE, 0, 876000, N_("--hours takes a number of hours above 0, at most 876000 (a hundred years).") },
  { "tbw", FALSE, 0, 999999, N_("--tbw takes the maker's TB written, a number above 0, at most 999999.") },
  { "video-hours", FALSE, 0, 9999999, N_("--video-hours takes a number of hours above 0, at most 9999999.") },
  { "video-mbps", FALSE, 0, 99999, N_("--video-mbps takes a bitrate in Mbit/s above 0, at most 99999.") },
  { "width", TRUE, 99, 20000, N_("--width takes a whole number of pixels, from 100 to 20000.") },
  { "height", TRUE, 99, 20000, N_("--height takes a whole number of pixels, from 100 to 20000.") },
  { "scale", FALSE, 0.49, 8, N_("--scale takes a number of pixels per point, from 0.5 to 8.") },
};

/* What the command line gave, by the table's rows; one command runs per
 * process. */
static double values[G_N_ELEMENTS (numbers)];
static gboolean given[G_N_ELEMENTS (numbers)];

static int
find (const char *name)
{
  while (*name == '-')
    name++;
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    if (strcmp (numbers[i].name, name) == 0)
      return (int) i;
  return -1;
}

/* Plain digits, with one point between digits where @whole is not. */
static gboolean
is_plain (const char *text,
          gboolean    whole)
{
  gboolean point = FALSE;
  gsize digits = 0, length = strlen (text);

  if (length == 0 || length > 24 || !g_ascii_isdigit (text[0]) || !g_ascii_isdigit (text[length - 1]))
    return FALSE;
  for (const char *c = text; *c != '\0'; c++)
    {
      if (g_ascii_isdigit (*c))
        digits++;
      else if (*c == '.' && !whole && !point)
        point = TRUE;
      else
        return FALSE;
    }
  return digits > 0;
}

/**
 * cm_cli_number_parse:
 * @option_name: the option, "--rounds" or "rounds"
 * @text: what was typed after it
 * @value: (out): the number, when it is one the option takes
 *
 * Returns: whether @text is a number @option_name takes; else @error
 *   holds the option's sentence
 */
gboolean
cm_cli_number_parse (const char  *option_name,
                     const char  *text,
                     double      *value,
                     GError     **error)
{
  int row;
  double v;

  g_return_val_if_fail (option_name != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  row = find (option_name);
  if (row < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION, _("Unknown option %s"), option_name);
      return FALSE;
    }
  v = is_plain (text, numbers[row].whole) ? g_ascii_strtod (text, NULL) : -1;
  if (!(v > numbers[row].above) || !(v <= numbers[row].most))
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _(numbers[row].sentence));
      return FALSE;
    }
  *value = v;
  return TRUE;
}

/* For G_OPTION_ARG_CALLBACK: keeps the number for cm_cli_number_get(). */
gboolean
cm_cli_number_option_cb (const char  *option_name,
                         const char  *text,
                         gpointer     data,
                         GError     **error)
{
  double v;
  int row = find (option_name);

  if (!cm_cli_number_parse (option_name, text, &v, error))
    return FALSE;
  values[row] = v;
  given[row] = TRUE;
  return TRUE;
}

/* The number given for the option @name, if it was. */
gboolean
cm_cli_number_get (const char *name,
                   double     *value)
{
  int row = find (name);

  g_return_val_if_fail (row >= 0, FALSE);

  if (given[row])
    *value = values[row];
  return given[row];
}

/* The options that take a number, for a test that goes through them:
 * the @i-th one's name, or NULL past the last. */
const char *
cm_cli_number_name (guint i)
{
  return i < G_N_ELEMENTS (numbers) ? numbers[i].name : NULL;
}
