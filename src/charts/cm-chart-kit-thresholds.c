/* cm-chart-kit-thresholds.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The class lines: which classes get one, in what ink, and where their
 * labels go.
 */

#include "config.h"

#include <math.h>

#include "cm-chart-kit-private.h"

/* Thresholds. */

void
cm_chart_threshold_add (GArray     *specs,
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
 * claim's verdict for one card, plain text for several. A class judged
 * only to show what the figures meet is not claimed. */
static gboolean
claimed_ink (CmChartBuilder *b,
             const char     *klass,
             int            *ink)
{
  for (guint i = 0; i < b->results->len; i++)
    {
      CmClaim *claim = cm_result_lookup_claim (g_ptr_array_index (b->results, i), klass);

      if (claim != NULL && cm_chart_claim_is_stated (claim))
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
  cm_chart_threshold_add (specs, value, label, claimed, ink, group);
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

  cm_chart_class_threshold (b, specs, cm_chart_class_write_mb_s ("C2"), NULL, c2, NULL, -1);
  cm_chart_class_threshold (b, specs, cm_chart_class_write_mb_s ("C4"), NULL, c4, NULL, -1);
  cm_chart_class_threshold (b, specs, cm_chart_class_write_mb_s ("C6"), NULL, c6, NULL, -1);
  cm_chart_class_threshold (b, specs, cm_chart_class_write_mb_s ("C10"), c10, v10, NULL, -1);
  cm_chart_class_threshold (b, specs, cm_chart_class_write_mb_s ("U3"), u3, NULL, NULL, -1);
  cm_chart_class_threshold (b, specs, cm_chart_class_write_mb_s ("V60"), NULL, v60, NULL, -1);
  cm_chart_class_threshold (b, specs, cm_chart_class_write_mb_s ("V90"), NULL, v90, NULL, -1);
}

double
cm_chart_thresholds_max (GArray *specs)
{
  double max = 0;

  for (guint i = 0; i < specs->len; i++)
    max = MAX (max, g_array_index (specs, CmChartThresholdSpec, i).value);
  return max;
}

/* A class line's label while its place is worked out. */
typedef struct
{
  CmChartThresholdSpec *spec;
  double                y;       /* the line, pixels */
  double                height;
  double                top;     /* where the label goes */
  gboolean              placed;
} Label;

#define LABEL_GAP 1.0

/* Once a claimed label is further than this from its line's height, the
 * claimed labels are joined to their lines by leaders; a few pixels off,
 * a label still reads as its line's. */
#define LEADER_MIN_OFFSET 3.0

/* The room leaders take between the plot and the labels. */
#define LEADER_ROOM 12.0

/* How far a line that reaches the plot's right edge runs on toward its
 * label. */
#define LINE_OVERHANG 4.0

/* Stacks labels @first to @last (in order down the plot) as one block whose
 * labels sit, on average, level with their lines, kept inside the band the
 * labels may use. */
static double
block_top (GArray *labels,
           guint   first,
           guint   last,
           double  top_limit,
           double  bottom_limit)
{
  double offset = 0, sum = 0, top;
  guint n = last - first + 1;

  for (guint i = first; i <= last; i++)
    {
      Label *label = &g_array_index (labels, Label, i);

      sum += label->y - (offset + label->height / 2);
      offset += label->height + LABEL_GAP;
    }
  top = sum / n;
  top = MIN (top, bottom_limit - (offset - LABEL_GAP));
  return MAX (top, top_limit);
}

static void
stack_block (GArray *labels,
             guint   first,
             guint   last,
             double  top)
{
  for (guint i = first; i <= last; i++)
    {
      Label *label = &g_array_index (labels, Label, i);

      label->top = top;
      label->placed = TRUE;
      top += label->height + LABEL_GAP;
    }
}

static double
block_bottom (GArray *labels,
              guint   last)
{
  Label *label = &g_array_index (labels, Label, last);

  return label->top + label->height;
}

/* The claimed classes always keep their label. Where their lines are
 * closer than a label is tall, their labels stack into a block centred on
 * the lines, in the lines' order, merging blocks until none overlap. */
static void
place_claimed (GArray *claimed,
               double  top_limit,
               double  bottom_limit)
{
  g_autoptr(GArray) firsts = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < claimed->len; i++)
    {
      guint first = i;

      for (;;)
        {
          stack_block (claimed, first, i, block_top (claimed, first, i, top_limit, bottom_limit));
          if (firsts->len == 0 ||
              block_bottom (claimed, first - 1) + LABEL_GAP <= g_array_index (claimed, Label, first).top)
            break;
          first = g_array_index (firsts, guint, firsts->len - 1);
          g_array_set_size (firsts, firsts->len - 1);
        }
      g_array_append_val (firsts, first);
    }
}

static gboolean
label_fits (GArray      *placed,
            const Label *label)
{
  for (guint i = 0; i < placed->len; i++)
    {
      Label *other = &g_array_index (placed, Label, i);

      if (label->top < other->top + other->height + LABEL_GAP &&
          other->top < label->top + label->height + LABEL_GAP)
        return FALSE;
    }
  return TRUE;
}

static gboolean
label_needs_leader (const Label *label)
{
  return label->spec->claimed && fabs (label->top + label->height / 2 - label->y) > LEADER_MIN_OFFSET;
}

/* The labels that have room, each with its line's height and its own:
 * the claimed ones stacked beside their lines, then each unclaimed one
 * level with its line if it keeps clear of those already there. Works
 * only from the y axis, so the panel's frame can ask it before the plot's
 * width is settled. */
static GArray *
labels_new (CmChartBuilder     *b,
            const CmChartPanel *panel,
            GArray             *specs)
{
  g_autoptr(GArray) claimed = g_array_new (FALSE, FALSE, sizeof (Label));
  GArray *placed = g_array_new (FALSE, FALSE, sizeof (Label));
  const CmChartRect *plot = &panel->plot;
  double tick_w, tick_h, top_limit, bottom_limit;

  /* The band the y ticks use, and no lower than the x ticks' tops. */
  cm_chart_measure (b, CM_CHART_TEXT_TICK, FALSE, "0", &tick_w, &tick_h);
  top_limit = plot->y - tick_h / 2;
  bottom_limit = plot->y + plot->height + GAP / 2;

  /* @specs runs up the values, so backwards runs down the plot. */
  for (guint i = specs->len; i-- > 0;)
    {
      CmChartThresholdSpec *spec = &g_array_index (specs, CmChartThresholdSpec, i);
      Label label = { spec, 0, 0, 0, FALSE };
      double w;

      if (spec->value > panel->y.max || spec->value < panel->y.min || !spec->claimed)
        continue;
      label.y = cm_chart_axis_to_pixel (&panel->y, spec->value);
      cm_chart_measure (b, CM_CHART_TEXT_THRESHOLD, TRUE, spec->label, &w, &label.height);
      g_array_append_val (claimed, label);
    }
  place_claimed (claimed, top_limit, bottom_limit);
  g_array_append_vals (placed, claimed->data, claimed->len);

  for (guint i = specs->len; i-- > 0;)
    {
      CmChartThresholdSpec *spec = &g_array_index (specs, CmChartThresholdSpec, i);
      Label label = { spec, 0, 0, 0, FALSE };
      double w;

      if (spec->value > panel->y.max || spec->value < panel->y.min || spec->claimed)
        continue;
      label.y = cm_chart_axis_to_pixel (&panel->y, spec->value);
      cm_chart_measure (b, CM_CHART_TEXT_THRESHOLD, FALSE, spec->label, &w, &label.height);
      label.top = CLAMP (label.y - label.height / 2, top_limit, bottom_limit - label.height);
      if (label_fits (placed, &label))
        g_array_append_val (placed, label);
    }
  return placed;
}

static gboolean
any_leader (GArray *labels)
{
  for (guint i = 0; i < labels->len; i++)
    if (label_needs_leader (&g_array_index (labels, Label, i)))
      return TRUE;
  return FALSE;
}

/* The room right of the plot that the labels of @specs take, leaders
 * included; the panel's y axis must be in place. */
double
cm_chart_thresholds_gutter (CmChartBuilder     *b,
                            const CmChartPanel *panel,
                            GArray             *specs,
                            double              widest)
{
  g_autoptr(GArray) labels = labels_new (b, panel, specs);

  return widest + 2 * GAP + (any_leader (labels) ? LEADER_ROOM : 0);
}

static void
add_line (CmChartPanel      *panel,
          const Label       *label,
          const CmChartRect *box,
          double             group_width,
          gboolean           leaders)
{
  CmChartThresholdSpec *spec = label->spec;
  CmChartRect *plot = &panel->plot;
  double edge = plot->x + plot->width;
  CmChartThreshold t = { 0 };

  t.value = spec->value;
  t.y = label->y;
  t.x0 = spec->group < 0 ? plot->x : plot->x + spec->group * group_width;
  t.x1 = spec->group < 0 ? edge : t.x0 + group_width;
  if (t.x1 >= edge - 1)
    t.x1 = edge + LINE_OVERHANG;
  t.label = g_strdup (spec->label);
  t.claimed = spec->claimed;
  t.ink = spec->ink;
  t.label_box = *box;

  /* Once some label has moved off its line, every claimed line runs on
   * to its label, so that the labels level with their lines do not look
   * cut off. All leaders start at one x, where the lines that reach the
   * edge end: a line that stops short (one bar group's) is met there at
   * its height, so its leader crosses no bars, and leaders starting and
   * ending in the same order never cross each other. */
  t.leader = leaders && spec->claimed;
  if (t.leader)
    {
      t.leader_start = (CmChartPoint) { edge + LINE_OVERHANG, t.y };
      t.leader_end = (CmChartPoint) { box->x - 1, box->y + box->height / 2 };
    }
  g_array_append_val (panel->thresholds, t);
}

/* The thresholds' labels go in a gutter right of the plot, at the height
 * of their line. Fast results squeeze the lines near zero, closer than a
 * label is tall: then the claimed classes' labels stack beside their
 * lines, each joined to its line by a leader when it had to move off it,
 * and an unclaimed line whose label has no room is left out with its
 * label, so that every line drawn is named and no two names overlap. */
void
cm_chart_place_thresholds (CmChartBuilder *b,
                           CmChartPanel   *panel,
                           GArray         *specs,
                           double          group_width)
{
  g_autoptr(GArray) placed = labels_new (b, panel, specs);
  CmChartRect *plot = &panel->plot;
  gboolean leaders = any_leader (placed);
  double x = plot->x + plot->width + GAP + (leaders ? LEADER_ROOM : 0);

  for (guint i = 0; i < placed->len; i++)
    {
      Label *label = &g_array_index (placed, Label, i);
      CmChartThresholdSpec *spec = label->spec;
      CmChartRect box;

      /* The gutter is kept for these labels, so a claimed one needs no
       * check; an unclaimed one still gives way to any other text. */
      if (cm_chart_place_text (b, CM_CHART_TEXT_THRESHOLD, spec->label, x, label->top,
                               0, 0, spec->ink, spec->claimed, !spec->claimed, &box))
        add_line (panel, label, &box, group_width, leaders);
    }
}
