/* cm-cli-plot.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli plot RESULT.json… --output FILE: draw saved results, one
 * card or several side by side, to PNG, SVG or PDF.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cm-chart.h"
#include "cm-cli.h"
#include "cm-cli-number.h"

#include "cm-cli-plot.h"

#define DEFAULT_WIDTH 800
#define DEFAULT_HEIGHT 480

/* What bench --plot draws: the summary, the chart every run has. */
gboolean
cm_cli_plot_result (CmResult    *result,
                    const char  *filename,
                    GError     **error)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new ();

  g_return_val_if_fail (CM_IS_RESULT (result), FALSE);
  g_return_val_if_fail (filename != NULL, FALSE);

  g_ptr_array_add (results, result);
  return cm_chart_export (filename, CM_CHART_SUMMARY, results, DEFAULT_WIDTH, DEFAULT_HEIGHT, error);
}

static char *
chart_names (void)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < CM_CHART_N_KINDS; i++)
    if (i != CM_CHART_CAPACITY_MAP)  /* drawn by probe-capacity --plot, not from results */
      g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", cm_chart_kind_to_string (i));
  return g_string_free (names, FALSE);
}

static GPtrArray *
load_results (char    **paths,
              GError  **error)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (paths[i]);
      g_autoptr(GError) local_error = NULL;
      CmResult *result = cm_result_new_from_file (file, &local_error);

      if (result == NULL)
        {
          g_set_error (error, local_error->domain, local_error->code,
                       _("Cannot read the result “%s”: %s"), paths[i], local_error->message);
          return NULL;
        }
      g_ptr_array_add (results, result);
    }
  return g_steal_pointer (&results);
}

int
cm_cli_plot (int    argc,
             char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *chart = NULL;
  g_autofree char *names = chart_names ();
  g_autofree char *chart_help = g_strdup_printf (_("The chart to draw: %s (default summary)"), names);
  g_autoptr(GOptionContext) context = g_option_context_new (_("RESULT.json… — draw results as a chart"));
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  int width = DEFAULT_WIDTH, height = DEFAULT_HEIGHT;
  gboolean dark = FALSE;
  double scale = 1, number;
  int status;
  CmChartKind kind = CM_CHART_SUMMARY;
  CmChartStyle style;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the chart to FILE.png, .svg or .pdf"), "FILE" },
    { "chart", 'c', 0, G_OPTION_ARG_STRING, &chart, chart_help, "NAME" },
    { "width", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer) cm_cli_number_option_cb, N_("Width in pixels (default 800)"), "W" },
    { "height", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer) cm_cli_number_option_cb, N_("Height in pixels (default 480)"), "H" },
    { "scale", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer) cm_cli_number_option_cb, N_("Pixels per point for PNG, such as 2 for a HiDPI screen"), "S" },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark, N_("Light text on a dark background"), NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Several results are drawn together, one colour per card. The format follows the name of the output file."));

  if (!cm_cli_parse_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if ((status = cm_cli_check_operands (context, argc, argv, 1, G_MAXINT, _("plot needs at least one RESULT.json."))) != CM_EXIT_OK)
    return status;
  if (argc - 1 > CM_CHART_MAX_RESULTS)
    {
      g_autofree char *message = g_strdup_printf (_("plot can compare at most %d results at once, one colour per card; %d were given."),
                                                  CM_CHART_MAX_RESULTS, argc - 1);

      return cm_cli_usage_error (context, message);
    }
  if (output == NULL)
    return cm_cli_usage_error (context, _("plot needs --output FILE.png, .svg or .pdf."));
  if (!cm_cli_check_writable (output, &error))
    return cm_cli_usage_error (context, error->message);
  if (chart != NULL && cm_chart_kind_from_string (chart, &kind) && kind == CM_CHART_CAPACITY_MAP)
    return cm_cli_usage_error (context, _("A result holds no capacity map: “cardmark-cli probe-capacity DEVICE --plot FILE” draws one."));
  if (chart != NULL && !cm_chart_kind_from_string (chart, &kind))
    {
      g_autofree char *message = g_strdup_printf (_("Unknown chart “%s”. Choose one of: %s."), chart, names);

      return cm_cli_usage_error (context, message);
    }
  /* The table (cm-cli-number.c) saw that each number given is in bounds. */
  if (cm_cli_number_get ("width", &number))
    width = (int) number;
  if (cm_cli_number_get ("height", &number))
    height = (int) number;
  cm_cli_number_get ("scale", &scale);

  if ((results = load_results (argv + 1, &error)) == NULL)
    {
      cm_cli_print_error (error);
      return CM_EXIT_FAILED;
    }
  if (!cm_chart_has_data (kind, results))
    fprintf (stderr, "cardmark-cli: %s\n",
             _("These results hold nothing for this chart; it says so instead."));

  cm_chart_style_init (&style);
  style.dark = dark;
  style.scale = scale;
  if (!cm_chart_export_with_style (output, kind, results, width, height, &style, &error))
    {
      cm_cli_print_error (error);
      return CM_EXIT_FAILED;
    }
  return CM_EXIT_OK;
}
