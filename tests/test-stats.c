/* test-stats.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "cm-stats.h"

static void
test_percentile_nearest_rank (void)
{
  float values[100];

  /* 100, 99, …, 1: sorting must put them in order before ranking. */
  for (int i = 0; i < 100; i++)
    values[i] = 100 - i;
  cm_stats_sort_floats (values, 100);

  g_assert_cmpfloat (values[0], ==, 1);
  g_assert_cmpfloat (cm_stats_percentile (values, 100, 50), ==, 50);
  g_assert_cmpfloat (cm_stats_percentile (values, 100, 90), ==, 90);
  g_assert_cmpfloat (cm_stats_percentile (values, 100, 99), ==, 99);
  g_assert_cmpfloat (cm_stats_percentile (values, 100, 100), ==, 100);
  g_assert_cmpfloat (cm_stats_percentile (values, 100, 0), ==, 1);
  g_assert_cmpfloat (cm_stats_percentile (values, 0, 50), ==, 0);
}

static void
test_percentile_single (void)
{
  float one = 42;

  g_assert_cmpfloat (cm_stats_percentile (&one, 1, 1), ==, 42);
  g_assert_cmpfloat (cm_stats_percentile (&one, 1, 99), ==, 42);
}

/* Samples of 0.25 s at a steady rate give 1-second windows at that rate,
 * whatever the sample boundaries. */
static void
test_windows_steady (void)
{
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (CmSample));
  g_autoptr(GArray) windows = NULL;

  for (int i = 0; i < 20; i++)
    {
      CmSample s = { i * 0.3, (i + 1) * 0.3, 3000000 }; /* 10 MB/s */
      g_array_append_val (samples, s);
    }

  windows = cm_stats_windows_mb_per_s ((CmSample *) samples->data, samples->len, 1.0);
  g_assert_cmpuint (windows->len, ==, 6);
  for (guint i = 0; i < windows->len; i++)
    g_assert_cmpfloat_with_epsilon (g_array_index (windows, double, i), 10.0, 1e-6);
}

/* A card whose cache runs out: fast for 5 s, then slow for 15 s. The
 * sustained rate is the 10th percentile of the windows, so it reports
 * the slow part, not the average. */
static void
test_sustained_cache_cliff (void)
{
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (CmSample));
  guint64 total = 0;
  double average;

  for (int i = 0; i < 80; i++)
    {
      double rate = i < 20 ? 80e6 : 8e6;
      CmSample s = { i * 0.25, (i + 1) * 0.25, (guint64) (rate * 0.25) };

      total += s.bytes;
      g_array_append_val (samples, s);
    }

  average = total / 20.0 / 1e6;
  g_assert_cmpfloat (average, >, 20);
  g_assert_cmpfloat_with_epsilon (cm_stats_sustained_mb_per_s ((CmSample *) samples->data, samples->len),
                                  8.0, 1e-6);
}

static void
test_sustained_short (void)
{
  CmSample s = { 0, 0.5, 5000000 };

  /* Under two seconds there are no windows to rank: the average stands. */
  g_assert_cmpfloat_with_epsilon (cm_stats_sustained_mb_per_s (&s, 1), 10.0, 1e-9);
  g_assert_cmpfloat (cm_stats_sustained_mb_per_s (NULL, 0), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/stats/percentile-nearest-rank", test_percentile_nearest_rank);
  g_test_add_func ("/cardmark/stats/percentile-single", test_percentile_single);
  g_test_add_func ("/cardmark/stats/windows-steady", test_windows_steady);
  g_test_add_func ("/cardmark/stats/sustained-cache-cliff", test_sustained_cache_cliff);
  g_test_add_func ("/cardmark/stats/sustained-short", test_sustained_short);

  return g_test_run ();
}
