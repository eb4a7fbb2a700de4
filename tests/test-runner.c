/* test-runner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs real plans on a real folder: the engine's numbers are measured
 * here, so the tests check relations that must hold for any disk.
 */

#include "config.h"

#include <glib/gstdio.h>

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include "cm-engine.h"
#include "cm-runner.h"
#include "cm-target.h"
#include "cm-time-left.h"

typedef struct
{
  GMainLoop    *loop;
  CmResult     *result;
  GError       *error;
  guint         n_samples;
  guint         n_started;
  double        last_fraction;
  GCancellable *cancel_on_sample;
  gint64        cancelled_at;
  gint64        returned_at;
} Run;

static void
sample_cb (CmRunner   *runner,
           const char *test,
           double      t,
           double      mb_per_s,
           double      iops,
           Run        *run)
{
  run->n_samples++;
  g_assert_cmpfloat (mb_per_s, >=, 0);

  if (run->cancel_on_sample != NULL && run->cancelled_at == 0)
    {
      run->cancelled_at = g_get_monotonic_time ();
      g_cancellable_cancel (run->cancel_on_sample);
    }
}

static void
progress_cb (CmRunner *runner,
             double    fraction,
             double    seconds_left,
             Run      *run)
{
  g_assert_cmpfloat (fraction, >=, 0);
  g_assert_cmpfloat (fraction, <=, 1);
  g_assert_cmpfloat (seconds_left, >=, 0);
  run->last_fraction = fraction;
}

static void
started_cb (CmRunner   *runner,
            guint       index,
            const char *name,
            Run        *run)
{
  g_assert_cmpuint (index, ==, run->n_started);
  run->n_started++;
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Run *run = user_data;

  run->returned_at = g_get_monotonic_time ();
  run->result = cm_runner_run_finish (CM_RUNNER (object), result, &run->error);
  g_main_loop_quit (run->loop);
}

static CmPlan *
small_plan (void)
{
  CmPlan *plan = cm_plan_new_empty (CM_PROFILE_QUICK, 32 * 1024 * 1024);

  cm_plan_add_test (plan, "seq-write", CM_PATTERN_SEQUENTIAL, CM_DIRECTION_WRITE, 4 << 20, 1, 0, 0);
  cm_plan_add_test (plan, "seq-read", CM_PATTERN_SEQUENTIAL, CM_DIRECTION_READ, 4 << 20, 1, 0, 0);
  cm_plan_add_test (plan, "rand-read-4k", CM_PATTERN_RANDOM, CM_DIRECTION_READ, 4096, 1, 0, 1.5);
  cm_plan_add_test (plan, "rand-read-4k-qd32", CM_PATTERN_RANDOM, CM_DIRECTION_READ, 4096, 32, 0, 1.5);
  cm_plan_add_test (plan, "rand-write-4k-qd32", CM_PATTERN_RANDOM, CM_DIRECTION_WRITE, 4096, 32, 0, 1.5);

  return plan;
}

static void
run_plan (CmTarget     *target,
          CmPlan       *plan,
          Run          *run,
          GCancellable *cancellable)
{
  g_autoptr(CmRunner) runner = cm_runner_new (target, plan);

  run->loop = g_main_loop_new (NULL, FALSE);
  g_signal_connect (runner, "sample", G_CALLBACK (sample_cb), run);
  g_signal_connect (runner, "progress", G_CALLBACK (progress_cb), run);
  g_signal_connect (runner, "test-started", G_CALLBACK (started_cb), run);
  cm_runner_run_async (runner, cancellable, done_cb, run);
  g_main_loop_run (run->loop);
  g_main_loop_unref (run->loop);
}

static guint
count_entries (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  guint n = 0;

  while (g_dir_read_name (dir) != NULL)
    n++;

  return n;
}

static void
test_file_mode (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-runner-XXXXXX", &error);
  g_autoptr(CmTarget) target = cm_target_new_for_path (dir, FALSE, &error);
  g_autoptr(CmPlan) plan = small_plan ();
  Run run = { 0 };
  GPtrArray *tests;

  g_assert_no_error (error);
  run_plan (target, plan, &run, NULL);
  g_assert_no_error (run.error);
  g_assert_nonnull (run.result);

  tests = cm_result_get_tests (run.result);
  g_assert_cmpuint (tests->len, ==, cm_plan_get_n_tests (plan));
  g_assert_cmpuint (run.n_started, ==, tests->len);
  g_assert_cmpuint (run.n_samples, >, 0);

  for (guint i = 0; i < tests->len; i++)
    {
      const CmTestResult *t = g_ptr_array_index (tests, i);
      const CmTestSpec *spec = cm_plan_lookup (plan, t->name);

      g_test_message ("%s: %.1f MB/s %.0f IOPS p50 %.0f µs", t->name, t->mb_per_s, t->iops, t->latency_us[0]);
      g_assert_null (t->error);
      g_assert_cmpfloat (t->mb_per_s, >, 0);
      g_assert_cmpfloat (t->iops, >, 0);
      g_assert_cmpuint (t->queue_depth, ==, spec->queue_depth);
      /* MB/s and IOPS are the same measurement in two units. */
      g_assert_cmpfloat_with_epsilon (t->mb_per_s * 1e6 / spec->block_size, t->iops, t->iops * 1e-6);
      /* Percentiles are ordered. */
      g_assert_cmpfloat (t->latency_us[0], <=, t->latency_us[1]);
      g_assert_cmpfloat (t->latency_us[1], <=, t->latency_us[2]);
      g_assert_cmpfloat (t->latency_us[2], <=, t->latency_us[3]);
      g_assert_cmpfloat (t->latency_us[0], >, 0);
      g_assert_cmpuint (t->samples->len, >, 0);

      if (spec->pattern == CM_PATTERN_SEQUENTIAL)
        {
          /* The whole area, every byte counted. */
          g_assert_cmpuint (t->bytes, ==, cm_plan_get_area_bytes (plan));
          g_assert_cmpfloat (t->sustained_mb_per_s, >, 0);
        }
      else
        {
          /* Time-based, the warm-up not counted: the counted time runs
           * from the end of the warm-up (or earlier, for a command that
           * began in it) to the end of the test, so it is never shorter
           * than the test's counted part. How much longer depends on how
           * busy the machine is, so it is printed, not bounded. */
          g_test_message ("%s: counted %.3f s of %.3f s", t->name, t->seconds,
                          spec->duration_s - spec->warmup_s);
          g_assert_cmpfloat (t->seconds, >=, spec->duration_s - spec->warmup_s - 1e-6);
          g_assert_cmpuint (t->bytes % 4096, ==, 0);
        }
    }

  g_assert_cmpstr (cm_result_get_target_mode (run.result), ==, "file");
  g_assert_cmpuint (count_entries (dir), ==, 0);

  g_clear_object (&run.result);
  g_rmdir (dir);
}

/* Where io_uring is refused, deep queues use threads and say so. */
static void
test_no_io_uring (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-runner-XXXXXX", &error);
  g_autoptr(CmTarget) target = cm_target_new_for_path (dir, FALSE, &error);
  g_autoptr(CmPlan) plan = cm_plan_new_empty (CM_PROFILE_QUICK, 16 * 1024 * 1024);
  Run run = { 0 };
  CmTestResult *qd1, *qd32;

  cm_plan_add_test (plan, "rand-read-4k", CM_PATTERN_RANDOM, CM_DIRECTION_READ, 4096, 1, 0, 1.5);
  cm_plan_add_test (plan, "rand-read-4k-qd32", CM_PATTERN_RANDOM, CM_DIRECTION_READ, 4096, 32, 0, 1.5);
#if !CM_TEST_HOOKS
  g_test_skip ("built without -Dtest_hooks=true, so CARDMARK_NO_IO_URING is not read");
  g_rmdir (dir);
  return;
#endif
  g_setenv ("CARDMARK_NO_IO_URING", "1", TRUE);
  run_plan (target, plan, &run, NULL);
  g_unsetenv ("CARDMARK_NO_IO_URING");
  g_assert_no_error (run.error);

  qd1 = cm_result_lookup_test (run.result, "rand-read-4k");
  qd32 = cm_result_lookup_test (run.result, "rand-read-4k-qd32");
  g_assert_cmpstr (qd1->engine, ==, "psync");
  g_assert_cmpstr (qd32->engine, ==, "threads");
  g_assert_cmpfloat (qd32->iops, >, 0);
  g_assert_cmpuint (qd32->samples->len, >, 0);
  g_assert_cmpfloat_with_epsilon (qd32->mb_per_s * 1e6 / 4096, qd32->iops, qd32->iops * 1e-6);
  g_assert_cmpfloat (qd32->latency_us[0], >, 0);
  g_assert_true (cm_result_get_notes (run.result)->len == 1);
  g_assert_nonnull (strstr (g_ptr_array_index (cm_result_get_notes (run.result), 0), "io_uring"));

  g_clear_object (&run.result);
  g_rmdir (dir);
}

/* A read before any write in file mode still has data to read: the
 * runner fills the area first. */
static void
test_read_only_plan_fills (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-runner-XXXXXX", &error);
  g_autoptr(CmTarget) target = cm_target_new_for_path (dir, FALSE, &error);
  g_autoptr(CmPlan) plan = cm_plan_new_empty (CM_PROFILE_QUICK, 16 * 1024 * 1024);
  Run run = { 0 };
  CmTestResult *t;

  cm_plan_add_test (plan, "seq-read", CM_PATTERN_SEQUENTIAL, CM_DIRECTION_READ, 4 << 20, 1, 0, 0);
  run_plan (target, plan, &run, NULL);
  g_assert_no_error (run.error);

  t = cm_result_lookup_test (run.result, "seq-read");
  g_assert_cmpuint (t->bytes, ==, 16 * 1024 * 1024);
  g_clear_object (&run.result);
  g_rmdir (dir);
}

static void
test_cancel (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-runner-XXXXXX", &error);
  g_autoptr(CmTarget) target = cm_target_new_for_path (dir, FALSE, &error);
  g_autoptr(CmPlan) plan = cm_plan_new_empty (CM_PROFILE_QUICK, 16 * 1024 * 1024);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Run run = { 0 };

  /* An hour long: were the stop not heard, the test would run into
   * meson's timeout instead of passing after a while. */
  cm_plan_add_test (plan, "rand-read-4k", CM_PATTERN_RANDOM, CM_DIRECTION_READ, 4096, 1, 0, 3600);
  run.cancel_on_sample = cancellable;
  run_plan (target, plan, &run, cancellable);

  g_assert_null (run.result);
  g_assert_error (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* Stopped, not run to its end (the half-second goal is printed, not
   * bounded: a busy machine is no failure of the code). */
  g_test_message ("cancel returned after %.3f s", (run.returned_at - run.cancelled_at) / 1e6);
  g_clear_error (&run.error);

  /* Nothing left behind, even before the worker has closed the file. */
  g_assert_cmpuint (count_entries (dir), ==, 0);
  g_rmdir (dir);
}

/* The surface test reads one block at evenly spaced places from the
 * very start to the very end of the device, in order. */
static void
test_surface (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(CmTestResult) test = NULL;
  CmTestSpec spec = { (char *) "surface-read", CM_PATTERN_SURFACE, CM_DIRECTION_READ, 1 << 20, 1, 17, 0, 0, FALSE };
  CmEngineJob job = { 0 };
  guint64 size = 64 * 1024 * 1024;
  int fd = g_file_open_tmp ("cardmark-surface-XXXXXX", &path, &error);

  g_assert_no_error (error);
  g_assert_cmpint (ftruncate (fd, size), ==, 0);
  job.fd = fd;
  job.direct_io = FALSE;
  job.area_bytes = size;

  test = cm_engine_run_test (&job, &spec, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (test->positions->len, ==, 17);
  g_assert_cmpfloat (g_array_index (test->positions, CmPosition, 0).offset, ==, 0);
  g_assert_cmpfloat (g_array_index (test->positions, CmPosition, 16).offset + spec.block_size, <=, size);
  g_assert_cmpfloat (g_array_index (test->positions, CmPosition, 16).offset, >=, size - 2 * spec.block_size);
  for (guint i = 1; i < test->positions->len; i++)
    {
      const CmPosition *p = &g_array_index (test->positions, CmPosition, i);

      g_assert_cmpfloat (p->offset, >, g_array_index (test->positions, CmPosition, i - 1).offset);
      g_assert_cmpuint ((guint64) p->offset % 4096, ==, 0);
      g_assert_cmpfloat (p->mb_per_s, >, 0);
    }
  g_assert_cmpuint (test->bytes, ==, 17 * spec.block_size);

  close (fd);
  g_unlink (path);
}

/* A disk that fills up during a write test (another program wrote to
 * it) gives the engine a short write, then ENOSPC: the user must hear
 * that the disk is full, not that the card is failing. A small tmpfs is
 * a disk that really fills. */
static void
test_disk_full (void)
{
  g_autofree char *folder = g_dir_make_tmp ("cardmark-full-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "scratch", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmTestResult) test = NULL;
  CmTestSpec spec = {
    .name = (char *) "seq-write",
    .pattern = CM_PATTERN_SEQUENTIAL,
    .direction = CM_DIRECTION_WRITE,
    .block_size = 3 * 1024 * 1024,
    .queue_depth = 1,
  };
  CmEngineJob job = { 0 };

  if (getuid () != 0 || mount ("cardmark", folder, "tmpfs", 0, "size=8m") != 0)
    {
      g_test_skip ("mounting a small tmpfs needs root");
      g_rmdir (folder);
      return;
    }

  job.fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  g_assert_cmpint (job.fd, >=, 0);
  /* Three 3 MiB blocks do not fit in 8 MiB: the third is cut short. */
  job.area_bytes = 3 * spec.block_size;

  test = cm_engine_run_test (&job, &spec, &error);
  g_assert_null (test);
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NO_SPACE);

  close (job.fd);
  g_assert_cmpint (umount (folder), ==, 0);
  g_rmdir (folder);
}

/* The full benchmark's time left, replayed test by test at the rates a
 * real run on this disk measured: a sequential write's rate for the
 * writes, a sequential read's for the reads. Its projected end (time
 * spent plus time left) may move later only when a test proves slower
 * than what its direction had shown (or the first guess), and then by
 * no more than that slower rate costs the bytes of that direction still
 * to move. */
typedef struct
{
  CmTimeLeft *time_left;
  GPtrArray  *specs;
  GArray     *bytes;
  double      known_rate[2];
  double      spent;
  double      projected;
  guint       n_rises;
} Replay;

static double
replay_rate (CmResult         *result,
             const CmTestSpec *spec)
{
  const char *source = spec->direction == CM_DIRECTION_WRITE ? "seq-write" : "seq-read";
  const CmTestResult *test = cm_result_lookup_test (result, source);

  g_assert_nonnull (test);
  g_assert_cmpfloat (test->mb_per_s, >, 0);
  return test->mb_per_s;
}

/* What a slower rate than the known one costs the sized tests of the
 * same direction from @index on. */
static double
replay_explained (Replay      *replay,
                  guint        index,
                  CmDirection  direction,
                  double       rate)
{
  double explained = 0;

  if (rate >= replay->known_rate[direction])
    return 0;

  for (guint i = index; i < replay->specs->len; i++)
    {
      const CmTestSpec *spec = g_ptr_array_index (replay->specs, i);

      if (spec->direction == direction && spec->duration_s <= 0)
        explained += g_array_index (replay->bytes, guint64, i) *
                     (1 / (rate * 1e6) - 1 / (replay->known_rate[direction] * 1e6));
    }
  return explained;
}

static void
replay_step (Replay *replay,
             guint   index,
             double  fraction,
             double  elapsed,
             double  rate)
{
  const CmTestSpec *spec = g_ptr_array_index (replay->specs, index);
  guint64 bytes = g_array_index (replay->bytes, guint64, index);
  gboolean sized = spec->duration_s <= 0;
  double explained = sized ? replay_explained (replay, index, spec->direction, rate) : 0;
  double left = cm_time_left_update (replay->time_left, index, fraction, elapsed,
                                     sized ? fraction * bytes : 0);
  double projected = replay->spent + elapsed + left;

  if (projected > replay->projected + 1e-9 * projected)
    {
      g_test_message ("%s at %.0f %%: the end moved %.1f s later, %.1f s explained",
                      spec->name, fraction * 100, projected - replay->projected, explained);
      replay->n_rises++;
    }
  g_assert_cmpfloat (projected - replay->projected, <=, explained + 1e-9 * projected);

  replay->projected = projected;
  if (sized && spec->pattern != CM_PATTERN_RANDOM)
    replay->known_rate[spec->direction] = rate;
}

static void
test_time_left_replay (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-runner-XXXXXX", &error);
  g_autoptr(CmTarget) target = cm_target_new_for_path (dir, FALSE, &error);
  g_autoptr(CmPlan) measured = small_plan ();
  g_autoptr(CmPlan) plan = cm_plan_new (CM_PROFILE_FULL, 0);
  g_autoptr(CmTimeLeft) time_left = cm_time_left_new ();
  g_autoptr(GArray) bytes = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GPtrArray) specs = g_ptr_array_new ();
  Replay replay = { time_left, specs, bytes, { 0 }, 0, G_MAXDOUBLE, 0 };
  Run run = { 0 };

  g_assert_no_error (error);
  run_plan (target, measured, &run, NULL);
  g_assert_no_error (run.error);

  for (guint i = 0; i < cm_plan_get_n_tests (plan); i++)
    {
      const CmTestSpec *spec = cm_plan_get_test (plan, i);
      guint64 size = spec->duration_s > 0 ? 0
                   : spec->pattern == CM_PATTERN_SURFACE ? spec->bytes * spec->block_size
                   : spec->bytes ? spec->bytes : cm_plan_get_area_bytes (plan);

      g_ptr_array_add (specs, (gpointer) spec);
      g_array_append_val (bytes, size);
      cm_time_left_add_test (time_left, spec, size);
    }
  replay.known_rate[CM_DIRECTION_READ] = cm_time_left_get_rate (time_left, CM_DIRECTION_READ);
  replay.known_rate[CM_DIRECTION_WRITE] = cm_time_left_get_rate (time_left, CM_DIRECTION_WRITE);

  for (guint i = 0; i < specs->len; i++)
    {
      const CmTestSpec *spec = g_ptr_array_index (specs, i);
      guint64 size = g_array_index (bytes, guint64, i);
      double rate = replay_rate (run.result, spec);
      double seconds = spec->duration_s > 0 ? spec->duration_s : size / (rate * 1e6);

      for (guint step = 1; step <= 10; step++)
        replay_step (&replay, i, step / 10.0, seconds * step / 10, rate);
      replay.spent += seconds;
    }

  g_test_message ("write %.1f MB/s, read %.1f MB/s: %.0f s in all, the end moved later %u times",
                  replay_rate (run.result, cm_plan_lookup (plan, "seq-write")),
                  replay_rate (run.result, cm_plan_lookup (plan, "seq-read")),
                  replay.spent, replay.n_rises);
  /* At the end, the time left is none, and the projection was the time spent. */
  g_assert_cmpfloat_with_epsilon (replay.projected, replay.spent, 1e-6 * replay.spent);

  g_clear_object (&run.result);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/runner/file-mode", test_file_mode);
  g_test_add_func ("/cardmark/runner/read-only-plan-fills", test_read_only_plan_fills);
  g_test_add_func ("/cardmark/runner/cancel", test_cancel);
  g_test_add_func ("/cardmark/runner/surface", test_surface);
  g_test_add_func ("/cardmark/runner/no-io-uring", test_no_io_uring);
  g_test_add_func ("/cardmark/runner/disk-full", test_disk_full);
  g_test_add_func ("/cardmark/runner/time-left-replay", test_time_left_replay);

  return g_test_run ();
}
