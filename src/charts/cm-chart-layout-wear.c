/* cm-chart-layout-wear.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The wear test's decay curve: write and read speed round by round, and
 * beside it the share of the card that came back wrong in each round, on
 * a log scale, with the thresholds Mikaey's Flash Stress Test counts
 * (the first error, 0.1 %, 1 %, 10 %, 25 % and 50 % bad) marked where a
 * round reached them. Where the card told what it wrote to its flash
 * (CMD56), a short panel under the speeds gives each round's write
 * amplification on its own axis.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "cm-chart-kind-info.h"

static const CmEndurance *
endurance_of (CmResult *result)
{
  const CmEndurance *e = cm_result_get_endurance (result);

  return e != NULL && e->rounds->len > 0 ? e : NULL;
}

/* The share of the card that came back wrong in a round, in per cent. */
static double
bad_percent (const CmWearRound *r)
{
  return r->sectors > 0 ? 100.0 * r->bad_sectors / r->sectors : 0;
}

static const CmWearRound *
lookup_round (const CmEndurance *e,
              guint              round)
{
  for (guint i = 0; i < e->rounds->len; i++)
    if (g_array_index (e->rounds, CmWearRound, i).round == round)
      return &g_array_index (e->rounds, CmWearRound, i);
  return NULL;
}

/* Whole rounds on the x axis, about @target ticks of them. */
static GArray *
round_ticks (guint   last,
             double  target,
             double *x_min,
             double *x_max)
{
  GArray *ticks = g_array_new (FALSE, FALSE, sizeof (double));
  double step = 1;

  if (last <= 1)
    {
      double one = 1;

      *x_min = 0.5;
      *x_max = 1.5;
      g_array_append_val (ticks, one);
      return ticks;
    }
  for (double magnitude = 1; step * target < last - 1; magnitude *= 10)
    {
      step = magnitude;
      if (step * target >= last - 1)
        break;
      step = 2 * magnitude;
      if (step * target >= last - 1)
        break;
      step = 5 * magnitude;
    }
  /* The axis ends at the last round, not at the next round tick. */
  *x_min = step == 1 ? 1 : 0;
  *x_max = last;
  for (double v = *x_min; v <= *x_max + 1e-9; v += step)
    g_array_append_val (ticks, v);
  return ticks;
}

/* The rounds that lost something as lines; a round that lost nothing has
 * no place on a log scale, so it breaks the line. */
static void
add_bad_series (GArray            *specs,
                const CmEndurance *e,
                int                ink)
{
  CmChartSeriesSpec *series = NULL;

  for (guint i = 0; i < e->rounds->len; i++)
    {
      const CmWearRound *r = &g_array_index (e->rounds, CmWearRound, i);

      if (r->bad_sectors == 0)
        {
          series = NULL;
          continue;
        }
      if (series == NULL)
        series = cm_chart_series_add (specs, ink, FALSE, FALSE);
      cm_chart_series_point (series, r->round, bad_percent (r));
    }
}

/* Each round's write amplification as a line; a round whose flash bytes
 * the card did not tell breaks it. */
static void
add_write_amplification_series (GArray            *specs,
                                const CmEndurance *e,
                                int                ink)
{
  CmChartSeriesSpec *series = NULL;

  for (guint i = 0; i < e->rounds->len; i++)
    {
      double wa;

      if (!cm_endurance_get_round_write_amplification (e, i, &wa))
        {
          series = NULL;
          continue;
        }
      if (series == NULL)
        series = cm_chart_series_add (specs, ink, FALSE, FALSE);
      cm_chart_series_point (series, g_array_index (e->rounds, CmWearRound, i).round, wa);
    }
}

/* The write amplification's panel, under the speeds on the same rounds;
 * its axis starts at 0 and reaches past 1, where the card wrote no more
 * than the test. */
static void
write_amplification_spec (CmChartPanelSpec *spec,
                          GArray           *wa,
                          GArray           *ticks,
                          double            x_min,
                          double            x_max)
{
  double ex_min, ex_max, y_min, y_max;

  cm_chart_series_extent (wa, &ex_min, &ex_max, &y_min, &y_max);
  spec->title = _("Write amplification per round");
  spec->x_title = _("round");
  spec->x_fixed_ticks = ticks;
  spec->x_min = x_min;
  spec->x_max = x_max;
  spec->y_min = 0;
  spec->y_max = MAX (y_max * 1.15, 1.2);
}

static gboolean
layout (CmChartBuilder    *b,
        const CmChartRect *area)
{
  g_autoptr(GArray) speeds = cm_chart_series_specs_new ();
  g_autoptr(GArray) bad = cm_chart_series_specs_new ();
  g_autoptr(GArray) wa = cm_chart_series_specs_new ();
  g_autoptr(GArray) thresholds = cm_chart_threshold_specs_new ();
  g_autoptr(GArray) speed_ticks = NULL;
  g_autoptr(GArray) bad_ticks = NULL;
  CmChartPanelSpec left = { NULL, NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_NUMBER };
  CmChartPanelSpec right = { NULL, NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_PERCENT };
  CmChartPanelSpec below = { NULL, NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_NUMBER };
  CmChartRect left_area, right_area, wa_area;
  CmChartPanel *panel;
  double x_min, x_max, y_min, y_max, lowest = G_MAXDOUBLE, highest = 0;
  guint last = 0;
  const CmEndurance *single = NULL;

  for (guint r = 0; r < b->results->len; r++)
    {
      CmResult *result = g_ptr_array_index (b->results, r);
      const CmEndurance *e = endurance_of (result);
      CmChartSeriesSpec *write, *read;

      if (e == NULL)
        continue;
      single = b->multi ? NULL : e;
      /* Each series filled before the next is added: adding moves them. */
      write = cm_chart_series_add (speeds, cm_chart_series_ink (b, r, 0), FALSE, FALSE);
      for (guint i = 0; i < e->rounds->len; i++)
        {
          const CmWearRound *round = &g_array_index (e->rounds, CmWearRound, i);

          cm_chart_series_point (write, round->round, round->write_mb_per_s);
        }
      read = cm_chart_series_add (speeds, cm_chart_series_ink (b, r, 1), b->multi, FALSE);
      for (guint i = 0; i < e->rounds->len; i++)
        {
          const CmWearRound *round = &g_array_index (e->rounds, CmWearRound, i);

          cm_chart_series_point (read, round->round, round->read_mb_per_s);
          last = MAX (last, round->round);
          if (round->bad_sectors > 0)
            {
              lowest = MIN (lowest, bad_percent (round));
              highest = MAX (highest, bad_percent (round));
            }
        }
      add_bad_series (bad, e, b->multi ? CM_CHART_INK_SERIES + (int) r : CM_CHART_INK_BELOW);
      add_write_amplification_series (wa, e, b->multi ? cm_chart_series_ink (b, r, 0) : CM_CHART_INK_SERIES + 2);
      if (b->multi)
        cm_chart_legend_add_result (b, r, TRUE);
    }
  if (speeds->len == 0)
    return FALSE;

  if (b->multi)
    cm_chart_legend_add (b, _("Read back"), CM_CHART_INK_MUTED, FALSE, TRUE, TRUE);
  else
    {
      cm_chart_legend_add (b, _("Write"), CM_CHART_INK_SERIES, FALSE, TRUE, FALSE);
      cm_chart_legend_add (b, _("Read back"), CM_CHART_INK_SERIES + 1, FALSE, TRUE, FALSE);
      if (bad->len > 0)
        cm_chart_legend_add (b, _("Bad sectors"), CM_CHART_INK_BELOW, FALSE, TRUE, FALSE);
      if (wa->len > 0)
        cm_chart_legend_add (b, _("Write amplification"), CM_CHART_INK_SERIES + 2, FALSE, TRUE, FALSE);
    }

  /* The share thresholds as lines: those a round reached named with the
   * round (for one card), the others faint, where the axis reaches them. */
  for (guint t = 1; t < CM_ENDURANCE_N_THRESHOLDS; t++)
    {
      double percent = 100 * cm_endurance_threshold_share (t);
      g_autofree char *label = NULL;
      guint round = 0;
      gboolean reached = FALSE;

      for (guint r = 0; r < b->results->len; r++)
        {
          const CmEndurance *e = endurance_of (g_ptr_array_index (b->results, r));

          reached |= e != NULL && cm_endurance_get_threshold (e, t, NULL, NULL);
        }
      if (single != NULL && cm_endurance_get_threshold (single, t, &round, NULL))
        /* Translators: a line on the wear chart, "1 % in round 12". */
        label = g_strdup_printf (_("%g %% in round %u"), percent, round);
      else
        label = g_strdup_printf (_("%g %%"), percent);
      cm_chart_threshold_add (thresholds, percent, label, reached, CM_CHART_INK_MUTED, -1);
      /* The axis reaches down to every line a round reached. */
      if (reached)
        lowest = MIN (lowest, percent);
    }

  cm_chart_split_area (area, 2, 0, &left_area);
  cm_chart_split_area (area, 2, 1, &right_area);
  /* The write amplification takes the lower part of the speeds' room,
   * on the same rounds, and only where a round has it. */
  if (wa->len > 0)
    {
      const double gap = 16;
      double speed_height = floor ((left_area.height - gap) * 0.58);

      wa_area = left_area;
      wa_area.y = left_area.y + speed_height + gap;
      wa_area.height = left_area.height - speed_height - gap;
      left_area.height = speed_height;
    }

  /* Both panels share their rounds' ticks, spaced for the narrower plot
   * (the one with the thresholds' labels beside it). */
  cm_chart_series_extent (speeds, &x_min, &x_max, &y_min, &y_max);
  speed_ticks = round_ticks (last, MAX (2, (right_area.width - 160) / 60), &x_min, &x_max);
  left.title = _("Speed per round, MB/s");
  /* The panel under it names the rounds' axis. */
  left.x_title = wa->len > 0 ? NULL : _("round");
  left.x_fixed_ticks = speed_ticks;
  left.x_min = x_min;
  left.x_max = x_max;
  left.y_max = MAX (y_max * 1.08, 1);
  if (wa->len > 0)
    {
      /* One gutter for both, so that a round is at one x in each. */
      write_amplification_spec (&below, wa, speed_ticks, x_min, x_max);
      left.min_left = below.min_left = MAX (cm_chart_panel_left_gutter (b, &left_area, &left),
                                            cm_chart_panel_left_gutter (b, &wa_area, &below));
    }
  panel = cm_chart_panel_frame (b, &left_area, &left);
  cm_chart_layout_series (panel, speeds);
  if (wa->len > 0)
    cm_chart_layout_series (cm_chart_panel_frame (b, &wa_area, &below), wa);

  /* A card that lost nothing still gets the scale its first losses
   * would start on. */
  if (bad->len == 0)
    lowest = highest = 0.1;
  bad_ticks = g_array_copy (speed_ticks);
  /* xgettext:no-c-format */
  right.title = _("Bad sectors per round, % of the card");
  right.x_title = _("round");
  right.x_fixed_ticks = bad_ticks;
  right.x_min = x_min;
  right.x_max = x_max;
  right.y_log = TRUE;
  right.y_min = lowest;
  right.y_max = highest;
  right.thresholds = thresholds;
  panel = cm_chart_panel_frame (b, &right_area, &right);
  cm_chart_place_thresholds (b, panel, thresholds, 0);
  cm_chart_layout_series (panel, bad);

  /* Ring the round in which each threshold was first reached. */
  for (guint r = 0; r < b->results->len; r++)
    {
      const CmEndurance *e = endurance_of (g_ptr_array_index (b->results, r));
      int ink = b->multi ? CM_CHART_INK_SERIES + (int) r : CM_CHART_INK_BELOW;

      for (guint t = 0; e != NULL && t < CM_ENDURANCE_N_THRESHOLDS; t++)
        {
          const CmWearRound *round;
          CmChartMarker marker = { { 0 }, ink };
          guint n;

          if (!cm_endurance_get_threshold (e, t, &n, NULL) || (round = lookup_round (e, n)) == NULL)
            continue;
          marker.point.x = cm_chart_axis_to_pixel (&panel->x, round->round);
          marker.point.y = cm_chart_axis_to_pixel (&panel->y, bad_percent (round));
          g_array_append_val (panel->markers, marker);
        }
    }

  if (single != NULL)
    {
      guint first = cm_endurance_get_first_error_round (single);

      if (first == 0)
        {
          g_autofree char *whole = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                 "No bad sector in %u round",
                                                                 "No bad sectors in %u rounds", last),
                                                    last);

          cm_chart_place_text (b, CM_CHART_TEXT_VALUE, whole, panel->plot.x + panel->plot.width / 2,
                               panel->plot.y + panel->plot.height / 2, 0.5, 0.5, CM_CHART_INK_MUTED,
                               FALSE, TRUE, NULL);
        }
      else
        {
          const CmWearRound *round = lookup_round (single, first);
          g_autofree char *label = g_strdup_printf (_("first error, round %u"), first);
          double x = cm_chart_axis_to_pixel (&panel->x, first);
          double y = cm_chart_axis_to_pixel (&panel->y, bad_percent (round));

          double w, h;

          /* Below and right of the ring, where a curve that climbs does
           * not run, unless that leaves the plot; else above it. */
          cm_chart_measure (b, CM_CHART_TEXT_VALUE, TRUE, label, &w, &h);
          if (y + 7 + h > panel->plot.y + panel->plot.height ||
              !cm_chart_place_text (b, CM_CHART_TEXT_VALUE, label, x + 9, y + 7, 0, 0,
                                    CM_CHART_INK_BELOW, TRUE, TRUE, NULL))
            cm_chart_place_text (b, CM_CHART_TEXT_VALUE, label, x + 9, y - 7, 0, 1,
                                 CM_CHART_INK_BELOW, TRUE, TRUE, NULL);
        }
    }
  return TRUE;
}

static gboolean
has_data (CmResult *result)
{
  return endurance_of (result) != NULL;
}

/* The write amplification's panel needs room of its own under the speeds. */
static int
widget_height_for (GPtrArray *results)
{
  for (guint r = 0; r < results->len; r++)
    {
      const CmEndurance *e = endurance_of (g_ptr_array_index (results, r));
      double lo, hi;

      if (e != NULL && cm_endurance_get_write_amplification (e, &lo, &hi))
        return 400;
    }
  return 0;
}

static void
describe_write_amplification (GString           *out,
                              const CmEndurance *e)
{
  double lo, hi;

  if (!cm_endurance_get_write_amplification (e, &lo, &hi))
    g_string_append (out, _(" The card does not tell what it wrote to its flash, so its write amplification is not known."));
  else
    /* Translators: write amplification, the card's flash bytes ÷ the bytes the test wrote, e.g. "1.02 to 1.10". */
    g_string_append_printf (out, _(" Write amplification, the card's flash writes ÷ the test's: %.2f to %.2f per round."), lo, hi);
}

static void
describe (GString  *out,
          CmResult *result)
{
  const CmEndurance *e = endurance_of (result);
  const CmWearRound *last;
  double wlo = G_MAXDOUBLE, whi = 0, rlo = G_MAXDOUBLE, rhi = 0;
  guint first;
  guint64 bytes;

  if (e == NULL)
    return;
  for (guint i = 0; i < e->rounds->len; i++)
    {
      const CmWearRound *r = &g_array_index (e->rounds, CmWearRound, i);

      wlo = MIN (wlo, r->write_mb_per_s);
      whi = MAX (whi, r->write_mb_per_s);
      rlo = MIN (rlo, r->read_mb_per_s);
      rhi = MAX (rhi, r->read_mb_per_s);
    }
  last = &g_array_index (e->rounds, CmWearRound, e->rounds->len - 1);
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE,
                                            " %u round of the wear test: written at %.1f to %.1f MB/s, read back at %.1f to %.1f MB/s.",
                                            " %u rounds of the wear test: written at %.1f to %.1f MB/s, read back at %.1f to %.1f MB/s.",
                                            e->rounds->len),
                          e->rounds->len, wlo, whi, rlo, rhi);
  describe_write_amplification (out, e);
  if (!cm_endurance_get_threshold (e, 0, &first, &bytes))
    {
      g_string_append (out, _(" No sector came back wrong."));
      return;
    }
  {
    g_autofree char *size = g_format_size (bytes);

    g_string_append_printf (out, _(" First error in round %u, after %s written."), first, size);
  }
  for (guint t = 1; t < CM_ENDURANCE_N_THRESHOLDS; t++)
    {
      guint round;

      if (cm_endurance_get_threshold (e, t, &round, NULL))
        g_string_append_printf (out, _(" %g %% of the card bad by round %u."),
                                100 * cm_endurance_threshold_share (t), round);
    }
  g_string_append_printf (out, _(" In round %u, the last, %.2f %% of the card came back wrong."),
                          last->round, bad_percent (last));
}

/* This kind's row in the table of kinds (src/charts/cm-chart-kinds.c). */
const CmChartKindInfo cm_chart_kind_wear = {
  .title = N_("Wear, round by round"),
  .empty_message = N_("No wear test to show. Run “Wear Test…” to measure how a card wears out."),
  .has_data = has_data,
  .layout = layout,
  .describe = describe,
  .widget_height = 280,
  .widget_height_for = widget_height_for,
  .export_label = N_("_Wear Chart…"),
  .export_height = 560,
};
