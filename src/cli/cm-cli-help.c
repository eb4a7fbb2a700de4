/* cm-cli-help.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * --help that reads in a terminal of 80 columns: GLib lays out a
 * command's options and description but never wraps them, so a long
 * description runs on for a whole screen. Here every line longer than
 * 80 columns is wrapped on words, an option's description under itself
 * (a hanging indent), a paragraph at its own indent. Widths are counted
 * in terminal columns (a CJK character takes two).
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm-cli.h"

#define HELP_COLUMNS 80

/* Where a line's text starts after its indent, and where an option's
 * description starts (after the run of two or more spaces that follows
 * the option), in bytes; the description's is the indent when there is
 * none. */
static void
find_indents (const char *line,
              gsize      *indent,
              gsize      *hanging)
{
  const char *p = line;
  const char *gap;

  while (*p == ' ')
    p++;
  *indent = p - line;
  *hanging = *indent;
  if (*p != '-')
    return;
  gap = strstr (p, "  ");
  if (gap == NULL)
    return;
  while (*gap == ' ')
    gap++;
  *hanging = gap - line;
}

static int
width_of (const char *start,
          gsize       length)
{
  g_autofree char *piece = g_strndup (start, length);

  return cm_cli_text_width (piece);
}

/* Appends @line to @out, wrapped on spaces at @columns. */
static void
wrap_line (GString    *out,
           const char *line,
           int         columns)
{
  gsize indent, hanging, start, last_space = 0;
  int hanging_width;

  if (cm_cli_text_width (line) <= columns)
    {
      g_string_append_printf (out, "%s\n", line);
      return;
    }
  find_indents (line, &indent, &hanging);
  hanging_width = width_of (line, hanging);
  /* A description that starts too far right wraps at the line's indent. */
  if (hanging_width > columns / 2)
    {
      hanging = indent;
      hanging_width = width_of (line, indent);
    }

  start = 0;
  while (line[start] != '\0')
    {
      gsize end = start, cut = 0;
      int width = start == 0 ? 0 : hanging_width;

      /* As many words as fit, but at least one. */
      for (const char *p = line + start; *p != '\0'; p = g_utf8_next_char (p))
        {
          width += width_of (p, g_utf8_next_char (p) - p);
          if (*p == ' ' && p > line + hanging)
            last_space = p - line, cut = last_space;
          end = g_utf8_next_char (p) - line;
          if (width > columns && cut > start)
            break;
        }
      if (line[end] == '\0' && width <= columns)
        cut = end;
      else if (cut <= start)
        cut = end;
      if (start > 0)
        g_string_append_printf (out, "%*s", hanging_width, "");
      g_string_append_len (out, line + start, cut - start);
      g_string_append_c (out, '\n');
      start = cut;
      while (line[start] == ' ')
        start++;
    }
}

/**
 * cm_cli_dup_wrapped:
 * @text: lines, as --help prints them
 * @columns: the terminal's width
 *
 * Returns: @text with every line wider than @columns wrapped on words
 */
char *
cm_cli_dup_wrapped (const char *text,
                    int         columns)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);
  guint n = g_strv_length (lines);

  for (guint i = 0; i < n; i++)
    {
      /* The text ends in a newline: no empty line after it. */
      if (i == n - 1 && lines[i][0] == '\0')
        break;
      wrap_line (out, lines[i], columns);
    }
  return g_string_free (out, FALSE);
}

/**
 * cm_cli_parse_options:
 *
 * g_option_context_parse(), with --help (-h, -?, --help-all) printed
 * wrapped at 80 columns.
 */
gboolean
cm_cli_parse_options (GOptionContext   *context,
                      int              *argc,
                      char           ***argv,
                      GError          **error)
{
  for (int i = 1; i < *argc; i++)
    {
      const char *arg = (*argv)[i];

      if (g_str_equal (arg, "--"))
        break;
      if (g_str_equal (arg, "--help") || g_str_equal (arg, "-h") || g_str_equal (arg, "-?") ||
          g_str_equal (arg, "--help-all"))
        {
          char *help = g_option_context_get_help (context, TRUE, NULL);
          char *wrapped = cm_cli_dup_wrapped (help, HELP_COLUMNS);

          fputs (wrapped, stdout);
          fflush (stdout);
          /* Freed before exit(), which leaves this frame: what is still
           * held then is a leak to the sanitizers. */
          g_free (wrapped);
          g_free (help);
          exit (CM_EXIT_OK);
        }
    }
  return g_option_context_parse (context, argc, argv, error);
}
