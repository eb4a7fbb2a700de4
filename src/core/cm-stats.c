/* cm-stats.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "cm-stats.h"

static int
compare_floats (const void *a,
                const void *b)
{
  float fa = *(const float *) a;
  float fb = *(const float *) b;

  return (fa > fb) - (fa < fb);
}

void
cm_stats_sort_floats (float *values,
                      gsize  n)
{
  if (n > 1)
    qsort (values, n, sizeof (float), compare_floats);
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
