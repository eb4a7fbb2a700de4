/* cm-bench.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One bench run, put together once for the app and the CLI: it opens the
 * target (a scratch file in a folder, or the whole device, through UDisks
 * when polkit must ask), reads the card's registers, the host and the
 * reader, builds the plan, runs it, records what it measured and on what,
 * judges the claims and keeps the result in the history. The faces only
 * turn widgets or options into a bench and show what it reports, so the
 * same card gives the same document from either.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <sys/stat.h>

#include "cm-test-table.h"
#include "cm-target.h"
#include "cm-verdict.h"

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
  CmBenchMethod    method;
  CmDeviceMonitor *monitor;
  gboolean         prefer_udisks;

  /* How, and what to record. */
  CmProfile        profile;
  GStrv            only;
  guint64          sustained_limit;  /* 0: the plan's own */
  GStrv            claims;
  char            *brand;
  char            *name;
  CmHistory       *history;

  /* The run. */
  gboolean         started;
  char            *note;
  CmCardInfo      *card;
  CmHostFacts     *host;
  CmRunner        *runner;
  GFile           *saved;
  GError          *save_error;
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
  g_clear_object (&self->monitor);
  g_strfreev (self->only);
  g_strfreev (self->claims);
  g_free (self->brand);
  g_free (self->name);
  g_clear_object (&self->history);
  g_free (self->note);
  g_clear_object (&self->card);
  g_clear_pointer (&self->host, cm_host_facts_free);
  g_clear_object (&self->runner);
  g_clear_object (&self->saved);
  g_clear_error (&self->save_error);

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
                         CmBenchMethod  method)
{
  CmBench *self;

  g_return_val_if_fail (CM_IS_DEVICE (device), NULL);

  self = g_object_new (CM_TYPE_BENCH, NULL);
  self->device = g_object_ref (device);
  self->for_device = TRUE;
  self->method = method;
  self->raw = method != CM_BENCH_METHOD_FILE;
  self->allow_write = method == CM_BENCH_METHOD_RAW_WRITE;
  return self;
}

/* The monitor the device list already has, so that a folder's device is
 * looked up without a second UDisks client. */
void
cm_bench_set_monitor (CmBench         *self,
                      CmDeviceMonitor *monitor)
{
  g_return_if_fail (CM_IS_BENCH (self));

  g_set_object (&self->monitor, monitor);
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

/* The classes printed on the card; NULL judges those it declares. */
void
cm_bench_set_claims (CmBench            *self,
                     const char * const *claims)
{
  g_return_if_fail (CM_IS_BENCH (self));

  g_strfreev (self->claims);
  self->claims = g_strdupv ((char **) claims);
}

void
cm_bench_set_brand (CmBench    *self,
                    const char *brand)
{
  g_return_if_fail (CM_IS_BENCH (self));

  g_free (self->brand);
  self->brand = g_strdup (brand);
}

/* What the user calls the card; by default the device's name. */
void
cm_bench_set_name (CmBench    *self,
                   const char *name)
{
  g_return_if_fail (CM_IS_BENCH (self));

  g_free (self->name);
  self->name = g_strdup (name);
}

/* Where the finished result is kept; NULL keeps it nowhere. */
void
cm_bench_set_history (CmBench   *self,
                      CmHistory *history)
{
  g_return_if_fail (CM_IS_BENCH (self));

  g_set_object (&self->history, history);
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

CmDevice *
cm_bench_get_device (CmBench *self)
{
  g_return_val_if_fail (CM_IS_BENCH (self), NULL);

  return self->device;
}

CmRunner *
cm_bench_get_runner (CmBench *self)
{
  g_return_val_if_fail (CM_IS_BENCH (self), NULL);

  return self->runner;
}

/* The history file the result went to, once the run finished. */
GFile *
cm_bench_get_saved_file (CmBench *self)
{
  g_return_val_if_fail (CM_IS_BENCH (self), NULL);

  return self->saved;
}

/* Why the finished result could not be kept in the history; the run
 * itself still succeeded and its result is returned. */
const GError *
cm_bench_get_save_error (CmBench *self)
{
  g_return_val_if_fail (CM_IS_BENCH (self), NULL);

  return self->save_error;
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

CmPlan *
cm_bench_new_plan (CmProfile profile,
                   guint64   au_size_bytes)
{
  const char *test_plan = test_plan_name != NULL ? test_plan_name : g_getenv ("CARDMARK_TEST_PLAN");
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

/**
 * cm_bench_read_card:
 *
 * The card's identity from its registers where the reader shows them, a
 * card with the reason they can't be read through a USB reader, or NULL
 * for a device that is no card reader at all.
 */
CmCardInfo *
cm_bench_read_card (CmDevice *device)
{
  const char *sysfs = cm_device_get_sysfs_device_dir (device);
  g_autoptr(GError) error = NULL;
  CmCardInfo *card;

  switch (cm_device_get_reader_kind (device))
    {
    case CM_READER_SD_SLOT:
      if (sysfs != NULL && (card = cm_card_info_new_from_sysfs (sysfs, &error)) != NULL)
        return card;
      return cm_card_info_new_unavailable (error ? error->message : _("The card's registers could not be read."));
    case CM_READER_USB:
      return cm_card_info_new_unavailable (_("The card's registers can't be read through this USB reader."));
    case CM_READER_LOOP:
    case CM_READER_OTHER:
    default:
      return NULL;
    }
}

/* Describing the result. */

static void
describe_target (CmBench  *self,
                 CmResult *result)
{
  CmReaderKind reader;

  if (self->device == NULL)
    return;

  reader = test_host != NULL ? CM_READER_SD_SLOT : cm_device_get_reader_kind (self->device);
  cm_result_set_target (result,
                        cm_result_get_target_path (result),
                        cm_result_get_target_mode (result),
                        cm_device_get_device (self->device),
                        cm_reader_kind_to_string (reader));
  cm_result_set_usb_speed_mbps (result, cm_device_get_usb_speed_mbps (self->device));
}

/* What the user called the card, else its device's name, else the name
 * of a folder UDisks does not know. */
static void
describe_name (CmBench  *self,
               CmResult *result)
{
  g_autofree char *folder = NULL;

  if (self->name != NULL)
    cm_result_set_name (result, self->name);
  else if (self->device != NULL)
    cm_result_set_name (result, cm_device_get_name (self->device));
  else
    {
      folder = g_filename_display_basename (self->path);
      cm_result_set_name (result, folder);
    }
}

static void
describe_card (CmBench  *self,
               CmResult *result)
{
  if (self->card != NULL)
    cm_result_set_card (result, self->card);
  if (self->brand == NULL)
    return;

  if (cm_result_get_card (result) == NULL)
    {
      g_autoptr(CmCardInfo) card = cm_card_info_new ();

      cm_result_set_card (result, card);
    }
  cm_card_info_set_brand (cm_result_get_card (result), self->brand);
}

static void
describe (CmBench  *self,
          CmResult *result)
{
  cm_result_set_host_facts (result, self->host);
  if (self->note != NULL)
    cm_result_add_note (result, self->note);
  describe_target (self, result);
  describe_name (self, result);
  describe_card (self, result);
}

/* Every finished run is kept; when that fails the result is still
 * returned, and the failure is told by cm_bench_get_save_error(). */
static void
save (CmBench  *self,
      CmResult *result)
{
  if (self->history == NULL)
    return;

  self->saved = cm_history_save (self->history, result, &self->save_error);
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

  describe (self, result);
  cm_verdict_judge (result, (const char * const *) self->claims, "label");
  save (self, result);
  g_task_return_pointer (task, g_steal_pointer (&result), g_object_unref);
}

static void
start_run (GTask    *task,
           CmTarget *target)
{
  CmBench *self = g_task_get_source_object (task);
  g_autoptr(CmPlan) plan = NULL;

  if (self->device != NULL)
    {
      const char *sysfs = cm_device_get_reader_kind (self->device) == CM_READER_SD_SLOT
                          ? cm_device_get_sysfs_device_dir (self->device) : NULL;

      self->card = cm_bench_read_card (self->device);
      self->host = test_host != NULL ? cm_host_facts_copy (test_host) : cm_host_facts_read (sysfs);
    }
  else
    self->host = test_host != NULL ? cm_host_facts_copy (test_host) : cm_host_facts_read (NULL);

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
device_opened_cb (GObject      *object,
                  GAsyncResult *res,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CmBench *self = g_task_get_source_object (task);
  GError *error = NULL;
  int fd = cm_device_open_finish (CM_DEVICE (object), res, &error);
  g_autoptr(CmTarget) target = NULL;

  if (fd >= 0)
    target = cm_target_new_for_fd (fd, cm_device_get_device (self->device), self->allow_write, &error);

  if (target == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  start_run (g_steal_pointer (&task), target);
}

/* Asks UDisks for the device, so polkit can ask the user. */
static void
open_through_udisks (GTask *task)
{
  CmBench *self = g_task_get_source_object (task);

  cm_device_open_async (self->device, self->allow_write, g_task_get_cancellable (task),
                        device_opened_cb, task);
}

static void
open_path_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  const char *path = task_data;
  CmBench *self = source_object;
  GError *error = NULL;
  CmTarget *target = cm_target_new_for_path (path, self->allow_write, &error);

  if (target == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, target, g_object_unref);
}

static void
path_opened_cb (GObject      *object,
                GAsyncResult *res,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CmBench *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmTarget) target = g_task_propagate_pointer (G_TASK (res), &error);
  const char *path = g_task_get_task_data (G_TASK (res));

  /* A device we may not open ourselves is asked of UDisks, except for
   * writes to a mounted one, which UDisks would refuse anyway. */
  if (target == NULL && self->device != NULL &&
      g_error_matches (error, CM_TARGET_ERROR, CM_TARGET_ERROR_PERMISSION) &&
      !(self->allow_write && cm_target_device_is_mounted (path)))
    {
      open_through_udisks (g_steal_pointer (&task));
      return;
    }

  if (target == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  start_run (g_steal_pointer (&task), target);
}

static void
open_path (GTask      *task,
           const char *path)
{
  CmBench *self = g_task_get_source_object (task);
  g_autoptr(GTask) opening = g_task_new (self, g_task_get_cancellable (task), path_opened_cb, task);

  g_task_set_task_data (opening, g_strdup (path), g_free);
  g_task_run_in_thread (opening, open_path_thread);
}

static gboolean
is_block_device (const char *path)
{
  struct stat st;

  return stat (path, &st) == 0 && S_ISBLK (st.st_mode);
}

/* The device that holds @path, if UDisks knows it. Without UDisks,
 * folders and devices we may open still work; only what UDisks would
 * have told about the reader is missing. */
static CmDevice *
lookup_device (CmBench    *self,
               const char *path)
{
  g_autoptr(GError) error = NULL;

  if (self->monitor == NULL)
    {
      self->monitor = cm_device_monitor_new (&error);
      if (self->monitor == NULL)
        {
          g_debug ("%s", error->message);
          return NULL;
        }
      cm_device_monitor_set_show_loop (self->monitor, TRUE);
    }

  return cm_device_monitor_lookup (self->monitor, path);
}

/* What to open for a device from the list. */
static const char *
device_open_path (CmBench  *self,
                  GError  **error)
{
  const char * const *mounts = cm_device_get_mount_points (self->device);

  if (self->method != CM_BENCH_METHOD_FILE)
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

  self->device = lookup_device (self, self->path);

  if (device && !self->raw && !self->allow_write && self->device != NULL && cm_device_get_mounted (self->device))
    {
      const char *folder = cm_device_get_mount_points (self->device)[0];

      self->note = g_strdup_printf (_("%s is mounted, so CardMark tested a scratch file in %s. Use --raw to read the whole device."),
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

  /* CARDMARK_OPEN_VIA_UDISKS lets the tests, who run as root, take the
   * path an ordinary user takes. */
  if (self->device != NULL && is_block_device (path) &&
      g_strcmp0 (path, cm_device_get_device (self->device)) == 0 &&
      (self->prefer_udisks || g_getenv ("CARDMARK_OPEN_VIA_UDISKS") != NULL))
    {
      open_through_udisks (g_steal_pointer (&task));
      return;
    }

  open_path (g_steal_pointer (&task), path);
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
