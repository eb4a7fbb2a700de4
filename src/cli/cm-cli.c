/* cm-cli.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the subcommands of cardmark-cli share: how errors and JSON are
 * printed.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cm-cli.h"

void
cm_cli_print_error (const GError *error)
{
  fprintf (stderr, "cardmark-cli: %s\n", error->message);
}

int
cm_cli_usage_error (GOptionContext *context,
                    const char     *message)
{
  fprintf (stderr, "cardmark-cli: %s\n", message);
  if (context != NULL)
    fprintf (stderr, "%s\n", _("Run with --help to see the options."));
  return CM_EXIT_USAGE;
}

/* --json output: the document alone on stdout, pretty, one newline. */
void
cm_cli_print_json (JsonNode *node)
{
  g_autofree char *text = json_to_string (node, TRUE);

  printf ("%s\n", text);
}
