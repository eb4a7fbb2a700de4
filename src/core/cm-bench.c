/* cm-bench.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A benchmark's own work: it decides what to open for the method asked
 * (a mounted card's folder, or the whole device), opens it the way every
 * card job does (cm-job-open.c), builds the plan for the card and runs
 * it. The card job (cm-job.c, kind cm-job-bench.c) holds it: the job
 * takes the card's lock, reads the card, the host and the reader,
 * describes and judges the document and keeps it, as for every kind.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <sys/stat.h>

#include "cm-job-open.h"
#include "cm-test-table.h"
#include "cm-target.h"
#include "cm-test-hooks.h"

#include "cm-bench.h"

struct _CmBench
{
  GObject          parent_instance;

  /* What to test. */
  char            *path;
  gboolean         raw;
  gboolean         allow_write;
  CmDevice        *device;
  gboolean         for_device;
  CmMethod         method;
  gboolean         prefer_udisks;

  /* How. */
  CmProfile        profile;
  GStrv            only;
  guint64          sustained_limit;  /* 0: the plan's own */
  CmCardInfo      *card;             /* its allocation unit sizes the blocks */

  /* The run. */
  gboolean         started;
  char            *note;
  CmRunner        *runner;
};

G_DEFINE_FINAL_TYPE (CmBench, cm_bench, G_TYPE_OBJECT)

enum {
  STARTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static char *test_plan_name;
static CmHostFacts *test_host;

static void
cm_bench_finalize (GObject *object)
{
  CmBench *self = CM_BENCH (object);

  g_free (self->path);
  g_clear_object (&self->device);
  g_strfreev (self->only);
  g_free (self->note);
  g_clear_object (&self->card);
  g_clear_object (&self->runner);

  G_OBJECT_CLASS (cm_bench_parent_class)->finalize (object);
}

static void
cm_bench_class_init (CmBenchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = cm_bench_finalize;

  /**
   * CmBench::started:
   * @runner: the runner, whose "test-started", "progress" and "sample"
   *   signals tell how the run goes
   *
   * The target is open and the tests begin.
   */
  signals[STARTED] =
    g_signal_new ("started",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, CM_TYPE_RUNNER);
}

static void
cm_bench_init (CmBench *self)
{
  self->profile = CM_PROFILE_QUICK;
}

/**
 * cm_bench_new_for_path:
 * @path: a folder on the card, or its device
 * @raw: test the whole device even when it is mounted
 * @allow_write: the whole-device test may write (putting back what was there)
 *
 * A bench as the CLI's TARGET asks for one: a folder is tested in a
 * scratch file; a mounted device through its folder unless @raw; an
 * unmounted device whole.
 */
CmBench *
cm_bench_new_for_path (const char *path,
                       gboolean    raw,
                       gboolean    allow_write)
{
  CmBench *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (CM_TYPE_BENCH, NULL);
  self->path = g_strdup (path);
  self->raw = raw;
  self->allow_write = allow_write;
  return self;
}

/**
 * cm_bench_new_for_device:
 *
 * A bench for a card the device list showed, tested by @method.
 */
CmBench *
cm_bench_new_for_device (CmDevice      *device,
                         CmMethod       method)
{
  CmBench *self;

  g_return_val_if_fail (CM_IS_DEVICE (device), NULL);

  self = g_object_new (CM_TYPE_BENCH, NULL);
  self->device = g_object_ref (device);
  self->for_device = TRUE;
  self->method = method;
  self->raw = method != CM_METHOD_FILE;
  self->allow_write = method == CM_METHOD_RAW_WRITE;
  return self;
}

/* The card as UDisks shows it, for a path the CLI was given: a mounted
 * device is then tested through its folder. */
void
cm_bench_set_device (CmBench  *self,
                     CmDevice *device)
{
  g_return_if_fail (CM_IS_BENCH (self));
  g_return_if_fail (!self->started);

  if (!self->for_device)
    g_set_object (&self->device, device);
}

/* The card's registers, whose allocation unit sizes the sequential
 * blocks. */
void
cm_bench_set_card (CmBench    *self,
                   CmCardInfo *card)
{
  g_return_if_fail (CM_IS_BENCH (self));

  g_set_object (&self->card, card);
}

void
cm_bench_set_profile (CmBench   *self,
                      CmProfile  profile)
{
  g_return_if_fail (CM_IS_BENCH (self));

  self->profile = profile;
}

/* Only these tests of the profile (cardmark-cli bench --only). */
void
cm_bench_set_only (CmBench            *self,
                   const char * const *tests)
{
  g_return_if_fail (CM_IS_BENCH (self));

  g_strfreev (self->only);
  self->only = g_strdupv ((char **) tests);
}

/* How far the full profile's sustained write may go at most
 * (cardmark-cli bench --sustained-limit); 0 keeps the plan's own. */
void
cm_bench_set_sustained_limit (CmBench *self,
                              guint64  bytes)
{
  g_return_if_fail (CM_IS_BENCH (self));

  self->sustained_limit = bytes;
}

/* Open whole devices through UDisks even when we could open them
 * ourselves, so that polkit decides (the app does this). */
void
cm_bench_set_prefer_udisks (CmBench  *self,
                            gboolean  prefer_udisks)
{
  g_return_if_fail (CM_IS_BENCH (self));

  self->prefer_udisks = prefer_udisks;
}

/* Plans and test hosts. */

/**
 * cm_bench_set_test_plan:
 * @name: (nullable): "tiny", a few megabytes, or "slow", one that runs
 *   until cancelled; NULL goes back to the profile's plan
 *
 * Makes the next runs use a test plan. The widget tests call this;
 * CARDMARK_TEST_PLAN in the environment does the same for a whole
 * process (tests/app-screenshots). Unlike setting the variable, this is
 * safe once threads run.
 */
void
cm_bench_set_test_plan (const char *name)
{
  g_free (test_plan_name);
  test_plan_name = g_strdup (name);
}

/**
 * cm_bench_set_host_for_testing:
 * @facts: (nullable): the host to pretend to be, NULL for the real one
 *
 * Makes the next runs record @facts as the host, and the card as sitting
 * in its own slot, so the tests can see the verdicts of a Raspberry Pi
 * on a machine that has no card slot.
 */
void
cm_bench_set_host_for_testing (const CmHostFacts *facts)
{
  g_clear_pointer (&test_host, cm_host_facts_free);
  if (facts != NULL)
    test_host = cm_host_facts_copy (facts);
}

/* The host cm_bench_set_host_for_testing() set, or NULL. */
const CmHostFacts *
cm_bench_get_host_for_testing (void)
{
  return test_host;
}

CmPlan *
cm_bench_new_plan (CmProfile profile,
                   guint64   au_size_bytes)
{
  const char *test_plan = test_plan_name != NULL ? test_plan_name : cm_test_hook ("CARDMARK_TEST_PLAN");
  CmPlan *plan;

  if (g_strcmp0 (test_plan, "tiny") == 0 || g_strcmp0 (test_plan, "slow") == 0)
    {
      gboolean slow = g_str_equal (test_plan, "slow");

      plan = cm_plan_new_empty (profile, 8 * 1024 * 1024);
      cm_plan_add_test (plan, CM_TEST_SEQ_WRITE, CM_PATTERN_SEQUENTIAL, CM_DIRECTION_WRITE, 1 << 20, 1, 0, 0);
      cm_plan_add_test (plan, CM_TEST_SEQ_READ, CM_PATTERN_SEQUENTIAL, CM_DIRECTION_READ, 1 << 20, 1, 0, 0);
      cm_plan_add_test (plan, CM_TEST_RAND_READ_4K, CM_PATTERN_RANDOM, CM_DIRECTION_READ, 4096, 1, 0,
                        slow ? 60 : 0.5);
      return plan;
    }

  return cm_plan_new (profile, au_size_bytes);
}

/* Running. */

static void
run_done_cb (GObject      *object,
             GAsyncResult *res,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CmBench *self = g_task_get_source_object (task);
  GError *error = NULL;
  g_autoptr(CmResult) result = cm_runner_run_finish (CM_RUNNER (object), res, &error);

  if (result == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (self->note != NULL)
    cm_result_add_note (result, self->note);
  g_task_return_pointer (task, g_steal_pointer (&result), g_object_unref);
}

static void
start_run (GTask    *task,
           CmTarget *target)
{
  CmBench *self = g_task_get_source_object (task);
  g_autoptr(CmPlan) plan = NULL;

  plan = cm_bench_new_plan (self->profile, self->card ? cm_card_info_get_au_size_bytes (self->card) : 0);
  if (self->only != NULL)
    cm_plan_keep_only (plan, (const char * const *) self->only);
  if (self->sustained_limit > 0 && cm_plan_get_sustained_limit (plan) > 0)
    cm_plan_set_sustained_limit (plan, self->sustained_limit);

  self->runner = cm_runner_new (target, plan);
  g_signal_emit (self, signals[STARTED], 0, self->runner);
  cm_runner_run_async (self->runner, g_task_get_cancellable (task), run_done_cb, task);
}

/* Opening the target. */

static void
opened_cb (GObject      *object,
           GAsyncResult *res,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  g_autoptr(CmTarget) target = cm_job_open_target_finish (res, &error);

  if (target == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  start_run (g_steal_pointer (&task), target);
}

static gboolean
is_block_device (const char *path)
{
  struct stat st;

  return stat (path, &st) == 0 && S_ISBLK (st.st_mode);
}

/* What to open for a device from the list. */
static const char *
device_open_path (CmBench  *self,
                  GError  **error)
{
  const char * const *mounts = cm_device_get_mount_points (self->device);

  if (self->method != CM_METHOD_FILE)
    return cm_device_get_device (self->device);

  if (mounts == NULL || mounts[0] == NULL)
    {
      g_set_error_literal (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                           _("The card is not mounted, so there is no folder for a safe test. Mount it in Files, or choose a raw test."));
      return NULL;
    }

  return mounts[0];
}

/* What to open for a path: a mounted card is tested safely through its
 * filesystem unless the user asked for the whole device. */
static const char *
path_open_path (CmBench  *self,
                GError  **error)
{
  gboolean device;

  /* "" is no path, whatever GFile and stat() would make of it. */
  if (self->path[0] == '\0')
    {
      g_propagate_error (error, cm_target_error_empty_path ());
      return NULL;
    }

  device = is_block_device (self->path);
  if (self->raw && !device)
    {
      g_propagate_error (error, cm_target_error_wrong_kind (self->path, TRUE));
      return NULL;
    }

  if (device && !self->raw && !self->allow_write && self->device != NULL && cm_device_get_mounted (self->device))
    {
      const char *folder = cm_device_get_mount_points (self->device)[0];

      self->note = g_strdup_printf (_("%s is mounted, so CardMark tested a scratch file in %s. A test of the whole device, unmounted, measures the card itself."),
                                    self->path, folder);
      return folder;
    }

  return self->path;
}

/**
 * cm_bench_run_async:
 *
 * Opens the target, runs the plan, and judges and keeps the result. The
 * "started" signal tells when the tests begin. A bench runs once.
 */
void
cm_bench_run_async (CmBench             *self,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  const char *path;

  g_return_if_fail (CM_IS_BENCH (self));
  g_return_if_fail (!self->started);

  self->started = TRUE;
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cm_bench_run_async);

  path = self->for_device ? device_open_path (self, &error) : path_open_path (self, &error);
  if (path == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  cm_job_open_target_async (self->device, path, self->allow_write, self->prefer_udisks,
                            cancellable, opened_cb, g_steal_pointer (&task));
}

CmResult *
cm_bench_run_finish (CmBench       *self,
                     GAsyncResult  *result,
                     GError       **error)
{
  g_return_val_if_fail (CM_IS_BENCH (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
