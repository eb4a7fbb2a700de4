/* cm-cli-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli history: past results, oldest first, side by side.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cm-history.h"

#include "cm-cli.h"

static double
figure (CmResult   *result,
        const char *test_name,
        gboolean    iops)
{
  CmTestResult *test = cm_result_lookup_test (result, test_name);

  if (test == NULL || test->error != NULL)
    return -1;

  return iops ? test->iops : test->mb_per_s;
}

static void
print_figure (double value,
              int    width)
{
  if (value < 0)
    printf (" %*s", width, "–");
  else
    printf (" %*.*f", width, value < 100 ? 1 : 0, value);
}

static void
print_row (CmResult *result)
{
  g_autofree char *when = g_date_time_format (cm_result_get_started (result), "%Y-%m-%d %H:%M");
  const char *name = cm_result_get_name (result);

  if (name == NULL)
    name = cm_result_get_target_path (result);

  printf ("%-16s %-24.24s %-5s", when, name ? name : "?", cm_result_get_profile (result));
  print_figure (figure (result, "seq-write", FALSE), 9);
  print_figure (figure (result, "seq-read", FALSE), 9);
  print_figure (figure (result, "rand-write-4k", TRUE), 9);
  print_figure (figure (result, "rand-read-4k", TRUE), 9);
  printf ("  %s\n", cm_result_get_summary (result) ? cm_result_get_summary (result) : "");
}

static void
print_json (GPtrArray *results)
{
  g_autoptr(JsonArray) array = json_array_new ();
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_ARRAY);

  for (guint i = 0; i < results->len; i++)
    json_array_add_element (array, cm_result_to_json (g_ptr_array_index (results, i)));

  json_node_set_array (root, array);
  cm_cli_print_json (root);
}

int
cm_cli_history (int    argc,
                char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the saved result documents as a JSON array"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("— results saved with “bench --save”"));
  g_autoptr(GError) error = NULL;
  g_autoptr(CmHistory) history = cm_history_new_default ();
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GPtrArray) problems = NULL;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if (argc != 1)
    return cm_cli_usage_error (context, _("history takes no arguments."));

  if ((results = cm_history_load (history, &problems, &error)) == NULL)
    {
      cm_cli_print_error (error);
      return CM_EXIT_FAILED;
    }

  for (guint i = 0; i < problems->len; i++)
    fprintf (stderr, "cardmark-cli: %s\n", (char *) g_ptr_array_index (problems, i));

  if (json)
    {
      print_json (results);
      return CM_EXIT_OK;
    }

  if (results->len == 0)
    {
      printf ("%s\n", _("No saved results yet. Run “cardmark-cli bench TARGET --save” to keep one."));
      return CM_EXIT_OK;
    }

  printf ("%-16s %-24s %-5s %9s %9s %9s %9s  %s\n", _("When"), _("Card"), _("Run"),
          _("Write"), _("Read"), _("4K write"), _("4K read"), _("Verdict"));
  printf ("%-16s %-24s %-5s %9s %9s %9s %9s\n", "", "", "", "MB/s", "MB/s", "IOPS", "IOPS");
  for (guint i = 0; i < results->len; i++)
    print_row (g_ptr_array_index (results, i));

  return CM_EXIT_OK;
}
