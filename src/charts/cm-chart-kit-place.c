/* cm-chart-kit-place.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where things land, which every other file of the kit asks and which
 * asks none of them: a value's pixel on an axis, and a text measured by
 * Pango and placed in the layout. The panels (cm-chart-kit.c), the class
 * lines (cm-chart-kit-thresholds.c), the title and legend
 * (cm-chart-kit-build.c) and the painter (cm-chart-kit-paint.c) all build
 * on these, so the files of the kit call down to this one and never
 * back and forth between themselves.
 */

#include "config.h"

#include <math.h>
#include <pango/pangocairo.h>

#include "cm-chart-kit-private.h"

/* Geometry. */

gboolean
cm_chart_rect_intersects (const CmChartRect *a,
                          const CmChartRect *b)
{
  return a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}

double
cm_chart_axis_to_pixel (const CmChartAxis *axis,
                        double             value)
{
  double t;

  if (axis->log)
    {
      value = MAX (value, axis->min);
      t = (log10 (value) - log10 (axis->min)) / (log10 (axis->max) - log10 (axis->min));
    }
  else
    {
      t = (value - axis->min) / (axis->max - axis->min);
    }
  return axis->pixel_min + t * (axis->pixel_max - axis->pixel_min);
}

PangoFontDescription *
cm_chart_text_font (CmChartTextRole role)
{
  PangoFontDescription *font = pango_font_description_from_string ("Sans");
  double size = 11.5;

  switch (role)
    {
    case CM_CHART_TEXT_TITLE:
      size = 16;
      pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
      break;
    case CM_CHART_TEXT_PANEL_TITLE:
      size = 13;
      pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
      break;
    case CM_CHART_TEXT_MESSAGE:
      size = 14;
      break;
    case CM_CHART_TEXT_VALUE:
    case CM_CHART_TEXT_TICK:
    case CM_CHART_TEXT_THRESHOLD:
      size = 11;
      break;
    case CM_CHART_TEXT_SUBTITLE:
    case CM_CHART_TEXT_AXIS_TITLE:
    case CM_CHART_TEXT_CATEGORY:
    case CM_CHART_TEXT_LEGEND:
    default:
      break;
    }
  pango_font_description_set_absolute_size (font, size * PANGO_SCALE);
  return font;
}

void
cm_chart_measure (CmChartBuilder  *b,
                  CmChartTextRole  role,
                  gboolean         bold,
                  const char      *text,
                  double          *width,
                  double          *height)
{
  g_autoptr(PangoLayout) layout = pango_layout_new (b->context);
  PangoFontDescription *font = cm_chart_text_font (role);
  PangoRectangle logical;

  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_extents (layout, NULL, &logical);
  *width = (double) logical.width / PANGO_SCALE;
  *height = (double) logical.height / PANGO_SCALE;
  pango_font_description_free (font);
}

/* Places @str with its anchor at (@x, @y); @xalign and @yalign say which
 * point of the box the anchor is (0 left/top, 0.5 centre, 1 right/bottom).
 * When @avoid is set, a text that would overlap another is left out. */
gboolean
cm_chart_place_text (CmChartBuilder  *b,
                     CmChartTextRole  role,
                     const char      *str,
                     double           x,
                     double           y,
                     double           xalign,
                     double           yalign,
                     int              ink,
                     gboolean         bold,
                     gboolean         avoid,
                     CmChartRect     *box_out)
{
  CmChartText text = { role, NULL, { 0 }, ink, bold };
  GArray *texts = b->layout->texts;

  cm_chart_measure (b, role, bold, str, &text.box.width, &text.box.height);
  text.box.x = x - xalign * text.box.width;
  text.box.y = y - yalign * text.box.height;

  if (avoid)
    for (guint i = 0; i < texts->len; i++)
      if (cm_chart_rect_intersects (&text.box, &g_array_index (texts, CmChartText, i).box))
        return FALSE;

  text.text = g_strdup (str);
  g_array_append_val (texts, text);
  if (box_out != NULL)
    *box_out = text.box;
  return TRUE;
}
