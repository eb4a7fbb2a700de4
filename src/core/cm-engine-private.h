/* cm-engine-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the engine (cm-engine.c) and its access patterns
 * (cm-engine-patterns.c) share, defined in cm-engine-run.c which both
 * call: the state of one test while it runs, and the timed, counted
 * commands every pattern is built from.
 */

#pragma once

#include <time.h>

#include "cm-engine.h"

G_BEGIN_DECLS

#define SAMPLE_INTERVAL_S 0.25

/* One test while it runs. */
typedef struct
{
  const CmEngineJob  *job;
  const CmTestSpec   *spec;
  CmTestResult       *test;
  GArray             *latencies;     /* float µs of every counted command */
  guint               scatter_stride; /* a power of two */
  guint64             n_commands;
  guint64             rng;
  double              t_origin;      /* when the test started */
  double              t_counted;     /* when counting starts (after warm-up) */
  double              t_first_start; /* when the first counted command began */
  double              t_last_sample;
  guint64             sample_bytes;
  guint64             counted_bytes;
  double              t_cliff;       /* sustained write: where it fell so far, or 0 */
} CmEngineRun;

static inline double
cm_engine_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* xorshift64*: fast, and good enough to spread offsets and fill buffers. */
static inline guint64
cm_engine_next_random (guint64 *state)
{
  guint64 x = *state;

  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

/* cm-engine-run.c: the I/O every pattern does: one command at a time, checked, counted
 * as written, and its errors turned into ones a user can act on. */
gboolean cm_engine_check_cancelled      (const CmEngineJob  *job,
                                         GError            **error);
gboolean cm_engine_io_error             (GError            **error,
                                         int                 errsv);
gboolean cm_engine_flush_if_buffered    (const CmEngineJob  *job,
                                         gboolean            drop_cache,
                                         GError            **error);
void     cm_engine_count_written        (const CmEngineJob  *job,
                                         gssize              done);
gssize   cm_engine_do_io                (const CmEngineJob  *job,
                                         CmDirection         direction,
                                         guint8             *buffer,
                                         gsize               size,
                                         guint64             offset);
int      cm_engine_short_transfer_errno (CmDirection         direction);
gboolean cm_engine_check_transfer       (CmDirection         direction,
                                         gssize              done,
                                         gsize               size,
                                         GError            **error);

/* The run's record: samples, latencies, and the figures at its end. */
void     cm_engine_run_init             (CmEngineRun        *run,
                                         const CmEngineJob  *job,
                                         const CmTestSpec   *spec);
void     cm_engine_run_clear            (CmEngineRun        *run);
void     cm_engine_run_emit_sample      (CmEngineRun        *run,
                                         double              now,
                                         double              fraction);
void     cm_engine_run_record_command   (CmEngineRun        *run,
                                         double              start,
                                         double              end,
                                         gsize               bytes);
void     cm_engine_run_record_completions (CmEngineRun       *run,
                                          const double      *starts,
                                          guint              n,
                                          double             end,
                                          gsize              bytes);
void     cm_engine_run_finish           (CmEngineRun        *run,
                                         double              t_end);
double   cm_engine_run_timed_command    (CmEngineRun        *run,
                                         CmDirection         direction,
                                         guint8             *data,
                                         gsize               size,
                                         guint64             offset,
                                         GError            **error);
gboolean cm_engine_run_finish_test      (CmEngineRun        *run,
                                         double              now,
                                         GError            **error);

/* Runs the test the way its pattern moves through the card
 * (cm-engine-patterns.c). */
gboolean cm_engine_run_pattern          (CmEngineRun        *run,
                                         guint8             *buffer,
                                         GError            **error);

G_END_DECLS
