/* cm-cli.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the subcommands of cardmark-cli share: how errors, JSON and table
 * cells are printed.
 */

#include "config.h"

#include <gio/gio.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "cm-file.h"
#include "cm-text.h"

#include "cm-cli.h"

/* --output, --plot and --csv: checked before the card is touched. */
gboolean
cm_cli_check_writable (const char  *filename,
                       GError     **error)
{
  return cm_file_check_writable (filename, error);
}

/* Whether --plot names a format the charts can write. */
gboolean
cm_cli_is_chart_name (const char *filename)
{
  g_autofree char *lower = g_ascii_strdown (filename, -1);

  return g_str_has_suffix (lower, ".png") || g_str_has_suffix (lower, ".svg") ||
         g_str_has_suffix (lower, ".pdf");
}

/**
 * cm_cli_dup_printable:
 * @text: text from outside (a result file, a card, a file name)
 * @keep_newlines: %TRUE to let line breaks through, for messages
 *
 * Returns: @text made safe to print to a terminal by cm_text_dup_clean(),
 *   line by line when @keep_newlines.
 */
char *
cm_cli_dup_printable (const char *text,
                      gboolean    keep_newlines)
{
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  if (!keep_newlines)
    return cm_text_dup_clean (text, 0);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *clean = cm_text_dup_clean (lines[i], 0);

      g_free (lines[i]);
      lines[i] = clean;
    }
  return g_strjoinv ("\n", lines);
}

void
cm_cli_print_error (const GError *error)
{
  /* A stop in GIO's own words ("Operation was cancelled") says nothing
   * CardMark's own sentence after it does not ("Full verify stopped
   * before the end"); a kind's own words for its stop are kept. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      (g_str_equal (error->message, g_dgettext ("glib20", "Operation was cancelled")) ||
       g_str_equal (error->message, "Operation was cancelled") ||
       g_str_equal (error->message, g_strerror (ECANCELED))))
    return;
  cm_cli_print_message (error->message);
}

/* A message to stderr, which may quote a file name or a field of a
 * result file. */
void
cm_cli_print_message (const char *message)
{
  g_autofree char *safe = cm_cli_dup_printable (message, TRUE);

  fprintf (stderr, "cardmark-cli: %s\n", safe);
}

int
cm_cli_usage_error (GOptionContext *context,
                    const char     *message)
{
  cm_cli_print_message (message);
  if (context != NULL)
    fprintf (stderr, "%s\n", _("Run with --help to see the options."));
  return CM_EXIT_USAGE;
}

/**
 * cm_cli_check_operands:
 * @context: the command's options, for the hint to --help
 * @argc: what g_option_context_parse() left, the command's name first
 * @argv: the same
 * @min: how many operands (TARGET, DEVICE, RESULT.json) the command needs
 * @max: how many it takes at most
 * @usage: the sentence that says what the command takes
 *
 * Checks the operands of a command: their number, and that none is
 * empty. An empty name ("" from an unset shell variable) would be taken
 * by the file functions as the working folder, so it is a usage error
 * with its own sentence, never a path.
 *
 * Returns: %CM_EXIT_OK, or %CM_EXIT_USAGE once the error is printed.
 */
int
cm_cli_check_operands (GOptionContext  *context,
                       int              argc,
                       char           **argv,
                       int              min,
                       int              max,
                       const char      *usage)
{
  g_return_val_if_fail (usage != NULL, CM_EXIT_USAGE);

  if (argc - 1 < min || argc - 1 > max)
    return cm_cli_usage_error (context, usage);

  for (int i = 1; i < argc; i++)
    if (argv[i] == NULL || argv[i][0] == '\0')
      {
        g_autofree char *message = g_strdup_printf ("%s %s", usage,
          _("An empty name (“”) was given, which names nothing: CardMark never takes it for the working folder. Give the path itself."));

        return cm_cli_usage_error (context, message);
      }

  return CM_EXIT_OK;
}

/**
 * cm_cli_option_text:
 * @option: the option, such as "--brand", for the message
 * @value: what it was given, in the locale's character set (options
 *   meant as text are declared %G_OPTION_ARG_FILENAME to come here raw)
 * @text: (out): @value as UTF-8, or %NULL when @value is %NULL
 *
 * GOption's own conversion error does not say which option it was.
 *
 * Returns: %TRUE, or %FALSE with @error naming @option.
 */
gboolean
cm_cli_option_text (const char  *option,
                    const char  *value,
                    char       **text,
                    GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  const char *charset;

  g_return_val_if_fail (option != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  *text = NULL;
  if (value == NULL)
    return TRUE;

  if ((*text = g_locale_to_utf8 (value, -1, NULL, NULL, &local_error)) == NULL)
    {
      g_get_charset (&charset);
      /* Translators: "--brand is not text in this system's character set (UTF-8): …" */
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s is not text in this system’s character set (%s): %s"),
                   option, charset, local_error->message);
      return FALSE;
    }

  return TRUE;
}

/* --json output: the document alone on stdout, pretty, one newline. */
void
cm_cli_print_json (JsonNode *node)
{
  g_autofree char *text = json_to_string (node, TRUE);

  printf ("%s\n", text);
}

static int
char_width (gunichar c)
{
  if (g_unichar_iszerowidth (c))
    return 0;
  return g_unichar_iswide (c) ? 2 : 1;
}

/**
 * cm_cli_text_width:
 *
 * Returns: how many terminal columns @text takes: characters, not bytes,
 *   with East Asian wide characters counted as two and combining marks as
 *   none, so that Japanese and Korean tables line up too.
 */
int
cm_cli_text_width (const char *text)
{
  int width = 0;

  g_return_val_if_fail (text != NULL, 0);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    width += char_width (g_utf8_get_char (p));
  return width;
}

static void
append_spaces (GString *line,
               int      n)
{
  static const char spaces[] = "                                ";

  for (; n > 0; n -= MIN (n, (int) sizeof spaces - 1))
    g_string_append_len (line, spaces, MIN (n, (int) sizeof spaces - 1));
}

/**
 * cm_cli_pad:
 * @line: where the cell goes
 * @text: the cell, UTF-8
 * @width: the column's width in terminal columns, at least 1
 * @right: %TRUE to align @text to the right of the column
 *
 * Appends @text to @line filling exactly @width columns: padded with
 * spaces, or cut at a character (never inside one) and ended with "…"
 * when it is wider.
 */
void
cm_cli_pad (GString    *line,
            const char *text,
            int         width,
            gboolean    right)
{
  g_autofree char *valid = NULL;
  g_autoptr(GString) cut = NULL;
  int text_width, used = 0;

  g_return_if_fail (line != NULL);
  g_return_if_fail (text != NULL);
  g_return_if_fail (width >= 1);

  /* Printable ASCII (figures, dates) is safe as it is and one column a
   * byte: a table of 100 000 rows pads 800 000 cells. */
  for (text_width = 0; text[text_width] >= 0x20 && text[text_width] < 0x7f; text_width++)
    ;
  if (text[text_width] != '\0')
    {
      valid = cm_cli_dup_printable (text, FALSE);
      text_width = cm_cli_text_width (valid);
    }
  if (text_width <= width)
    {
      if (right)
        append_spaces (line, width - text_width);
      g_string_append (line, valid != NULL ? valid : text);
      if (!right)
        append_spaces (line, width - text_width);
      return;
    }
  if (valid == NULL)
    valid = g_strdup (text);

  cut = g_string_new (NULL);
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      int w = char_width (g_utf8_get_char (p));

      if (used + w > width - 1)
        break;
      g_string_append_len (cut, p, g_utf8_next_char (p) - p);
      used += w;
    }
  g_string_append (cut, "…");
  cm_cli_pad (line, cut->str, width, right);
}

/* Seconds as "1:05" or "2:03:04"; "…" while unknown (< 0). */
char *
cm_cli_format_duration (double seconds)
{
  guint s;

  /* Unknown (-1), not a number, or past any run: no figure. Checked
   * before the conversion, which is undefined for them. */
  if (!(seconds >= 0 && seconds < 100 * 3600 * 24 * 365.0))
    return g_strdup ("…");
  s = (guint) seconds;
  if (s >= 3600)
    return g_strdup_printf ("%u:%02u:%02u", s / 3600, s / 60 % 60, s % 60);
  return g_strdup_printf ("%u:%02u", s / 60, s % 60);
}

/* INT, TERM, HUP (an SSH session that drops) and QUIT all mean: stop,
 * keep what was done, then end. They arrive through a signalfd, so each
 * is handled on the main loop whichever thread the kernel would have
 * picked, as the capacity probe does. */
static gboolean
interrupted_cb (int          fd,
                GIOCondition condition,
                gpointer     user_data)
{
  GCancellable *cancellable = user_data;
  const char *saying = g_object_get_data (G_OBJECT (cancellable), "cm-cli-stopping");
  struct signalfd_siginfo info;

  if (read (fd, &info, sizeof info) != sizeof info)
    return G_SOURCE_CONTINUE;
  if (!g_cancellable_is_cancelled (cancellable))
    {
      fprintf (stderr, "\n%s\n", saying != NULL ? saying : _("Stopping: keeping what was done…"));
      g_cancellable_cancel (cancellable);
    }
  return G_SOURCE_CONTINUE;
}

/* Blocks the signals that end a run (call it before any thread starts,
 * so none of them takes one) and returns a signalfd for them. */
int
cm_cli_block_end_signals (void)
{
  sigset_t set;

  /* A closed terminal or pipe must not end the run before its state is
   * saved: a write to stderr then fails instead. */
  signal (SIGPIPE, SIG_IGN);
  sigemptyset (&set);
  sigaddset (&set, SIGINT);
  sigaddset (&set, SIGTERM);
  sigaddset (&set, SIGHUP);
  sigaddset (&set, SIGQUIT);
  pthread_sigmask (SIG_BLOCK, &set, NULL);
  return signalfd (-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

/* Cancels @cancellable when a signal arrives on @signal_fd; returns the
 * source's id, for g_source_remove(). */
guint
cm_cli_watch_end_signals (int           signal_fd,
                          GCancellable *cancellable)
{
  return g_unix_fd_add (signal_fd, G_IO_IN, interrupted_cb, cancellable);
}

/* The same, saying @stopping (what stopping does) instead of "keeping
 * what was done". */
guint
cm_cli_watch_end_signals_saying (int           signal_fd,
                                 GCancellable *cancellable,
                                 const char   *stopping)
{
  g_object_set_data_full (G_OBJECT (cancellable), "cm-cli-stopping", g_strdup (stopping), g_free);
  return cm_cli_watch_end_signals (signal_fd, cancellable);
}
