/* cm-chart-kit-paint.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Paints a CmChartLayout on a cairo_t. All geometry comes from the layout
 * (cm-chart-kit.c); this file only chooses colours and strokes.
 */

#include "config.h"

#include <math.h>
#include <pango/pangocairo.h>

#include "cm-test-table.h"
#include "cm-chart-kit-private.h"

typedef struct
{
  double r, g, b;
} Rgb;

typedef struct
{
  Rgb background;
  Rgb fg;
  Rgb muted;
  Rgb grid;
  Rgb meets;
  Rgb marginal;
  Rgb below;
  Rgb not_judged;
  Rgb series[CM_CHART_MAX_RESULTS];
} Palette;

#define RGB(hex) { ((hex) >> 16 & 0xff) / 255.0, ((hex) >> 8 & 0xff) / 255.0, ((hex) & 0xff) / 255.0 }

/* GNOME's palette, in shades that keep their contrast on each background. */
static const Palette light_palette = {
  RGB (0xffffff), RGB (0x241f31), RGB (0x5e5c64), RGB (0xdeddda),
  RGB (0x26a269), RGB (0xc88800), RGB (0xc01c28), RGB (0x77767b),
  { RGB (0x3584e4), RGB (0xe66100), RGB (0x9141ac), RGB (0x2190a4), RGB (0x865e3c), RGB (0xc061cb) },
};

static const Palette dark_palette = {
  RGB (0x242424), RGB (0xffffff), RGB (0xc0bfbc), RGB (0x3d3846),
  RGB (0x33d17a), RGB (0xf6d32d), RGB (0xff7b63), RGB (0x9a9996),
  { RGB (0x62a0ea), RGB (0xffa348), RGB (0xdc8add), RGB (0x5bc8af), RGB (0xcdab8f), RGB (0xf66151) },
};

void
cm_chart_style_init (CmChartStyle *style)
{
  style->dark = FALSE;
  style->show_title = TRUE;
  style->transparent = FALSE;
  style->scale = 1;
}

/* Painting. */

static Rgb
ink_rgb (const Palette *palette,
         int            ink)
{
  switch (ink)
    {
    case CM_CHART_INK_FG:
      return palette->fg;
    case CM_CHART_INK_MUTED:
      return palette->muted;
    case CM_CHART_INK_GRID:
      return palette->grid;
    case CM_CHART_INK_MEETS:
      return palette->meets;
    case CM_CHART_INK_MARGINAL:
      return palette->marginal;
    case CM_CHART_INK_BELOW:
      return palette->below;
    case CM_CHART_INK_NOT_JUDGED:
      return palette->not_judged;
    default:
      return palette->series[(ink - CM_CHART_INK_SERIES) % G_N_ELEMENTS (palette->series)];
    }
}

/* Lighter marks (queue depth 32, a card's writes) are mixed halfway to
 * white in both styles, so that the legend's "Lighter" is true on a dark
 * background too (mixed with that background, they would be darker);
 * they stay opaque, so bars behind lines do not show through. */
static void
set_ink (cairo_t       *cr,
         const Palette *palette,
         int            ink,
         gboolean       light)
{
  Rgb c = ink_rgb (palette, ink);

  if (light)
    {
      c.r = (c.r + 1) / 2;
      c.g = (c.g + 1) / 2;
      c.b = (c.b + 1) / 2;
    }
  cairo_set_source_rgb (cr, c.r, c.g, c.b);
}

static void
paint_grid (cairo_t            *cr,
            const Palette      *palette,
            const CmChartPanel *panel)
{
  const CmChartRect *plot = &panel->plot;

  cairo_set_line_width (cr, 1);
  set_ink (cr, palette, CM_CHART_INK_GRID, FALSE);
  for (guint i = 0; i < panel->y.ticks->len; i++)
    {
      double y = round (cm_chart_axis_to_pixel (&panel->y, g_array_index (panel->y.ticks, double, i))) + 0.5;

      cairo_move_to (cr, plot->x, y);
      cairo_line_to (cr, plot->x + plot->width, y);
    }
  for (guint i = 0; !panel->categorical && i < panel->x.ticks->len; i++)
    {
      double x = round (cm_chart_axis_to_pixel (&panel->x, g_array_index (panel->x.ticks, double, i))) + 0.5;

      cairo_move_to (cr, x, plot->y);
      cairo_line_to (cr, x, plot->y + plot->height);
    }
  cairo_stroke (cr);

  set_ink (cr, palette, CM_CHART_INK_MUTED, FALSE);
  cairo_move_to (cr, plot->x, round (plot->y + plot->height) + 0.5);
  cairo_line_to (cr, plot->x + plot->width, round (plot->y + plot->height) + 0.5);
  cairo_stroke (cr);
}

static void
paint_bars (cairo_t            *cr,
            const Palette      *palette,
            const CmChartPanel *panel)
{
  for (guint i = 0; i < panel->bars->len; i++)
    {
      const CmChartBar *bar = &g_array_index (panel->bars, CmChartBar, i);

      set_ink (cr, palette, bar->ink, bar->light);
      cairo_rectangle (cr, bar->rect.x, bar->rect.y, bar->rect.width, bar->rect.height);
      cairo_fill (cr);
      if (bar->mark > 0)
        {
          set_ink (cr, palette, CM_CHART_INK_FG, FALSE);
          cairo_rectangle (cr, bar->rect.x - 3, round (bar->mark_y) - 1.5, bar->rect.width + 6, 3);
          cairo_fill (cr);
        }
    }
}

static void
paint_thresholds (cairo_t            *cr,
                  const Palette      *palette,
                  const CmChartPanel *panel)
{
  static const double dash[] = { 5, 4 };

  for (guint i = 0; i < panel->thresholds->len; i++)
    {
      const CmChartThreshold *t = &g_array_index (panel->thresholds, CmChartThreshold, i);

      /* Claimed lines, 2 pixels wide, sit on pixel edges and the 1-pixel
       * standard lines on pixel centres, so that both are crisp. */
      double y = round (t->y) + (t->claimed ? 0 : 0.5);

      set_ink (cr, palette, t->ink, FALSE);
      cairo_set_line_width (cr, t->claimed ? 2 : 1);
      cairo_set_dash (cr, dash, t->claimed ? 0 : G_N_ELEMENTS (dash), 0);
      cairo_move_to (cr, t->x0, y);
      cairo_line_to (cr, t->x1, y);
      cairo_stroke (cr);

      if (t->leader)
        {
          cairo_set_dash (cr, NULL, 0, 0);
          cairo_set_line_width (cr, 1);
          cairo_move_to (cr, t->leader_start.x, y);
          cairo_line_to (cr, t->leader_end.x, t->leader_end.y);
          cairo_stroke (cr);
        }
    }
  cairo_set_dash (cr, NULL, 0, 0);
}

static void
paint_point (cairo_t             *cr,
             const Palette       *palette,
             const CmChartSeries *series,
             const CmChartPoint  *p,
             double               radius)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, p->x, p->y, radius, 0, 2 * G_PI);
  if (series->hollow)
    {
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
    }
  else
    {
      cairo_fill (cr);
    }
}

static void
paint_series (cairo_t            *cr,
              const Palette      *palette,
              const CmChartPanel *panel)
{
  static const double dash[] = { 6, 4 };

  cairo_save (cr);
  cairo_rectangle (cr, panel->plot.x - 5, panel->plot.y - 5, panel->plot.width + 10, panel->plot.height + 10);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  for (guint i = 0; i < panel->series->len; i++)
    {
      const CmChartSeries *series = g_ptr_array_index (panel->series, i);
      GArray *points = series->points;

      if (series->points_only)
        {
          /* A lone point is a marked figure (a percentile); many are a
           * scatter, drawn small and translucent so density shows. */
          gboolean mark = points->len == 1;

          for (guint j = 0; j < points->len; j++)
            {
              Rgb c = ink_rgb (palette, series->ink);

              if (mark)
                {
                  set_ink (cr, palette, CM_CHART_INK_FG, FALSE);
                  cairo_arc (cr, g_array_index (points, CmChartPoint, j).x,
                             g_array_index (points, CmChartPoint, j).y, 5.5, 0, 2 * G_PI);
                  cairo_fill (cr);
                  set_ink (cr, palette, series->ink, FALSE);
                }
              else
                {
                  cairo_set_source_rgba (cr, c.r, c.g, c.b, 0.55);
                }
              paint_point (cr, palette, series, &g_array_index (points, CmChartPoint, j), mark ? 4 : 1.8);
            }
          continue;
        }

      set_ink (cr, palette, series->ink, FALSE);
      cairo_set_line_width (cr, 2);
      cairo_set_dash (cr, dash, series->dashed ? G_N_ELEMENTS (dash) : 0, 0);
      for (guint j = 0; j < points->len; j++)
        {
          const CmChartPoint *p = &g_array_index (points, CmChartPoint, j);

          if (j == 0)
            cairo_move_to (cr, p->x, p->y);
          else
            cairo_line_to (cr, p->x, p->y);
        }
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      for (guint j = 0; points->len <= 24 && j < points->len; j++)
        paint_point (cr, palette, series, &g_array_index (points, CmChartPoint, j), 3.5);
    }
  cairo_restore (cr);
}

static void
paint_texts (cairo_t             *cr,
             const Palette       *palette,
             const CmChartLayout *layout)
{
  g_autoptr(PangoLayout) pl = pango_cairo_create_layout (cr);

  for (guint i = 0; i < layout->texts->len; i++)
    {
      const CmChartText *text = &g_array_index (layout->texts, CmChartText, i);
      PangoFontDescription *font = cm_chart_text_font (text->role);

      if (text->bold)
        pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
      pango_layout_set_font_description (pl, font);
      pango_layout_set_text (pl, text->text, -1);
      set_ink (cr, palette, text->ink, FALSE);
      cairo_move_to (cr, text->box.x, text->box.y);
      pango_cairo_show_layout (cr, pl);
      pango_font_description_free (font);
    }
}

static void
paint_legend (cairo_t             *cr,
              const Palette       *palette,
              const CmChartLayout *layout)
{
  static const double dash[] = { 5, 3 };

  for (guint i = 0; i < layout->legend->len; i++)
    {
      const CmChartLegendItem *item = &g_array_index (layout->legend, CmChartLegendItem, i);
      const CmChartRect *r = &item->swatch;

      set_ink (cr, palette, item->ink, item->light);
      if (item->line)
        {
          cairo_set_line_width (cr, 3);
          cairo_set_dash (cr, dash, item->dashed ? G_N_ELEMENTS (dash) : 0, 0);
          cairo_move_to (cr, r->x, r->y + r->height / 2);
          cairo_line_to (cr, r->x + r->width, r->y + r->height / 2);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
        }
      else if (item->dashed)
        {
          cairo_set_line_width (cr, 1.5);
          cairo_arc (cr, r->x + r->width / 2, r->y + r->height / 2, r->height / 2 - 1, 0, 2 * G_PI);
          cairo_stroke (cr);
        }
      else
        {
          cairo_rectangle (cr, r->x, r->y, r->width, r->height);
          cairo_fill (cr);
        }
    }
}

/* Rings at the points a chart marks, such as a write's cliff. */
static void
paint_markers (cairo_t            *cr,
               const Palette      *palette,
               const CmChartPanel *panel)
{
  for (guint i = 0; i < panel->markers->len; i++)
    {
      const CmChartMarker *m = &g_array_index (panel->markers, CmChartMarker, i);

      cairo_set_source_rgb (cr, palette->background.r, palette->background.g, palette->background.b);
      cairo_arc (cr, m->point.x, m->point.y, 5, 0, 2 * G_PI);
      cairo_fill_preserve (cr);
      set_ink (cr, palette, m->ink, FALSE);
      cairo_set_line_width (cr, 2);
      cairo_stroke (cr);
    }
}

void
cm_chart_paint (cairo_t             *cr,
                const CmChartLayout *layout,
                const CmChartStyle  *style)
{
  const Palette *palette = style->dark ? &dark_palette : &light_palette;

  cairo_save (cr);
  if (!style->transparent)
    {
      cairo_set_source_rgb (cr, palette->background.r, palette->background.g, palette->background.b);
      cairo_rectangle (cr, 0, 0, layout->width, layout->height);
      cairo_fill (cr);
    }
  for (guint i = 0; i < layout->panels->len; i++)
    {
      const CmChartPanel *panel = g_ptr_array_index (layout->panels, i);

      paint_grid (cr, palette, panel);
      paint_bars (cr, palette, panel);
      paint_series (cr, palette, panel);
      paint_thresholds (cr, palette, panel);
      paint_markers (cr, palette, panel);
    }
  paint_legend (cr, palette, layout);
  paint_texts (cr, palette, layout);
  cairo_restore (cr);
}

int
cm_chart_capacity_cell_ink (CmCapacityCell cell)
{
  switch (cell)
    {
    case CM_CAPACITY_CELL_VERIFIED:
      return CM_CHART_INK_MEETS;
    case CM_CAPACITY_CELL_NO_STORAGE:
      return CM_CHART_INK_BELOW;
    case CM_CAPACITY_CELL_READ_ERROR:
      return CM_CHART_INK_MARGINAL;
    case CM_CAPACITY_CELL_WRITE_ERROR:
    case CM_CAPACITY_N_CELL_STATES:
    default:
      return CM_CHART_INK_SERIES + 2;
    }
}

/* Each test's colour, by its name: the same in every run whatever tests it
 * has and in whatever order they start, and the same in the live chart
 * as in the result charts. A test that repeats another's pattern at other
 * sizes or places takes that test's colour, dashed. */
static const struct
{
  const char *test;     /* a name, or a prefix ending in '-' */
  int         ink;
  gboolean    dashed;
} test_looks[] = {
  { CM_TEST_SEQ_WRITE, CM_CHART_INK_SERIES + 0, FALSE },
  { CM_TEST_SEQ_READ, CM_CHART_INK_SERIES + 1, FALSE },
  { CM_TEST_RAND_WRITE_4K, CM_CHART_INK_SERIES + 2, FALSE },
  { CM_TEST_RAND_READ_4K, CM_CHART_INK_SERIES + 3, FALSE },
  { CM_TEST_RAND_WRITE_4K_QD32, CM_CHART_INK_SERIES + 4, FALSE },
  { CM_TEST_RAND_READ_4K_QD32, CM_CHART_INK_SERIES + 5, FALSE },
  { CM_TEST_SEQ_WRITE_SUSTAINED, CM_CHART_INK_SERIES + 0, TRUE },
  { CM_TEST_SURFACE_READ, CM_CHART_INK_SERIES + 1, TRUE },
  { CM_TEST_SWEEP_WRITE_PREFIX, CM_CHART_INK_SERIES + 2, TRUE },
  { CM_TEST_SWEEP_READ_PREFIX, CM_CHART_INK_SERIES + 3, TRUE },
};

/* @test's ink and whether its line is dashed. A test the table does not
 * list (one added at run time) gets a colour from its name, so that it
 * too keeps it from run to run. */
void
cm_chart_test_look (const char *test,
                    int        *ink,
                    gboolean   *dashed)
{
  g_return_if_fail (test != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (test_looks); i++)
    if (g_str_has_suffix (test_looks[i].test, "-") ? g_str_has_prefix (test, test_looks[i].test)
                                                  : g_str_equal (test, test_looks[i].test))
      {
        *ink = test_looks[i].ink;
        if (dashed != NULL)
          *dashed = test_looks[i].dashed;
        return;
      }
  *ink = CM_CHART_INK_SERIES + (int) (g_str_hash (test) % CM_CHART_MAX_RESULTS);
  if (dashed != NULL)
    *dashed = FALSE;
}

int
cm_chart_test_ink (const char *test)
{
  int ink = CM_CHART_INK_SERIES;

  cm_chart_test_look (test, &ink, NULL);
  return ink;
}
