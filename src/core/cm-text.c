/* cm-text.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one cleaner for text that comes from outside (a lock's or a bus
 * gate's text another program wrote, a file name, a card's register, a
 * string in a JSON document) before it reaches a terminal line or a
 * label: another user can write those, and an escape sequence or a line
 * break in them could rewrite root's screen or fake a line of output.
 */

#include "config.h"

#include <string.h>

#include "cm-text.h"

/* Bidirectional overrides and isolates: they reorder what follows on
 * the line, so a name could make a table lie. */
static gboolean
is_bidi_control (gunichar c)
{
  return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/**
 * cm_text_dup_clean:
 * @text: (nullable): text from outside
 * @max_chars: how many characters to keep at most (0: no bound); a text
 *   cut short ends in "…"
 *
 * Returns: @text as one safe line: valid UTF-8, with every control
 *   character (C0 and C1, line breaks and escape included) and every
 *   bidirectional override replaced by U+FFFD, at most @max_chars long;
 *   "" for %NULL
 */
char *
cm_text_dup_clean (const char *text,
                   gsize       max_chars)
{
  g_autofree char *valid = NULL;
  GString *safe;
  gsize kept = 0;

  if (text == NULL)
    return g_strdup ("");

  /* Only what can be kept is looked at, so a huge text costs little. */
  if (max_chars > 0)
    {
      gsize bound = MIN (strlen (text), (max_chars + 1) * 4);

      valid = g_utf8_make_valid (text, bound);
    }
  else
    valid = g_utf8_make_valid (text, -1);
  safe = g_string_sized_new (strlen (valid));
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (max_chars > 0 && kept == max_chars)
        {
          /* One character fewer, to make room for the ellipsis. */
          const char *last = g_utf8_offset_to_pointer (safe->str, (glong) max_chars - 1);

          g_string_truncate (safe, last - safe->str);
          g_string_append (safe, "…");
          break;
        }
      if (g_unichar_iscntrl (c) || is_bidi_control (c) || c == 0x2028 || c == 0x2029)
        g_string_append_unichar (safe, 0xfffd);
      else
        g_string_append_len (safe, p, g_utf8_next_char (p) - p);
      kept++;
    }

  return g_string_free (safe, FALSE);
}

/**
 * cm_text_dup_unbroken_units:
 * @text: (nullable): a sentence or figure to show in a label that wraps
 *
 * Returns: @text with a word joiner (U+2060) either side of the slash
 *   of a rate's unit (a letter, "/", then "s" ending the word: "MB/s",
 *   "Mbit/s"), so that a line never breaks inside it ("MB/ s" at a
 *   line's end); a path such as /dev/sdb is left as it is, to be read
 *   and copied whole; %NULL for %NULL
 */
char *
cm_text_dup_unbroken_units (const char *text)
{
  GString *out;
  gunichar before = 0;

  if (text == NULL)
    return NULL;
  out = g_string_sized_new (strlen (text) + 8);
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '/' && g_unichar_isalpha (before) && p[1] == 's' && !g_unichar_isalnum (g_utf8_get_char (p + 2)))
        g_string_append (out, "\u2060/\u2060");
      else
        g_string_append_unichar (out, c);
      before = c;
    }
  return g_string_free (out, FALSE);
}
