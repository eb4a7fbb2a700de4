/* cm-stats.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One throughput sample: bytes moved between t_start and t_end, seconds
 * from the start of the test. */
typedef struct
{
  double  t_start;
  double  t_end;
  guint64 bytes;
} CmSample;

double cm_stats_percentile        (const float *sorted,
                                   gsize        n,
                                   double       p);
void   cm_stats_sort_floats       (float       *values,
                                   gsize        n);
double cm_stats_sample_mb_per_s   (const CmSample *sample);
GArray *cm_stats_windows_mb_per_s (const CmSample *samples,
                                   gsize           n_samples,
                                   double          window_s) G_GNUC_WARN_UNUSED_RESULT;
double cm_stats_sustained_mb_per_s (const CmSample *samples,
                                    gsize           n_samples);

G_END_DECLS
