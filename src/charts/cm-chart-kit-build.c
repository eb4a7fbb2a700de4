/* cm-chart-kit-build.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A whole chart's layout: the title, the legend flowed into rows at the
 * bottom, and the layout file's panels (cm-chart-layout-*.c) in the room
 * left between them, in two passes.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "cm-chart-kit-private.h"

/* Title and legend. */

static double
place_title (CmChartBuilder *b,
             const char     *title)
{
  CmChartRect box;
  g_autofree char *str = NULL;

  double w, h;

  if (b->capacity_device != NULL)
    str = g_strdup_printf ("%s · %s", title, b->capacity_device);
  else if (b->results->len == 1)
    str = g_strdup_printf ("%s · %s", title, cm_chart_result_name (g_ptr_array_index (b->results, 0)));
  else
    str = g_strdup (title);
  cm_chart_measure (b, CM_CHART_TEXT_TITLE, TRUE, str, &w, &h);
  if (w <= b->layout->width - 2 * MARGIN || b->results->len != 1)
    {
      cm_chart_place_text (b, CM_CHART_TEXT_TITLE, str, MARGIN, MARGIN, 0, 0, CM_CHART_INK_FG, TRUE, FALSE, &box);
      return box.y + box.height + GAP;
    }
  /* Too wide for one line: the card's name goes underneath. */
  cm_chart_place_text (b, CM_CHART_TEXT_TITLE, title, MARGIN, MARGIN, 0, 0, CM_CHART_INK_FG, TRUE, FALSE, &box);
  cm_chart_place_text (b, CM_CHART_TEXT_SUBTITLE, cm_chart_result_name (g_ptr_array_index (b->results, 0)),
                       MARGIN, box.y + box.height, 0, 0, CM_CHART_INK_MUTED, FALSE, FALSE, &box);
  return box.y + box.height + GAP;
}

void
cm_chart_legend_add (CmChartBuilder *b,
                     const char     *text,
                     int             ink,
                     gboolean        light,
                     gboolean        line,
                     gboolean        dashed)
{
  CmChartLegendItem item = { { 0 }, ink, light, dashed, FALSE, line };
  char *copy = g_strdup (text);

  g_array_append_val (b->layout->legend, item);
  g_array_append_val (b->legend_texts, copy);
}

/* The entry of result @r in a chart of several, in its colour: a line
 * for a line chart, else a box. */
void
cm_chart_legend_add_result (CmChartBuilder *b,
                            guint           r,
                            gboolean        line)
{
  g_autofree char *name = cm_chart_dup_series_name (b->results, r);

  cm_chart_legend_add (b, name, CM_CHART_INK_SERIES + r, FALSE, line, FALSE);
}

/* A legend entry for each direction that has a series: "Read" and "Write"
 * for one card, "<card> read" and "<card> write" for several. @present
 * holds a CmChartDirection bit set per result, @tests the read's test and
 * the write's, whose colours they take for one card. Writes are told apart
 * from reads by a dashed line, or a lighter mark, when the colour is the
 * card's. */
void
cm_chart_legend_directions (CmChartBuilder     *b,
                            const guint        *present,
                            const char * const *tests,
                            gboolean            line)
{
  for (guint r = 0; r < b->results->len; r++)
    {
      g_autofree char *name = cm_chart_dup_series_name (b->results, r);

      if (present[r] & CM_CHART_READ)
        {
          g_autofree char *read = b->multi ? g_strdup_printf (_("%s read"), name) : g_strdup (_("Read"));

          cm_chart_legend_add (b, read, cm_chart_test_series_ink (b, r, tests[0]), FALSE, line, FALSE);
        }
      if (present[r] & CM_CHART_WRITE)
        {
          g_autofree char *write = b->multi ? g_strdup_printf (_("%s write"), name) : g_strdup (_("Write"));

          cm_chart_legend_add (b, write, cm_chart_test_series_ink (b, r, tests[1]), b->multi && !line, line,
                               b->multi && line);
        }
    }
}

/* Flows the legend into rows at the bottom; returns its top. */
static double
place_legend (CmChartBuilder *b)
{
  GArray *legend = b->layout->legend;
  double row_h = 0, x = MARGIN, rows = 1, y, w, h;
  const double swatch_w = 22, item_gap = 18;

  if (legend->len == 0)
    return b->layout->height - MARGIN;

  cm_chart_measure (b, CM_CHART_TEXT_LEGEND, FALSE, "Mg", &w, &row_h);
  for (guint i = 0; i < legend->len; i++)
    {
      cm_chart_measure (b, CM_CHART_TEXT_LEGEND, FALSE, g_array_index (b->legend_texts, char *, i), &w, &h);
      row_h = MAX (row_h, h);
      if (x > MARGIN && x + swatch_w + GAP + w > b->layout->width - MARGIN)
        {
          rows++;
          x = MARGIN;
        }
      x += swatch_w + GAP + w + item_gap;
    }

  y = b->layout->height - MARGIN - rows * (row_h + 4);
  x = MARGIN;
  for (guint i = 0; i < legend->len; i++)
    {
      CmChartLegendItem *item = &g_array_index (legend, CmChartLegendItem, i);
      const char *text = g_array_index (b->legend_texts, char *, i);
      CmChartRect box;

      cm_chart_measure (b, CM_CHART_TEXT_LEGEND, FALSE, text, &w, &h);
      if (x > MARGIN && x + swatch_w + GAP + w > b->layout->width - MARGIN)
        {
          y += row_h + 4;
          x = MARGIN;
        }
      item->swatch.x = x;
      item->swatch.y = y + row_h / 2 - (item->line ? 1.5 : 6);
      item->swatch.width = swatch_w;
      item->swatch.height = item->line ? 3 : 12;
      cm_chart_place_text (b, CM_CHART_TEXT_LEGEND, text, x + swatch_w + GAP, y, 0, 0, CM_CHART_INK_FG,
                           FALSE, FALSE, &box);
      x = box.x + box.width + item_gap;
    }
  return b->layout->height - MARGIN - rows * (row_h + 4) - GAP;
}

void
cm_chart_split_area (const CmChartRect *area,
                     guint              n,
                     guint              i,
                     CmChartRect       *out)
{
  const double gap = 24;

  /* Side by side when there is room, stacked on narrow screens. */
  if (area->width >= 520 || area->width > area->height * 1.4)
    {
      out->width = (area->width - gap * (n - 1)) / n;
      out->height = area->height;
      out->x = area->x + i * (out->width + gap);
      out->y = area->y;
    }
  else
    {
      out->width = area->width;
      out->height = (area->height - gap * (n - 1)) / n;
      out->x = area->x;
      out->y = area->y + i * (out->height + gap);
    }
}

static void
reset (CmChartBuilder *b)
{
  g_ptr_array_set_size (b->layout->panels, 0);
  g_array_set_size (b->layout->texts, 0);
  g_array_set_size (b->layout->legend, 0);
  g_array_set_size (b->legend_texts, 0);
}

static void
free_string (gpointer data)
{
  g_free (*(char **) data);
}

/* The legend must be placed before the panels, which take the room left,
 * but the panels decide what goes into the legend: so lay out once to
 * learn the legend, then again with its height known. */
static void
layout_twice (CmChartBuilder    *b,
              const char        *title,
              const char        *empty_message,
              gboolean           has_data,
              CmChartLayoutFunc  layout_func,
              gboolean           with_title)
{
  CmChartRect area;
  double top = MARGIN, bottom;

  if (with_title)
    top = place_title (b, title);
  area = (CmChartRect) { MARGIN, top, b->layout->width - 2 * MARGIN, b->layout->height - top - MARGIN };
  if (!has_data || !layout_func (b, &area))
    {
      reset (b);
      b->layout->empty = TRUE;
      if (with_title)
        place_title (b, title);
      cm_chart_place_text (b, CM_CHART_TEXT_MESSAGE, empty_message,
                           b->layout->width / 2, b->layout->height / 2, 0.5, 0.5, CM_CHART_INK_MUTED, FALSE, FALSE, NULL);
      return;
    }

  {
    g_autoptr(GArray) legend = g_array_copy (b->layout->legend);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

    for (guint i = 0; i < b->legend_texts->len; i++)
      g_ptr_array_add (names, g_strdup (g_array_index (b->legend_texts, char *, i)));
    reset (b);
    if (with_title)
      top = place_title (b, title);
    for (guint i = 0; i < legend->len; i++)
      {
        CmChartLegendItem *item = &g_array_index (legend, CmChartLegendItem, i);

        cm_chart_legend_add (b, g_ptr_array_index (names, i), item->ink, item->light, item->line, item->dashed);
      }
    bottom = place_legend (b);
    /* The panels add their legend entries again; keep the placed ones. */
    legend = g_array_copy (b->layout->legend);
    g_ptr_array_set_size (names, 0);
    for (guint i = 0; i < b->legend_texts->len; i++)
      g_ptr_array_add (names, g_strdup (g_array_index (b->legend_texts, char *, i)));

    area = (CmChartRect) { MARGIN, top, b->layout->width - 2 * MARGIN, bottom - top };
    layout_func (b, &area);

    g_array_set_size (b->layout->legend, 0);
    g_array_append_vals (b->layout->legend, legend->data, legend->len);
  }
}

CmChartLayout *
cm_chart_build (CmChartKind             kind,
                const char             *title,
                const char             *empty_message,
                gboolean                has_data,
                CmChartLayoutFunc       layout_func,
                GPtrArray              *results,
                const CmCapacityReport *capacity,
                const char             *capacity_device,
                const CmChartLive      *live,
                double                  width,
                double                  height,
                PangoContext           *context,
                gboolean                with_title)
{
  PangoContext *own = NULL;
  CmChartLayout *layout;
  CmChartBuilder b = { 0 };

  if (context == NULL)
    context = own = pango_font_map_create_context (pango_cairo_font_map_get_default ());

  layout = cm_chart_layout_alloc (kind, width, height);

  b.layout = layout;
  b.context = context;
  b.results = results;
  b.multi = results->len > 1;
  b.capacity = capacity;
  b.capacity_device = capacity_device;
  b.live = live;
  b.legend_texts = g_array_new (FALSE, TRUE, sizeof (char *));
  g_array_set_clear_func (b.legend_texts, free_string);

  layout_twice (&b, title, empty_message, has_data, layout_func, with_title);

  g_array_unref (b.legend_texts);
  g_clear_object (&own);
  return layout;
}
