/* fuzz-result.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A result document from outside: loaded, judged against every class,
 * written out again, and drawn as every chart and described in words —
 * what `cardmark-cli plot`, the history and the app do with a file.
 */

#include "config.h"

#include <cairo.h>

#include "cm-chart.h"
#include "cm-result.h"
#include "cm-verdict.h"

#include "fuzz-common.h"

static void
draw_every_chart (CmResult *result)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 320, 200);
  cairo_t *cr = cairo_create (surface);
  CmChartStyle style;

  cm_chart_style_init (&style);
  style.show_title = TRUE;
  g_ptr_array_add (results, result);
  /* Twice, as the comparison charts draw several results. */
  g_ptr_array_add (results, result);

  for (CmChartKind kind = 0; kind < CM_CHART_N_KINDS; kind++)
    {
      g_autofree char *words = cm_chart_describe (kind, results);

      (void) cm_chart_has_data (kind, results);
      cm_chart_draw (cr, kind, results, 320, 200, &style);
    }

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char * const claims[] = { "C10", "U1", "U3", "V30", "A1", "A2", NULL };
  g_autoptr(CmResult) result = cm_result_new_from_data ((const char *) data, size, NULL);
  g_autoptr(CmResult) again = NULL;
  g_autofree char *text = NULL;
  gsize length;

  if (result == NULL)
    return 0;

  draw_every_chart (result);
  cm_verdict_judge (result, claims, "label");
  (void) cm_verdict_worst (result);
  draw_every_chart (result);

  /* What CardMark writes, it reads. */
  text = cm_result_to_data (result, &length);
  again = cm_result_new_from_data (text, length, NULL);
  g_assert (again != NULL);

  return 0;
}
