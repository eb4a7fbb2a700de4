/* test-charts.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <cairo.h>
#include <glib/gstdio.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>

#include "cm-chart-capacity.h"
#include "cm-chart-layout.h"
#include "cm-chart-live.h"
#include "cm-chart-private.h"
#include "cm-stats.h"
#include "cm-verdict.h"

#include "cm-chart.h"

#define MiB (1024 * 1024)

/* Throughput samples of a sequential write, 4 a second, that run at
 * @fast MB/s until the card's cache fills at @cliff_s, then at @slow. */
static void
add_cliff_samples (CmTestResult *test,
                   double        seconds,
                   double        cliff_s,
                   double        fast,
                   double        slow,
                   GRand        *rand)
{
  guint64 total = 0;

  for (double t = 0; t < seconds - 1e-9; t += 0.25)
    {
      double rate = (t < cliff_s ? fast : slow) * g_rand_double_range (rand, 0.93, 1.07);
      CmSample s = { t, t + 0.25, (guint64) (rate * 1e6 * 0.25) };

      g_array_append_val (test->samples, s);
      total += s.bytes;
    }
  test->bytes = total;
  test->seconds = seconds;
  test->mb_per_s = total / seconds / 1e6;
  test->sustained_mb_per_s = cm_stats_sustained_mb_per_s ((CmSample *) test->samples->data, test->samples->len);
}

static CmTestResult *
make_seq (const char *name,
          double      seconds,
          double      cliff_s,
          double      fast,
          double      slow,
          GRand      *rand)
{
  CmTestResult *test = cm_test_result_new (name);

  test->block_size = 4 * MiB;
  test->queue_depth = 1;
  add_cliff_samples (test, seconds, cliff_s, fast, slow, rand);
  test->iops = test->mb_per_s * 1e6 / test->block_size;
  return test;
}

/* A random 4K test: per-command latencies, log-normal with rare stalls
 * (a card's garbage collection), and the figures that follow from them. */
static CmTestResult *
make_random_n (const char *name,
               guint       queue_depth,
               double      median_us,
               guint       n,
               GRand      *rand)
{
  CmTestResult *test = cm_test_result_new (name);
  g_autofree float *sorted = g_new (float, n);
  double sum = 0;

  test->block_size = 4096;
  test->queue_depth = queue_depth;
  for (guint i = 0; i < n; i++)
    {
      double u1 = g_rand_double_range (rand, 1e-9, 1), u2 = g_rand_double (rand);
      double normal = sqrt (-2 * log (u1)) * cos (2 * G_PI * u2);
      double us = median_us * exp (0.35 * normal);
      CmLatencyPoint p;

      if (g_rand_int_range (rand, 0, 200) == 0)
        us *= 40;
      p.t = (float) (sum / 1e6);
      p.us = (float) us;
      g_array_append_val (test->scatter, p);
      sorted[i] = p.us;
      sum += us;
    }
  cm_stats_sort_floats (sorted, n);
  test->latency_us[0] = cm_stats_percentile (sorted, n, 50);
  test->latency_us[1] = cm_stats_percentile (sorted, n, 90);
  test->latency_us[2] = cm_stats_percentile (sorted, n, 99);
  test->latency_us[3] = sorted[n - 1];
  test->seconds = sum / 1e6 / queue_depth;
  test->iops = n / test->seconds;
  test->bytes = (guint64) n * 4096;
  test->mb_per_s = test->bytes / test->seconds / 1e6;
  return test;
}

static CmTestResult *
make_random (const char *name,
             guint       queue_depth,
             double      median_us,
             GRand      *rand)
{
  return make_random_n (name, queue_depth, median_us, 2000, rand);
}

static CmResult *
make_result (const char *name,
             double      speed,
             const char *claims_csv,
             gboolean    full)
{
  CmResult *result = cm_result_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (g_str_hash (name));
  g_auto(GStrv) claims = cm_verdict_parse_classes (claims_csv, NULL);

  cm_result_set_name (result, name);
  cm_result_set_target (result, "/media/card", "file", "/dev/sdb", "usb");
  cm_result_set_profile (result, full ? "full" : "quick");
  cm_result_set_usb_speed_mbps (result, 5000);

  cm_result_take_test (result, make_seq ("seq-write", 12, 4, 2.2 * speed, speed, rand));
  cm_result_take_test (result, make_seq ("seq-read", 6, 99, 2.6 * speed, 2.6 * speed, rand));
  cm_result_take_test (result, make_random ("rand-write-4k", 1, 1800 / speed * 30, rand));
  cm_result_take_test (result, make_random ("rand-read-4k", 1, 420, rand));
  cm_result_take_test (result, make_random ("rand-write-4k-qd32", 32, 18000, rand));
  cm_result_take_test (result, make_random ("rand-read-4k-qd32", 32, 7600, rand));

  if (full)
    {
      static const gsize sizes[] = { 4096, 64 * 1024, 512 * 1024, 4 * MiB, 16 * MiB };
      CmTestResult *surface = cm_test_result_new ("surface-read");

      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        for (guint d = 0; d < 2; d++)
          {
            /* Named in MiB/KiB like the plan, but the chart must use block_size. */
            g_autofree char *test_name = g_strdup_printf ("%s%" G_GSIZE_FORMAT "k", d ? "sweep-write-" : "sweep-read-",
                                                          sizes[i] / 1024);
            CmTestResult *test = cm_test_result_new (test_name);
            double knee = 1 - exp (-(double) sizes[i] / (256.0 * 1024));

            test->block_size = sizes[i];
            test->queue_depth = 1;
            test->mb_per_s = (d ? speed * 1.1 : speed * 2.7) * MAX (knee, 0.03);
            cm_result_take_test (result, test);
          }

      for (guint i = 0; i < 128; i++)
        {
          CmPosition p = { i * 62.5e9 / 128, 2.6 * speed * (i > 100 ? 0.9 : 1) * g_rand_double_range (rand, 0.97, 1.03) };

          g_array_append_val (surface->positions, p);
        }
      cm_result_take_test (result, surface);
      cm_result_take_test (result, make_seq ("seq-write-sustained", 60, 9, 2.2 * speed, 0.8 * speed, rand));
    }

  cm_verdict_judge (result, (const char * const *) claims, "label");
  return result;
}

static GPtrArray *
one_card (gboolean full)
{
  GPtrArray *results = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (results, make_result ("SanDisk Extreme 64GB", 24, "U3,V30,A2", full));
  return results;
}

/* A folder on an SSD: sequential figures in the GB/s, so the class lines
 * at 10 and 30 MB/s sit a few pixels apart near zero. */
static GPtrArray *
fast_card (const char *claims)
{
  GPtrArray *results = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (results, make_result ("NVMe folder", 700, claims, FALSE));
  return results;
}

static GPtrArray *
three_cards (void)
{
  GPtrArray *results = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (results, make_result ("SanDisk Extreme", 40, "U3,V30,A2", TRUE));
  g_ptr_array_add (results, make_result ("Samsung EVO Plus", 30, "U3,A1", TRUE));
  g_ptr_array_add (results, make_result ("Thẻ nhớ 카드 カード", 9, "C10,U1", TRUE));
  return results;
}

/* The value a tick label stands for, read back from its text. */
static gboolean
tick_value (const CmChartText *text,
            double            *value)
{
  char *end;

  if (text->role != CM_CHART_TEXT_TICK)
    return FALSE;
  *value = g_ascii_strtod (text->text, &end);
  return end != text->text;
}

/* The y tick labels left of a panel's plot, as (value, centre) pairs. */
static GArray *
y_tick_labels (CmChartLayout *layout,
               CmChartPanel  *panel)
{
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < layout->texts->len; i++)
    {
      CmChartText *text = &g_array_index (layout->texts, CmChartText, i);
      double value, centre;

      if (!tick_value (text, &value) ||
          fabs (text->box.x + text->box.width - (panel->plot.x - 6)) > 0.5 ||
          text->box.y < panel->plot.y - text->box.height || text->box.y > panel->plot.y + panel->plot.height)
        continue;
      centre = text->box.y + text->box.height / 2;
      g_array_append_val (pairs, value);
      g_array_append_val (pairs, centre);
    }
  return pairs;
}

static CmChartLayout *
summary_layout (GPtrArray *results)
{
  CmChartLayout *layout = cm_chart_layout_new (CM_CHART_SUMMARY, results, 800, 480, NULL, TRUE);

  g_assert_false (layout->empty);
  g_assert_cmpuint (layout->panels->len, ==, 2);
  return layout;
}

/* Full verifies of @n cards: write and read-back speed by position, and
 * two regions that lost data, the second past the last speed point. */
static const CmRegion verify_regions[] = { { 400000000, 410000000 }, { 900000000, 1000000000 } };

static GPtrArray *
verify_cards (guint n)
{
  GPtrArray *results = g_ptr_array_new_with_free_func (g_object_unref);
  const char *names[] = { "verify-write", "verify-read" };

  for (guint r = 0; r < n; r++)
    {
      g_autoptr(CmVerifySummary) v = cm_verify_summary_new ();
      g_autofree char *name = g_strdup_printf ("Card %u", r + 1);
      CmResult *result = cm_result_new ();

      for (guint t = 0; t < G_N_ELEMENTS (names); t++)
        {
          CmTestResult *test = cm_test_result_new (names[t]);

          for (guint i = 0; i < 100; i++)
            {
              CmPosition p = { i * 1e7, (t + 1) * 10.0 + i % 3 + r * 5 };

              g_array_append_val (test->positions, p);
            }
          cm_result_take_test (result, test);
        }
      v->mode = g_strdup ("files");
      g_array_append_vals (v->bad_regions, verify_regions, G_N_ELEMENTS (verify_regions));
      v->first_bad_offset = verify_regions[0].start;
      cm_result_set_verify (result, v);
      cm_result_set_name (result, name);
      g_ptr_array_add (results, result);
    }
  return results;
}

/* Wear tests of @n cards: rounds that lose nothing at first, then more of
 * the card round by round, each card a little later than the one before. */
static GPtrArray *
wear_cards (guint n)
{
  GPtrArray *results = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint r = 0; r < n; r++)
    {
      g_autoptr(CmEndurance) e = cm_endurance_new ();
      g_autofree char *name = g_strdup_printf ("Card %u", r + 1);
      CmResult *result = cm_result_new ();
      guint64 sectors = 65536, before = 0;

      for (guint i = 1; i <= 12; i++)
        {
          guint64 bad = i < 4 + r ? 0 : MIN (sectors, (guint64) (3 * pow (4, i - 4 - r)));
          CmWearRound round = { i, 180 - i * 2.0 - r * 10, 300 - (i > 6 ? i * 8.0 : 0) - r * 10,
                                sectors, bad, bad > before ? bad - before : 0,
                                i * sectors * 512, 0.2 };

          g_array_append_val (e->rounds, round);
          before = MAX (before, bad);
        }
      e->stopped = g_strdup ("half-bad");
      cm_result_set_kind (result, "wear");
      cm_result_set_endurance (result, e);
      cm_result_set_name (result, name);
      g_ptr_array_add (results, result);
    }
  return results;
}

/* The results a kind's tests draw: a verify's or a wear test's own
 * documents, else benchmarks. */
static GPtrArray *
input_for (CmChartKind  k,
           GPtrArray   *bench,
           GPtrArray   *verify,
           GPtrArray   *wear)
{
  if (k == CM_CHART_VERIFY)
    return verify;
  if (k == CM_CHART_WEAR)
    return wear;
  return bench;
}

static void
test_kind_names (void)
{
  CmChartKind kind;

  for (guint i = 0; i < CM_CHART_N_KINDS; i++)
    {
      g_assert_true (cm_chart_kind_from_string (cm_chart_kind_to_string (i), &kind));
      g_assert_cmpint (kind, ==, i);
      g_assert_nonnull (cm_chart_kind_get_title (i));
    }
  g_assert_true (cm_chart_kind_from_string ("write-over-time", &kind));
  g_assert_cmpint (kind, ==, CM_CHART_WRITE_OVER_TIME);
  g_assert_false (cm_chart_kind_from_string ("pie", &kind));
  g_assert_false (cm_chart_kind_from_string (NULL, &kind));
}

/* The GEnum type .ui files set a chart view's `kind` through: one value
 * per kind, whose nick is the kind's name. */
static void
test_kind_enum (void)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (CM_TYPE_CHART_KIND);

  g_assert_true (G_TYPE_IS_ENUM (CM_TYPE_CHART_KIND));
  g_assert_cmpuint (klass->n_values, ==, CM_CHART_N_KINDS);
  for (guint i = 0; i < CM_CHART_N_KINDS; i++)
    {
      GEnumValue *value = g_enum_get_value_by_nick (klass, cm_chart_kind_to_string (i));

      g_assert_nonnull (value);
      g_assert_cmpint (value->value, ==, i);
    }
  g_assert_null (g_enum_get_value_by_nick (klass, "pie"));
}

/* A kind the app offers to export has a label to offer it by and a
 * height to export it at; one it does not offer has neither. */
static void
test_kind_export (void)
{
  guint offered = 0;

  for (guint i = 0; i < CM_CHART_N_KINDS; i++)
    {
      const char *label = cm_chart_kind_get_export_label (i);

      g_test_message ("%s: %s, %d px", cm_chart_kind_to_string (i), label, cm_chart_kind_get_export_height (i));
      g_assert_cmpint (label != NULL, ==, cm_chart_kind_get_export_height (i) > 0);
      offered += label != NULL;
    }
  g_assert_cmpuint (offered, >, 0);
  g_assert_cmpint (cm_chart_kind_get_export_height (CM_CHART_SUMMARY), >, 0);
  g_assert_null (cm_chart_kind_get_export_label (CM_CHART_CAPACITY_MAP));
}

/* A class line drawn where the y axis's own labels say its value is. */
static void
test_threshold_position (void)
{
  g_autoptr(GPtrArray) results = one_card (FALSE);
  g_autoptr(CmChartLayout) layout = summary_layout (results);
  guint checked = 0;

  for (guint p = 0; p < layout->panels->len; p++)
    {
      CmChartPanel *panel = g_ptr_array_index (layout->panels, p);
      g_autoptr(GArray) ticks = y_tick_labels (layout, panel);
      double v0, y0, v1, y1;

      g_assert_cmpuint (ticks->len, >=, 6);
      v0 = g_array_index (ticks, double, 0);
      y0 = g_array_index (ticks, double, 1);
      v1 = g_array_index (ticks, double, ticks->len - 2);
      y1 = g_array_index (ticks, double, ticks->len - 1);

      for (guint i = 0; i < panel->thresholds->len; i++)
        {
          CmChartThreshold *t = &g_array_index (panel->thresholds, CmChartThreshold, i);
          double read_back = v0 + (t->y - y0) / (y1 - y0) * (v1 - v0);

          g_assert_cmpfloat_with_epsilon (read_back, t->value, (v1 - v0) * 0.005);
          g_assert_cmpfloat_with_epsilon (t->y, cm_chart_axis_to_pixel (&panel->y, t->value), 1e-6);
          g_assert_cmpfloat (t->y, >=, panel->plot.y - 0.5);
          g_assert_cmpfloat (t->y, <=, panel->plot.y + panel->plot.height + 0.5);
          checked++;
        }
    }

  /* 10 and 30 MB/s, A1's two and A2's two (claimed). */
  g_assert_cmpuint (checked, ==, 6);
}

static CmChartThreshold *
find_threshold (CmChartLayout *layout,
                const char    *label)
{
  for (guint p = 0; p < layout->panels->len; p++)
    {
      CmChartPanel *panel = g_ptr_array_index (layout->panels, p);

      for (guint i = 0; i < panel->thresholds->len; i++)
        {
          CmChartThreshold *t = &g_array_index (panel->thresholds, CmChartThreshold, i);

          if (g_strcmp0 (t->label, label) == 0)
            return t;
        }
    }
  return NULL;
}

static void
test_threshold_claims (void)
{
  g_autoptr(GPtrArray) results = one_card (FALSE);
  g_autoptr(CmChartLayout) layout = summary_layout (results);
  CmResult *result = g_ptr_array_index (results, 0);
  CmChartThreshold *u3 = find_threshold (layout, "U3/V30");
  CmChartThreshold *c10 = find_threshold (layout, "C10/U1");
  CmChartThreshold *a2 = find_threshold (layout, "A2 read");
  CmClaim *claim = NULL;

  g_assert_nonnull (u3);
  g_assert_nonnull (c10);
  g_assert_nonnull (a2);
  g_assert_cmpfloat (u3->value, ==, 30);
  g_assert_cmpfloat (a2->value, ==, 4000);
  g_assert_true (u3->claimed);
  g_assert_false (c10->claimed);
  g_assert_true (a2->claimed);
  /* A claimed line takes its verdict's colour. */
  for (guint i = 0; i < cm_result_get_claims (result)->len; i++)
    if (g_strcmp0 (((CmClaim *) g_ptr_array_index (cm_result_get_claims (result), i))->klass, "U3") == 0)
      claim = g_ptr_array_index (cm_result_get_claims (result), i);
  g_assert_nonnull (claim);
  g_assert_cmpint (u3->ink, ==, claim->status == CM_STATUS_MEETS ? CM_CHART_INK_MEETS :
                                claim->status == CM_STATUS_MARGINAL ? CM_CHART_INK_MARGINAL :
                                claim->status == CM_STATUS_BELOW ? CM_CHART_INK_BELOW : CM_CHART_INK_NOT_JUDGED);
  /* V90 is not claimed, so it has no line. */
  g_assert_null (find_threshold (layout, "V90"));
}

static void
test_bars_proportional (void)
{
  g_autoptr(GPtrArray) results = three_cards ();
  g_autoptr(CmChartLayout) layout = summary_layout (results);
  guint n = 0;

  for (guint p = 0; p < layout->panels->len; p++)
    {
      CmChartPanel *panel = g_ptr_array_index (layout->panels, p);
      double base = panel->plot.y + panel->plot.height;
      double ratio = 0;

      for (guint i = 0; i < panel->bars->len; i++)
        {
          CmChartBar *bar = &g_array_index (panel->bars, CmChartBar, i);
          CmTestResult *test = cm_result_lookup_test (g_ptr_array_index (results, bar->result), bar->test);
          double figure = p == 0 ? test->mb_per_s : test->iops;

          g_assert_cmpfloat (bar->value, ==, figure);
          g_assert_cmpfloat_with_epsilon (bar->rect.y + bar->rect.height, base, 1e-6);
          if (ratio == 0)
            ratio = bar->rect.height / figure;
          g_assert_cmpfloat_with_epsilon (bar->rect.height / figure, ratio, ratio * 1e-6);
          g_assert_cmpfloat (bar->rect.y, >=, panel->plot.y - 0.5);
          n++;
        }
    }
  /* 3 cards × (2 sequential + 4 random). */
  g_assert_cmpuint (n, ==, 18);
}

static gboolean
is_round_step (double step)
{
  double magnitude = pow (10, floor (log10 (step) + 1e-9));
  double m = step / magnitude;

  return fabs (m - 1) < 1e-6 || fabs (m - 2) < 1e-6 || fabs (m - 5) < 1e-6;
}

static void
check_linear_ticks (CmChartAxis *axis,
                    double       data_max)
{
  GArray *ticks = axis->ticks;
  double step;

  g_assert_false (axis->log);
  g_assert_cmpuint (ticks->len, >=, 3);
  g_assert_cmpuint (ticks->len, <=, 12);
  step = g_array_index (ticks, double, 1) - g_array_index (ticks, double, 0);
  g_assert_true (is_round_step (step));
  for (guint i = 0; i < ticks->len; i++)
    {
      double v = g_array_index (ticks, double, i);

      g_assert_cmpfloat_with_epsilon (v / step, round (v / step), 1e-6);
      if (i > 0)
        g_assert_cmpfloat_with_epsilon (v - g_array_index (ticks, double, i - 1), step, step * 1e-6);
    }
  g_assert_cmpfloat (g_array_index (ticks, double, 0), <=, 0);
  g_assert_cmpfloat (g_array_index (ticks, double, ticks->len - 1), >=, data_max);
}

static void
test_ticks (void)
{
  g_autoptr(GPtrArray) results = three_cards ();
  g_autoptr(CmChartLayout) summary = summary_layout (results);
  g_autoptr(CmChartLayout) time = cm_chart_layout_new (CM_CHART_WRITE_OVER_TIME, results, 800, 480, NULL, TRUE);
  g_autoptr(CmChartLayout) latency = cm_chart_layout_new (CM_CHART_LATENCY, results, 800, 480, NULL, TRUE);
  CmChartPanel *panel;
  double max = 0, max_t = 0;

  for (guint p = 0; p < summary->panels->len; p++)
    {
      panel = g_ptr_array_index (summary->panels, p);
      max = 0;
      for (guint i = 0; i < panel->bars->len; i++)
        max = MAX (max, g_array_index (panel->bars, CmChartBar, i).value);
      check_linear_ticks (&panel->y, max);
    }

  max = 0;
  for (guint r = 0; r < results->len; r++)
    {
      CmTestResult *test = cm_result_lookup_test (g_ptr_array_index (results, r), "seq-write-sustained");

      for (guint i = 0; i < test->samples->len; i++)
        {
          max = MAX (max, cm_stats_sample_mb_per_s (&g_array_index (test->samples, CmSample, i)));
          max_t = MAX (max_t, g_array_index (test->samples, CmSample, i).t_end);
        }
    }
  panel = g_ptr_array_index (time->panels, 0);
  check_linear_ticks (&panel->y, max);
  check_linear_ticks (&panel->x, max_t * 0.99);

  /* Latency on a log axis: decades with 1-2-5 steps, covering every point. */
  panel = g_ptr_array_index (latency->panels, 0);
  g_assert_true (panel->y.log);
  for (guint i = 0; i < panel->y.ticks->len; i++)
    g_assert_true (is_round_step (g_array_index (panel->y.ticks, double, i)));
  for (guint s = 0; s < panel->series->len; s++)
    {
      CmChartSeries *series = g_ptr_array_index (panel->series, s);

      for (guint i = 0; i < series->points->len; i++)
        {
          CmChartPoint *pt = &g_array_index (series->points, CmChartPoint, i);

          g_assert_cmpfloat (pt->y, >=, panel->plot.y - 0.5);
          g_assert_cmpfloat (pt->y, <=, panel->plot.y + panel->plot.height + 0.5);
        }
    }
}

static void
check_no_overlap (CmChartLayout *layout)
{
  for (guint i = 0; i < layout->texts->len; i++)
    {
      CmChartText *a = &g_array_index (layout->texts, CmChartText, i);

      g_assert_cmpfloat (a->box.x, >=, 0);
      g_assert_cmpfloat (a->box.y, >=, 0);
      g_assert_cmpfloat (a->box.x + a->box.width, <=, layout->width + 0.5);
      g_assert_cmpfloat (a->box.y + a->box.height, <=, layout->height + 0.5);
      for (guint j = i + 1; j < layout->texts->len; j++)
        {
          CmChartText *b = &g_array_index (layout->texts, CmChartText, j);

          if (cm_chart_rect_intersects (&a->box, &b->box))
            g_error ("“%s” overlaps “%s” in the %s chart", a->text, b->text,
                     cm_chart_kind_to_string (layout->kind));
        }
    }
}

static void
test_no_overlap (void)
{
  g_autoptr(GPtrArray) bench_one = one_card (TRUE);
  g_autoptr(GPtrArray) bench_three = three_cards ();
  g_autoptr(GPtrArray) verify_one = verify_cards (1);
  g_autoptr(GPtrArray) verify_three = verify_cards (3);
  g_autoptr(GPtrArray) wear_one = wear_cards (1);
  g_autoptr(GPtrArray) wear_three = wear_cards (3);
  static const double sizes[][2] = { { 800, 480 }, { 1200, 700 }, { 400, 600 } };

  for (guint k = 0; k < CM_CHART_N_KINDS; k++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes) && k != CM_CHART_CAPACITY_MAP; s++)
      {
        /* A full verify and a wear test are runs of their own, with their
         * own documents. */
        GPtrArray *one = input_for (k, bench_one, verify_one, wear_one);
        GPtrArray *three = input_for (k, bench_three, verify_three, wear_three);
        g_autoptr(CmChartLayout) a = cm_chart_layout_new (k, one, sizes[s][0], sizes[s][1], NULL, TRUE);
        g_autoptr(CmChartLayout) b = cm_chart_layout_new (k, three, sizes[s][0], sizes[s][1], NULL, TRUE);

        g_assert_false (a->empty);
        g_assert_false (b->empty);
        g_assert_cmpuint (a->texts->len, >, 5);
        check_no_overlap (a);
        check_no_overlap (b);
      }
}

/* The label drawn for @t, or NULL. */
static CmChartText *
threshold_text (CmChartLayout    *layout,
                CmChartThreshold *t)
{
  for (guint i = 0; i < layout->texts->len; i++)
    {
      CmChartText *text = &g_array_index (layout->texts, CmChartText, i);

      if (text->role == CM_CHART_TEXT_THRESHOLD && g_strcmp0 (text->text, t->label) == 0)
        return text;
    }
  return NULL;
}

/* Whether a line's label names @klass ("U3/V30" names U3). */
static gboolean
label_names (const char *label,
             const char *klass)
{
  g_auto(GStrv) words = g_strsplit_set (label, "/ ", -1);

  return g_strv_contains ((const char * const *) words, klass);
}

/* Class labels never overlap, every line drawn carries its label near it,
 * in the lines' order, and every claimed speed class is among them. */
static void
check_threshold_labels (CmChartLayout *layout,
                        CmResult      *result)
{
  CmChartPanel *panel = g_ptr_array_index (layout->panels, 0);
  GPtrArray *claims = cm_result_get_claims (result);
  guint claimed_speeds = 0;

  check_no_overlap (layout);
  g_assert_cmpuint (panel->thresholds->len, >, 0);
  for (guint i = 0; i < panel->thresholds->len; i++)
    {
      CmChartThreshold *t = &g_array_index (panel->thresholds, CmChartThreshold, i);
      CmChartText *text = threshold_text (layout, t);
      guint crowd = 0;

      if (text == NULL)
        g_error ("The line at %g MB/s (%s) has no label in the %s chart", t->value, t->label,
                 cm_chart_kind_to_string (layout->kind));
      g_assert_cmpfloat (text->box.x, >=, panel->plot.x + panel->plot.width);
      for (guint j = 0; j < panel->thresholds->len; j++)
        {
          CmChartThreshold *u = &g_array_index (panel->thresholds, CmChartThreshold, j);
          CmChartText *other = threshold_text (layout, u);

          /* A higher figure's label sits higher. */
          if (u->value > t->value)
            g_assert_cmpfloat (other->box.y, <, text->box.y);
          /* Labels of lines close together may stack, one height each. */
          if (fabs (u->y - t->y) < 4 * text->box.height)
            crowd++;
        }
      /* Level with its line, or no further off than its neighbours' labels push it. */
      g_assert_cmpfloat (fabs (text->box.y + text->box.height / 2 - t->y), <=, crowd * text->box.height);
    }

  for (guint c = 0; c < claims->len; c++)
    {
      const char *klass = ((CmClaim *) g_ptr_array_index (claims, c))->klass;
      gboolean found = FALSE;

      if (cm_chart_class_write_mb_s (klass) <= 0)
        continue;
      claimed_speeds++;
      for (guint i = 0; i < panel->thresholds->len; i++)
        {
          CmChartThreshold *t = &g_array_index (panel->thresholds, CmChartThreshold, i);

          found |= t->claimed && label_names (t->label, klass);
        }
      if (!found)
        g_error ("The claimed class %s has no labelled line in the %s chart", klass,
                 cm_chart_kind_to_string (layout->kind));
    }
  g_assert_cmpuint (claimed_speeds, >, 0);
}

/* GB/s results put the 10 and 30 MB/s lines a few pixels apart. */
static void
test_threshold_labels_fast (void)
{
  static const char * const claim_sets[] = { "C10,U1,U3,V30", "U3,V30", "C10,U1,U3,V10,V30,V60,V90" };
  static const double sizes[][2] = { { 800, 480 }, { 400, 600 }, { 1200, 700 } };

  for (guint c = 0; c < G_N_ELEMENTS (claim_sets); c++)
    {
      g_autoptr(GPtrArray) fast = fast_card (claim_sets[c]);

      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          g_autoptr(CmChartLayout) summary = cm_chart_layout_new (CM_CHART_SUMMARY, fast, sizes[s][0], sizes[s][1], NULL, TRUE);
          g_autoptr(CmChartLayout) time = cm_chart_layout_new (CM_CHART_WRITE_OVER_TIME, fast, sizes[s][0], sizes[s][1], NULL, TRUE);
          CmChartPanel *panel = g_ptr_array_index (summary->panels, 0);
          CmChartThreshold *t10 = NULL, *t30 = NULL;

          for (guint i = 0; i < panel->thresholds->len; i++)
            {
              CmChartThreshold *t = &g_array_index (panel->thresholds, CmChartThreshold, i);

              if (t->value == 10)
                t10 = t;
              if (t->value == 30)
                t30 = t;
            }
          /* The case this is about: the two lines closer than a label is tall. */
          g_assert_nonnull (t30);
          if (t10 != NULL)
            g_assert_cmpfloat (t10->y - t30->y, <, threshold_text (summary, t30)->box.height);
          check_threshold_labels (summary, g_ptr_array_index (fast, 0));
          check_threshold_labels (time, g_ptr_array_index (fast, 0));
        }
    }
}

/* Every point of a line chart inside its plot, whatever the sample count. */
static void
check_series_in_plot (CmChartLayout *layout)
{
  for (guint p = 0; p < layout->panels->len; p++)
    {
      CmChartPanel *panel = g_ptr_array_index (layout->panels, p);

      g_assert_cmpuint (panel->series->len, >, 0);
      for (guint s = 0; s < panel->series->len; s++)
        {
          CmChartSeries *series = g_ptr_array_index (panel->series, s);

          for (guint i = 0; i < series->points->len; i++)
            {
              CmChartPoint *pt = &g_array_index (series->points, CmChartPoint, i);

              if (pt->x < panel->plot.x - 0.5 || pt->x > panel->plot.x + panel->plot.width + 0.5 ||
                  pt->y < panel->plot.y - 0.5 || pt->y > panel->plot.y + panel->plot.height + 0.5)
                g_error ("Point %u of series %u at (%.1f, %.1f) lies outside panel %u's plot "
                         "(%.1f, %.1f, %.1f × %.1f)", i, s, pt->x, pt->y, p,
                         panel->plot.x, panel->plot.y, panel->plot.width, panel->plot.height);
            }
        }
    }
}

static void
test_latency_in_plot (void)
{
  static const guint counts[] = { 1000, 2000, 5000, 60000 };

  for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
    {
      g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GRand) rand = g_rand_new_with_seed (counts[c]);
      CmResult *result = cm_result_new ();
      g_autoptr(CmChartLayout) layout = NULL;
      CmChartPanel *curves;
      CmChartSeries *curve;

      cm_result_set_name (result, "Card");
      cm_result_take_test (result, make_random_n ("rand-read-4k", 1, 420, counts[c], rand));
      cm_result_take_test (result, make_random_n ("rand-write-4k", 1, 2500, counts[c], rand));
      g_ptr_array_add (results, result);
      layout = cm_chart_layout_new (CM_CHART_LATENCY, results, 800, 480, NULL, TRUE);
      g_assert_false (layout->empty);
      check_series_in_plot (layout);

      /* The curve still reaches the right part of its plot. */
      curves = g_ptr_array_index (layout->panels, 1);
      curve = g_ptr_array_index (curves->series, 0);
      g_assert_cmpfloat (g_array_index (curve->points, CmChartPoint, curve->points->len - 1).x, >,
                         curves->plot.x + curves->plot.width * 0.6);
    }
}

/* A raw read-only run: nothing was written, so no legend says Write. */
static CmResult *
read_only_result (const char *name)
{
  CmResult *result = cm_result_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  static const gsize sizes[] = { 4096, 64 * 1024, 4 * MiB };
  CmTestResult *surface = cm_test_result_new ("surface-read");

  cm_result_set_name (result, name);
  cm_result_set_target (result, "/dev/sdb", "raw", "/dev/sdb", "usb");
  cm_result_take_test (result, make_seq ("seq-read", 6, 99, 80, 80, rand));
  cm_result_take_test (result, make_random ("rand-read-4k", 1, 420, rand));
  cm_result_take_test (result, make_random ("rand-read-4k-qd32", 32, 7600, rand));
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *test_name = g_strdup_printf ("sweep-read-%" G_GSIZE_FORMAT "k", sizes[i] / 1024);
      CmTestResult *test = cm_test_result_new (test_name);

      test->block_size = sizes[i];
      test->mb_per_s = 10.0 * (i + 1);
      cm_result_take_test (result, test);
    }
  for (guint i = 0; i < 16; i++)
    {
      CmPosition p = { i * 1e9, 80 };

      g_array_append_val (surface->positions, p);
    }
  cm_result_take_test (result, surface);
  return result;
}

static guint
count_legend (CmChartLayout *layout,
              const char    *word)
{
  guint n = 0;

  for (guint i = 0; i < layout->texts->len; i++)
    {
      CmChartText *text = &g_array_index (layout->texts, CmChartText, i);

      if (text->role == CM_CHART_TEXT_LEGEND && strstr (text->text, word) != NULL)
        n++;
    }
  return n;
}

static void
assert_same_rect (const CmChartRect *a,
                  const CmChartRect *b)
{
  g_assert_cmpfloat (a->x, ==, b->x);
  g_assert_cmpfloat (a->y, ==, b->y);
  g_assert_cmpfloat (a->width, ==, b->width);
  g_assert_cmpfloat (a->height, ==, b->height);
}

/* Two layouts that draw the same marks in the same places. */
static void
assert_same_layout (CmChartLayout *a,
                    CmChartLayout *b)
{
  g_assert_cmpuint (a->texts->len, ==, b->texts->len);
  for (guint i = 0; i < a->texts->len; i++)
    {
      CmChartText *ta = &g_array_index (a->texts, CmChartText, i);
      CmChartText *tb = &g_array_index (b->texts, CmChartText, i);

      g_assert_cmpstr (ta->text, ==, tb->text);
      g_assert_cmpint (ta->ink, ==, tb->ink);
      g_assert_cmpint (ta->bold, ==, tb->bold);
      assert_same_rect (&ta->box, &tb->box);
    }
  g_assert_cmpuint (a->legend->len, ==, b->legend->len);
  for (guint i = 0; i < a->legend->len; i++)
    g_assert_cmpint (g_array_index (a->legend, CmChartLegendItem, i).ink, ==,
                     g_array_index (b->legend, CmChartLegendItem, i).ink);
  g_assert_cmpuint (a->panels->len, ==, b->panels->len);
  for (guint p = 0; p < a->panels->len; p++)
    {
      CmChartPanel *pa = g_ptr_array_index (a->panels, p);
      CmChartPanel *pb = g_ptr_array_index (b->panels, p);

      assert_same_rect (&pa->plot, &pb->plot);
      g_assert_cmpuint (pa->bars->len, ==, pb->bars->len);
      for (guint i = 0; i < pa->bars->len; i++)
        g_assert_cmpint (g_array_index (pa->bars, CmChartBar, i).ink, ==, g_array_index (pb->bars, CmChartBar, i).ink);
      g_assert_cmpuint (pa->thresholds->len, ==, pb->thresholds->len);
      for (guint i = 0; i < pa->thresholds->len; i++)
        {
          CmChartThreshold *ta = &g_array_index (pa->thresholds, CmChartThreshold, i);
          CmChartThreshold *tb = &g_array_index (pb->thresholds, CmChartThreshold, i);

          g_assert_cmpstr (ta->label, ==, tb->label);
          g_assert_cmpint (ta->claimed, ==, tb->claimed);
          g_assert_cmpint (ta->ink, ==, tb->ink);
          g_assert_cmpint (ta->leader, ==, tb->leader);
          g_assert_cmpfloat (ta->y, ==, tb->y);
        }
    }
}

static gboolean
any_figures_claim_with (CmResult *result,
                        CmStatus  status)
{
  GPtrArray *claims = cm_result_get_claims (result);
  gboolean found = FALSE;

  g_assert_cmpuint (claims->len, >, 0);
  for (guint i = 0; i < claims->len; i++)
    {
      CmClaim *claim = g_ptr_array_index (claims, i);

      g_assert_cmpstr (claim->source, ==, "figures");
      found |= claim->status == status;
    }
  return found;
}

/* Without a claim every class is judged, only to show what the figures
 * would meet. Those verdicts are not the card's: the charts show the
 * standard lines, dashed and unlabelled where crowded, and plain bars,
 * exactly as for a result with no verdicts at all. */
static void
test_threshold_figures_only (void)
{
  static const double speeds[] = { 20, 700 };
  static const CmChartKind kinds[] = { CM_CHART_SUMMARY, CM_CHART_WRITE_OVER_TIME };
  static const double sizes[][2] = { { 800, 480 }, { 400, 600 } };

  for (guint v = 0; v < G_N_ELEMENTS (speeds); v++)
    {
      g_autoptr(GPtrArray) figures = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GPtrArray) bare = g_ptr_array_new_with_free_func (g_object_unref);
      g_autofree char *description = NULL;

      g_ptr_array_add (figures, make_result ("Card", speeds[v], NULL, TRUE));
      g_ptr_array_add (bare, make_result ("Card", speeds[v], NULL, TRUE));
      cm_result_clear_claims (g_ptr_array_index (bare, 0));
      /* Both meet some classes and not others, so verdict colours
       * would show. */
      g_assert_true (any_figures_claim_with (g_ptr_array_index (figures, 0), CM_STATUS_MEETS));
      g_assert_true (any_figures_claim_with (g_ptr_array_index (figures, 0), CM_STATUS_BELOW));

      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
          {
            g_autoptr(CmChartLayout) a = cm_chart_layout_new (kinds[k], figures, sizes[s][0], sizes[s][1], NULL, TRUE);
            g_autoptr(CmChartLayout) b = cm_chart_layout_new (kinds[k], bare, sizes[s][0], sizes[s][1], NULL, TRUE);

            check_no_overlap (a);
            for (guint p = 0; p < a->panels->len; p++)
              {
                CmChartPanel *panel = g_ptr_array_index (a->panels, p);

                g_assert_cmpuint (panel->thresholds->len, >, 0);
                for (guint i = 0; i < panel->thresholds->len; i++)
                  {
                    CmChartThreshold *t = &g_array_index (panel->thresholds, CmChartThreshold, i);

                    if (t->claimed || t->ink != CM_CHART_INK_MUTED)
                      g_error ("The %s chart emphasises %s, which nobody claimed",
                               cm_chart_kind_to_string (kinds[k]), t->label);
                    /* Only the classes every chart shows: C10/U1, U3/V30, A1. */
                    g_assert_true (label_names (t->label, "C10") || label_names (t->label, "U3") ||
                                   label_names (t->label, "A1"));
                  }
                for (guint i = 0; i < panel->bars->len; i++)
                  g_assert_cmpint (g_array_index (panel->bars, CmChartBar, i).ink, ==, CM_CHART_INK_SERIES);
              }
            g_assert_cmpuint (count_legend (a, "class"), ==, count_legend (a, "No class claimed"));
            assert_same_layout (a, b);
          }

      description = cm_chart_describe (CM_CHART_SUMMARY, figures);
      g_assert_null (strstr (description, "(below)"));
      g_assert_null (strstr (description, "(meets)"));
    }
}

/* The classes the card declares in its registers are claims like those
 * on its label. */
static void
test_threshold_card_claims (void)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  static const char * const declared[] = { "U3", "V30", NULL };
  CmResult *result = make_result ("Card", 24, NULL, FALSE);
  g_autoptr(CmChartLayout) layout = NULL;
  CmChartThreshold *u3;

  cm_verdict_judge (result, declared, "card");
  g_ptr_array_add (results, result);
  layout = summary_layout (results);
  u3 = find_threshold (layout, "U3/V30");
  g_assert_nonnull (u3);
  g_assert_true (u3->claimed);
  g_assert_cmpint (u3->ink, !=, CM_CHART_INK_MUTED);
  g_assert_cmpint (g_array_index (((CmChartPanel *) g_ptr_array_index (layout->panels, 0))->bars, CmChartBar, 0).ink,
                   !=, CM_CHART_INK_SERIES);
}

/* Whether the segment from @a to @b passes through @box, short of its
 * ends: checked at points a fraction of a pixel apart. */
static gboolean
segment_crosses (const CmChartPoint *a,
                 const CmChartPoint *b,
                 const CmChartRect  *box)
{
  double length = hypot (b->x - a->x, b->y - a->y);
  guint n = MAX (2, (guint) (length * 4));

  for (guint i = 1; i < n; i++)
    {
      double x = a->x + (b->x - a->x) * i / n, y = a->y + (b->y - a->y) * i / n;

      if (x > box->x + 0.5 && x < box->x + box->width - 0.5 && y > box->y + 0.5 && y < box->y + box->height - 0.5)
        return TRUE;
    }
  return FALSE;
}

/* A claimed label that had to move off its line is joined to it by a
 * leader: from the line's height at the plot's right edge to the label's
 * left edge, crossing no text and no other leader. Returns how many. */
static guint
check_leaders (CmChartLayout *layout)
{
  guint n = 0;

  for (guint p = 0; p < layout->panels->len; p++)
    {
      CmChartPanel *panel = g_ptr_array_index (layout->panels, p);
      double edge = panel->plot.x + panel->plot.width;

      for (guint i = 0; i < panel->thresholds->len; i++)
        {
          CmChartThreshold *t = &g_array_index (panel->thresholds, CmChartThreshold, i);
          CmChartText *text = threshold_text (layout, t);
          CmChartRect *box = &t->label_box;
          double offset;

          g_assert_nonnull (text);
          assert_same_rect (box, &text->box);
          offset = fabs (box->y + box->height / 2 - t->y);
          if (t->claimed && offset > 3 && !t->leader)
            g_error ("The label %s is %.1f px off its line in the %s chart, with no leader", t->label, offset,
                     cm_chart_kind_to_string (layout->kind));
          if (!t->leader)
            continue;
          n++;
          g_assert_true (t->claimed);

          /* One end on the line's height, right of the plot... */
          g_assert_cmpfloat (t->leader_start.y, ==, t->y);
          g_assert_cmpfloat (t->leader_start.x, >=, edge);
          g_assert_cmpfloat (t->leader_start.x, <, t->leader_end.x);
          /* ...where a line that reaches the edge ends. */
          if (t->x1 >= edge)
            g_assert_cmpfloat (t->leader_start.x, ==, t->x1);
          /* The other at the label's left edge, within its height. */
          g_assert_cmpfloat (t->leader_end.x, <=, box->x);
          g_assert_cmpfloat (t->leader_end.x, >=, box->x - 2);
          g_assert_cmpfloat (t->leader_end.y, >=, box->y);
          g_assert_cmpfloat (t->leader_end.y, <=, box->y + box->height);

          for (guint j = 0; j < layout->texts->len; j++)
            if (segment_crosses (&t->leader_start, &t->leader_end, &g_array_index (layout->texts, CmChartText, j).box))
              g_error ("The leader of %s crosses “%s”", t->label, g_array_index (layout->texts, CmChartText, j).text);
          /* Leaders that start and end in the same order do not cross. */
          for (guint j = 0; j < panel->thresholds->len; j++)
            {
              CmChartThreshold *u = &g_array_index (panel->thresholds, CmChartThreshold, j);

              if (u != t && u->leader)
                g_assert_cmpint (u->leader_start.y < t->leader_start.y, ==, u->leader_end.y < t->leader_end.y);
            }
        }
    }
  return n;
}

static void
test_threshold_leaders (void)
{
  static const char * const claim_sets[] = { "C10,U1,U3,V30", "C10,U3,V30,A1,A2", "C10,U1,U3,V10,V30,V60,V90,A1" };
  static const double sizes[][2] = { { 800, 480 }, { 400, 600 }, { 1200, 700 } };
  static const CmChartKind kinds[] = { CM_CHART_SUMMARY, CM_CHART_WRITE_OVER_TIME };
  guint iops_leaders = 0;

  for (guint c = 0; c < G_N_ELEMENTS (claim_sets); c++)
    {
      g_autoptr(GPtrArray) fast = fast_card (claim_sets[c]);

      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
          {
            g_autoptr(CmChartLayout) layout = cm_chart_layout_new (kinds[k], fast, sizes[s][0], sizes[s][1], NULL, TRUE);
            CmChartPanel *panel = g_ptr_array_index (layout->panels, 0);
            CmChartThreshold *u3 = NULL;

            /* 10 and 30 MB/s are a few pixels apart: 30's label must move. */
            for (guint i = 0; i < panel->thresholds->len; i++)
              if (label_names (g_array_index (panel->thresholds, CmChartThreshold, i).label, "U3"))
                u3 = &g_array_index (panel->thresholds, CmChartThreshold, i);
            g_assert_nonnull (u3);
            g_assert_true (u3->leader);
            g_assert_cmpuint (check_leaders (layout), >, 0);
            if (kinds[k] == CM_CHART_SUMMARY && strstr (claim_sets[c], "A2") != NULL)
              {
                CmChartPanel *iops = g_ptr_array_index (layout->panels, 1);

                for (guint i = 0; i < iops->thresholds->len; i++)
                  iops_leaders += g_array_index (iops->thresholds, CmChartThreshold, i).leader;
              }
          }
    }
  /* A1 and A2 close together on the IOPS panel. */
  g_assert_cmpuint (iops_leaders, >, 0);

  /* Labels level with their lines need none. */
  {
    g_autoptr(GPtrArray) one = one_card (TRUE);

    for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
      {
        g_autoptr(CmChartLayout) layout = cm_chart_layout_new (kinds[k], one, 800, 480, NULL, TRUE);

        g_assert_cmpuint (check_leaders (layout), ==, 0);
      }
  }
}

static void
test_legend_read_only (void)
{
  g_autoptr(GPtrArray) one = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) two = g_ptr_array_new_with_free_func (g_object_unref);
  static const CmChartKind kinds[] = { CM_CHART_LATENCY, CM_CHART_SWEEP, CM_CHART_SUMMARY };

  g_ptr_array_add (one, read_only_result ("Raw card"));
  g_ptr_array_add (two, read_only_result ("Raw card"));
  g_ptr_array_add (two, make_result ("SanDisk Extreme", 40, "U3,V30,A2", TRUE));

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autoptr(CmChartLayout) a = cm_chart_layout_new (kinds[k], one, 800, 480, NULL, TRUE);
      g_autoptr(CmChartLayout) b = cm_chart_layout_new (kinds[k], two, 800, 480, NULL, TRUE);

      g_assert_false (a->empty);
      g_assert_cmpuint (a->legend->len, ==, count_legend (a, ""));
      if (count_legend (a, "Write") + count_legend (a, "write") != 0)
        g_error ("The %s chart of a read-only run has a write entry in its legend",
                 cm_chart_kind_to_string (kinds[k]));
      if (kinds[k] != CM_CHART_SUMMARY)
        {
          g_assert_cmpuint (count_legend (a, "Read"), ==, 1);
          /* Compared: both cards read, only the second wrote. */
          g_assert_cmpuint (count_legend (b, "read"), ==, 2);
          g_assert_cmpuint (count_legend (b, "write"), ==, 1);
          g_assert_cmpuint (count_legend (b, "Raw card write"), ==, 0);
          g_assert_cmpuint (b->legend->len, ==, 3);
        }
    }
}

/* A read-only run judged against A1: its 4K read meets A1's read figure,
 * but A1 can't be judged without writes, so no bar says "meets". */
static void
test_read_only_bars_not_met (void)
{
  g_autoptr(GPtrArray) one = g_ptr_array_new_with_free_func (g_object_unref);
  CmResult *result = read_only_result ("Raw card");
  g_autoptr(CmChartLayout) layout = NULL;
  CmClaim *a1;
  guint bars = 0;

  cm_result_set_target (result, "/dev/sdb", "raw-read", "/dev/sdb", "usb");
  cm_result_set_direct_io (result, TRUE);
  cm_result_lookup_test (result, "rand-read-4k")->iops = 3000;
  cm_verdict_judge (result, (const char *[]) { "A1", NULL }, "label");
  a1 = cm_result_lookup_claim (result, "A1");
  g_assert_cmpint (a1->status, ==, CM_STATUS_NOT_JUDGED);
  g_ptr_array_add (one, result);

  layout = cm_chart_layout_new (CM_CHART_SUMMARY, one, 800, 480, NULL, TRUE);
  for (guint p = 0; p < layout->panels->len; p++)
    {
      CmChartPanel *panel = g_ptr_array_index (layout->panels, p);

      for (guint i = 0; i < panel->bars->len; i++)
        {
          CmChartBar *bar = &g_array_index (panel->bars, CmChartBar, i);

          bars++;
          if (bar->ink == CM_CHART_INK_MEETS)
            g_error ("The %s bar says it meets A1, which was not judged", bar->test);
        }
    }
  g_assert_cmpuint (bars, >, 0);
}

static void
test_legend (void)
{
  g_autoptr(GPtrArray) three = three_cards ();
  g_autoptr(CmChartLayout) layout = cm_chart_layout_new (CM_CHART_SWEEP, three, 800, 480, NULL, TRUE);
  guint found = 0;

  for (guint r = 0; r < three->len; r++)
    {
      const char *name = cm_result_get_name (g_ptr_array_index (three, r));

      for (guint i = 0; i < layout->texts->len; i++)
        {
          CmChartText *text = &g_array_index (layout->texts, CmChartText, i);

          if (text->role == CM_CHART_TEXT_LEGEND && g_str_has_prefix (text->text, name))
            {
              found++;
              break;
            }
        }
    }
  g_assert_cmpuint (found, ==, 3);
  /* A read and a write line per card, in the card's colour. */
  g_assert_cmpuint (((CmChartPanel *) g_ptr_array_index (layout->panels, 0))->series->len, ==, 6);
}

/* Compare of two runs of one simulated card (issue 27): both are
 * "Loop device on card.img", so the legend tells them apart by date, and
 * every bar has its figure, none running into the next. */
static GPtrArray *
same_name_cards (void)
{
  GPtrArray *results = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GDateTime) first = g_date_time_new_utc (2026, 12, 3, 9, 40, 0);
  g_autoptr(GDateTime) second = g_date_time_add_minutes (first, 3);

  g_ptr_array_add (results, make_result ("Loop device on card.img", 24, "U3,A1", FALSE));
  g_ptr_array_add (results, make_result ("Loop device on card.img", 18, "U3,A1", FALSE));
  cm_result_set_started (g_ptr_array_index (results, 0), first);
  cm_result_set_started (g_ptr_array_index (results, 1), second);
  return results;
}

static void
test_compare_legend_unique (void)
{
  g_autoptr(GPtrArray) two = same_name_cards ();
  CmChartKind kinds[] = { CM_CHART_SUMMARY, CM_CHART_WRITE_OVER_TIME };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autoptr(CmChartLayout) layout = cm_chart_layout_new (kinds[k], two, 800, 480, NULL, TRUE);
      g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

      for (guint i = 0; i < layout->texts->len; i++)
        {
          CmChartText *text = &g_array_index (layout->texts, CmChartText, i);

          if (text->role != CM_CHART_TEXT_LEGEND)
            continue;
          g_test_message ("legend: %s", text->text);
          if (!g_hash_table_add (seen, text->text))
            g_error ("Two legend entries read “%s”", text->text);
        }
      g_assert_cmpuint (count_legend (layout, "Loop device on card.img"), >=, 2);
    }
}

static void
test_compare_value_labels (void)
{
  g_autoptr(GPtrArray) two = same_name_cards ();
  double sizes[][2] = { { 800, 480 }, { 640, 400 }, { 480, 320 }, { 1200, 700 } };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr(CmChartLayout) layout = cm_chart_layout_new (CM_CHART_SUMMARY, two, sizes[s][0], sizes[s][1], NULL, TRUE);
      g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (CmChartText *));
      guint bars = 0;

      for (guint p = 0; p < layout->panels->len; p++)
        bars += ((CmChartPanel *) g_ptr_array_index (layout->panels, p))->bars->len;
      for (guint i = 0; i < layout->texts->len; i++)
        {
          CmChartText *text = &g_array_index (layout->texts, CmChartText, i);

          if (text->role == CM_CHART_TEXT_VALUE)
            g_array_append_val (values, text);
        }
      /* Every bar labelled, and labels a little apart: no "761793843815". */
      g_assert_cmpuint (values->len, ==, bars);
      for (guint i = 0; i < values->len; i++)
        for (guint j = i + 1; j < values->len; j++)
          {
            CmChartText *a = g_array_index (values, CmChartText *, i);
            CmChartText *b = g_array_index (values, CmChartText *, j);
            CmChartRect grown = { a->box.x - 2, a->box.y - 1, a->box.width + 4, a->box.height + 2 };

            if (cm_chart_rect_intersects (&grown, &b->box))
              g_error ("At %.0f×%.0f the labels “%s” and “%s” run together", sizes[s][0], sizes[s][1], a->text, b->text);
          }
    }
}

/* The sweep's x positions come from block_size: 4K to 16M is 12 doublings. */
static void
test_sweep_positions (void)
{
  g_autoptr(GPtrArray) one = one_card (TRUE);
  g_autoptr(CmChartLayout) layout = cm_chart_layout_new (CM_CHART_SWEEP, one, 800, 480, NULL, FALSE);
  CmChartPanel *panel = g_ptr_array_index (layout->panels, 0);
  CmChartSeries *read = g_ptr_array_index (panel->series, 0);
  GArray *pts = read->points;
  double step = g_array_index (pts, CmChartPoint, 1).x - g_array_index (pts, CmChartPoint, 0).x;

  g_assert_cmpuint (pts->len, ==, 5);
  /* 4K→64K is 4 doublings, 512K→4M 3, 4M→16M 2. */
  g_assert_cmpfloat_with_epsilon ((g_array_index (pts, CmChartPoint, 4).x - g_array_index (pts, CmChartPoint, 3).x) / step,
                                  2.0 / 4, 1e-6);
  g_assert_cmpfloat_with_epsilon ((g_array_index (pts, CmChartPoint, 3).x - g_array_index (pts, CmChartPoint, 2).x) / step,
                                  3.0 / 4, 1e-6);
}

static gboolean
png_has_content (const char *path,
                 int         width,
                 int         height)
{
  cairo_surface_t *surface = cairo_image_surface_create_from_png (path);
  guint32 first;
  gboolean differs = FALSE;
  unsigned char *data;
  int stride;

  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, height);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  first = *(guint32 *) data;
  for (int y = 0; y < height && !differs; y += 3)
    for (int x = 0; x < width && !differs; x++)
      differs = *(guint32 *) (data + y * stride + 4 * x) != first;
  cairo_surface_destroy (surface);
  return differs;
}

/* A chart that can't be written (the disk is full; a file size limit
 * plays that here) leaves no half-written file, keeps the one it was to
 * replace, and says why. */
static void
test_export_fails_cleanly (void)
{
  g_autoptr(GPtrArray) one = one_card (TRUE);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-charts-XXXXXX", &error);
  g_autofree char *png = g_build_filename (dir, "chart.png", NULL);
  g_autofree char *kept = NULL;
  g_autoptr(GDir) listing = NULL;
  struct rlimit limit, small;
  void (*old_handler) (int);
  const char *name;
  guint n_files = 0;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (png, "the chart before", -1, NULL));

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  small = limit;
  small.rlim_cur = 1000;
  old_handler = signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &small), ==, 0);
  g_assert_false (cm_chart_export (png, CM_CHART_SUMMARY, one, 800, 480, &error));
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  signal (SIGXFSZ, old_handler);

  g_assert_error (error, CM_CHART_ERROR, CM_CHART_ERROR_WRITE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "chart.png"));
  g_assert_true (g_file_get_contents (png, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "the chart before");

  listing = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (listing)) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, 1);

  g_assert_cmpint (g_unlink (png), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_export (void)
{
  g_autoptr(GPtrArray) one = one_card (TRUE);
  g_autoptr(GPtrArray) verify_one = verify_cards (1);
  g_autoptr(GPtrArray) wear_one = wear_cards (1);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-charts-XXXXXX", &error);

  g_assert_no_error (error);
  for (guint k = 0; k < CM_CHART_N_KINDS; k++)
    {
      g_autofree char *base = g_build_filename (dir, cm_chart_kind_to_string (k), NULL);
      g_autofree char *png = g_strconcat (base, ".png", NULL);
      g_autofree char *svg = g_strconcat (base, ".svg", NULL);
      g_autofree char *pdf = g_strconcat (base, ".PDF", NULL);
      g_autofree char *contents = NULL;
      GPtrArray *input = input_for (k, one, verify_one, wear_one);
      gsize length;

      /* Drawn from a capacity report: test_capacity_map_export (). */
      if (k == CM_CHART_CAPACITY_MAP)
        continue;
      g_assert_true (cm_chart_export (png, k, input, 800, 480, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (png, &contents, &length, NULL));
      g_assert_cmpuint (length, >, 1000);
      g_assert_cmpint (memcmp (contents, "\x89PNG\r\n\x1a\n", 8), ==, 0);
      g_assert_true (png_has_content (png, 800, 480));
      g_clear_pointer (&contents, g_free);

      g_assert_true (cm_chart_export (svg, k, input, 800, 480, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (svg, &contents, &length, NULL));
      g_assert_nonnull (strstr (contents, "<svg"));
      g_assert_nonnull (strstr (contents, "<desc>"));
      g_assert_nonnull (strstr (contents, input != one ? "Card 1" : "SanDisk Extreme 64GB"));
      g_assert_nonnull (strstr (contents, k == CM_CHART_LATENCY ? " ms" : "MB/s"));
      if (k == CM_CHART_SUMMARY)
        {
          g_assert_nonnull (strstr (contents, "U3"));
          g_assert_nonnull (strstr (contents, "IOPS"));
        }
      g_clear_pointer (&contents, g_free);

      g_assert_true (cm_chart_export (pdf, k, input, 800, 480, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (pdf, &contents, &length, NULL));
      g_assert_cmpuint (length, >, 1000);
      g_assert_true (g_str_has_prefix (contents, "%PDF"));

      g_unlink (png);
      g_unlink (svg);
      g_unlink (pdf);
    }

  /* Scale 2: twice the pixels, same layout. */
  {
    g_autofree char *png = g_build_filename (dir, "hidpi.png", NULL);
    CmChartStyle style;

    cm_chart_style_init (&style);
    style.scale = 2;
    style.dark = TRUE;
    g_assert_true (cm_chart_export_with_style (png, CM_CHART_SUMMARY, one, 400, 300, &style, &error));
    g_assert_no_error (error);
    g_assert_true (png_has_content (png, 800, 600));
    g_unlink (png);
  }

  g_assert_false (cm_chart_export ("chart.gif", CM_CHART_SUMMARY, one, 800, 480, &error));
  g_assert_error (error, CM_CHART_ERROR, CM_CHART_ERROR_FORMAT);
  g_clear_error (&error);
  {
    g_autofree char *missing = g_build_filename (dir, "no-such-folder", "chart.png", NULL);

    g_assert_false (cm_chart_export (missing, CM_CHART_SUMMARY, one, 800, 480, &error));
    g_assert_error (error, CM_CHART_ERROR, CM_CHART_ERROR_WRITE);
    g_clear_error (&error);
  }
  g_rmdir (dir);
}

/* The verify chart: a line for writing and one for reading back against
 * the place on the card, and every lost region shaded inside the plot. */
static void
test_verify (void)
{
  g_autoptr(GPtrArray) results = verify_cards (1);
  g_autoptr(GPtrArray) quick = one_card (FALSE);
  g_autoptr(CmChartLayout) layout = NULL;
  g_autofree char *text = NULL;
  CmChartPanel *panel;

  g_assert_true (cm_chart_has_data (CM_CHART_VERIFY, results));
  g_assert_false (cm_chart_has_data (CM_CHART_VERIFY, quick));

  layout = cm_chart_layout_new (CM_CHART_VERIFY, results, 800, 480, NULL, TRUE);
  g_assert_false (layout->empty);
  g_assert_cmpuint (layout->panels->len, ==, 1);
  panel = g_ptr_array_index (layout->panels, 0);
  g_assert_cmpuint (panel->series->len, ==, 2);
  g_assert_cmpuint (panel->bars->len, ==, G_N_ELEMENTS (verify_regions));
  for (guint i = 0; i < panel->bars->len; i++)
    {
      const CmChartBar *bar = &g_array_index (panel->bars, CmChartBar, i);
      /* The card is under 2 GB: its places are in MB. */
      double x0 = cm_chart_axis_to_pixel (&panel->x, verify_regions[i].start / 1e6);
      double x1 = cm_chart_axis_to_pixel (&panel->x, verify_regions[i].end / 1e6);

      g_assert_cmpfloat_with_epsilon (bar->rect.x, x0, 0.5);
      g_assert_cmpfloat_with_epsilon (bar->rect.x + bar->rect.width, x1, 0.5);
      g_assert_cmpfloat (bar->rect.x + bar->rect.width, <=, panel->plot.x + panel->plot.width + 0.5);
      g_assert_cmpint (bar->ink, ==, CM_CHART_INK_BELOW);
    }
  /* The last region ends past the last speed point: the axis reaches it
   * (1 GB, in MB). */
  g_assert_cmpfloat (panel->x.max, >=, 1000.0);

  text = cm_chart_describe (CM_CHART_VERIFY, results);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "2 regions lost data, the first at 0.40 GB"));
}

/* The wear chart: speed per round beside the share of the card lost per
 * round, a line for each threshold a round reached and a ring at the
 * round that reached it, and the first error named in the chart and in
 * its words. */
static void
test_wear (void)
{
  g_autoptr(GPtrArray) results = wear_cards (1);
  g_autoptr(GPtrArray) bench = one_card (TRUE);
  g_autoptr(GPtrArray) verify = verify_cards (1);
  g_autoptr(GPtrArray) no_rounds = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(CmEndurance) empty = cm_endurance_new ();
  CmResult *none = cm_result_new ();
  const CmEndurance *e = cm_result_get_endurance (g_ptr_array_index (results, 0));
  guint first = cm_endurance_get_first_error_round (e), n_reached = 0;
  const int heights[] = { 480, cm_chart_kind_get_widget_height (CM_CHART_WEAR) };
  g_autofree char *first_label = g_strdup_printf ("first error, round %u", first);
  g_autofree char *first_words = g_strdup_printf ("First error in round %u,", first);
  g_autofree char *text = NULL;

  /* Data only in a wear test's document with rounds. */
  cm_result_set_kind (none, "wear");
  cm_result_set_endurance (none, empty);
  g_ptr_array_add (no_rounds, none);
  g_assert_true (cm_chart_has_data (CM_CHART_WEAR, results));
  g_assert_false (cm_chart_has_data (CM_CHART_WEAR, bench));
  g_assert_false (cm_chart_has_data (CM_CHART_WEAR, verify));
  g_assert_false (cm_chart_has_data (CM_CHART_WEAR, no_rounds));
  g_assert_cmpuint (first, >, 1);

  for (guint t = 1; t < CM_ENDURANCE_N_THRESHOLDS; t++)
    n_reached += cm_endurance_get_threshold (e, t, NULL, NULL);
  g_assert_cmpuint (n_reached, >, 0);

  for (guint h = 0; h < G_N_ELEMENTS (heights); h++)
    {
      g_autoptr(CmChartLayout) layout = cm_chart_layout_new (CM_CHART_WEAR, results, 800, heights[h], NULL, TRUE);
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, heights[h]);
      cairo_t *cr = cairo_create (surface);
      CmChartPanel *speed, *bad;
      CmChartStyle style;
      guint claimed = 0;
      gboolean named = FALSE;

      g_assert_false (layout->empty);
      g_assert_cmpuint (layout->panels->len, ==, 2);
      check_no_overlap (layout);
      speed = g_ptr_array_index (layout->panels, 0);
      bad = g_ptr_array_index (layout->panels, 1);
      g_assert_cmpuint (speed->series->len, ==, 2);
      g_assert_true (bad->y.log);
      g_assert_cmpuint (bad->series->len, >=, 1);
      /* A round that lost nothing has no place on the log scale. */
      g_assert_cmpuint (((CmChartSeries *) g_ptr_array_index (bad->series, 0))->points->len, ==,
                        e->rounds->len - (first - 1));

      for (guint i = 0; i < bad->thresholds->len; i++)
        claimed += g_array_index (bad->thresholds, CmChartThreshold, i).claimed;
      g_assert_cmpuint (claimed, ==, n_reached);
      /* One ring per threshold reached, the first error's at its round. */
      g_assert_cmpuint (bad->markers->len, ==, n_reached + 1);
      g_assert_cmpfloat_with_epsilon (g_array_index (bad->markers, CmChartMarker, 0).point.x,
                                      cm_chart_axis_to_pixel (&bad->x, first), 0.01);
      for (guint i = 0; i < layout->texts->len; i++)
        named |= g_strcmp0 (g_array_index (layout->texts, CmChartText, i).text, first_label) == 0;
      g_assert_true (named);

      cm_chart_style_init (&style);
      style.dark = h == 1;
      cm_chart_paint (cr, layout, &style);
      g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }

  text = cm_chart_describe (CM_CHART_WEAR, results);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, first_words));
}

/* A wear result of 2 rounds of 1 MiB each; @flash_known: the card told
 * that it wrote 1.5 MiB, then 2 MiB, to its flash. */
static GPtrArray *
wear_with_flash (gboolean flash_known)
{
  GPtrArray *results = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(CmEndurance) e = cm_endurance_new ();
  CmResult *result = cm_result_new ();

  for (guint i = 1; i <= 2; i++)
    {
      CmWearRound round = { i, 20, 30, 2048, 0, 0, i * (guint64) (1 << 20), 0.2,
                            flash_known, (i + 2) * (guint64) (1 << 19) };

      g_array_append_val (e->rounds, round);
    }
  e->stopped = g_strdup ("rounds");
  cm_result_set_kind (result, "wear");
  cm_result_set_endurance (result, e);
  g_ptr_array_add (results, result);
  return results;
}

/* The wear chart's words give the write amplification where the card told
 * its flash writes, and say it is not known where it did not. */
static void
test_wear_write_amplification (void)
{
  g_autoptr(GPtrArray) told = wear_with_flash (TRUE);
  g_autoptr(GPtrArray) silent = wear_with_flash (FALSE);
  g_autofree char *told_text = cm_chart_describe (CM_CHART_WEAR, told);
  g_autofree char *silent_text = cm_chart_describe (CM_CHART_WEAR, silent);

  g_test_message ("%s", told_text);
  g_assert_nonnull (strstr (told_text, "Write amplification, the card's flash writes ÷ the test's: 1.50 to 2.00 per round."));
  g_assert_null (strstr (told_text, "not known"));
  g_test_message ("%s", silent_text);
  g_assert_nonnull (strstr (silent_text, "its write amplification is not known."));
  g_assert_null (strstr (silent_text, "Write amplification,"));
}

/* The wear chart draws each round's write amplification in a panel of
 * its own under the speeds, where the card told its flash writes: a line
 * broken where a round did not tell, on the rounds' axis; a wear test
 * whose card told nothing has no such panel, and its chart is no taller. */
static void
test_wear_write_amplification_drawn (void)
{
  g_autoptr(GPtrArray) told = wear_cards (1);
  g_autoptr(GPtrArray) silent = wear_cards (1);
  g_autoptr(GPtrArray) both = g_ptr_array_new ();
  CmEndurance *e = (CmEndurance *) cm_result_get_endurance (g_ptr_array_index (told, 0));
  const int sizes[][2] = { { 800, 480 }, { 1000, 560 },
                           { 800, cm_chart_kind_get_widget_height_for (CM_CHART_WEAR, told) } };
  guint unknown = 5, known = 0;

  /* Round 5 did not tell; the others wrote 1.1, 1.2, … times the round. */
  for (guint i = 0; i < e->rounds->len; i++)
    {
      CmWearRound *r = &g_array_index (e->rounds, CmWearRound, i);

      r->flash_known = r->round != unknown;
      r->flash_bytes_written = (guint64) (r->sectors * 512 * (1 + 0.1 * r->round));
      known += r->flash_known;
    }
  g_assert_cmpint (cm_chart_kind_get_widget_height_for (CM_CHART_WEAR, told), >,
                   cm_chart_kind_get_widget_height_for (CM_CHART_WEAR, silent));
  g_assert_cmpint (cm_chart_kind_get_widget_height_for (CM_CHART_WEAR, silent), ==,
                   cm_chart_kind_get_widget_height (CM_CHART_WEAR));

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr(CmChartLayout) with = cm_chart_layout_new (CM_CHART_WEAR, told, sizes[s][0], sizes[s][1], NULL, TRUE);
      g_autoptr(CmChartLayout) without = cm_chart_layout_new (CM_CHART_WEAR, silent, sizes[s][0], sizes[s][1], NULL, TRUE);
      CmChartPanel *speed, *wa;
      guint points = 0;
      gboolean titled = FALSE, legend = FALSE;

      g_assert_cmpuint (without->panels->len, ==, 2);
      for (guint i = 0; i < without->texts->len; i++)
        g_assert_null (strstr (g_array_index (without->texts, CmChartText, i).text, "Write amplification"));

      g_assert_cmpuint (with->panels->len, ==, 3);
      check_no_overlap (with);
      speed = g_ptr_array_index (with->panels, 0);
      wa = g_ptr_array_index (with->panels, 1);
      /* Under the speeds, on the same rounds. */
      g_assert_cmpfloat (wa->plot.y, >, speed->plot.y + speed->plot.height);
      g_assert_cmpfloat_with_epsilon (wa->plot.x, speed->plot.x, 0.01);
      g_assert_cmpfloat_with_epsilon (wa->plot.width, speed->plot.width, 0.01);
      g_assert_cmpfloat (wa->y.min, ==, 0);
      g_assert_cmpfloat (wa->y.max, >, 1 + 0.1 * e->rounds->len);
      /* Broken at the round that did not tell. */
      g_assert_cmpuint (wa->series->len, ==, 2);
      for (guint i = 0; i < wa->series->len; i++)
        points += ((CmChartSeries *) g_ptr_array_index (wa->series, i))->points->len;
      g_assert_cmpuint (points, ==, known);
      {
        CmChartSeries *first = g_ptr_array_index (wa->series, 0);
        const CmChartPoint *p = &g_array_index (first->points, CmChartPoint, 1);

        /* Round 2 wrote 1.2 times what the test wrote. */
        g_assert_cmpfloat_with_epsilon (p->x, cm_chart_axis_to_pixel (&wa->x, 2), 0.01);
        g_assert_cmpfloat_with_epsilon (p->y, cm_chart_axis_to_pixel (&wa->y, 1.2), 0.01);
      }
      for (guint i = 0; i < with->texts->len; i++)
        {
          const char *text = g_array_index (with->texts, CmChartText, i).text;

          titled |= g_str_has_prefix (text, "Write amplification per round");
          legend |= g_strcmp0 (text, "Write amplification") == 0;
        }
      g_assert_true (titled);
      g_assert_true (legend);
    }

  /* Compared, only the card that told draws a line. */
  g_ptr_array_add (both, g_ptr_array_index (told, 0));
  g_ptr_array_add (both, g_ptr_array_index (silent, 0));
  {
    g_autoptr(CmChartLayout) layout = cm_chart_layout_new (CM_CHART_WEAR, both, 1000, 560, NULL, TRUE);
    CmChartPanel *wa;

    g_assert_cmpuint (layout->panels->len, ==, 3);
    check_no_overlap (layout);
    wa = g_ptr_array_index (layout->panels, 1);
    g_assert_cmpuint (wa->series->len, ==, 2);
  }
}

static void
test_empty (void)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) quick = one_card (FALSE);
  g_autofree char *text = NULL;

  g_ptr_array_add (results, cm_result_new ());
  for (guint k = 0; k < CM_CHART_N_KINDS; k++)
    {
      g_autoptr(CmChartLayout) layout = cm_chart_layout_new (k, results, 800, 480, NULL, TRUE);

      g_assert_true (layout->empty);
      g_assert_false (cm_chart_has_data (k, results));
      g_assert_cmpuint (layout->panels->len, ==, 0);
      g_assert_cmpuint (layout->texts->len, ==, 2);
    }

  /* A quick run has no sweep and no surface read. */
  g_assert_true (cm_chart_has_data (CM_CHART_SUMMARY, quick));
  g_assert_true (cm_chart_has_data (CM_CHART_LATENCY, quick));
  g_assert_false (cm_chart_has_data (CM_CHART_SWEEP, quick));
  g_assert_false (cm_chart_has_data (CM_CHART_POSITION, quick));
  text = cm_chart_describe (CM_CHART_SWEEP, quick);
  g_assert_nonnull (strstr (text, "No data"));
}

static void
test_describe (void)
{
  g_autoptr(GPtrArray) one = one_card (TRUE);
  CmResult *result = g_ptr_array_index (one, 0);
  CmTestResult *seq = cm_result_lookup_test (result, "seq-write");
  CmTestResult *rand = cm_result_lookup_test (result, "rand-read-4k");
  g_autofree char *summary = cm_chart_describe (CM_CHART_SUMMARY, one);
  g_autofree char *latency = cm_chart_describe (CM_CHART_LATENCY, one);
  g_autofree char *sweep = cm_chart_describe (CM_CHART_SWEEP, one);
  g_autofree char *seq_figure = g_strdup_printf ("%.1f MB/s", seq->mb_per_s);
  g_autofree char *iops_figure = g_strdup_printf ("%.0f IOPS", rand->iops);
  g_autofree char *p99 = g_strdup_printf ("%.2f ms", rand->latency_us[2] / 1000);

  g_assert_nonnull (strstr (summary, "SanDisk Extreme 64GB"));
  g_assert_nonnull (strstr (summary, seq_figure));
  g_assert_nonnull (strstr (summary, iops_figure));
  g_assert_nonnull (strstr (summary, "U3:"));
  g_assert_nonnull (strstr (latency, p99));
  /* g_format_size puts a no-break space before the unit. */
  g_assert_nonnull (strstr (sweep, "16.0\xc2\xa0MiB"));
}

/* The capacity map. */

/* A 1 GiB fake card that holds 128 MiB, in 4 MiB cells: 32 kept their
 * data (one of them gave a read error, one a write error), the rest wrap. */
static CmCapacityReport *
fake_capacity_report (void)
{
  CmCapacityReport *report = cm_capacity_report_new ();

  report->reported_bytes = 1024 * MiB;
  report->cell_bytes = 4 * MiB;
  report->n_positions = 256;
  report->real_bytes = 128 * MiB;
  report->fake = TRUE;
  report->cache_ruled_out = 256 * MiB;
  g_array_set_size (report->cells, 256);
  for (guint i = 0; i < 256; i++)
    g_array_index (report->cells, guint8, i) = i < 32 ? CM_CAPACITY_CELL_VERIFIED : CM_CAPACITY_CELL_NO_STORAGE;
  g_array_index (report->cells, guint8, 10) = CM_CAPACITY_CELL_READ_ERROR;
  g_array_index (report->cells, guint8, 20) = CM_CAPACITY_CELL_WRITE_ERROR;
  return report;
}

static void
check_capacity_map (CmChartLayout          *layout,
                    const CmCapacityReport *report)
{
  CmChartPanel *panel;
  const CmChartBar *first;

  g_assert_false (layout->empty);
  g_assert_cmpint (layout->kind, ==, CM_CHART_CAPACITY_MAP);
  check_no_overlap (layout);
  g_assert_cmpuint (layout->panels->len, ==, 1);
  panel = g_ptr_array_index (layout->panels, 0);
  g_assert_cmpuint (panel->bars->len, ==, report->cells->len);
  first = &g_array_index (panel->bars, CmChartBar, 0);
  g_assert_cmpfloat (first->rect.width, >=, 2);

  for (guint i = 0; i < panel->bars->len; i++)
    {
      const CmChartBar *bar = &g_array_index (panel->bars, CmChartBar, i);
      const CmChartBar *prev = i > 0 ? &g_array_index (panel->bars, CmChartBar, i - 1) : NULL;

      /* Equal squares, in reading order, inside the chart. */
      g_assert_cmpfloat_with_epsilon (bar->rect.width, first->rect.width, 1e-9);
      g_assert_cmpfloat_with_epsilon (bar->rect.height, bar->rect.width, 1e-9);
      g_assert_cmpfloat (bar->rect.x, >=, 0);
      g_assert_cmpfloat (bar->rect.y, >=, 0);
      g_assert_cmpfloat (bar->rect.x + bar->rect.width, <=, layout->width);
      g_assert_cmpfloat (bar->rect.y + bar->rect.height, <=, layout->height);
      if (prev != NULL)
        g_assert_true (bar->rect.y > prev->rect.y || (bar->rect.y == prev->rect.y && bar->rect.x > prev->rect.x));
      if (prev != NULL)
        g_assert_false (cm_chart_rect_intersects (&bar->rect, &prev->rect));
      g_assert_cmpint (bar->ink, ==, cm_chart_capacity_cell_ink (g_array_index (report->cells, guint8, i)));

      /* No label sits on a cell. */
      for (guint t = 0; t < layout->texts->len; t++)
        {
          CmChartText *text = &g_array_index (layout->texts, CmChartText, t);

          if (cm_chart_rect_intersects (&text->box, &bar->rect))
            g_error ("“%s” covers cell %u of the capacity map at %.0fx%.0f", text->text, i,
                     layout->width, layout->height);
        }
    }

  /* A legend entry for each state, whether or not the card shows it. */
  g_assert_cmpuint (layout->legend->len, ==, CM_CAPACITY_N_CELL_STATES);
  g_assert_cmpuint (count_legend (layout, "Verified"), ==, 1);
  g_assert_cmpuint (count_legend (layout, "No storage"), ==, 1);
  g_assert_cmpuint (count_legend (layout, "Read error"), ==, 1);
  g_assert_cmpuint (count_legend (layout, "Write error"), ==, 1);
}

static void
test_capacity_map (void)
{
  g_autoptr(CmCapacityReport) report = fake_capacity_report ();
  static const double sizes[][2] = { { 800, 480 }, { 1280, 800 }, { 1200, 700 }, { 400, 600 }, { 560, 240 } };
  double last_side = 0;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr(CmChartLayout) layout = cm_chart_capacity_layout_new (report, "/dev/sdb", sizes[s][0], sizes[s][1],
                                                                      NULL, TRUE);

      check_capacity_map (layout, report);
      /* A larger chart gets larger cells. */
      if (s == 1)
        g_assert_cmpfloat (g_array_index (((CmChartPanel *) g_ptr_array_index (layout->panels, 0))->bars,
                                          CmChartBar, 0).rect.width, >, last_side);
      last_side = g_array_index (((CmChartPanel *) g_ptr_array_index (layout->panels, 0))->bars,
                                 CmChartBar, 0).rect.width;
    }

  /* Without a title, as in the app, and for a card of 400 cells. */
  {
    g_autoptr(CmCapacityReport) many = fake_capacity_report ();
    g_autoptr(CmChartLayout) layout = NULL;

    g_array_set_size (many->cells, 400);
    many->n_positions = 400;
    many->reported_bytes = 1600 * MiB;
    layout = cm_chart_capacity_layout_new (many, NULL, 640, 240, NULL, FALSE);
    check_capacity_map (layout, many);
  }
}

static void
test_capacity_map_export (void)
{
  g_autoptr(CmCapacityReport) report = fake_capacity_report ();
  g_autofree char *dir = g_dir_make_tmp ("cardmark-map-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "map.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "map.svg", NULL);
  g_autofree char *svg_text = NULL;
  g_autofree char *text = cm_chart_describe_capacity (report, "/dev/sdb");
  g_autoptr(GError) error = NULL;

  g_assert_true (cm_chart_export_capacity (png, report, "/dev/sdb", 800, 480, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (png_has_content (png, 800, 480));
  g_assert_true (cm_chart_export_capacity (svg, report, "/dev/sdb", 800, 480, NULL, &error));
  g_assert_true (g_file_get_contents (svg, &svg_text, NULL, NULL));
  g_assert_nonnull (strstr (svg_text, "<title>Capacity map</title>"));
  /* The text alternative counts what the map shows. */
  g_assert_nonnull (strstr (text, "256 cells"));
  g_assert_nonnull (strstr (text, "30 verified, 224 no storage, 1 read errors, 1 write errors"));
  g_unlink (png);
  g_unlink (svg);
  g_rmdir (dir);

  /* A chart of results has no capacity map to draw: it says so. */
  {
    g_autoptr(GPtrArray) one = one_card (TRUE);
    g_autoptr(CmChartLayout) layout = cm_chart_layout_new (CM_CHART_CAPACITY_MAP, one, 800, 480, NULL, TRUE);

    g_assert_true (layout->empty);
    g_assert_false (cm_chart_has_data (CM_CHART_CAPACITY_MAP, one));
  }
}

/* With CARDMARK_CHART_SCREENSHOTS=DIR, draw the charts for the docs. */
/* A live chart of @tests in that order, each a few samples at @mb_per_s. */
static CmChartLive *
live_of (const char * const *tests,
         const char * const *claims,
         double              mb_per_s)
{
  CmChartLive *live = cm_chart_live_new ();

  cm_chart_live_set_claims (live, claims);
  for (guint i = 0; tests[i] != NULL; i++)
    for (double t = 0.25; t <= 3; t += 0.25)
      cm_chart_live_add_sample (live, tests[i], t, mb_per_s * (1 + 0.05 * sin (t)));
  return live;
}

static void
test_screenshots (void)
{
  const char *dir = g_getenv ("CARDMARK_CHART_SCREENSHOTS");
  g_autoptr(GPtrArray) one = one_card (TRUE);
  g_autoptr(GPtrArray) three = three_cards ();
  g_autoptr(GPtrArray) verify_one = verify_cards (1);
  g_autoptr(GPtrArray) verify_three = verify_cards (3);
  g_autoptr(GPtrArray) wear_one = wear_cards (1);
  g_autoptr(GPtrArray) wear_three = wear_cards (3);

  if (dir == NULL)
    {
      g_test_skip ("Set CARDMARK_CHART_SCREENSHOTS to a folder to draw the screenshots.");
      return;
    }
  for (guint k = 0; k < CM_CHART_N_KINDS; k++)
    {
      g_autofree char *name = g_strdup_printf ("chart-%s.png", cm_chart_kind_to_string (k));
      g_autoptr(CmCapacityReport) report = fake_capacity_report ();
      g_autofree char *multi = g_strdup_printf ("chart-%s-compare.png", cm_chart_kind_to_string (k));
      g_autofree char *dark = g_strdup_printf ("chart-%s-dark.png", cm_chart_kind_to_string (k));
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *multi_path = g_build_filename (dir, multi, NULL);
      g_autofree char *dark_path = g_build_filename (dir, dark, NULL);
      g_autoptr(GError) error = NULL;
      CmChartStyle style;

      cm_chart_style_init (&style);
      if (k == CM_CHART_CAPACITY_MAP)
        {
          g_assert_true (cm_chart_export_capacity (path, report, "/dev/sdb", 800, 480, &style, &error));
          style.dark = TRUE;
          g_assert_true (cm_chart_export_capacity (dark_path, report, "/dev/sdb", 800, 480, &style, &error));
          g_assert_no_error (error);
          continue;
        }
      g_assert_true (cm_chart_export (path, k, input_for (k, one, verify_one, wear_one), 800, 480, &error));
      g_assert_true (cm_chart_export (multi_path, k, input_for (k, three, verify_three, wear_three), 800, 480, &error));
      style.dark = TRUE;
      g_assert_true (cm_chart_export_with_style (dark_path, k, input_for (k, one, verify_one, wear_one),
                                                 800, 480, &style, &error));
      g_assert_no_error (error);
    }
  /* The live chart mid-run: a 20 MB/s write under U3's line. */
  for (guint dark = 0; dark < 2; dark++)
    {
      static const char * const tests[] = { "seq-write", "seq-read", "rand-write-4k", NULL };
      static const char * const claims[] = { "U3", "A1", NULL };
      g_autoptr(CmChartLive) live = live_of (tests, claims, 20);
      g_autofree char *path = g_build_filename (dir, dark ? "chart-live-dark.png" : "chart-live.png", NULL);
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 640, 240);
      cairo_t *cr = cairo_create (surface);
      CmChartStyle style;

      cm_chart_style_init (&style);
      style.dark = dark;
      cm_chart_draw_live (cr, live, 640, 240, &style);
      g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==, CAIRO_STATUS_SUCCESS);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
  {
    g_autoptr(GPtrArray) fast = fast_card ("C10,U1,U3,V30");
    g_autofree char *path = g_build_filename (dir, "chart-summary-fast.png", NULL);
    g_autofree char *time_path = g_build_filename (dir, "chart-write-over-time-fast.png", NULL);
    g_autoptr(GError) error = NULL;

    g_assert_true (cm_chart_export (path, CM_CHART_SUMMARY, fast, 800, 480, &error));
    g_assert_true (cm_chart_export (time_path, CM_CHART_WRITE_OVER_TIME, fast, 800, 480, &error));
    g_assert_no_error (error);
  }
}

/* U3's 30 MB/s line shows during a 20 MB/s write, and A1's 10 MB/s too:
 * the axis reaches the ticked classes, not only the samples. */
static void
test_live_class_lines (void)
{
  static const char * const tests[] = { "seq-write", NULL };
  static const char * const claims[] = { "U3", "A1", NULL };
  g_autoptr(CmChartLive) live = live_of (tests, claims, 20);
  g_autoptr(CmChartLayout) layout = cm_chart_live_layout_new (live, 640, 300, NULL);
  CmChartPanel *panel;
  guint found = 0;

  g_assert_false (layout->empty);
  panel = g_ptr_array_index (layout->panels, 0);
  g_assert_cmpfloat (panel->y.max, >=, 30);
  for (guint i = 0; i < panel->thresholds->len; i++)
    {
      CmChartThreshold *line = &g_array_index (panel->thresholds, CmChartThreshold, i);

      g_assert_cmpfloat (line->y, >=, panel->plot.y);
      g_assert_cmpfloat (line->y, <=, panel->plot.y + panel->plot.height);
      if (line->value == 30 && strstr (line->label, "U3") != NULL)
        found |= 1;
      if (line->value == 10 && strstr (line->label, "A1") != NULL)
        found |= 2;
    }
  g_assert_cmpuint (found, ==, 3);
}

/* The ink of @test's line in a live chart of @tests. */
static int
live_ink (const char * const *tests,
          const char         *test)
{
  g_autoptr(CmChartLive) live = live_of (tests, NULL, 20);
  g_autoptr(CmChartLayout) layout = cm_chart_live_layout_new (live, 640, 300, NULL);
  CmChartPanel *panel = g_ptr_array_index (layout->panels, 0);

  g_assert_cmpuint (panel->series->len, ==, live->series->len);
  for (guint i = 0; i < live->series->len; i++)
    if (g_str_equal (((CmChartLiveSeries *) g_ptr_array_index (live->series, i))->test, test))
      return ((CmChartSeries *) g_ptr_array_index (panel->series, i))->ink;
  g_assert_not_reached ();
}

/* The ink of the first line of @kind's chart of one card. */
static int
first_series_ink (CmChartKind kind)
{
  g_autoptr(GPtrArray) one = one_card (TRUE);
  g_autoptr(CmChartLayout) layout = cm_chart_layout_new (kind, one, 800, 480, NULL, TRUE);
  CmChartPanel *panel = g_ptr_array_index (layout->panels, 0);

  g_assert_cmpuint (panel->series->len, >, 0);
  return ((CmChartSeries *) g_ptr_array_index (panel->series, 0))->ink;
}

/* A test's colour is its own, whatever tests a run has and in whatever
 * order they start, and the same in the result charts: sequential read
 * is not blue in one run and orange in the next. */
static void
test_live_colours (void)
{
  static const char * const bench[] = { "seq-write", "seq-read", "rand-write-4k", "rand-read-4k", NULL };
  static const char * const read_only[] = { "seq-read", "rand-read-4k", NULL };
  static const char * const reversed[] = { "rand-read-4k", "rand-write-4k", "seq-read", "seq-write", NULL };
  static const char * const names[] = { "seq-write", "seq-read", "rand-write-4k", "rand-read-4k", NULL };
  static const char * const all[] = { "seq-write", "seq-read", "rand-write-4k", "rand-read-4k",
                                      "rand-write-4k-qd32", "rand-read-4k-qd32", NULL };

  g_assert_cmpint (live_ink (bench, "seq-read"), ==, live_ink (read_only, "seq-read"));
  g_assert_cmpint (live_ink (bench, "rand-read-4k"), ==, live_ink (read_only, "rand-read-4k"));
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_assert_cmpint (live_ink (bench, names[i]), ==, live_ink (reversed, names[i]));
      g_assert_cmpint (live_ink (bench, names[i]), ==, cm_chart_test_ink (names[i]));
    }
  /* The six figures people compare cards by: six colours. */
  for (guint i = 0; all[i] != NULL; i++)
    for (guint j = i + 1; all[j] != NULL; j++)
      g_assert_cmpint (live_ink (all, all[i]), !=, live_ink (all, all[j]));

  /* The same colours in the result charts of one card. */
  g_assert_cmpint (first_series_ink (CM_CHART_WRITE_OVER_TIME), ==, live_ink (bench, "seq-write"));
  g_assert_cmpint (first_series_ink (CM_CHART_LATENCY), ==, live_ink (bench, "rand-read-4k"));
}

/* How light a chart's painted pixel is, 0 to 1. */
static double
pixel_luminance (cairo_surface_t *surface,
                 double           x,
                 double           y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 px = *(const guint32 *) (data + (int) y * cairo_image_surface_get_stride (surface) + (int) x * 4);

  return (0.2126 * (px >> 16 & 0xff) + 0.7152 * (px >> 8 & 0xff) + 0.0722 * (px & 0xff)) / 255;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double da = *(const double *) a, db = *(const double *) b;

  return (da > db) - (da < db);
}

/* The median luminance down the middle of @bar: a class line crossing it
 * does not count. */
static double
bar_luminance (cairo_surface_t  *surface,
               const CmChartBar *bar)
{
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));

  for (double y = bar->rect.y + 1; y < bar->rect.y + bar->rect.height - 1; y++)
    {
      double v = pixel_luminance (surface, bar->rect.x + bar->rect.width / 2, y);

      g_array_append_val (values, v);
    }
  g_assert_cmpuint (values->len, >, 0);
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, values->len / 2);
}

/* The legend says "Lighter: queue depth 32": in the dark style as in the
 * light one, each card's queue depth 32 bars are painted lighter than its
 * queue depth 1 bars. */
static void
test_queue_depth_32_lighter (void)
{
  g_autoptr(GPtrArray) three = three_cards ();

  for (guint dark = 0; dark < 2; dark++)
    {
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 480);
      cairo_t *cr = cairo_create (surface);
      PangoContext *context = pango_cairo_create_context (cr);
      g_autoptr(CmChartLayout) layout = cm_chart_layout_new (CM_CHART_SUMMARY, three, 800, 480, context, TRUE);
      CmChartPanel *panel = g_ptr_array_index (layout->panels, 1);
      CmChartStyle style;
      guint pairs = 0;

      cm_chart_style_init (&style);
      style.dark = dark;
      cm_chart_paint (cr, layout, &style);
      cairo_surface_flush (surface);

      g_assert_cmpuint (count_legend (layout, "Lighter"), ==, 1);
      for (guint i = 0; i + 1 < panel->bars->len; i++)
        {
          CmChartBar *qd1 = &g_array_index (panel->bars, CmChartBar, i);
          CmChartBar *qd32 = &g_array_index (panel->bars, CmChartBar, i + 1);

          if (qd1->light || !qd32->light || qd1->ink != qd32->ink || qd32->rect.height < 4 || qd1->rect.height < 4)
            continue;
          g_assert_cmpfloat (bar_luminance (surface, qd32), >, bar_luminance (surface, qd1) + 0.05);
          pairs++;
        }
      g_assert_cmpuint (pairs, >=, 3);

      g_object_unref (context);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/charts/kind-names", test_kind_names);
  g_test_add_func ("/cardmark/charts/kind-enum", test_kind_enum);
  g_test_add_func ("/cardmark/charts/kind-export", test_kind_export);
  g_test_add_func ("/cardmark/charts/threshold-position", test_threshold_position);
  g_test_add_func ("/cardmark/charts/threshold-claims", test_threshold_claims);
  g_test_add_func ("/cardmark/charts/bars-proportional", test_bars_proportional);
  g_test_add_func ("/cardmark/charts/ticks", test_ticks);
  g_test_add_func ("/cardmark/charts/no-overlap", test_no_overlap);
  g_test_add_func ("/cardmark/charts/legend", test_legend);
  g_test_add_func ("/cardmark/charts/compare-legend-unique", test_compare_legend_unique);
  g_test_add_func ("/cardmark/charts/compare-value-labels", test_compare_value_labels);
  g_test_add_func ("/cardmark/charts/legend-read-only", test_legend_read_only);
  g_test_add_func ("/cardmark/charts/read-only-bars-not-met", test_read_only_bars_not_met);
  g_test_add_func ("/cardmark/charts/threshold-labels-fast", test_threshold_labels_fast);
  g_test_add_func ("/cardmark/charts/threshold-figures-only", test_threshold_figures_only);
  g_test_add_func ("/cardmark/charts/threshold-card-claims", test_threshold_card_claims);
  g_test_add_func ("/cardmark/charts/threshold-leaders", test_threshold_leaders);
  g_test_add_func ("/cardmark/charts/latency-in-plot", test_latency_in_plot);
  g_test_add_func ("/cardmark/charts/sweep-positions", test_sweep_positions);
  g_test_add_func ("/cardmark/charts/export", test_export);
  g_test_add_func ("/cardmark/charts/export-fails-cleanly", test_export_fails_cleanly);
  g_test_add_func ("/cardmark/charts/verify", test_verify);
  g_test_add_func ("/cardmark/charts/wear", test_wear);
  g_test_add_func ("/cardmark/charts/wear-write-amplification", test_wear_write_amplification);
  g_test_add_func ("/cardmark/charts/wear-write-amplification-drawn", test_wear_write_amplification_drawn);
  g_test_add_func ("/cardmark/charts/empty", test_empty);
  g_test_add_func ("/cardmark/charts/describe", test_describe);
  g_test_add_func ("/cardmark/charts/capacity-map", test_capacity_map);
  g_test_add_func ("/cardmark/charts/capacity-map-export", test_capacity_map_export);
  g_test_add_func ("/cardmark/charts/screenshots", test_screenshots);
  g_test_add_func ("/cardmark/charts/live-class-lines", test_live_class_lines);
  g_test_add_func ("/cardmark/charts/live-colours", test_live_colours);
  g_test_add_func ("/cardmark/charts/queue-depth-32-lighter", test_queue_depth_32_lighter);

  return g_test_run ();
}
