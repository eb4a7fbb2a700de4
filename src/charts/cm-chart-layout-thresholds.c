/* cm-chart-layout-thresholds.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The class lines: which classes get one, in what ink, and where their
 * labels go.
 */

#include "config.h"

#include "cm-chart-private.h"
#include "cm-chart-layout-private.h"
#include "cm-chart-layout.h"

/* Thresholds. */

static void
threshold_add (GArray     *specs,
               double      value,
               const char *label,
               gboolean    claimed,
               int         ink,
               int         group)
{
  CmChartThresholdSpec spec = { value, g_strdup (label), claimed, ink, group };

  g_array_append_val (specs, spec);
}

static void
threshold_spec_clear (gpointer data)
{
  g_free (((CmChartThresholdSpec *) data)->label);
}

GArray *
cm_chart_threshold_specs_new (void)
{
  GArray *specs = g_array_new (FALSE, TRUE, sizeof (CmChartThresholdSpec));

  g_array_set_clear_func (specs, threshold_spec_clear);
  return specs;
}

int
cm_chart_status_ink (CmStatus status)
{
  switch (status)
    {
    case CM_STATUS_MEETS:
      return CM_CHART_INK_MEETS;
    case CM_STATUS_MARGINAL:
      return CM_CHART_INK_MARGINAL;
    case CM_STATUS_BELOW:
      return CM_CHART_INK_BELOW;
    case CM_STATUS_NOT_JUDGED:
    default:
      return CM_CHART_INK_NOT_JUDGED;
    }
}

/* Whether any result claims @klass, and the ink to mark it with: the
 * claim's verdict for one card, plain text for several. */
static gboolean
claimed_ink (CmChartBuilder *b,
             const char     *klass,
             int            *ink)
{
  for (guint i = 0; i < b->results->len; i++)
    {
      CmClaim *claim = cm_chart_find_claim (g_ptr_array_index (b->results, i), klass);

      if (claim != NULL)
        {
          *ink = b->multi ? CM_CHART_INK_FG : cm_chart_status_ink (claim->status);
          return TRUE;
        }
    }
  return FALSE;
}

/* A line for a set of classes sharing one figure; @always are shown even
 * when nobody claims them, @optional only when claimed. */
void
cm_chart_class_threshold (CmChartBuilder     *b,
                          GArray             *specs,
                          double              value,
                          const char * const *always,
                          const char * const *optional,
                          const char         *suffix,
                          int                 group)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autofree char *label = NULL;
  g_autofree char *joined = NULL;
  gboolean claimed = FALSE;
  int ink = CM_CHART_INK_MUTED;

  for (guint i = 0; always != NULL && always[i] != NULL; i++)
    {
      g_ptr_array_add (names, (char *) always[i]);
      claimed |= claimed_ink (b, always[i], &ink);
    }
  for (guint i = 0; optional != NULL && optional[i] != NULL; i++)
    if (claimed_ink (b, optional[i], &ink))
      {
        g_ptr_array_add (names, (char *) optional[i]);
        claimed = TRUE;
      }
  if (names->len == 0)
    return;
  g_ptr_array_add (names, NULL);
  joined = g_strjoinv ("/", (char **) names->pdata);
  label = suffix != NULL ? g_strdup_printf ("%s %s", joined, suffix) : g_steal_pointer (&joined);
  threshold_add (specs, value, label, claimed, ink, group);
}

void
cm_chart_speed_class_thresholds (CmChartBuilder *b,
                                 GArray         *specs)
{
  static const char * const c10[] = { "C10", "U1", NULL };
  static const char * const v10[] = { "V10", NULL };
  static const char * const u3[] = { "U3", "V30", NULL };
  static const char * const v60[] = { "V60", NULL };
  static const char * const v90[] = { "V90", NULL };
  static const char * const c2[] = { "C2", NULL };
  static const char * const c4[] = { "C4", NULL };
  static const char * const c6[] = { "C6", "V6", NULL };

  cm_chart_class_threshold (b, specs, 2, NULL, c2, NULL, -1);
  cm_chart_class_threshold (b, specs, 4, NULL, c4, NULL, -1);
  cm_chart_class_threshold (b, specs, 6, NULL, c6, NULL, -1);
  cm_chart_class_threshold (b, specs, 10, c10, v10, NULL, -1);
  cm_chart_class_threshold (b, specs, 30, u3, NULL, NULL, -1);
  cm_chart_class_threshold (b, specs, 60, NULL, v60, NULL, -1);
  cm_chart_class_threshold (b, specs, 90, NULL, v90, NULL, -1);
}

double
cm_chart_thresholds_max (GArray *specs)
{
  double max = 0;

  for (guint i = 0; i < specs->len; i++)
    max = MAX (max, g_array_index (specs, CmChartThresholdSpec, i).value);
  return max;
}

/* The thresholds' labels go in a gutter right of the plot, at the height
 * of their line, pushed apart where lines are close. */
void
cm_chart_place_thresholds (CmChartBuilder *b,
                           CmChartPanel   *panel,
                           GArray         *specs,
                           double          group_width)
{
  double last_bottom = -G_MAXDOUBLE;
  CmChartRect *plot = &panel->plot;

  for (guint i = 0; i < specs->len; i++)
    {
      CmChartThresholdSpec *spec = &g_array_index (specs, CmChartThresholdSpec, specs->len - 1 - i);
      CmChartThreshold t = { 0 };
      CmChartRect box;
      double w, h, top;

      if (spec->value > panel->y.max || spec->value < panel->y.min)
        continue;
      t.value = spec->value;
      t.y = cm_chart_axis_to_pixel (&panel->y, spec->value);
      t.x0 = spec->group < 0 ? plot->x : plot->x + spec->group * group_width;
      t.x1 = spec->group < 0 ? plot->x + plot->width : t.x0 + group_width;
      t.label = g_strdup (spec->label);
      t.claimed = spec->claimed;
      t.ink = spec->ink;
      g_array_append_val (panel->thresholds, t);

      cm_chart_measure (b, CM_CHART_TEXT_THRESHOLD, spec->claimed, spec->label, &w, &h);
      top = MAX (t.y - h / 2, last_bottom + 1);
      if (cm_chart_place_text (b, CM_CHART_TEXT_THRESHOLD, spec->label, plot->x + plot->width + GAP, top,
                      0, 0, spec->ink, spec->claimed, TRUE, &box))
        last_bottom = box.y + box.height;
    }
}
