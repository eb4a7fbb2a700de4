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

/* Where a write's rate fell for good (a card's write cache running
 * out): see cm_stats_find_cliff (). */
typedef struct
{
  gboolean found;            /* the write went past a cliff */
  double   t;                /* seconds into the write where it fell */
  guint64  full_speed_bytes; /* bytes written before it fell; all of them when not found */
  double   before_mb_per_s;  /* mean rate before the cliff */
  double   after_mb_per_s;   /* mean rate after it; the whole write's when not found */
} CmCliff;

void   cm_stats_find_cliff        (const CmSample *samples,
                                   gsize           n_samples,
                                   CmCliff        *cliff);

G_END_DECLS
