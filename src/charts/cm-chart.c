/* cm-chart.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Paints a CmChartLayout on a cairo_t, and writes charts to PNG, SVG and
 * PDF files. All geometry comes from the layout; this file only chooses
 * colours and strokes.
 */

#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <pango/pangocairo.h>

#include "cm-test-table.h"
#include "cm-chart-layout.h"
#include "cm-chart-capacity.h"
#include "cm-chart-layout-private.h"
#include "cm-chart-private.h"
#include "cm-file.h"

#include "cm-chart.h"

G_DEFINE_QUARK (cm-chart-error-quark, cm_chart_error)

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

static const struct
{
  CmChartKind  kind;
  const char  *name;
  const char  *title;
} kinds[] = {
  { CM_CHART_SUMMARY, "summary", N_("Sequential and random speed") },
  { CM_CHART_WRITE_OVER_TIME, "write-over-time", N_("Write speed over time") },
  { CM_CHART_LATENCY, "latency", N_("Random access latency") },
  { CM_CHART_SWEEP, "sweep", N_("Speed by block size") },
  { CM_CHART_POSITION, "position", N_("Read speed across the card") },
  { CM_CHART_VERIFY, "verify", N_("Write and read back, across the card") },
  { CM_CHART_CAPACITY_MAP, "capacity-map", N_("Capacity map") },
};

const char *
cm_chart_kind_to_string (CmChartKind kind)
{
  g_return_val_if_fail (kind < CM_CHART_N_KINDS, NULL);
  return kinds[kind].name;
}

gboolean
cm_chart_kind_from_string (const char  *str,
                           CmChartKind *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_strcmp0 (str, kinds[i].name) == 0)
      {
        *kind = kinds[i].kind;
        return TRUE;
      }
  return FALSE;
}

const char *
cm_chart_kind_get_title (CmChartKind kind)
{
  g_return_val_if_fail (kind < CM_CHART_N_KINDS, NULL);
  return _(kinds[kind].title);
}

static gboolean
result_has_data (CmChartKind  kind,
                 CmResult    *result)
{
  CmTestResult *test;

  switch (kind)
    {
    case CM_CHART_SUMMARY:
      for (guint i = 0; i < cm_test_table_get_n_kinds (); i++)
        {
          const CmTestKind *summary = cm_test_table_get_kind (i);

          if (summary->summary && cm_chart_lookup_test (result, summary->name) != NULL)
            return TRUE;
        }
      return FALSE;
    case CM_CHART_WRITE_OVER_TIME:
      return ((test = cm_chart_lookup_test (result, CM_TEST_SEQ_WRITE)) != NULL && test->samples->len > 0) ||
             ((test = cm_chart_lookup_test (result, CM_TEST_SEQ_WRITE_SUSTAINED)) != NULL && test->samples->len > 0);
    case CM_CHART_LATENCY:
      return ((test = cm_chart_lookup_test (result, CM_TEST_RAND_READ_4K)) != NULL && test->scatter->len > 0) ||
             ((test = cm_chart_lookup_test (result, CM_TEST_RAND_WRITE_4K)) != NULL && test->scatter->len > 0);
    case CM_CHART_SWEEP:
      {
        g_autoptr(GPtrArray) read = cm_chart_sweep_tests (result, CM_TEST_SWEEP_READ_PREFIX);
        g_autoptr(GPtrArray) write = cm_chart_sweep_tests (result, CM_TEST_SWEEP_WRITE_PREFIX);

        return read->len > 0 || write->len > 0;
      }
    case CM_CHART_POSITION:
      return (test = cm_chart_lookup_test (result, CM_TEST_SURFACE_READ)) != NULL && test->positions->len > 0;
    case CM_CHART_VERIFY:
      return cm_result_get_verify (result) != NULL;
    case CM_CHART_CAPACITY_MAP:
      return FALSE;
    case CM_CHART_N_KINDS:
    default:
      return FALSE;
    }
}

gboolean
cm_chart_has_data (CmChartKind  kind,
                   GPtrArray   *results)
{
  g_return_val_if_fail (results != NULL, FALSE);

  for (guint i = 0; i < results->len; i++)
    if (result_has_data (kind, g_ptr_array_index (results, i)))
      return TRUE;
  return FALSE;
}

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

/* Lighter marks are blended with the background, so they stay opaque and
 * bars behind lines do not show through. */
static void
set_ink (cairo_t       *cr,
         const Palette *palette,
         int            ink,
         gboolean       light)
{
  Rgb c = ink_rgb (palette, ink);

  if (light)
    {
      c.r = (c.r + palette->background.r) / 2;
      c.g = (c.g + palette->background.g) / 2;
      c.b = (c.b + palette->background.b) / 2;
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

static void
paint_layout (cairo_t             *cr,
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

void
cm_chart_draw (cairo_t            *cr,
               CmChartKind         kind,
               GPtrArray          *results,
               double              width,
               double              height,
               const CmChartStyle *style)
{
  g_return_if_fail (cr != NULL);
  g_return_if_fail (kind < CM_CHART_N_KINDS);
  g_return_if_fail (results != NULL);

  cm_chart_draw_full (cr, kind, results, NULL, NULL, width, height, style);
}

void
cm_chart_draw_full (cairo_t                *cr,
                    CmChartKind             kind,
                    GPtrArray              *results,
                    const CmCapacityReport *capacity,
                    const char             *capacity_device,
                    double                  width,
                    double                  height,
                    const CmChartStyle     *style)
{
  g_autoptr(CmChartLayout) layout = NULL;
  PangoContext *context;
  CmChartStyle defaults;

  if (style == NULL)
    {
      cm_chart_style_init (&defaults);
      style = &defaults;
    }
  /* Measure text with the target's own font options, so boxes match. */
  context = pango_cairo_create_context (cr);
  layout = cm_chart_layout_new_full (kind, results, capacity, capacity_device, width, height, context,
                                     style->show_title);
  paint_layout (cr, layout, style);
  g_object_unref (context);
}

/* Export. */

static gboolean
check_surface (cairo_surface_t  *surface,
               const char       *filename,
               GError          **error)
{
  cairo_status_t status = cairo_surface_status (surface);

  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, CM_CHART_ERROR, CM_CHART_ERROR_WRITE,
               _("Could not write the chart to “%s”: %s. Check that the folder exists and you may write to it."),
               filename, cairo_status_to_string (status));
  return FALSE;
}

/* Cairo draws SVG text as glyph outlines, so the file gets a title and a
 * description that screen readers and search can use. */
static void
add_svg_description (GString    *svg,
                     const char *title,
                     const char *description)
{
  g_autofree char *escaped_title = g_markup_escape_text (title, -1);
  g_autofree char *escaped_desc = g_markup_escape_text (description, -1);
  g_autofree char *element = NULL;
  const char *start = g_strstr_len (svg->str, svg->len, "<svg");
  const char *end = start != NULL ? strchr (start, '>') : NULL;

  if (end == NULL)
    return;

  element = g_strdup_printf ("\n<title>%s</title>\n<desc>%s</desc>", escaped_title, escaped_desc);
  g_string_insert (svg, end + 1 - svg->str, element);
}

static cairo_status_t
append_bytes_cb (void                *closure,
                 const unsigned char *data,
                 unsigned int         length)
{
  g_string_append_len (closure, (const char *) data, length);
  return CAIRO_STATUS_SUCCESS;
}

/* The chart is drawn in memory and written in one go, through a
 * temporary file renamed into place: a full disk or a missing folder
 * leaves no half-written file, nor a damaged one it was to replace. */
gboolean
cm_chart_export_with_style (const char          *filename,
                            CmChartKind          kind,
                            GPtrArray           *results,
                            int                  width,
                            int                  height,
                            const CmChartStyle  *style,
                            GError             **error)
{
  g_return_val_if_fail (kind < CM_CHART_N_KINDS, FALSE);
  g_return_val_if_fail (results != NULL, FALSE);

  return cm_chart_export_full (filename, kind, results, NULL, NULL, width, height, style, error);
}

gboolean
cm_chart_export_full (const char              *filename,
                      CmChartKind              kind,
                      GPtrArray               *results,
                      const CmCapacityReport  *capacity,
                      const char              *capacity_device,
                      int                      width,
                      int                      height,
                      const CmChartStyle      *style,
                      GError                 **error)
{
  g_autofree char *lower = NULL;
  g_autofree char *description = NULL;
  g_autoptr(GString) bytes = g_string_new (NULL);
  g_autoptr(GError) write_error = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  CmChartStyle defaults;
  gboolean ok;

  g_return_val_if_fail (filename != NULL, FALSE);
  g_return_val_if_fail (width > 0 && height > 0, FALSE);

  if (style == NULL)
    {
      cm_chart_style_init (&defaults);
      style = &defaults;
    }

  lower = g_ascii_strdown (filename, -1);
  description = capacity != NULL ? cm_chart_describe_capacity (capacity, capacity_device)
                                 : cm_chart_describe (kind, results);
  if (g_str_has_suffix (lower, ".png"))
    {
      double scale = style->scale > 0 ? style->scale : 1;

      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (width * scale),
                                            (int) ceil (height * scale));
      cairo_surface_set_device_scale (surface, scale, scale);
    }
  else if (g_str_has_suffix (lower, ".svg"))
    {
      surface = cairo_svg_surface_create_for_stream (append_bytes_cb, bytes, width, height);
    }
  else if (g_str_has_suffix (lower, ".pdf"))
    {
      surface = cairo_pdf_surface_create_for_stream (append_bytes_cb, bytes, width, height);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, cm_chart_kind_get_title (kind));
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_SUBJECT, description);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "CardMark " PACKAGE_VERSION);
    }
  else
    {
      g_set_error (error, CM_CHART_ERROR, CM_CHART_ERROR_FORMAT,
                   _("Cannot tell the chart format from “%s”. Name the file .png, .svg or .pdf."), filename);
      return FALSE;
    }

  cr = cairo_create (surface);
  cm_chart_draw_full (cr, kind, results, capacity, capacity_device, width, height, style);
  cairo_destroy (cr);

  if (g_str_has_suffix (lower, ".png"))
    cairo_surface_write_to_png_stream (surface, append_bytes_cb, bytes);
  cairo_surface_finish (surface);
  ok = check_surface (surface, filename, error);
  cairo_surface_destroy (surface);
  if (!ok)
    return FALSE;

  if (g_str_has_suffix (lower, ".svg"))
    add_svg_description (bytes, cm_chart_kind_get_title (kind), description);

  if (!cm_file_set_contents (filename, bytes->str, bytes->len, &write_error))
    {
      g_set_error (error, CM_CHART_ERROR, CM_CHART_ERROR_WRITE,
                   _("Could not save the chart: %s"), write_error->message);
      return FALSE;
    }

  return TRUE;
}

gboolean
cm_chart_export (const char  *filename,
                 CmChartKind  kind,
                 GPtrArray   *results,
                 int          width,
                 int          height,
                 GError     **error)
{
  return cm_chart_export_with_style (filename, kind, results, width, height, NULL, error);
}
