/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli: the same engine as the app, for terminals, scripts,
 * headless Raspberry Pis and tests.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>

#include "cm-cli.h"
#include "cm-cli-decode.h"
#include "cm-cli-list.h"
#include "cm-cli-plot.h"

typedef struct
{
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} Command;

static const Command commands[] = {
  { "list", cm_cli_list, N_("List the cards and card readers connected") },
  { "info", cm_cli_info, N_("Show a card's reader, size, mounts and registers") },
  { "bench", cm_cli_bench, N_("Measure a card, a folder on it, or its device") },
  { "decode", cm_cli_decode, N_("Explain a card's registers (CID, CSD, SCR, SSR)") },
  { "plot", cm_cli_plot, N_("Draw charts of saved results") },
  { "probe-capacity", cm_cli_probe_capacity, N_("Check that a card really holds its capacity") },
  { "verify", cm_cli_verify, N_("Write every free byte of a card and read it back (like F3)") },
  { "endure", cm_cli_endure, N_("Wear a card out: write and check all of it, round after round") },
  { "format", cm_cli_format, N_("Erase a card and format it as the SD Association's formatter does") },
  { "power-cut", cm_cli_power, N_("Cut a card's power while it writes: does it keep what it confirmed?") },
  { "health", cm_cli_health, N_("Show how worn cards say they are (CMD56)") },
  { "queue-check", cm_cli_queue_check, N_("Check whether command queueing is on for a card, and safe") },
  { "history", cm_cli_history, N_("List every check kept in the history, of every kind") },
};

static void
print_usage (FILE *stream)
{
  fprintf (stream, "%s\n", _("Usage: cardmark-cli COMMAND [OPTION…]"));
  fprintf (stream, "\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-16s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (stream, "\n%s\n", _("Run “cardmark-cli COMMAND --help” for the options of a command."));
}

static const Command *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (name, commands[i].name))
      return &commands[i];
  return NULL;
}

int
main (int    argc,
      char **argv)
{
  const Command *command = argc >= 2 ? find_command (argv[1]) : NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("CARDMARK_LOCALEDIR") ?: LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (command != NULL)
    {
      /* Each command's --help then reads "cardmark-cli bench [OPTION…]". */
      g_autofree char *prgname = g_strconcat ("cardmark-cli ", command->name, NULL);

      g_set_prgname (prgname);
      return command->run (argc - 1, argv + 1);
    }

  g_set_prgname ("cardmark-cli");

  if (argc < 2)
    {
      print_usage (stderr);
      return CM_EXIT_USAGE;
    }

  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help"))
    {
      print_usage (stdout);
      return CM_EXIT_OK;
    }

  if (g_str_equal (argv[1], "--version"))
    {
      printf ("cardmark-cli %s\n", PACKAGE_VERSION);
      return CM_EXIT_OK;
    }

  fprintf (stderr, _("cardmark-cli: unknown command “%s”\n\n"), argv[1]);
  print_usage (stderr);
  return CM_EXIT_USAGE;
}
