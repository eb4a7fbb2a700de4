/* cm-engine-run.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The record of one running test (CmEngineRun, cm-engine-private.h) and
 * the timed, counted commands every access pattern is built from: the
 * state the engine (cm-engine.c) and its patterns (cm-engine-patterns.c)
 * share. Both call down to this file and it calls neither, so the two
 * do not call each other back and forth. Runs in a worker thread and
 * touches only the job.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cm-engine-private.h"
#include "cm-target.h"

#define SCATTER_MAX 4000

/* Keeps a bounded, evenly thinned set of (time, latency) points for the
 * latency scatter chart: when full, every other point goes and only
 * every second command after that is kept. The stride is a power of two,
 * so choosing costs a mask, not a division, per command. */
static inline void
record_scatter (CmEngineRun *run,
                double       t,
                float        us)
{
  GArray *scatter = run->test->scatter;
  CmLatencyPoint point = { (float) (t - run->t_counted), us };

  if ((run->n_commands & (run->scatter_stride - 1)) != 0)
    return;

  if (scatter->len >= SCATTER_MAX)
    {
      for (guint i = 0; i < scatter->len / 2; i++)
        g_array_index (scatter, CmLatencyPoint, i) = g_array_index (scatter, CmLatencyPoint, 2 * i);
      g_array_set_size (scatter, scatter->len / 2);
      run->scatter_stride *= 2;
    }

  g_array_append_val (scatter, point);
}

void
cm_engine_run_init (CmEngineRun       *run,
                    const CmEngineJob *job,
                    const CmTestSpec  *spec)
{
  run->job = job;
  run->spec = spec;
  run->test = cm_test_result_new (spec->name);
  run->test->block_size = spec->block_size;
  run->test->queue_depth = spec->queue_depth;
  run->latencies = g_array_sized_new (FALSE, FALSE, sizeof (float), 1 << 16);
  run->scatter_stride = 1;
  run->rng = g_random_int () | ((guint64) g_random_int () << 32) | 1;
  run->t_origin = cm_engine_now ();
  run->t_counted = run->t_origin + spec->warmup_s;
  run->t_first_start = run->t_counted;
  run->t_last_sample = run->t_counted;
}

void
cm_engine_run_clear (CmEngineRun *run)
{
  g_clear_pointer (&run->latencies, g_array_unref);
  g_clear_pointer (&run->test, cm_test_result_free);
}

void
cm_engine_run_emit_sample (CmEngineRun *run,
                           double       now,
                           double       fraction)
{
  CmSample sample = {
    run->t_last_sample - run->t_counted,
    now - run->t_counted,
    run->sample_bytes,
  };

  g_array_append_val (run->test->samples, sample);
  run->t_last_sample = now;
  run->sample_bytes = 0;

  if (run->job->progress != NULL)
    run->job->progress (&sample, CLAMP (fraction, 0, 1), run->job->user_data);
}

/* Counts @n finished commands that the engine saw end together at @end
 * (one look at the clock for all that one wait collected), begun at
 * @starts, unless they ended during the warm-up. One that began during
 * the warm-up moves the start of the counted time back to when it began,
 * so that a slow card's few long commands are not counted in less time
 * than they took. Every command's latency is kept, whether it comes
 * alone or in a batch: the room for a batch is made once, so a command
 * costs a subtraction and a store. */
void
cm_engine_run_record_completions (CmEngineRun  *run,
                                  const double *starts,
                                  guint         n,
                                  double        end,
                                  gsize         bytes)
{
  guint first = run->latencies->len;
  float *lat;

  if (n == 0 || end < run->t_counted)
    return;

  g_array_set_size (run->latencies, first + n);
  lat = &g_array_index (run->latencies, float, first);

  for (guint i = 0; i < n; i++)
    {
      lat[i] = (float) ((end - starts[i]) * 1e6);
      run->t_first_start = MIN (run->t_first_start, starts[i]);
      record_scatter (run, end, lat[i]);
      run->n_commands++;
    }

  run->counted_bytes += (guint64) n * bytes;
  run->sample_bytes += (guint64) n * bytes;
}

void
cm_engine_run_record_command (CmEngineRun *run,
                              double       start,
                              double       end,
                              gsize        bytes)
{
  cm_engine_run_record_completions (run, &start, 1, end, bytes);
}

void
cm_engine_run_finish (CmEngineRun *run,
                      double       t_end)
{
  CmTestResult *test = run->test;
  float *lat = (float *) run->latencies->data;
  gsize n = run->latencies->len;

  if (run->sample_bytes > 0 || test->samples->len == 0)
    cm_engine_run_emit_sample (run, t_end, 1.0);

  test->bytes = run->counted_bytes;
  test->seconds = MAX (t_end - run->t_first_start, 1e-9);
  test->mb_per_s = test->bytes / test->seconds / 1e6;
  test->iops = run->n_commands / test->seconds;

  cm_stats_sort_floats (lat, n);
  test->latency_us[0] = cm_stats_percentile (lat, n, 50);
  test->latency_us[1] = cm_stats_percentile (lat, n, 90);
  test->latency_us[2] = cm_stats_percentile (lat, n, 99);
  test->latency_us[3] = n > 0 ? lat[n - 1] : 0;

  if (run->spec->pattern == CM_PATTERN_SEQUENTIAL)
    test->sustained_mb_per_s = cm_stats_sustained_mb_per_s ((CmSample *) test->samples->data,
                                                            test->samples->len);

  if (run->spec->pattern == CM_PATTERN_SEQUENTIAL && run->spec->direction == CM_DIRECTION_WRITE)
    {
      test->has_cliff = TRUE;
      cm_stats_find_cliff ((CmSample *) test->samples->data, test->samples->len, &test->cliff);
    }
}

gboolean
cm_engine_check_cancelled (const CmEngineJob  *job,
                           GError            **error)
{
  return g_cancellable_set_error_if_cancelled (job->cancellable, error);
}

gboolean
cm_engine_io_error (GError **error,
                    int      errsv)
{
  g_propagate_error (error, cm_target_error_from_errno (errsv, NULL));
  return FALSE;
}

/* Without O_DIRECT the page cache would flatter the card: written data
 * must reach it before the clock stops, and reads must not come from
 * memory. */
gboolean
cm_engine_flush_if_buffered (const CmEngineJob  *job,
                             gboolean            drop_cache,
                             GError            **error)
{
  if (job->direct_io)
    return TRUE;

  if (fdatasync (job->fd) != 0)
    return cm_engine_io_error (error, errno);

  if (drop_cache)
    posix_fadvise (job->fd, 0, 0, POSIX_FADV_DONTNEED);

  return TRUE;
}

void
cm_engine_count_written (const CmEngineJob *job,
                         gssize             done)
{
  if (job->written != NULL && done > 0)
    __atomic_add_fetch (job->written, (guint64) done, __ATOMIC_RELAXED);
}

gssize
cm_engine_do_io (const CmEngineJob *job,
                 CmDirection        direction,
                 guint8            *buffer,
                 gsize              size,
                 guint64            offset)
{
  gssize done;

  if (direction == CM_DIRECTION_READ)
    return pread (job->fd, buffer, size, offset);

  done = pwrite (job->fd, buffer, size, offset);
  cm_engine_count_written (job, done);
  return done;
}

/* What a command that moved fewer bytes than asked means: a write cut
 * short ran out of room (the disk filled up), not into a failing card. */
int
cm_engine_short_transfer_errno (CmDirection direction)
{
  return direction == CM_DIRECTION_WRITE ? ENOSPC : EIO;
}

gboolean
cm_engine_check_transfer (CmDirection   direction,
                          gssize        done,
                          gsize         size,
                          GError      **error)
{
  if (done < 0)
    return cm_engine_io_error (error, errno);
  if ((gsize) done != size)
    return cm_engine_io_error (error, done == 0 ? ENOSPC : cm_engine_short_transfer_errno (direction));

  return TRUE;
}

/* One command, timed and counted. Returns when it ended, or 0 with
 * @error set. */
double
cm_engine_run_timed_command (CmEngineRun *run,
                             CmDirection  direction,
                             guint8      *data,
                             gsize        size,
                             guint64      offset,
                             GError     **error)
{
  double start = cm_engine_now (), end;

  if (!cm_engine_check_transfer (direction, cm_engine_do_io (run->job, direction, data, size, offset), size, error))
    return 0;

  end = cm_engine_now ();
  cm_engine_run_record_command (run, start, end, size);
  return end;
}

/* A write test is over once its data has left the computer: with
 * O_DIRECT each write returned only when the card (or its reader) took
 * it; a buffered run flushes first. As with fio's default, the card's own
 * write cache is not flushed inside the timing. */
gboolean
cm_engine_run_finish_test (CmEngineRun *run,
                           double       now,
                           GError     **error)
{
  if (run->spec->direction == CM_DIRECTION_WRITE)
    {
      if (!cm_engine_flush_if_buffered (run->job, FALSE, error))
        return FALSE;
      now = cm_engine_now ();
    }

  cm_engine_run_finish (run, now);
  return TRUE;
}
