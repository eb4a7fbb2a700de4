/* cm-runner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs a plan on a target in a worker thread. Progress and throughput
 * samples reach the caller's main context a few times a second, as the
 * "test-started", "progress" and "sample" signals.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "cm-bus.h"
#include "cm-engine.h"
#include "cm-test-hooks.h"
#include "cm-time-left.h"
#include "cm-runner.h"

struct _CmRunner
{
  GObject       parent_instance;

  CmTarget     *target;
  CmPlan       *plan;
  GMainContext *context;
  GCancellable *cancellable;

  /* Worker-only state. */
  GPtrArray    *order;        /* CmTestSpec, in the order they run */
  guint         current;
  guint64       done_bytes;   /* by the current test, as its samples said */
  gint64        test_started; /* when it started, monotonic µs */
  CmTimeLeft   *time_left;
};

G_DEFINE_FINAL_TYPE (CmRunner, cm_runner, G_TYPE_OBJECT)

enum {
  TEST_STARTED,
  PROGRESS,
  SAMPLE,
  WAITING,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct
{
  CmRunner *runner;
  guint     signal;
  char     *test;
  guint     index;
  double    fraction;
  double    seconds_left;
  double    t;
  double    mb_per_s;
  double    iops;
} Event;

static void
event_free (Event *event)
{
  g_clear_object (&event->runner);
  g_free (event->test);
  g_free (event);
}

static gboolean
dispatch_event_cb (gpointer data)
{
  Event *event = data;
  CmRunner *self = event->runner;

  /* A cancelled run has already returned to its caller; what the worker
   * still says is of no interest any more. */
  if (g_cancellable_is_cancelled (self->cancellable))
    return G_SOURCE_REMOVE;

  switch (event->signal)
    {
    case TEST_STARTED:
      g_signal_emit (self, signals[TEST_STARTED], 0, event->index, event->test);
      break;
    case PROGRESS:
      g_signal_emit (self, signals[PROGRESS], 0, event->fraction, event->seconds_left);
      break;
    case SAMPLE:
      g_signal_emit (self, signals[SAMPLE], 0, event->test, event->t, event->mb_per_s, event->iops);
      break;
    case WAITING:
      g_signal_emit (self, signals[WAITING], 0, event->test);
      break;
    default:
      g_assert_not_reached ();
    }

  return G_SOURCE_REMOVE;
}

static Event *
event_new (CmRunner *self,
           guint     signal)
{
  Event *event = g_new0 (Event, 1);
  const CmTestSpec *spec = g_ptr_array_index (self->order, MIN (self->current, self->order->len - 1));

  event->runner = g_object_ref (self);
  event->signal = signal;
  event->test = g_strdup (spec->name);
  event->index = self->current;

  return event;
}

static void
post_event (CmRunner *self,
            Event    *event)
{
  g_main_context_invoke_full (self->context, G_PRIORITY_DEFAULT,
                              dispatch_event_cb, event, (GDestroyNotify) event_free);
}

static void
engine_progress_cb (const CmSample *sample,
                    double          fraction,
                    gpointer        user_data)
{
  CmRunner *self = user_data;
  const CmTestSpec *spec = g_ptr_array_index (self->order, self->current);
  Event *event;
  double mb_per_s = cm_stats_sample_mb_per_s (sample);

  self->done_bytes += sample->bytes;

  event = event_new (self, SAMPLE);
  event->t = sample->t_end;
  event->mb_per_s = mb_per_s;
  event->iops = mb_per_s * 1e6 / spec->block_size;
  post_event (self, event);

  event = event_new (self, PROGRESS);
  event->fraction = (self->current + fraction) / self->order->len;
  /* The clock on the wall, not the test's: a raw sustained write's reads
   * to put the card's bytes back are not in its figures, but take time. */
  event->seconds_left = cm_time_left_update (self->time_left, self->current, fraction,
                                             (g_get_monotonic_time () - self->test_started) / 1e6,
                                             self->done_bytes);
  post_event (self, event);
}

static void
cm_runner_finalize (GObject *object)
{
  CmRunner *self = (CmRunner *) object;

  g_clear_object (&self->target);
  g_clear_object (&self->plan);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->order, g_ptr_array_unref);
  g_clear_object (&self->time_left);

  G_OBJECT_CLASS (cm_runner_parent_class)->finalize (object);
}

static void
cm_runner_class_init (CmRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = cm_runner_finalize;

  /**
   * CmRunner::test-started:
   * @index: the position of the test in the run
   * @name: the test's name, such as "seq-write"
   */
  signals[TEST_STARTED] =
    g_signal_new ("test-started",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);

  /**
   * CmRunner::progress:
   * @fraction: how much of the whole run is done, 0 to 1
   * @seconds_left: the estimated time left
   */
  signals[PROGRESS] =
    g_signal_new ("progress",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_DOUBLE);

  /**
   * CmRunner::sample:
   * @test: the test's name
   * @t: seconds into the test
   * @mb_per_s: the throughput since the previous sample
   * @iops: the same as commands per second
   */
  signals[SAMPLE] =
    g_signal_new ("sample",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_STRING, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_DOUBLE);

  /**
   * CmRunner::waiting:
   * @holder: the device of the card measuring on the same bus
   *
   * The run waits for that card's speed test to end before it measures
   * (cm-bus.c); its first test starts when it has.
   */
  signals[WAITING] =
    g_signal_new ("waiting",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
cm_runner_init (CmRunner *self)
{
  self->time_left = cm_time_left_new ();
}

CmRunner *
cm_runner_new (CmTarget *target,
               CmPlan   *plan)
{
  CmRunner *self;

  g_return_val_if_fail (CM_IS_TARGET (target), NULL);
  g_return_val_if_fail (CM_IS_PLAN (plan), NULL);

  self = g_object_new (CM_TYPE_RUNNER, NULL);
  self->target = g_object_ref (target);
  self->plan = g_object_ref (plan);

  return self;
}

/* Worker side */

static guint64
physical_memory (void)
{
  /* CARDMARK_MEMORY_BYTES lets the tests play a Raspberry Pi with little
   * memory. */
  const char *test_memory = cm_test_hook ("CARDMARK_MEMORY_BYTES");

  if (test_memory != NULL)
    return g_ascii_strtoull (test_memory, NULL, 10);

  return (guint64) sysconf (_SC_PHYS_PAGES) * sysconf (_SC_PAGESIZE);
}

/* Whether a test of the plan runs on a target in @mode: a read-only one
 * runs no writes; a scratch file has no places on the card to compare
 * (surface). */
static gboolean
runs_test (CmMethod      mode,
           const CmTestSpec *spec)
{
  if (mode == CM_METHOD_RAW_READ && spec->direction == CM_DIRECTION_WRITE)
    return FALSE;
  if (mode == CM_METHOD_FILE && spec->pattern == CM_PATTERN_SURFACE)
    return FALSE;
  return TRUE;
}

/* How many of its plan's tests the runner will run on its target, for
 * "test 3 of 6". */
guint
cm_runner_get_n_tests (CmRunner *self)
{
  CmMethod mode;
  guint n = 0;

  g_return_val_if_fail (CM_IS_RUNNER (self), 0);

  mode = cm_target_get_mode (self->target);
  for (guint i = 0; i < cm_plan_get_n_tests (self->plan); i++)
    n += runs_test (mode, cm_plan_get_test (self->plan, i));
  return n;
}

/* How far the scratch file may grow past the test area: as far as the
 * filesystem lets one file grow. */
static guint64
file_room (CmRunner *self)
{
  guint64 start = cm_target_get_area_bytes (self->target);
  guint64 max_file = cm_target_get_max_file_bytes (self->target);

  return max_file > start ? max_file - start : 0;
}

/* How far the sustained write goes at most: its limit, shortened to the
 * card's size in raw write mode, or in a scratch file to 90 % of the
 * free space and the file's room. */
static guint64
sustained_bytes (CmRunner         *self,
                 const CmTestSpec *spec)
{
  guint64 bytes = spec->bytes;

  if (cm_target_get_mode (self->target) == CM_METHOD_RAW_WRITE)
    bytes = MIN (bytes, cm_target_get_size (self->target));
  else
    bytes = MIN (bytes, MIN (cm_target_dup_free_bytes (self->target) / 10 * 9, file_room (self)));

  return bytes / spec->block_size * spec->block_size;
}

/* What a test will move at most, for its time left (0: it is timed). */
static guint64
planned_bytes (CmRunner         *self,
               const CmTestSpec *spec)
{
  if (spec->duration_s > 0)
    return 0;
  if (spec->sustained)
    return sustained_bytes (self, spec);
  if (spec->pattern == CM_PATTERN_SURFACE)
    return spec->bytes * spec->block_size;
  return spec->bytes ? spec->bytes : cm_target_get_area_bytes (self->target);
}

static void
order_tests (CmRunner *self,
             CmResult *result)
{
  CmMethod mode = cm_target_get_mode (self->target);
  guint n = cm_plan_get_n_tests (self->plan);

  self->order = g_ptr_array_new ();

  for (guint i = 0; i < n; i++)
    {
      CmTestSpec *spec = (CmTestSpec *) cm_plan_get_test (self->plan, i);

      if (!runs_test (mode, spec))
        continue;

      if (mode == CM_METHOD_RAW_WRITE &&
          spec->pattern == CM_PATTERN_SEQUENTIAL && spec->direction == CM_DIRECTION_READ)
        g_ptr_array_insert (self->order, 0, spec);
      else
        g_ptr_array_add (self->order, spec);
    }

  for (guint i = 0; i < self->order->len; i++)
    {
      const CmTestSpec *spec = g_ptr_array_index (self->order, i);

      cm_time_left_add_test (self->time_left, spec, planned_bytes (self, spec));
      /* Raw write mode reads each chunk of the sustained write first, to
       * put it back (resolve_sustained_raw()). */
      if (spec->sustained && mode == CM_METHOD_RAW_WRITE)
        cm_time_left_set_reads_first (self->time_left, i);
    }
}

static guint64
area_for_mode (CmRunner *self)
{
  guint64 area = cm_plan_get_area_bytes (self->plan);

  /* Raw writes keep the whole area in memory to write it back. */
  if (cm_target_get_mode (self->target) == CM_METHOD_RAW_WRITE)
    area = MIN (area, physical_memory () / 8);

  return area;
}

/* An unmeasured pass over the whole area: a write in file mode, so
 * reads have data; a read in raw write mode, so the backup holds the
 * card's bytes before anything writes them back. */
static gboolean
prepare_area (CmEngineJob  *job,
              CmDirection   direction,
              GError      **error)
{
  CmTestSpec pass = {
    .name = (char *) "prepare",
    .pattern = CM_PATTERN_SEQUENTIAL,
    .direction = direction,
    .block_size = 4 * 1024 * 1024,
    .queue_depth = 1,
  };
  g_autoptr(CmTestResult) test = NULL;
  CmEngineProgressFunc progress = job->progress;

  job->progress = NULL;
  job->seq_start = 0;
  test = cm_engine_run_test (job, &pass, error);
  job->progress = progress;

  return test != NULL;
}

/* Raw write mode: from the card's start, as far as its end; each chunk
 * is read and written back (CmEngineJob.preserve), so nothing needs
 * holding in memory and a cancel leaves the card as it was. */
static void
resolve_sustained_raw (CmRunner    *self,
                       CmTestSpec  *spec,
                       CmEngineJob *job)
{
  spec->bytes = sustained_bytes (self, spec);
  job->seq_start = 0;
  job->backup = NULL;
  job->preserve = TRUE;
}

/* The sustained write goes past the test area, as far as several GiB or
 * 90 % of the free space allow. */
static void
resolve_sustained (CmRunner    *self,
                   CmTestSpec  *spec,
                   CmEngineJob *job,
                   CmResult    *result)
{
  guint64 room = cm_target_dup_free_bytes (self->target) / 10 * 9;

  /* The scratch file grows past the area, as far as the filesystem lets
   * one file grow. */
  if (file_room (self) < MIN (spec->bytes, room))
    {
      g_autofree char *size = g_format_size (cm_target_get_max_file_bytes (self->target));
      g_autofree char *note = NULL;

      /* Translators: %s is a size, such as "4.3 GB" */
      note = g_strdup_printf (_("The long sustained write stopped short, at %s: the largest file this filesystem can hold."),
                              size);
      cm_result_add_note (result, note);
    }

  spec->bytes = sustained_bytes (self, spec);
  job->seq_start = cm_target_get_area_bytes (self->target);
}

/* The sustained write ran all the way to its limit (not to the card's
 * end or the free space) without its rate falling: the card's cache may
 * be larger still, and the user can let it go further. */
static void
note_sustained_limit (CmResult     *result,
                      CmTestResult *test,
                      guint64       limit)
{
  g_autofree char *size = NULL;
  g_autofree char *note = NULL;

  if (!cm_test_result_reached_limit (test, limit))
    return;
  test->reached_limit = TRUE;

  size = g_format_size (limit);
  /* Translators: %s is a size, such as "8.6 GB" */
  note = g_strdup_printf (_("The long sustained write reached its limit of %s without its speed falling, so the card's write cache may be larger than that. A higher limit for the sustained write lets it write further."),
                          size);
  cm_result_add_note (result, note);
}

static CmTestResult *
run_one (CmRunner          *self,
         CmResult          *result,
         CmEngineJob       *job,
         const CmTestSpec  *spec,
         GError           **error)
{
  CmTestSpec resolved = *spec;
  CmTestResult *test;

  job->seq_start = 0;

  if (spec->direction == CM_DIRECTION_WRITE && !cm_target_can_write (self->target))
    {
      test = cm_test_result_new (spec->name);
      test->block_size = spec->block_size;
      test->queue_depth = spec->queue_depth;
      test->error = g_strdup (_("The card is write-protected, so this write test could not run. Slide the lock switch up to test writing."));
      return test;
    }

  if (spec->sustained)
    {
      CmEngineJob sustained = *job;

      if (cm_target_get_mode (self->target) == CM_METHOD_RAW_WRITE)
        resolve_sustained_raw (self, &resolved, &sustained);
      else
        resolve_sustained (self, &resolved, &sustained, result);
      cm_time_left_set_bytes (self->time_left, self->current, resolved.bytes);
      if (resolved.bytes < resolved.block_size)
        {
          test = cm_test_result_new (spec->name);
          test->error = g_strdup (_("There was not enough free space for the sustained write."));
          return test;
        }

      test = cm_engine_run_test (&sustained, &resolved, error);

      /* Give the space of the sustained write back at once. */
      if (cm_target_get_mode (self->target) == CM_METHOD_FILE)
        (void) ftruncate (job->fd, cm_target_get_area_bytes (self->target));

      if (test != NULL && resolved.bytes + resolved.block_size > spec->bytes)
        note_sustained_limit (result, test, spec->bytes);

      return test;
    }

  if (spec->pattern == CM_PATTERN_SURFACE)
    {
      CmEngineJob whole = *job;

      whole.area_bytes = cm_target_get_size (self->target) / 4096 * 4096;
      return cm_engine_run_test (&whole, &resolved, error);
    }

  return cm_engine_run_test (job, &resolved, error);
}

/* A time-bounded sequential test (the quick profile) may stop before the
 * end of the test area: the tests after it use what it covered, which is
 * what has been written (file mode) or read into the backup (raw write
 * mode). */
static void
shrink_area (CmRunner     *self,
             CmResult     *result,
             CmEngineJob  *job,
             CmTestResult *test)
{
  guint64 covered = test->bytes / (4 * 1024 * 1024) * (4 * 1024 * 1024);
  g_autofree char *size = NULL;
  g_autofree char *note = NULL;

  if (covered == 0 || covered >= job->area_bytes)
    return;

  job->area_bytes = covered;
  cm_result_set_area_bytes (result, covered);
  for (guint i = self->current + 1; i < self->order->len; i++)
    {
      const CmTestSpec *later = g_ptr_array_index (self->order, i);

      if (later->bytes == 0 && later->duration_s <= 0)
        cm_time_left_set_bytes (self->time_left, i, covered);
    }

  size = g_format_size (covered);
  /* Translators: %s is a size, such as "134.2 MB" */
  note = g_strdup_printf (_("The quick test's sequential tests are limited in time, so the tests after them used the first %s of the test area."),
                          size);
  cm_result_add_note (result, note);
}

static gboolean
run_tests (CmRunner      *self,
           CmResult      *result,
           CmEngineJob   *job,
           GError       **error)
{
  CmMethod mode = cm_target_get_mode (self->target);
  gboolean area_written = mode != CM_METHOD_FILE;
  /* Raw write mode must never write a byte it has not read first. */
  gboolean backup_filled = job->backup == NULL;

  for (self->current = 0; self->current < self->order->len; self->current++)
    {
      const CmTestSpec *spec = g_ptr_array_index (self->order, self->current);
      CmTestResult *test;

      post_event (self, event_new (self, TEST_STARTED));
      self->done_bytes = 0;

      /* Reads in file mode need data to read: write the area first if
       * no test has yet. */
      if (spec->direction == CM_DIRECTION_READ && !area_written &&
          !prepare_area (job, CM_DIRECTION_WRITE, error))
        return FALSE;

      if (spec->direction == CM_DIRECTION_WRITE && !backup_filled && !spec->sustained)
        {
          if (!prepare_area (job, CM_DIRECTION_READ, error))
            return FALSE;
          backup_filled = TRUE;
        }

      self->test_started = g_get_monotonic_time ();
      if ((test = run_one (self, result, job, spec, error)) == NULL)
        return FALSE;

      /* A sequential read of the whole area reads it into the backup. */
      if (spec->pattern == CM_PATTERN_SEQUENTIAL && spec->direction == CM_DIRECTION_READ &&
          spec->bytes == 0 && test->error == NULL)
        backup_filled = TRUE;

      if (spec->direction == CM_DIRECTION_WRITE && spec->pattern == CM_PATTERN_SEQUENTIAL &&
          !spec->sustained && test->error == NULL)
        area_written = TRUE;

      if (spec->max_seconds > 0 && test->error == NULL)
        shrink_area (self, result, job, test);

      if (test->has_cliff && test->cliff.found)
        job->cache_spent = TRUE;

      if (g_strcmp0 (test->engine, "threads") == 0)
        cm_result_add_note (result, _("This system does not allow io_uring, so the queue-depth-32 tests kept 32 commands in flight with 32 threads instead."));

      cm_result_take_test (result, test);
    }

  return TRUE;
}

static void
describe_target (CmRunner *self,
                 CmResult *result)
{
  CmTarget *target = self->target;

  cm_result_set_target (result,
                        cm_target_get_path (target),
                        cm_method_to_string (cm_target_get_mode (target)),
                        cm_target_get_device (target),
                        NULL);
  cm_result_set_profile (result, cm_profile_to_string (cm_plan_get_profile (self->plan)));
  cm_result_set_direct_io (result, cm_target_get_direct_io (target));
  cm_result_set_area_bytes (result, cm_target_get_area_bytes (target));

  if (area_for_mode (self) < cm_plan_get_area_bytes (self->plan))
    {
      g_autofree char *area = g_format_size (cm_target_get_area_bytes (target));
      g_autofree char *planned = g_format_size (cm_plan_get_area_bytes (self->plan));
      g_autofree char *note = NULL;

      /* Translators: "…a test area of 67.1 MB instead of 268.4 MB…" */
      note = g_strdup_printf (_("The raw write tests used a test area of %s instead of %s, so that this computer's memory can hold a copy of it to put back. Random writes over a smaller area can look faster than over the whole card."),
                              area, planned);
      cm_result_add_note (result, note);
    }

  if (!cm_target_get_direct_io (target))
    cm_result_add_note (result, _("This filesystem refused direct I/O, so CardMark used buffered I/O with fdatasync and dropped the cache before reads. Figures may be higher than the card really delivers."));
}

/* Raw writes put the card's own bytes back, so the card is unchanged —
 * unless another program wrote to it meanwhile: its writes in the test
 * area were overwritten with the bytes from before. The card's write
 * counter, against what the run wrote itself, tells. Returns the
 * sentence that says which. */
static char *
check_other_writers (CmRunner *self,
                     gboolean  counted,
                     guint64   before,
                     guint64   written,
                     gboolean *other_writer)
{
  g_autofree char *extra = NULL;
  guint64 after;

  *other_writer = FALSE;

  if (!counted || !cm_target_get_bytes_written (self->target, &after))
    return g_strdup (_("The raw write tests wrote the card's own bytes back to where they came from. This system does not count the card's writes, so CardMark could not check that no other program wrote to it meanwhile."));

  if (after - before <= written)
    return g_strdup (_("The raw write tests wrote the card's own bytes back to where they came from, so its content is unchanged."));

  *other_writer = TRUE;
  extra = g_format_size (after - before - written);
  /* Translators: %s is a size, such as "4.2 MB" */
  return g_strdup_printf (_("Another program wrote %s to the card during the test. CardMark wrote the card's earlier bytes back over its test area, so what that program wrote there may be lost: check its data, and do not use the card elsewhere while it is tested."),
                          extra);
}

/* Says whether the card is as it was: in the result's notes; or, when
 * another program wrote, as the run's error (after the error's own
 * message when the run failed anyway). A run whose writes reverted
 * another program's is no result: its data may be lost, and its writes
 * were in the figures too. Returns whether the run still stands. */
static gboolean
report_card_state (CmResult  *result,
                   GError   **error,
                   char      *sentence,
                   gboolean   other_writer)
{
  g_autofree char *owned = sentence;

  if (*error == NULL && !other_writer)
    {
      cm_result_add_note (result, sentence);
      return TRUE;
    }

  if (*error == NULL)
    {
      g_set_error_literal (error, CM_TARGET_ERROR, CM_TARGET_ERROR_OTHER_WRITER, sentence);
      return FALSE;
    }

  if (other_writer)
    {
      g_autofree char *message = g_strconcat ((*error)->message, " ", sentence, NULL);

      g_free ((*error)->message);
      (*error)->message = g_steal_pointer (&message);
    }
  return FALSE;
}

/* In the worker: the bus is busy with @holder's speed test. */
static void
bus_waiting_cb (const char *holder,
                gpointer    user_data)
{
  CmRunner *self = user_data;
  Event *event = event_new (self, WAITING);

  g_free (event->test);
  event->test = g_strdup (holder);
  post_event (self, event);
}

static void
run_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  CmRunner *self = source_object;
  g_autoptr(CmResult) result = cm_result_new ();
  g_autofree guint8 *backup = NULL;
  GError *error = NULL;
  CmEngineJob job = { 0 };
  g_autofree char *bus = NULL;
  guint64 written = 0, written_before = 0;
  gboolean counted = FALSE;
  gboolean ok;

  if (!cm_target_open_area (self->target, area_for_mode (self), &error))
    {
      g_task_return_error (task, error);
      return;
    }

  describe_target (self, result);
  order_tests (self, result);

  if (cm_target_get_mode (self->target) == CM_METHOD_RAW_WRITE && cm_target_can_write (self->target))
    backup = cm_engine_alloc (cm_target_get_area_bytes (self->target));

  job.fd = cm_target_get_fd (self->target);
  job.direct_io = cm_target_get_direct_io (self->target);
  job.area_bytes = cm_target_get_area_bytes (self->target);
  job.backup = backup;
  if (backup != NULL)
    {
      job.written = &written;
      counted = cm_target_get_bytes_written (self->target, &written_before);
    }
  job.cancellable = cancellable;
  job.progress = engine_progress_cb;
  job.user_data = self;

  /* No other card on this bus measures while this one does. */
  bus = self->order->len > 0 ? cm_bus_key_for_device (cm_target_get_device (self->target)) : NULL;
  if (!cm_bus_measure_begin (bus, cm_target_get_device (self->target), cancellable, bus_waiting_cb, self, &error))
    {
      cm_target_close (self->target);
      if (error != NULL)
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_error_if_cancelled (task);
      return;
    }
  ok = self->order->len > 0 && run_tests (self, result, &job, &error);
  cm_bus_measure_end (bus);

  if (backup != NULL)
    {
      gboolean other = FALSE;
      char *sentence = check_other_writers (self, counted, written_before, written, &other);

      ok = report_card_state (result, &error, sentence, other) && ok;
    }

  /* Closing removes the scratch file's last trace on every path out. */
  cm_target_close (self->target);

  if (!ok && error == NULL)
    g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("The plan has no test this target can run."));

  if (!ok)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&result), g_object_unref);
}

void
cm_runner_run_async (CmRunner            *self,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (CM_IS_RUNNER (self));
  g_return_if_fail (self->order == NULL);

  self->context = g_main_context_ref_thread_default ();
  self->cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();

  task = g_task_new (self, self->cancellable, callback, user_data);
  g_task_set_source_tag (task, cm_runner_run_async);
  /* Cancel returns at once; the worker finishes the command in flight
   * (a slow card can take a second over 4 MiB) and closes the target on
   * its own. */
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, run_thread);
}

CmResult *
cm_runner_run_finish (CmRunner      *self,
                      GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (CM_IS_RUNNER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
