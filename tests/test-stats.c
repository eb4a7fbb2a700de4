/* test-stats.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cm-engine-private.h"
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

static int
compare_floats (const void *a,
                const void *b)
{
  float fa = *(const float *) a;
  float fb = *(const float *) b;

  return (fa > fb) - (fa < fb);
}

/* The sort puts every value where qsort does: latencies from under a
 * microsecond to seconds (a wide spread in every byte of a float), many
 * equal ones, zeros, and the values a general sort of floats must also
 * place (negatives, the smallest and largest, infinities). */
static void
test_sort_floats_as_qsort (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (50);
  float special[] = { 0.0f, -0.0f, 1.0f, -1.0f, 1e-40f, -1e-40f, FLT_MAX, -FLT_MAX,
                      INFINITY, -INFINITY, 2.5f, 2.5f };
  guint n = 100000;
  g_autofree float *values = g_new (float, n);
  g_autofree float *expected = NULL;

  for (guint i = 0; i < n; i++)
    values[i] = (float) exp (g_rand_double_range (rand, log (0.1), log (2e6)));
  for (guint i = 0; i < n / 10; i++)
    values[g_rand_int_range (rand, 0, n)] = 125.0f;
  memcpy (values, special, sizeof special);

  expected = g_memdup2 (values, n * sizeof (float));
  qsort (expected, n, sizeof (float), compare_floats);
  cm_stats_sort_floats (values, n);

  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat (values[i], ==, expected[i]);
}

/* Values that share their top bytes, and all equal: the passes over a
 * byte they all share are left out, and the order still comes out. */
static void
test_sort_floats_shared_bytes (void)
{
  float same[1000], close[1000];

  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    {
      same[i] = 7.0f;
      close[i] = 100.0f + (float) ((i * 7919) % 1000) / 64.0f;
    }

  cm_stats_sort_floats (same, G_N_ELEMENTS (same));
  cm_stats_sort_floats (close, G_N_ELEMENTS (close));

  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    g_assert_cmpfloat (same[i], ==, 7.0f);
  for (guint i = 1; i < G_N_ELEMENTS (close); i++)
    g_assert_cmpfloat (close[i - 1], <, close[i]);
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

/* Samples of a write that goes at @fast MB/s for @cache_mb MB, then at
 * @slow, for @seconds in 0.25-s samples, with the cliff landing inside
 * a sample as it would on a real card. */
static GArray *
cached_write (double fast,
              double slow,
              double cache_mb,
              double seconds)
{
  GArray *samples = g_array_new (FALSE, FALSE, sizeof (CmSample));
  double written = 0;

  for (double t = 0; t < seconds - 1e-9; t += 0.25)
    {
      double left = 0.25, bytes = 0;
      CmSample s;

      if (written < cache_mb)
        {
          double at_fast = MIN (left, (cache_mb - written) / fast);

          bytes += at_fast * fast;
          left -= at_fast;
        }
      bytes += left * slow;
      written += bytes;

      s = (CmSample) { t, t + 0.25, (guint64) (bytes * 1e6) };
      g_array_append_val (samples, s);
    }

  return samples;
}

static void
test_cliff_found (void)
{
  /* The cache ends 1.7 s in, inside the seventh sample. */
  g_autoptr(GArray) samples = cached_write (40, 12, 68, 15);
  CmCliff cliff;

  cm_stats_find_cliff ((CmSample *) samples->data, samples->len, &cliff);
  g_assert_true (cliff.found);
  g_assert_cmpfloat (fabs (cliff.full_speed_bytes / 68e6 - 1), <, 0.01);
  g_assert_cmpfloat (fabs (cliff.t - 68.0 / 40), <, 0.01);
  g_assert_cmpfloat (fabs (cliff.before_mb_per_s - 40), <, 0.1);
  g_assert_cmpfloat (fabs (cliff.after_mb_per_s - 12), <, 0.1);
}

static void
test_cliff_none (void)
{
  /* The whole write fits in the cache: no cliff, the cache is at least
   * what was written, and both rates are the write's mean. */
  g_autoptr(GArray) samples = cached_write (40, 12, 1000, 10);
  CmCliff cliff;

  cm_stats_find_cliff ((CmSample *) samples->data, samples->len, &cliff);
  g_assert_false (cliff.found);
  g_assert_cmpfloat (fabs (cliff.full_speed_bytes / 400e6 - 1), <, 0.01);
  g_assert_cmpfloat (fabs (cliff.after_mb_per_s - 40), <, 0.1);

  /* A drop in the last second is not a cliff yet: too little follows. */
  g_clear_pointer (&samples, g_array_unref);
  samples = cached_write (40, 12, 40 * 9, 10);
  cm_stats_find_cliff ((CmSample *) samples->data, samples->len, &cliff);
  g_assert_false (cliff.found);
}

/* Bursts at 40 MB/s for 1.2 s, then a 1.2-s stall, over and over: the
 * card sustains 20 MB/s, and no stall is a cliff. */
static void
test_cliff_not_stalls (void)
{
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (CmSample));
  CmCliff cliff;

  for (int i = 0; i < 100; i++)
    {
      gboolean stalled = (i / 5) % 2 == 1;
      CmSample s = { i * 0.24, (i + 1) * 0.24, stalled ? 0 : (guint64) (40e6 * 0.24) };

      g_array_append_val (samples, s);
    }

  cm_stats_find_cliff ((CmSample *) samples->data, samples->len, &cliff);
  g_assert_false (cliff.found);
  g_assert_cmpfloat (fabs (cliff.after_mb_per_s - 20), <, 0.5);
}

/* What the engine saw of one command: when it went in, and when the wait
 * that collected it returned. */
typedef struct
{
  double start;
  double end;
} Completion;

#define REPLAY_DEPTH 32
#define REPLAY_WAITS 4000

/* A stream of completions as the queued loop meets them: a queue of
 * REPLAY_DEPTH kept full, each wait collecting from one to all of them
 * in any order at one moment and putting new ones in their places.
 * @batches gets how many each wait collected. */
static GArray *
replay_stream (GArray *batches)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (50);
  GArray *stream = g_array_new (FALSE, FALSE, sizeof (Completion));
  double submitted[REPLAY_DEPTH] = { 0 };
  guint order[REPLAY_DEPTH];
  double t = 0;

  for (guint i = 0; i < REPLAY_DEPTH; i++)
    order[i] = i;

  for (guint w = 0; w < REPLAY_WAITS; w++)
    {
      guint n = g_rand_int_range (rand, 1, REPLAY_DEPTH + 1);

      t += g_rand_double_range (rand, 1e-6, 5e-4);
      for (guint i = 0; i < n; i++)
        {
          guint j = g_rand_int_range (rand, i, REPLAY_DEPTH), slot = order[j];
          Completion c = { submitted[slot], t };

          order[j] = order[i];
          order[i] = slot;
          g_array_append_val (stream, c);
          submitted[slot] = t;
        }
      g_array_append_val (batches, n);
    }

  return stream;
}

/* Counts the stream into a fresh record, each wait's commands together
 * (@batched) or one by one, and returns the test it finished. */
static CmTestResult *
replay (GArray   *stream,
        GArray   *batches,
        gboolean  batched,
        double    t_counted)
{
  CmEngineJob job = { .fd = -1 };
  CmTestSpec spec = { .name = (char *) "rand-read-4k-qd32", .pattern = CM_PATTERN_RANDOM,
                      .direction = CM_DIRECTION_READ, .block_size = 4096, .queue_depth = REPLAY_DEPTH };
  const Completion *c = (const Completion *) stream->data;
  CmEngineRun run = { 0 };
  double starts[REPLAY_DEPTH];
  CmTestResult *test;

  cm_engine_run_init (&run, &job, &spec);
  run.t_origin = 0;
  run.t_counted = run.t_first_start = run.t_last_sample = t_counted;

  for (guint b = 0; b < batches->len; b++)
    {
      guint n = g_array_index (batches, guint, b);

      for (guint i = 0; i < n; i++)
        {
          if (batched)
            starts[i] = c[i].start;
          else
            cm_engine_run_record_command (&run, c[i].start, c[i].end, spec.block_size);
        }
      if (batched)
        cm_engine_run_record_completions (&run, starts, n, c[0].end, spec.block_size);
      c += n;
    }

  cm_engine_run_finish (&run, c[-1].end);
  test = g_steal_pointer (&run.test);
  cm_engine_run_clear (&run);
  return test;
}

/* The latencies of every command, counted once each, are the same
 * whether a wait's completions are counted one by one or together: the
 * percentiles match each other and those of the stream itself, taken
 * here from its own timestamps, and a command dropped or counted twice
 * would change the count. The warm-up drops the same commands both ways. */
static void
test_latency_batching (void)
{
  g_autoptr(GArray) batches = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) stream = replay_stream (batches);
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (float));
  const Completion *c = (const Completion *) stream->data;
  double t_counted = c[stream->len / 10].end;
  CmTestResult *one_by_one, *together;
  double p[] = { 50, 90, 99, 100 };
  guint max_batch = 0;

  for (guint b = 0; b < batches->len; b++)
    max_batch = MAX (max_batch, g_array_index (batches, guint, b));
  g_assert_cmpuint (max_batch, >, 1);

  for (guint i = 0; i < stream->len; i++)
    {
      float us = (float) ((c[i].end - c[i].start) * 1e6);

      if (c[i].end >= t_counted)
        g_array_append_val (expected, us);
    }
  g_assert_cmpuint (expected->len, <, stream->len);
  qsort (expected->data, expected->len, sizeof (float), compare_floats);

  one_by_one = replay (stream, batches, FALSE, t_counted);
  together = replay (stream, batches, TRUE, t_counted);

  g_assert_cmpuint (one_by_one->bytes, ==, (guint64) expected->len * 4096);
  g_assert_cmpuint (together->bytes, ==, one_by_one->bytes);
  g_assert_cmpfloat (together->seconds, ==, one_by_one->seconds);
  g_assert_cmpfloat (together->iops, ==, one_by_one->iops);
  g_assert_cmpuint (together->scatter->len, ==, one_by_one->scatter->len);
  for (guint i = 0; i < G_N_ELEMENTS (p); i++)
    {
      double want = cm_stats_percentile ((float *) expected->data, expected->len, p[i]);

      g_assert_cmpfloat (one_by_one->latency_us[i], ==, want);
      g_assert_cmpfloat (together->latency_us[i], ==, want);
    }

  cm_test_result_free (one_by_one);
  cm_test_result_free (together);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/stats/percentile-nearest-rank", test_percentile_nearest_rank);
  g_test_add_func ("/cardmark/stats/percentile-single", test_percentile_single);
  g_test_add_func ("/cardmark/stats/sort-floats-as-qsort", test_sort_floats_as_qsort);
  g_test_add_func ("/cardmark/stats/sort-floats-shared-bytes", test_sort_floats_shared_bytes);
  g_test_add_func ("/cardmark/stats/windows-steady", test_windows_steady);
  g_test_add_func ("/cardmark/stats/sustained-cache-cliff", test_sustained_cache_cliff);
  g_test_add_func ("/cardmark/stats/sustained-short", test_sustained_short);
  g_test_add_func ("/cardmark/stats/cliff-found", test_cliff_found);
  g_test_add_func ("/cardmark/stats/cliff-none", test_cliff_none);
  g_test_add_func ("/cardmark/stats/cliff-not-stalls", test_cliff_not_stalls);
  g_test_add_func ("/cardmark/stats/latency-batching", test_latency_batching);

  return g_test_run ();
}
