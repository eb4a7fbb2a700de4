/* cm-chart-layout-capacity-map.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The capacity map: the card's cells from offset 0 (top left) to its end
 * (bottom right), row by row, each coloured by what the check found.
 * The rows are labelled with the offset they start at.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "cm-chart-kind-info.h"

static const char *
cell_label (CmCapacityCell cell)
{
  switch (cell)
    {
    case CM_CAPACITY_CELL_VERIFIED:
      return _("Verified");
    case CM_CAPACITY_CELL_NO_STORAGE:
      return _("No storage");
    case CM_CAPACITY_CELL_READ_ERROR:
      return _("Read error");
    case CM_CAPACITY_CELL_WRITE_ERROR:
      return _("Write error");
    case CM_CAPACITY_N_CELL_STATES:
    default:
      g_return_val_if_reached ("");
    }
}

/* The number of columns that gives the largest square cells. */
static guint
best_columns (guint   n,
              double  width,
              double  height,
              double *side)
{
  guint best = 1;

  *side = 0;
  for (guint cols = 1; cols <= n; cols++)
    {
      guint rows = (n + cols - 1) / cols;
      double s = MIN (width / cols, height / rows);

      if (s > *side)
        {
          *side = s;
          best = cols;
        }
    }
  return best;
}

static char *
row_label (const CmCapacityReport *report,
           guint                   cell)
{
  guint64 offset = (guint64) cell * report->cell_bytes;

  return offset == 0 ? g_strdup ("0") : g_format_size (offset);
}

static char *
subtitle (const CmCapacityReport *report)
{
  g_autofree char *reported = g_format_size (report->reported_bytes);
  g_autofree char *real = g_format_size (report->real_bytes);
  g_autofree char *cell = g_format_size (report->cell_bytes);

  if (report->fake)
    /* Translators: "Real capacity 128 MiB of 1.0 GiB claimed · cells of 4.0 MiB" */
    return g_strdup_printf (_("Real capacity %s of %s claimed · cells of %s"), real, reported, cell);
  return g_strdup_printf (_("All %s kept their data · cells of %s"), reported, cell);
}

static gboolean
layout_map (CmChartBuilder    *b,
            const CmChartRect *area)
{
  const CmCapacityReport *report = b->capacity;
  g_autofree char *sub = subtitle (report);
  g_autofree char *last_label = NULL;
  guint n = report->cells->len;
  double gutter = 0, label_w, label_h, side, top, gap;
  CmChartRect box, plot;
  CmChartPanel *panel;
  guint cols, rows, every;

  if (n == 0)
    return FALSE;

  for (guint s = 0; s < CM_CAPACITY_N_CELL_STATES; s++)
    cm_chart_legend_add (b, cell_label (s), cm_chart_capacity_cell_ink (s), FALSE, FALSE, FALSE);

  cm_chart_place_text (b, CM_CHART_TEXT_SUBTITLE, sub, area->x, area->y, 0, 0,
                       CM_CHART_INK_MUTED, FALSE, FALSE, &box);
  top = box.y + box.height + GAP;

  /* The row labels' width depends on the rows, and the rows on the room
   * the labels leave: guess with the card's size, then measure. */
  last_label = g_format_size (report->reported_bytes);
  cm_chart_measure (b, CM_CHART_TEXT_TICK, FALSE, last_label, &gutter, &label_h);
  for (guint pass = 0; pass < 2; pass++)
    {
      double widest = 0;

      cols = best_columns (n, area->width - gutter - GAP, area->y + area->height - top, &side);
      rows = (n + cols - 1) / cols;
      for (guint r = 0; r < rows; r++)
        {
          g_autofree char *label = row_label (report, r * cols);

          cm_chart_measure (b, CM_CHART_TEXT_TICK, FALSE, label, &label_w, &label_h);
          widest = MAX (widest, label_w);
        }
      if (widest <= gutter)
        break;
      gutter = widest;
    }
  gutter += GAP;
  cols = best_columns (n, area->width - gutter, area->y + area->height - top, &side);
  rows = (n + cols - 1) / cols;
  plot = (CmChartRect) { area->x + gutter, top, cols * side, rows * side };
  panel = cm_chart_panel_new_plain (b, &plot);
  gap = side >= 6 ? 1 : 0;

  for (guint i = 0; i < n; i++)
    {
      CmChartBar bar = { { 0 } };
      guint8 cell = g_array_index (report->cells, guint8, i);

      bar.rect = (CmChartRect) { plot.x + (i % cols) * side, plot.y + (i / cols) * side, side - gap, side - gap };
      bar.value = (double) i * report->cell_bytes;
      bar.ink = cm_chart_capacity_cell_ink (MIN (cell, CM_CAPACITY_N_CELL_STATES - 1));
      bar.result = i;
      g_array_append_val (panel->bars, bar);
    }

  /* Row labels, as many as fit without touching. */
  every = MAX (1, (guint) ceil ((label_h + 2) / side));
  for (guint r = 0; r < rows; r += every)
    {
      g_autofree char *label = row_label (report, r * cols);

      cm_chart_place_text (b, CM_CHART_TEXT_TICK, label, plot.x - GAP, plot.y + r * side + side / 2,
                           1, 0.5, CM_CHART_INK_MUTED, FALSE, TRUE, NULL);
    }
  return TRUE;
}

static gboolean
layout (CmChartBuilder    *b,
        const CmChartRect *area)
{
  return b->capacity != NULL && layout_map (b, area);
}

/* Drawn from a capacity report (cm-chart-capacity.h), never from results. */
static gboolean
has_data (CmResult *result)
{
  return FALSE;
}

/* This kind's row in the table of kinds (src/charts/cm-chart-kinds.c). */
const CmChartKindInfo cm_chart_kind_capacity_map = {
  .title = N_("Capacity map"),
  .empty_message = N_("No capacity check to show. Check the card's capacity to draw its map."),
  .has_data = has_data,
  .layout = layout,
  .describe = NULL,
  .widget_height = 240,
};
