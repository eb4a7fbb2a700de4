/* cm-size.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sizes on the command line (bench --sustained-limit, probe-capacity
 * --cache-up-to): one syntax for every option, so that what one option
 * takes, every option takes.
 *
 * A size is a number, with an optional fraction after a point, then
 * optional spaces, then an optional unit, case aside: none or B for
 * bytes; K, M, G, T or KiB, MiB, GiB, TiB for powers of 1024; KB, MB, GB,
 * TB for powers of 1000. So "512M", "5 G", "5GB" and "1.5GiB" are sizes;
 * "-1", "1e9", "0x10", "inf" and "4 parsecs" are not.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "cm-size.h"

#define KiB G_GUINT64_CONSTANT (1024)

/* An exbibyte: more than any card, and far from where a double stops
 * holding every whole number of bytes that matters. */
#define MAX_BYTES (KiB * KiB * KiB * KiB * KiB * KiB)

G_DEFINE_QUARK (cm-size-error-quark, cm_size_error)

static const struct
{
  const char *suffix;
  guint64     unit;
} units[] = {
  { "", 1 }, { "B", 1 },
  { "K", KiB }, { "KiB", KiB }, { "KB", 1000 },
  { "M", KiB * KiB }, { "MiB", KiB * KiB }, { "MB", 1000 * 1000 },
  { "G", KiB * KiB * KiB }, { "GiB", KiB * KiB * KiB }, { "GB", 1000 * 1000 * 1000 },
  { "T", KiB * KiB * KiB * KiB }, { "TiB", KiB * KiB * KiB * KiB },
  { "TB", G_GUINT64_CONSTANT (1000000000000) },
};

/**
 * cm_size_describe_syntax:
 *
 * Returns: the sentence for --help that says how a size is written.
 */
const char *
cm_size_describe_syntax (void)
{
  return _("A SIZE is a number with an optional unit: K, M, G or T (also KiB, MiB, GiB, TiB) count in powers of 1024, "
           "KB, MB, GB or TB in powers of 1000, and no unit means bytes, such as 512M, 1.5GiB or “5 GB”.");
}

static gboolean
invalid (GError     **error,
         const char  *option,
         const char  *text)
{
  g_autofree char *shown = g_utf8_make_valid (text, -1);

  /* Translators: "--cache-up-to needs a size, such as 256M, 1.5GiB or 500MB, not “lots”." */
  g_set_error (error, CM_SIZE_ERROR, CM_SIZE_ERROR_INVALID,
               _("%s needs a size, such as 256M, 1.5GiB or 500MB, not “%s”."),
               option, shown);
  return FALSE;
}

/* The number's end: digits, then a point and digits. */
static const char *
skip_number (const char *p)
{
  const char *start = p;

  while (g_ascii_isdigit (*p))
    p++;
  if (*p == '.' && g_ascii_isdigit (p[1]))
    for (p++; g_ascii_isdigit (*p); p++)
      ;
  return p > start ? p : NULL;
}

/**
 * cm_size_parse:
 * @text: what the user typed
 * @option: the option it was given to, such as "--cache-up-to", for the
 *   messages; %NULL for "The size"
 * @min_bytes: the smallest size the option takes, at least 1
 * @bytes: (out): the size in bytes
 * @error: why @text is not a size, naming @option
 *
 * Reads a size as the file's comment describes; a size that is not a
 * whole number of bytes is rounded down.
 */
gboolean
cm_size_parse (const char  *text,
               const char  *option,
               guint64      min_bytes,
               guint64     *bytes,
               GError     **error)
{
  g_autofree char *stripped = NULL;
  g_autofree char *number = NULL;
  const char *end;
  double value, total = -1;

  g_return_val_if_fail (bytes != NULL, FALSE);

  if (option == NULL)
    option = _("The size");
  min_bytes = MAX (min_bytes, 1);

  if (text == NULL)
    return invalid (error, option, "");

  stripped = g_strstrip (g_strdup (text));
  if ((end = skip_number (stripped)) == NULL)
    return invalid (error, option, text);

  number = g_strndup (stripped, end - stripped);
  value = g_ascii_strtod (number, NULL);
  while (*end == ' ')
    end++;

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_ascii_strcasecmp (end, units[i].suffix) == 0)
      {
        total = floor (value * units[i].unit);
        break;
      }
  if (total < 0 || !isfinite (total))
    return invalid (error, option, text);

  if (total > (double) MAX_BYTES)
    {
      g_autofree char *limit = g_format_size_full (MAX_BYTES, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, CM_SIZE_ERROR, CM_SIZE_ERROR_TOO_LARGE,
                   _("%s takes at most %s."), option, limit);
      return FALSE;
    }
  if (total < (double) min_bytes)
    {
      g_autofree char *limit = g_format_size_full (min_bytes, G_FORMAT_SIZE_IEC_UNITS);

      /* Translators: "--sustained-limit must be at least 64.0 MiB." */
      g_set_error (error, CM_SIZE_ERROR, CM_SIZE_ERROR_TOO_SMALL,
                   _("%s must be at least %s."), option, limit);
      return FALSE;
    }

  *bytes = (guint64) total;
  return TRUE;
}
