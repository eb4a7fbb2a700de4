/* cm-stats.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cm-stats.h"

/* A float's bits as a key whose unsigned order is the float's order:
 * a positive float's sign bit set, a negative one's bits all flipped. */
static inline guint32
float_key (float value)
{
  guint32 bits;

  memcpy (&bits, &value, sizeof bits);
  return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}

/* Sorts in place in O(n): a radix sort on the float's bits, a byte at a
 * time from the lowest, skipping a byte every value shares (a latency's
 * top byte mostly). A test at depth 32 keeps millions of latencies,
 * every one, and qsort's call per comparison was the bulk of what the
 * engine spent after its loop. The order is exactly qsort's. */
void
cm_stats_sort_floats (float *values,
                      gsize  n)
{
  gsize counts[4][256] = { { 0 } };
  g_autofree float *scratch = NULL;
  float *from = values, *to;

  if (n < 2)
    return;

  for (gsize i = 0; i < n; i++)
    {
      guint32 key = float_key (values[i]);

      for (guint d = 0; d < 4; d++)
        counts[d][(key >> (8 * d)) & 0xff]++;
    }

  scratch = g_new (float, n);
  to = scratch;
  for (guint d = 0; d < 4; d++)
    {
      gsize offset = 0;
      float *swap;

      if (counts[d][(float_key (from[0]) >> (8 * d)) & 0xff] == n)
        continue;

      for (guint b = 0; b < 256; b++)
        {
          gsize count = counts[d][b];

          counts[d][b] = offset;
          offset += count;
        }

      for (gsize i = 0; i < n; i++)
        to[counts[d][(float_key (from[i]) >> (8 * d)) & 0xff]++] = from[i];

      swap = from;
      from = to;
      to = swap;
    }

  if (from != values)
    memcpy (values, from, n * sizeof (float));
}

/* Nearest-rank percentile (as fio reports them), @p in 0..100, of an
 * already sorted array. Returns 0 for an empty array. */
double
cm_stats_percentile (const float *sorted,
                     gsize        n,
                     double       p)
{
  gsize rank;

  if (n == 0)
    return 0;

  p = CLAMP (p, 0, 100);
  rank = (gsize) ceil (p / 100.0 * n);
  if (rank == 0)
    rank = 1;

  return sorted[rank - 1];
}

double
cm_stats_sample_mb_per_s (const CmSample *sample)
{
  double dt = sample->t_end - sample->t_start;

  if (dt <= 0)
    return 0;

  return sample->bytes / dt / 1e6;
}

/* Splits the samples into consecutive windows of @window_s seconds and
 * returns the MB/s of each complete window. A sample that straddles a
 * window boundary is shared between both windows in proportion to time,
 * so the windows do not depend on where samples happen to fall. */
GArray *
cm_stats_windows_mb_per_s (const CmSample *samples,
                           gsize           n_samples,
                           double          window_s)
{
  GArray *windows = g_array_new (FALSE, TRUE, sizeof (double));
  double t0, t_last;
  gsize n_windows;

  g_return_val_if_fail (window_s > 0, windows);

  if (n_samples == 0)
    return windows;

  t0 = samples[0].t_start;
  t_last = samples[n_samples - 1].t_end;
  n_windows = (gsize) floor ((t_last - t0) / window_s + 1e-9);
  g_array_set_size (windows, n_windows);

  for (gsize i = 0; i < n_samples; i++)
    {
      const CmSample *s = &samples[i];
      double dt = s->t_end - s->t_start;

      if (dt <= 0)
        continue;

      for (gsize w = (gsize) floor ((s->t_start - t0) / window_s); w < n_windows; w++)
        {
          double w_start = t0 + w * window_s;
          double w_end = w_start + window_s;
          double overlap = MIN (s->t_end, w_end) - MAX (s->t_start, w_start);

          if (w_start >= s->t_end)
            break;
          if (overlap > 0)
            g_array_index (windows, double, w) += s->bytes * (overlap / dt);
        }
    }

  for (gsize w = 0; w < n_windows; w++)
    g_array_index (windows, double, w) /= window_s * 1e6;

  return windows;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double da = *(const double *) a;
  double db = *(const double *) b;

  return (da > db) - (da < db);
}

/* The sustained rate of a sequential test: the 10th percentile of its
 * 1-second windows (docs/methodology.md). A test shorter than two seconds has no
 * meaningful windows; its average is the best honest figure. */
double
cm_stats_sustained_mb_per_s (const CmSample *samples,
                             gsize           n_samples)
{
  g_autoptr(GArray) windows = NULL;
  guint64 bytes = 0;
  double seconds;
  gsize rank;

  if (n_samples == 0)
    return 0;

  windows = cm_stats_windows_mb_per_s (samples, n_samples, 1.0);
  if (windows->len < 2)
    {
      for (gsize i = 0; i < n_samples; i++)
        bytes += samples[i].bytes;
      seconds = samples[n_samples - 1].t_end - samples[0].t_start;
      return seconds > 0 ? bytes / seconds / 1e6 : 0;
    }

  qsort (windows->data, windows->len, sizeof (double), compare_doubles);
  rank = (gsize) ceil (0.10 * windows->len);
  return g_array_index (windows, double, MAX (rank, 1) - 1);
}

/* A cliff is a drop to at most 1 / CLIFF_RATIO of the rate before it … */
#define CLIFF_RATIO 1.25
/* … that explains most of the variation of the samples' rates (periodic
 * garbage-collection stalls vary as much, but a split at one of them
 * explains little) … */
#define CLIFF_EXPLAINED 0.5
/* … with this much of the write after it to tell a lasting drop from a
 * hiccup. */
#define CLIFF_MIN_AFTER_S 2.0

/*
 * cm_stats_find_cliff:
 *
 * Fits two constant rates to a write's samples, one before and one
 * after a split, at the split that leaves the least squared error
 * (weighted by each sample's duration). The split is a cliff when the
 * rate after is at least CLIFF_RATIO times lower, the split explains at
 * least CLIFF_EXPLAINED of the variance, and CLIFF_MIN_AFTER_S seconds of
 * the write follow it. The bytes at full speed are placed inside the
 * sample that straddles the split, where the two rates meet its bytes.
 */
void
cm_stats_find_cliff (const CmSample *samples,
                     gsize           n_samples,
                     CmCliff        *cliff)
{
  g_autofree double *cum_bytes = g_new0 (double, n_samples + 1);
  g_autofree double *cum_time = g_new0 (double, n_samples + 1);
  g_autofree double *cum_sq = g_new0 (double, n_samples + 1);
  double total_sse, best_sse = G_MAXDOUBLE;
  gsize best = 0;

  memset (cliff, 0, sizeof *cliff);

  /* Prefix sums of bytes, seconds and rate² × seconds make each split's
   * error a constant-time sum: Σ d (r − m)² = Σ d r² − B² / T. */
  for (gsize i = 0; i < n_samples; i++)
    {
      double d = MAX (samples[i].t_end - samples[i].t_start, 0);
      double r = d > 0 ? samples[i].bytes / d / 1e6 : 0;

      cum_bytes[i + 1] = cum_bytes[i] + samples[i].bytes / 1e6;
      cum_time[i + 1] = cum_time[i] + d;
      cum_sq[i + 1] = cum_sq[i] + d * r * r;
    }

  cliff->full_speed_bytes = (guint64) (cum_bytes[n_samples] * 1e6);
  if (cum_time[n_samples] <= 0)
    return;
  cliff->before_mb_per_s = cliff->after_mb_per_s = cum_bytes[n_samples] / cum_time[n_samples];
  total_sse = cum_sq[n_samples] - cum_bytes[n_samples] * cum_bytes[n_samples] / cum_time[n_samples];

  for (gsize k = 1; k < n_samples; k++)
    {
      double b1 = cum_bytes[k], t1 = cum_time[k];
      double b2 = cum_bytes[n_samples] - b1, t2 = cum_time[n_samples] - t1;
      double sse;

      if (t1 <= 0 || t2 < CLIFF_MIN_AFTER_S)
        continue;

      sse = cum_sq[n_samples] - b1 * b1 / t1 - b2 * b2 / t2;
      if (sse < best_sse)
        {
          best_sse = sse;
          best = k;
        }
    }

  if (best > 0)
    {
      double before = cum_bytes[best] / cum_time[best];
      double after = (cum_bytes[n_samples] - cum_bytes[best]) / (cum_time[n_samples] - cum_time[best]);
      double explained = total_sse > 0 ? 1 - best_sse / total_sse : 0;

      if (after > 0 && before >= CLIFF_RATIO * after && explained >= CLIFF_EXPLAINED)
        {
          /* The moment the cache ran out lies in the sample just before
           * or just after the split: the one whose rate is further from
           * its side's. That sample went at @pre for t1 seconds and @post
           * for the rest, and its bytes fix t1. */
          gsize s = best - 1;
          double r_last = cum_time[best] - cum_time[best - 1] > 0
            ? (cum_bytes[best] - cum_bytes[best - 1]) / (cum_time[best] - cum_time[best - 1]) : before;
          double r_next = cum_time[best + 1] - cum_time[best] > 0
            ? (cum_bytes[best + 1] - cum_bytes[best]) / (cum_time[best + 1] - cum_time[best]) : after;
          double pre, post, d, b, t1, bytes;

          if (fabs (r_next - after) / after > fabs (r_last - before) / before)
            s = best;

          pre = cum_time[s] > 0 ? cum_bytes[s] / cum_time[s] : before;
          post = cum_time[n_samples] - cum_time[s + 1] > 0
            ? (cum_bytes[n_samples] - cum_bytes[s + 1]) / (cum_time[n_samples] - cum_time[s + 1]) : after;
          d = samples[s].t_end - samples[s].t_start;
          b = samples[s].bytes / 1e6;
          t1 = pre > post ? CLAMP ((b - post * d) / (pre - post), 0, d) : 0;
          bytes = cum_bytes[s] + pre * t1;
          before = pre;
          after = post;

          cliff->found = TRUE;
          cliff->t = samples[s].t_start + t1;
          cliff->full_speed_bytes = (guint64) (bytes * 1e6);
          cliff->before_mb_per_s = before;
          cliff->after_mb_per_s = after;
        }
    }
}
