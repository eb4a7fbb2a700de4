/* cm-engine.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The measuring loops. Queue depth 1 uses plain pread/pwrite, like fio's
 * psync engine; deeper queues use io_uring, like fio's io_uring engine,
 * so a card that can queue commands really gets several at once.
 * Everything here runs in a worker thread and touches only the job.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cm-engine.h"
#include "cm-target.h"

#define SAMPLE_INTERVAL_S 0.25
#define SCATTER_MAX 4000
#define HUGE_PAGE (2 * 1024 * 1024)
/* The sustained write stops once its rate has been steady this long
 * after the cliff: the two halves of that stretch within STEADY_SPREAD
 * of each other. */
#define STEADY_S 10.0
#define STEADY_SPREAD 0.15
/* The raw sustained write halves its steps (down to 512 KiB) while one
 * takes longer than this, so a cancel, which waits for the write in
 * flight, returns within half a second. */
#define PRESERVE_COMMAND_S 0.2
#define PRESERVE_MIN_STEP (512 * 1024)

typedef struct
{
  const CmEngineJob  *job;
  const CmTestSpec   *spec;
  CmTestResult       *test;
  GArray             *latencies;     /* float µs of every counted command */
  guint               scatter_stride;
  guint64             n_commands;
  guint64             rng;
  double              t_origin;      /* when the test started */
  double              t_counted;     /* when counting starts (after warm-up) */
  double              t_first_start; /* when the first counted command began */
  double              t_last_sample;
  guint64             sample_bytes;
  guint64             counted_bytes;
  double              t_cliff;       /* sustained write: where it fell so far, or 0 */
} Run;

static inline double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* xorshift64*: fast, and good enough to spread offsets and fill buffers. */
static inline guint64
next_random (guint64 *state)
{
  guint64 x = *state;

  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

/* Buffers for O_DIRECT: aligned for the device, and large ones on 2 MiB
 * boundaries and touched once, so the kernel can back them with huge
 * pages and pins a few pages per command rather than a thousand. */
guint8 *
cm_engine_alloc (gsize size)
{
  gsize align = size >= HUGE_PAGE ? HUGE_PAGE : 4096;
  void *buffer = NULL;

  size = MAX (size, 4096);
  if (posix_memalign (&buffer, align, size) != 0)
    g_error ("Out of memory allocating %" G_GSIZE_FORMAT " bytes", size);

  if (size >= HUGE_PAGE)
    madvise (buffer, size / HUGE_PAGE * HUGE_PAGE, MADV_HUGEPAGE);
  memset (buffer, 0, size);

  return buffer;
}

void
cm_engine_fill_random (guint8 *buffer,
                       gsize   size)
{
  guint64 state = g_random_int () | ((guint64) g_random_int () << 32) | 1;

  for (gsize i = 0; i + 8 <= size; i += 8)
    {
      guint64 v = next_random (&state);
      memcpy (buffer + i, &v, 8);
    }
}

static void
run_init (Run                *run,
          const CmEngineJob  *job,
          const CmTestSpec   *spec)
{
  run->job = job;
  run->spec = spec;
  run->test = cm_test_result_new (spec->name);
  run->test->block_size = spec->block_size;
  run->test->queue_depth = spec->queue_depth;
  run->latencies = g_array_sized_new (FALSE, FALSE, sizeof (float), 1 << 16);
  run->scatter_stride = 1;
  run->rng = g_random_int () | ((guint64) g_random_int () << 32) | 1;
  run->t_origin = now_s ();
  run->t_counted = run->t_origin + spec->warmup_s;
  run->t_first_start = run->t_counted;
  run->t_last_sample = run->t_counted;
}

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->latencies, g_array_unref);
  g_clear_pointer (&run->test, cm_test_result_free);
}

/* Keeps a bounded, evenly thinned set of (time, latency) points for the
 * latency scatter chart: when full, every other point goes and only
 * every second command after that is kept. */
static void
record_scatter (Run    *run,
                double  t,
                float   us)
{
  GArray *scatter = run->test->scatter;
  CmLatencyPoint point = { (float) (t - run->t_counted), us };

  if (run->n_commands % run->scatter_stride != 0)
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

static void
emit_sample (Run    *run,
             double  now,
             double  fraction)
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

/* Counts one finished command, unless it finished during the warm-up.
 * One that began during the warm-up moves the start of the counted time
 * back to when it began, so that a slow card's few long commands are not
 * counted in less time than they took. */
static inline void
record_command (Run    *run,
                double  start,
                double  end,
                gsize   bytes)
{
  float us;

  if (end < run->t_counted)
    return;

  run->t_first_start = MIN (run->t_first_start, start);
  us = (float) ((end - start) * 1e6);
  g_array_append_val (run->latencies, us);
  record_scatter (run, end, us);
  run->n_commands++;
  run->counted_bytes += bytes;
  run->sample_bytes += bytes;
}

static void
run_finish (Run    *run,
            double  t_end)
{
  CmTestResult *test = run->test;
  float *lat = (float *) run->latencies->data;
  gsize n = run->latencies->len;

  if (run->sample_bytes > 0 || test->samples->len == 0)
    emit_sample (run, t_end, 1.0);

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

static gboolean
check_cancelled (const CmEngineJob  *job,
                 GError            **error)
{
  return g_cancellable_set_error_if_cancelled (job->cancellable, error);
}

static gboolean
io_error (GError **error,
          int      errsv)
{
  g_propagate_error (error, cm_target_error_from_errno (errsv, NULL));
  return FALSE;
}

/* Without O_DIRECT the page cache would flatter the card: written data
 * must reach it before the clock stops, and reads must not come from
 * memory. */
static gboolean
flush_if_buffered (const CmEngineJob  *job,
                   gboolean            drop_cache,
                   GError            **error)
{
  if (job->direct_io)
    return TRUE;

  if (fdatasync (job->fd) != 0)
    return io_error (error, errno);

  if (drop_cache)
    posix_fadvise (job->fd, 0, 0, POSIX_FADV_DONTNEED);

  return TRUE;
}

static inline void
count_written (const CmEngineJob *job,
               gssize             done)
{
  if (job->written != NULL && done > 0)
    __atomic_add_fetch (job->written, (guint64) done, __ATOMIC_RELAXED);
}

static inline gssize
do_io (const CmEngineJob *job,
       CmDirection        direction,
       guint8            *buffer,
       gsize              size,
       guint64            offset)
{
  gssize done;

  if (direction == CM_DIRECTION_READ)
    return pread (job->fd, buffer, size, offset);

  done = pwrite (job->fd, buffer, size, offset);
  count_written (job, done);
  return done;
}

/* What a command that moved fewer bytes than asked means: a write cut
 * short ran out of room (the disk filled up), not into a failing card. */
static inline int
short_transfer_errno (CmDirection direction)
{
  return direction == CM_DIRECTION_WRITE ? ENOSPC : EIO;
}

static gboolean
check_transfer (CmDirection   direction,
                gssize        done,
                gsize         size,
                GError      **error)
{
  if (done < 0)
    return io_error (error, errno);
  if ((gsize) done != size)
    return io_error (error, done == 0 ? ENOSPC : short_transfer_errno (direction));

  return TRUE;
}

/* One command, timed and counted. Returns when it ended, or 0 with
 * @error set. */
static inline double
timed_command (Run         *run,
               CmDirection  direction,
               guint8      *data,
               gsize        size,
               guint64      offset,
               GError     **error)
{
  double start = now_s (), end;

  if (!check_transfer (direction, do_io (run->job, direction, data, size, offset), size, error))
    return 0;

  end = now_s ();
  record_command (run, start, end, size);
  return end;
}

/* A write test is over once its data has left the computer: with
 * O_DIRECT each write returned only when the card (or its reader) took
 * it; a buffered run flushes first. As with fio's default, the card's own
 * write cache is not flushed inside the timing. */
static gboolean
finish_test (Run     *run,
             double   now,
             GError **error)
{
  if (run->spec->direction == CM_DIRECTION_WRITE)
    {
      if (!flush_if_buffered (run->job, FALSE, error))
        return FALSE;
      now = now_s ();
    }

  run_finish (run, now);
  return TRUE;
}

/* The rate over the samples that ended in (@from, @to] seconds. */
static double
rate_between (GArray *samples,
              double  from,
              double  to)
{
  guint64 bytes = 0;
  double seconds = 0;

  for (guint i = samples->len; i > 0; i--)
    {
      const CmSample *s = &g_array_index (samples, CmSample, i - 1);

      if (s->t_end <= from)
        break;
      if (s->t_end <= to)
        {
          bytes += s->bytes;
          seconds += s->t_end - s->t_start;
        }
    }

  return seconds > 0 ? bytes / seconds / 1e6 : 0;
}

/* Whether the sustained write has seen enough: its rate fell at a cliff
 * and has been steady for STEADY_S since, with the two halves of that
 * stretch within STEADY_SPREAD. A write that found no cliff goes on to
 * its limit: a cache may be larger than what it has written so far —
 * unless an earlier write of the run already went past the cache, so
 * this one started after it and only has to be steady. */
static gboolean
steady_after_cliff (Run *run)
{
  GArray *samples = run->test->samples;
  double t, first, second;
  CmCliff cliff;

  if (samples->len == 0)
    return FALSE;

  t = g_array_index (samples, CmSample, samples->len - 1).t_end;
  if (t < STEADY_S)
    return FALSE;

  cm_stats_find_cliff ((CmSample *) samples->data, samples->len, &cliff);
  run->t_cliff = cliff.found ? cliff.t : 0;
  if (!cliff.found && !run->job->cache_spent)
    return FALSE;
  if (cliff.found && t - cliff.t < STEADY_S)
    return FALSE;

  first = rate_between (samples, t - STEADY_S, t - STEADY_S / 2);
  second = rate_between (samples, t - STEADY_S / 2, t);
  return first > 0 && second > 0 && fabs (first - second) <= STEADY_SPREAD * MAX (first, second);
}

/* Whether a time-bounded test (the quick profile) has run its time and
 * moved its floor. */
static gboolean
time_is_up (Run     *run,
            double   now,
            guint64  done)
{
  const CmTestSpec *spec = run->spec;

  return spec->max_seconds > 0 && now - run->t_counted >= spec->max_seconds && done >= spec->min_bytes;
}

static double
sequential_fraction (Run     *run,
                     double   now,
                     guint64  done,
                     guint64  total)
{
  double fraction = (double) done / total;

  if (run->spec->max_seconds > 0 && done >= run->spec->min_bytes)
    fraction = MAX (fraction, (now - run->t_counted) / run->spec->max_seconds);

  /* Past a cliff, the sustained write ends some STEADY_S after it: its
   * time left is counted from there, not from its limit. */
  if (run->spec->sustained && run->t_cliff > 0)
    fraction = MAX (fraction, (now - run->t_counted) / (run->t_cliff + STEADY_S + 1));

  return MIN (fraction, 0.99);
}

/* Raw write mode past the backup: reads the chunk so that the write puts
 * back exactly what was there. The read is not part of the write's time:
 * the test's clock moves on by as long as it took. */
static gboolean
read_for_preserve (Run      *run,
                   guint8   *buffer,
                   gsize     size,
                   guint64   offset,
                   GError  **error)
{
  double start = now_s (), took;

  if (!check_transfer (CM_DIRECTION_READ, do_io (run->job, CM_DIRECTION_READ, buffer, size, offset), size, error))
    return FALSE;

  took = now_s () - start;
  run->t_counted += took;
  run->t_first_start += took;
  run->t_last_sample += took;
  return TRUE;
}

static gboolean
run_sequential (Run     *run,
                guint8  *buffer,
                GError **error)
{
  const CmEngineJob *job = run->job;
  const CmTestSpec *spec = run->spec;
  guint64 total = spec->bytes ? spec->bytes : job->area_bytes;
  gsize bs = spec->block_size;
  double now = run->t_origin, last_check = 0;
  gboolean preserve = job->preserve && spec->direction == CM_DIRECTION_WRITE;
  gsize step = bs;

  if (spec->direction == CM_DIRECTION_READ && !flush_if_buffered (job, TRUE, error))
    return FALSE;

  run->t_counted = run->t_last_sample = now_s ();

  for (guint64 done = 0, size = 0; done < total; done += size)
    {
      guint64 offset = job->seq_start + done;
      guint8 *data = buffer;
      double start;

      size = MIN (step, total - done);
      if (job->backup != NULL && offset + size <= job->area_bytes)
        data = job->backup + offset;

      if (check_cancelled (job, error) ||
          (preserve && !read_for_preserve (run, buffer, size, offset, error)) ||
          check_cancelled (job, error))
        return FALSE;

      start = now_s ();
      if ((now = timed_command (run, spec->direction, data, size, offset, error)) == 0)
        return FALSE;

      /* A cancel waits for the command in flight: on a slow card the
       * raw sustained write takes smaller steps, so it returns in time. */
      if (preserve && now - start > PRESERVE_COMMAND_S && step > PRESERVE_MIN_STEP)
        step /= 2;

      if (now - run->t_last_sample >= SAMPLE_INTERVAL_S)
        emit_sample (run, now, sequential_fraction (run, now, done + size, total));

      if (time_is_up (run, now, done + size))
        break;

      if (spec->sustained && now - last_check >= 1.0)
        {
          last_check = now;
          if (steady_after_cliff (run))
            break;
        }
    }

  return finish_test (run, now, error);
}

/* One block at each of spec->bytes evenly spaced places over the whole
 * device (the job's area is the device here), in order. */
static gboolean
run_surface (Run     *run,
             guint8  *buffer,
             GError **error)
{
  const CmEngineJob *job = run->job;
  const CmTestSpec *spec = run->spec;
  guint n = MAX (spec->bytes, 2);
  gsize bs = spec->block_size;
  guint64 span = job->area_bytes - bs;
  double now = run->t_origin;

  run->t_counted = run->t_last_sample = now_s ();

  for (guint i = 0; i < n; i++)
    {
      guint64 offset = span / (n - 1) * i / 4096 * 4096;
      CmPosition position;
      double start;

      if (check_cancelled (job, error))
        return FALSE;

      start = now_s ();
      if (!check_transfer (CM_DIRECTION_READ, do_io (job, CM_DIRECTION_READ, buffer, bs, offset), bs, error))
        return FALSE;
      now = now_s ();
      record_command (run, start, now, bs);

      position.offset = offset;
      position.mb_per_s = bs / MAX (now - start, 1e-9) / 1e6;
      g_array_append_val (run->test->positions, position);

      if (now - run->t_last_sample >= SAMPLE_INTERVAL_S)
        emit_sample (run, now, (double) (i + 1) / n);
    }

  run_finish (run, now);
  return TRUE;
}

static inline guint64
random_offset (Run   *run,
               gsize  bs)
{
  guint64 blocks = run->job->area_bytes / bs;

  return (next_random (&run->rng) % blocks) * bs;
}

static inline guint8 *
write_source (Run     *run,
              guint8  *buffer,
              guint64  offset)
{
  return run->job->backup != NULL ? run->job->backup + offset : buffer;
}

static gboolean
run_random_qd1 (Run     *run,
                guint8  *buffer,
                GError **error)
{
  const CmEngineJob *job = run->job;
  const CmTestSpec *spec = run->spec;
  double t_stop = run->t_origin + spec->duration_s;
  gsize bs = spec->block_size;
  double now = run->t_origin;

  if (spec->direction == CM_DIRECTION_READ && !flush_if_buffered (job, TRUE, error))
    return FALSE;

  for (guint64 i = 0; now < t_stop; i++)
    {
      guint64 offset = random_offset (run, bs);
      guint8 *data = spec->direction == CM_DIRECTION_WRITE ? write_source (run, buffer, offset) : buffer;

      if (((i & 15) == 0 && check_cancelled (job, error)) ||
          (now = timed_command (run, spec->direction, data, bs, offset, error)) == 0)
        return FALSE;

      if (now - run->t_last_sample >= SAMPLE_INTERVAL_S && now >= run->t_counted)
        emit_sample (run, now, (now - run->t_origin) / spec->duration_s);
    }

  return finish_test (run, now, error);
}

typedef struct
{
  guint8 *buffer;
  double  submitted;
} Slot;

static void
queue_slot (Run             *run,
            struct io_uring *ring,
            Slot            *slots,
            guint            index,
            double           now)
{
  const CmTestSpec *spec = run->spec;
  struct io_uring_sqe *sqe = io_uring_get_sqe (ring);
  guint64 offset = random_offset (run, spec->block_size);

  g_assert (sqe != NULL);

  if (spec->direction == CM_DIRECTION_READ)
    io_uring_prep_read (sqe, run->job->fd, slots[index].buffer, spec->block_size, offset);
  else
    io_uring_prep_write (sqe, run->job->fd, write_source (run, slots[index].buffer, offset),
                         spec->block_size, offset);

  io_uring_sqe_set_data64 (sqe, index);
  slots[index].submitted = now;
}

/* Reaps every finished command and, until the test's time is up, puts a
 * new one in its place. Returns how many are still in flight. */
static int
reap_completions (Run             *run,
                  struct io_uring *ring,
                  Slot            *slots,
                  int              in_flight,
                  double           t_stop,
                  int             *first_error)
{
  struct io_uring_cqe *cqe;
  unsigned head, seen = 0;
  double now = now_s ();

  io_uring_for_each_cqe (ring, head, cqe)
    {
      guint index = (guint) io_uring_cqe_get_data64 (cqe);

      seen++;
      in_flight--;

      if (run->spec->direction == CM_DIRECTION_WRITE)
        count_written (run->job, cqe->res);

      if (cqe->res != (int) run->spec->block_size && *first_error == 0)
        *first_error = cqe->res < 0 ? -cqe->res : short_transfer_errno (run->spec->direction);

      if (*first_error == 0)
        record_command (run, slots[index].submitted, now, run->spec->block_size);

      if (*first_error == 0 && now < t_stop)
        {
          queue_slot (run, ring, slots, index, now);
          in_flight++;
        }
    }

  io_uring_cq_advance (ring, seen);
  return in_flight;
}


/* Where io_uring is not allowed (a container's seccomp filter, the
 * kernel.io_uring_disabled switch, qemu-user), the queue is kept full by
 * one thread per slot, each doing what the queue-depth-1 loop does. */
typedef struct
{
  Run          *run;
  guint8       *buffer;
  guint64       rng;
  double        t_stop;
  gint         *stop;
  guint64      *shared_bytes;
  GArray       *latencies;
  guint64       n_commands;
  guint64       bytes;
  double        t_first_start;
  int           errsv;
} Worker;

static gpointer
worker_thread (gpointer data)
{
  Worker *w = data;
  const CmTestSpec *spec = w->run->spec;
  gsize bs = spec->block_size;
  guint64 blocks = w->run->job->area_bytes / bs;

  while (!g_atomic_int_get (w->stop))
    {
      guint64 offset = (next_random (&w->rng) % blocks) * bs;
      guint8 *data_ptr = spec->direction == CM_DIRECTION_WRITE ? write_source (w->run, w->buffer, offset) : w->buffer;
      double start = now_s (), end;
      gssize done = do_io (w->run->job, spec->direction, data_ptr, bs, offset);

      end = now_s ();
      if (done != (gssize) bs)
        {
          w->errsv = done < 0 ? errno : short_transfer_errno (spec->direction);
          g_atomic_int_set (w->stop, 1);
          break;
        }

      if (end >= w->run->t_counted)
        {
          float us = (float) ((end - start) * 1e6);

          w->t_first_start = MIN (w->t_first_start, start);
          g_array_append_val (w->latencies, us);
          w->n_commands++;
          w->bytes += bs;
          __atomic_add_fetch (w->shared_bytes, bs, __ATOMIC_RELAXED);
        }

      if (end >= w->t_stop)
        break;
    }

  return NULL;
}

static gboolean
run_random_threads (Run     *run,
                    guint8  *buffer,
                    GError **error)
{
  const CmTestSpec *spec = run->spec;
  guint qd = spec->queue_depth;
  double t_stop = run->t_origin + spec->duration_s;
  g_autofree Worker *workers = g_new0 (Worker, qd);
  g_autofree GThread **threads = g_new0 (GThread *, qd);
  guint64 shared_bytes = 0, sampled = 0;
  gint stop = 0;
  int errsv = 0;
  double now;

  for (guint i = 0; i < qd; i++)
    {
      workers[i] = (Worker) {
        .run = run, .buffer = buffer + i * spec->block_size,
        .rng = next_random (&run->rng) | 1, .t_stop = t_stop, .stop = &stop,
        .shared_bytes = &shared_bytes, .t_first_start = run->t_counted,
        .latencies = g_array_new (FALSE, FALSE, sizeof (float)),
      };
      threads[i] = g_thread_new ("cardmark-io", worker_thread, &workers[i]);
    }

  while ((now = now_s ()) < t_stop && !g_atomic_int_get (&stop))
    {
      if (g_cancellable_is_cancelled (run->job->cancellable))
        g_atomic_int_set (&stop, 1);

      g_usleep (G_USEC_PER_SEC / 50);
      now = now_s ();
      if (now - run->t_last_sample >= SAMPLE_INTERVAL_S && now >= run->t_counted)
        {
          guint64 total = __atomic_load_n (&shared_bytes, __ATOMIC_RELAXED);

          run->sample_bytes = total - sampled;
          sampled = total;
          emit_sample (run, now, (now - run->t_origin) / spec->duration_s);
        }
    }

  for (guint i = 0; i < qd; i++)
    {
      g_thread_join (threads[i]);
      g_array_append_vals (run->latencies, workers[i].latencies->data, workers[i].latencies->len);
      run->n_commands += workers[i].n_commands;
      run->counted_bytes += workers[i].bytes;
      run->t_first_start = MIN (run->t_first_start, workers[i].t_first_start);
      errsv = errsv ? errsv : workers[i].errsv;
      g_array_unref (workers[i].latencies);
    }
  run->sample_bytes = run->counted_bytes - sampled;

  if (errsv != 0)
    return io_error (error, errsv);
  if (check_cancelled (run->job, error))
    return FALSE;
  if (spec->direction == CM_DIRECTION_WRITE && !flush_if_buffered (run->job, FALSE, error))
    return FALSE;

  run_finish (run, now_s ());
  return TRUE;
}

/* A ring for one worker thread that submits and reaps by itself, as fio
 * sets up its own: completions wait for the thread to ask for them
 * (DEFER_TASKRUN) instead of interrupting it, and the kernel takes no
 * locks for other submitters (SINGLE_ISSUER). Kernels before 6.1 refuse
 * those flags; then with fewer, then none. */
static int
ring_init (struct io_uring *ring,
           guint            depth)
{
  static const unsigned flag_sets[] = {
#if defined(IORING_SETUP_DEFER_TASKRUN) && defined(IORING_SETUP_SINGLE_ISSUER)
    IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
#endif
#ifdef IORING_SETUP_COOP_TASKRUN
    IORING_SETUP_COOP_TASKRUN,
#endif
    0,
  };
  int ret = -EINVAL;

  for (guint i = 0; i < G_N_ELEMENTS (flag_sets) && ret == -EINVAL; i++)
    {
      struct io_uring_params params = { 0 };

      params.flags = flag_sets[i];
      ret = io_uring_queue_init_params (depth, ring, &params);
    }

  return ret;
}

static gboolean
run_random_queued (Run     *run,
                   guint8  *buffer,
                   GError **error)
{
  const CmEngineJob *job = run->job;
  const CmTestSpec *spec = run->spec;
  guint qd = spec->queue_depth;
  double t_stop = run->t_origin + spec->duration_s;
  g_autofree Slot *slots = g_new0 (Slot, qd);
  struct io_uring ring;
  int in_flight = 0;
  int first_error = 0;
  double now;
  int ret;

  if (spec->direction == CM_DIRECTION_READ && !flush_if_buffered (job, TRUE, error))
    return FALSE;

  /* CARDMARK_NO_IO_URING lets the tests take the fallback on purpose. */
  if (g_getenv ("CARDMARK_NO_IO_URING") != NULL)
    ret = -ENOSYS;
  else
    ret = ring_init (&ring, qd);

  if (ret < 0)
    {
      if (ret == -ENOSYS || ret == -EPERM || ret == -EACCES)
        {
          run->test->engine = g_strdup ("threads");
          return run_random_threads (run, buffer, error);
        }
      return io_error (error, -ret);
    }
  run->test->engine = g_strdup ("io_uring");

  for (guint i = 0; i < qd; i++)
    {
      slots[i].buffer = buffer + i * spec->block_size;
      queue_slot (run, &ring, slots, i, now_s ());
      in_flight++;
    }

  while (in_flight > 0)
    {
      /* On cancel or error, stop queueing and let what is in flight
       * drain, so no buffer is freed under the kernel's feet. */
      if (g_cancellable_is_cancelled (job->cancellable))
        t_stop = 0;

      if ((ret = io_uring_submit_and_wait (&ring, 1)) < 0 && ret != -EINTR)
        {
          first_error = first_error ? first_error : -ret;
          break;
        }

      in_flight = reap_completions (run, &ring, slots, in_flight, t_stop, &first_error);
      if (first_error != 0)
        t_stop = 0;

      now = now_s ();
      if (now - run->t_last_sample >= SAMPLE_INTERVAL_S && now >= run->t_counted && now < t_stop)
        emit_sample (run, now, (now - run->t_origin) / spec->duration_s);
    }

  io_uring_queue_exit (&ring);

  if (first_error != 0)
    return io_error (error, first_error);
  if (check_cancelled (job, error))
    return FALSE;

  if (spec->direction == CM_DIRECTION_WRITE && !flush_if_buffered (job, FALSE, error))
    return FALSE;

  run_finish (run, now_s ());
  return TRUE;
}

CmTestResult *
cm_engine_run_test (const CmEngineJob  *job,
                    const CmTestSpec   *spec,
                    GError            **error)
{
  gsize buffer_size = spec->block_size * spec->queue_depth;
  g_autofree guint8 *buffer = cm_engine_alloc (buffer_size);
  Run run = { 0 };
  gboolean ok;

  g_return_val_if_fail (job->fd >= 0, NULL);
  g_return_val_if_fail (job->area_bytes >= spec->block_size, NULL);

  if (spec->direction == CM_DIRECTION_WRITE)
    cm_engine_fill_random (buffer, buffer_size);

  run_init (&run, job, spec);
  if (spec->queue_depth == 1)
    run.test->engine = g_strdup ("psync");

  if (spec->pattern == CM_PATTERN_SEQUENTIAL)
    ok = run_sequential (&run, buffer, error);
  else if (spec->pattern == CM_PATTERN_SURFACE)
    ok = run_surface (&run, buffer, error);
  else if (spec->queue_depth == 1)
    ok = run_random_qd1 (&run, buffer, error);
  else
    ok = run_random_queued (&run, buffer, error);

  if (!ok)
    {
      run_clear (&run);
      return NULL;
    }

  g_clear_pointer (&run.latencies, g_array_unref);
  return g_steal_pointer (&run.test);
}
