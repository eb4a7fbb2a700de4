/* cm-engine-patterns.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The access patterns: the ways a test moves through the card. Sequential
 * (with the sustained write's stop past the cache), surface (read speed by
 * position), and random, which at queue depth 1 uses plain pread/pwrite
 * like fio's psync engine and deeper uses io_uring like fio's io_uring
 * engine (or one thread per slot where io_uring is not allowed), so a card
 * that can queue commands really gets several at once.
 *
 * A new pattern is its CmPattern value (cm-test-table.h) and its loop here,
 * with its case in cm_engine_run_pattern() at the end of this file.
 */

#include "config.h"

#include <errno.h>
#include <liburing.h>
#include <math.h>
#include <sys/uio.h>

#include "cm-engine-private.h"
#include "cm-test-hooks.h"

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
steady_after_cliff (CmEngineRun *run)
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
time_is_up (CmEngineRun *run,
            double       now,
            guint64      done)
{
  const CmTestSpec *spec = run->spec;

  return spec->max_seconds > 0 && now - run->t_counted >= spec->max_seconds && done >= spec->min_bytes;
}

static double
sequential_fraction (CmEngineRun *run,
                     double       now,
                     guint64      done,
                     guint64      total)
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
read_for_preserve (CmEngineRun *run,
                   guint8      *buffer,
                   gsize        size,
                   guint64      offset,
                   GError     **error)
{
  double start = cm_engine_now (), took;

  if (!cm_engine_check_transfer (CM_DIRECTION_READ, cm_engine_do_io (run->job, CM_DIRECTION_READ, buffer, size, offset), size, error))
    return FALSE;

  took = cm_engine_now () - start;
  run->t_counted += took;
  run->t_first_start += took;
  run->t_last_sample += took;
  return TRUE;
}

static gboolean
run_sequential (CmEngineRun *run,
                guint8      *buffer,
                GError     **error)
{
  const CmEngineJob *job = run->job;
  const CmTestSpec *spec = run->spec;
  guint64 total = spec->bytes ? spec->bytes : job->area_bytes;
  gsize bs = spec->block_size;
  double now = run->t_origin, last_check = 0;
  gboolean preserve = job->preserve && spec->direction == CM_DIRECTION_WRITE;
  gsize step = bs;

  if (spec->direction == CM_DIRECTION_READ && !cm_engine_flush_if_buffered (job, TRUE, error))
    return FALSE;

  run->t_counted = run->t_last_sample = cm_engine_now ();

  for (guint64 done = 0, size = 0; done < total; done += size)
    {
      guint64 offset = job->seq_start + done;
      guint8 *data = buffer;
      double start;

      size = MIN (step, total - done);
      if (job->backup != NULL && offset + size <= job->area_bytes)
        data = job->backup + offset;

      if (cm_engine_check_cancelled (job, error) ||
          (preserve && !read_for_preserve (run, buffer, size, offset, error)) ||
          cm_engine_check_cancelled (job, error))
        return FALSE;

      start = cm_engine_now ();
      if ((now = cm_engine_run_timed_command (run, spec->direction, data, size, offset, error)) == 0)
        return FALSE;

      /* A cancel waits for the command in flight: on a slow card the
       * raw sustained write takes smaller steps, so it returns in time. */
      if (preserve && now - start > PRESERVE_COMMAND_S && step > PRESERVE_MIN_STEP)
        step /= 2;

      if (now - run->t_last_sample >= SAMPLE_INTERVAL_S)
        cm_engine_run_emit_sample (run, now, sequential_fraction (run, now, done + size, total));

      if (time_is_up (run, now, done + size))
        break;

      if (spec->sustained && now - last_check >= 1.0)
        {
          last_check = now;
          if (steady_after_cliff (run))
            break;
        }
    }

  return cm_engine_run_finish_test (run, now, error);
}

/* One block at each of spec->bytes evenly spaced places over the whole
 * device (the job's area is the device here), in order. */
static gboolean
run_surface (CmEngineRun *run,
             guint8      *buffer,
             GError     **error)
{
  const CmEngineJob *job = run->job;
  const CmTestSpec *spec = run->spec;
  guint n = MAX (spec->bytes, 2);
  gsize bs = spec->block_size;
  guint64 span = job->area_bytes - bs;
  double now = run->t_origin;

  run->t_counted = run->t_last_sample = cm_engine_now ();

  for (guint i = 0; i < n; i++)
    {
      guint64 offset = span / (n - 1) * i / 4096 * 4096;
      CmPosition position;
      double start;

      if (cm_engine_check_cancelled (job, error))
        return FALSE;

      start = cm_engine_now ();
      if (!cm_engine_check_transfer (CM_DIRECTION_READ, cm_engine_do_io (job, CM_DIRECTION_READ, buffer, bs, offset), bs, error))
        return FALSE;
      now = cm_engine_now ();
      cm_engine_run_record_command (run, start, now, bs);

      position.offset = offset;
      position.mb_per_s = bs / MAX (now - start, 1e-9) / 1e6;
      g_array_append_val (run->test->positions, position);

      if (now - run->t_last_sample >= SAMPLE_INTERVAL_S)
        cm_engine_run_emit_sample (run, now, (double) (i + 1) / n);
    }

  cm_engine_run_finish (run, now);
  return TRUE;
}

static inline guint64
random_offset (CmEngineRun *run,
               gsize        bs)
{
  guint64 blocks = run->job->area_bytes / bs;

  return (cm_engine_next_random (&run->rng) % blocks) * bs;
}

static inline guint8 *
write_source (CmEngineRun *run,
              guint8      *buffer,
              guint64      offset)
{
  return run->job->backup != NULL ? run->job->backup + offset : buffer;
}

static gboolean
run_random_qd1 (CmEngineRun *run,
                guint8      *buffer,
                GError     **error)
{
  const CmEngineJob *job = run->job;
  const CmTestSpec *spec = run->spec;
  double t_stop = run->t_origin + spec->duration_s;
  gsize bs = spec->block_size;
  double now = run->t_origin;

  if (spec->direction == CM_DIRECTION_READ && !cm_engine_flush_if_buffered (job, TRUE, error))
    return FALSE;

  for (guint64 i = 0; now < t_stop; i++)
    {
      guint64 offset = random_offset (run, bs);
      guint8 *data = spec->direction == CM_DIRECTION_WRITE ? write_source (run, buffer, offset) : buffer;

      if (((i & 15) == 0 && cm_engine_check_cancelled (job, error)) ||
          (now = cm_engine_run_timed_command (run, spec->direction, data, bs, offset, error)) == 0)
        return FALSE;

      if (now - run->t_last_sample >= SAMPLE_INTERVAL_S && now >= run->t_counted)
        cm_engine_run_emit_sample (run, now, (now - run->t_origin) / spec->duration_s);
    }

  return cm_engine_run_finish_test (run, now, error);
}

typedef struct
{
  guint8 *buffer;
  double  submitted;
} Slot;

/* What the ring was told once so that it need not be told per command:
 * the card's file (no look-up of the descriptor per command) and the
 * buffers (no pinning of a command's pages per command: the profile's
 * largest cost per command after the sleeps). The slots' buffers are
 * buffer 0; in raw write mode the backup the writes take their bytes
 * from is buffer 1 where the limit on locked memory allows it. What the
 * kernel refuses is done per command as before. */
typedef struct
{
  gboolean fixed_file;
  guint    n_buffers;
} Registered;

#define FIXED_BUFFER_MAX ((gsize) 1 << 30)

static void
register_with_ring (CmEngineRun     *run,
                    struct io_uring *ring,
                    guint8          *buffer,
                    gsize            buffer_size,
                    Registered      *registered)
{
  const CmEngineJob *job = run->job;
  struct iovec iov[] = {
    { buffer, buffer_size },
    { job->backup, job->area_bytes },
  };

  registered->fixed_file = io_uring_register_files (ring, &job->fd, 1) == 0;
  registered->n_buffers = 0;

  if (buffer_size > FIXED_BUFFER_MAX)
    return;
  if (job->backup != NULL && run->spec->direction == CM_DIRECTION_WRITE &&
      job->area_bytes <= FIXED_BUFFER_MAX &&
      io_uring_register_buffers (ring, iov, 2) == 0)
    registered->n_buffers = 2;
  else if (io_uring_register_buffers (ring, iov, 1) == 0)
    registered->n_buffers = 1;
}

static void
queue_slot (CmEngineRun      *run,
            struct io_uring  *ring,
            const Registered *registered,
            Slot             *slots,
            guint             index,
            double            now)
{
  const CmTestSpec *spec = run->spec;
  struct io_uring_sqe *sqe = io_uring_get_sqe (ring);
  guint64 offset = random_offset (run, spec->block_size);
  int fd = registered->fixed_file ? 0 : run->job->fd;
  guint8 *data = slots[index].buffer;
  guint buffer_index = 0;

  g_assert (sqe != NULL);

  if (spec->direction == CM_DIRECTION_WRITE && run->job->backup != NULL)
    {
      data = write_source (run, data, offset);
      buffer_index = 1;
    }

  if (buffer_index < registered->n_buffers)
    {
      if (spec->direction == CM_DIRECTION_READ)
        io_uring_prep_read_fixed (sqe, fd, data, spec->block_size, offset, buffer_index);
      else
        io_uring_prep_write_fixed (sqe, fd, data, spec->block_size, offset, buffer_index);
    }
  else if (spec->direction == CM_DIRECTION_READ)
    io_uring_prep_read (sqe, fd, data, spec->block_size, offset);
  else
    io_uring_prep_write (sqe, fd, data, spec->block_size, offset);

  if (registered->fixed_file)
    io_uring_sqe_set_flags (sqe, IOSQE_FIXED_FILE);
  io_uring_sqe_set_data64 (sqe, index);
  slots[index].submitted = now;
}

/* Reaps every finished command and, until the test's time is up, puts a
 * new one in its place. All that one wait collected ended by @now, the
 * one clock read they share with the commands that replace them; they
 * are counted together, their starts gathered in @ended (room for the
 * whole queue). Returns how many are still in flight. */
static int
reap_completions (CmEngineRun      *run,
                  struct io_uring  *ring,
                  const Registered *registered,
                  Slot             *slots,
                  double           *ended,
                  int               in_flight,
                  double            now,
                  double            t_stop,
                  int              *first_error)
{
  const CmTestSpec *spec = run->spec;
  struct io_uring_cqe *cqe;
  unsigned head, seen = 0;
  guint n_ended = 0;
  gssize written = 0;

  io_uring_for_each_cqe (ring, head, cqe)
    {
      guint index = (guint) io_uring_cqe_get_data64 (cqe);

      seen++;
      in_flight--;
      written += MAX (cqe->res, 0);

      if (cqe->res != (int) spec->block_size && *first_error == 0)
        *first_error = cqe->res < 0 ? -cqe->res : cm_engine_short_transfer_errno (spec->direction);

      if (*first_error == 0)
        ended[n_ended++] = slots[index].submitted;

      if (*first_error == 0 && now < t_stop)
        {
          queue_slot (run, ring, registered, slots, index, now);
          in_flight++;
        }
    }

  io_uring_cq_advance (ring, seen);
  if (spec->direction == CM_DIRECTION_WRITE)
    cm_engine_count_written (run->job, written);
  cm_engine_run_record_completions (run, ended, n_ended, now, spec->block_size);
  return in_flight;
}

/* Where io_uring is not allowed (a container's seccomp filter, the
 * kernel.io_uring_disabled switch, qemu-user), the queue is kept full by
 * one thread per slot, each doing what the queue-depth-1 loop does. */
typedef struct
{
  CmEngineRun  *run;
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
      guint64 offset = (cm_engine_next_random (&w->rng) % blocks) * bs;
      guint8 *data_ptr = spec->direction == CM_DIRECTION_WRITE ? write_source (w->run, w->buffer, offset) : w->buffer;
      double start = cm_engine_now (), end;
      gssize done = cm_engine_do_io (w->run->job, spec->direction, data_ptr, bs, offset);

      end = cm_engine_now ();
      if (done != (gssize) bs)
        {
          w->errsv = done < 0 ? errno : cm_engine_short_transfer_errno (spec->direction);
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
run_random_threads (CmEngineRun *run,
                    guint8      *buffer,
                    GError     **error)
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
        .rng = cm_engine_next_random (&run->rng) | 1, .t_stop = t_stop, .stop = &stop,
        .shared_bytes = &shared_bytes, .t_first_start = run->t_counted,
        .latencies = g_array_new (FALSE, FALSE, sizeof (float)),
      };
      threads[i] = g_thread_new ("cardmark-io", worker_thread, &workers[i]);
    }

  while ((now = cm_engine_now ()) < t_stop && !g_atomic_int_get (&stop))
    {
      if (g_cancellable_is_cancelled (run->job->cancellable))
        g_atomic_int_set (&stop, 1);

      g_usleep (G_USEC_PER_SEC / 50);
      now = cm_engine_now ();
      if (now - run->t_last_sample >= SAMPLE_INTERVAL_S && now >= run->t_counted)
        {
          guint64 total = __atomic_load_n (&shared_bytes, __ATOMIC_RELAXED);

          run->sample_bytes = total - sampled;
          sampled = total;
          cm_engine_run_emit_sample (run, now, (now - run->t_origin) / spec->duration_s);
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
    return cm_engine_io_error (error, errsv);
  if (cm_engine_check_cancelled (run->job, error))
    return FALSE;
  if (spec->direction == CM_DIRECTION_WRITE && !cm_engine_flush_if_buffered (run->job, FALSE, error))
    return FALSE;

  cm_engine_run_finish (run, cm_engine_now ());
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
run_random_queued (CmEngineRun *run,
                   guint8      *buffer,
                   GError     **error)
{
  const CmEngineJob *job = run->job;
  const CmTestSpec *spec = run->spec;
  guint qd = spec->queue_depth;
  double t_stop = run->t_origin + spec->duration_s;
  g_autofree Slot *slots = g_new0 (Slot, qd);
  g_autofree double *ended = g_new (double, qd);
  struct io_uring ring;
  Registered registered;
  int in_flight = 0;
  int first_error = 0;
  double now;
  int ret;

  if (spec->direction == CM_DIRECTION_READ && !cm_engine_flush_if_buffered (job, TRUE, error))
    return FALSE;

  /* CARDMARK_NO_IO_URING lets the tests take the fallback on purpose. */
  if (cm_test_hook ("CARDMARK_NO_IO_URING") != NULL)
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
      return cm_engine_io_error (error, -ret);
    }
  run->test->engine = g_strdup ("io_uring");
  register_with_ring (run, &ring, buffer, (gsize) qd * spec->block_size, &registered);

  for (guint i = 0; i < qd; i++)
    {
      slots[i].buffer = buffer + i * spec->block_size;
      queue_slot (run, &ring, &registered, slots, i, cm_engine_now ());
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

      now = cm_engine_now ();
      in_flight = reap_completions (run, &ring, &registered, slots, ended, in_flight, now, t_stop, &first_error);
      if (first_error != 0)
        t_stop = 0;

      if (now - run->t_last_sample >= SAMPLE_INTERVAL_S && now >= run->t_counted && now < t_stop)
        cm_engine_run_emit_sample (run, now, (now - run->t_origin) / spec->duration_s);
    }

  io_uring_queue_exit (&ring);

  if (first_error != 0)
    return cm_engine_io_error (error, first_error);
  if (cm_engine_check_cancelled (job, error))
    return FALSE;

  if (spec->direction == CM_DIRECTION_WRITE && !cm_engine_flush_if_buffered (job, FALSE, error))
    return FALSE;

  cm_engine_run_finish (run, cm_engine_now ());
  return TRUE;
}


static gboolean
run_random (CmEngineRun *run,
            guint8      *buffer,
            GError     **error)
{
  if (run->spec->queue_depth == 1)
    return run_random_qd1 (run, buffer, error);

  return run_random_queued (run, buffer, error);
}

gboolean
cm_engine_run_pattern (CmEngineRun *run,
                       guint8      *buffer,
                       GError     **error)
{
  switch (run->spec->pattern)
    {
    case CM_PATTERN_SEQUENTIAL:
      return run_sequential (run, buffer, error);
    case CM_PATTERN_SURFACE:
      return run_surface (run, buffer, error);
    case CM_PATTERN_RANDOM:
    default:
      return run_random (run, buffer, error);
    }
}
