/* cm-chart.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The charts' public API: draws a chart on a cairo_t, writes it to PNG,
 * SVG and PDF files, and describes it in words. The layout comes from
 * cm-chart-layout.c, the painting from the kit (cm-chart-kit-paint.c),
 * what each kind shows from its row in cm-chart-layout-NAME.c.
 */

#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <pango/pangocairo.h>

#include "cm-chart-layout.h"
#include "cm-chart-kind-info.h"
#include "cm-chart-private.h"
#include "cm-file.h"

#include "cm-chart.h"

G_DEFINE_QUARK (cm-chart-error-quark, cm_chart_error)

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
  cm_chart_paint (cr, layout, style);
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
  g_autofree char *description = NULL;

  g_return_val_if_fail (kind < CM_CHART_N_KINDS, FALSE);
  g_return_val_if_fail (results != NULL, FALSE);

  description = cm_chart_describe (kind, results);
  return cm_chart_export_full (filename, kind, results, NULL, NULL, description, width, height, style, error);
}

gboolean
cm_chart_export_full (const char              *filename,
                      CmChartKind              kind,
                      GPtrArray               *results,
                      const CmCapacityReport  *capacity,
                      const char              *capacity_device,
                      const char              *description,
                      int                      width,
                      int                      height,
                      const CmChartStyle      *style,
                      GError                 **error)
{
  g_autofree char *lower = NULL;
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

char *
cm_chart_describe (CmChartKind  kind,
                   GPtrArray   *results)
{
  const CmChartKindInfo *info;
  GString *out;

  g_return_val_if_fail (kind < CM_CHART_N_KINDS, NULL);
  g_return_val_if_fail (results != NULL, NULL);

  info = cm_chart_kind_get_info (kind);
  out = g_string_new (cm_chart_kind_get_title (kind));
  g_string_append_c (out, '.');
  if (!cm_chart_has_data (kind, results))
    {
      g_string_append (out, _(" No data for this chart."));
      return g_string_free (out, FALSE);
    }

  for (guint r = 0; r < results->len; r++)
    {
      CmResult *result = g_ptr_array_index (results, r);

      g_autofree char *name = cm_chart_dup_series_name (results, r);

      g_string_append_printf (out, "\n%s:", name);
      if (info->describe != NULL)
        info->describe (out, result);
    }
  return g_string_free (out, FALSE);
}
