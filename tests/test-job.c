/* test-job.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The card job: a kind added at run time goes through the same steps
 * as the built-in ones (state, progress, phase, the document's kind, the
 * history), one job per card across processes, and an empty target.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cm-capacity-probe.h"
#include "cm-card-lock.h"
#include "cm-job-bench.h"
#include "cm-job-capacity.h"
#include "cm-job-format.h"
#include "cm-job-kind.h"
#include "cm-job-verify.h"
#include "cm-job-wear.h"
#include "cm-target.h"

#include "cm-job.h"
#include "cm-test-files.h"

/* A throwaway kind: reports half-way, then returns a document. */
static gboolean
tiny_finish_cb (gpointer user_data)
{
  GTask *task = user_data;
  CmJob *job = g_task_get_source_object (task);
  CmResult *result = cm_result_new ();

  cm_job_report (job, 0.5, 3, "Half-way");
  cm_result_set_profile (result, "tiny");
  cm_result_set_target (result, cm_job_get_path (job), "file", NULL, NULL);
  g_task_return_pointer (task, result, g_object_unref);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

static void
tiny_run (CmJob *job,
          GTask *task)
{
  cm_job_report (job, 0.1, -1, "Starting");
  g_idle_add (tiny_finish_cb, task);
}

static guint tiny_judged;

static void
tiny_judge (CmJob    *job,
            CmResult *result)
{
  tiny_judged++;
  cm_result_set_summary (result, "judged by the tiny kind");
}

static const CmJobKind tiny_kind = {
  .name = "tiny",
  .title = "Tiny job",
  .doing = "a tiny job",
  .run = tiny_run,
  .judge = tiny_judge,
};

typedef struct
{
  GMainLoop *loop;
  CmResult  *result;
  GError    *error;
  GArray    *states;
  GPtrArray *phases;
} Run;

static void
done_cb (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  Run *run = user_data;

  run->result = cm_job_run_finish (CM_JOB (object), res, &run->error);
  g_main_loop_quit (run->loop);
}

static void
state_cb (CmJob      *job,
          GParamSpec *pspec,
          Run        *run)
{
  CmJobState state = cm_job_get_state (job);

  g_array_append_val (run->states, state);
}

static void
phase_cb (CmJob      *job,
          GParamSpec *pspec,
          Run        *run)
{
  g_ptr_array_add (run->phases, g_strdup (cm_job_get_phase (job)));
}

static void
run_job (CmJob *job,
         Run   *run)
{
  run->loop = g_main_loop_new (NULL, FALSE);
  run->states = g_array_new (FALSE, FALSE, sizeof (CmJobState));
  run->phases = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (job, "notify::state", G_CALLBACK (state_cb), run);
  g_signal_connect (job, "notify::phase", G_CALLBACK (phase_cb), run);
  cm_job_run_async (job, NULL, done_cb, run);
  g_main_loop_run (run->loop);
}

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->loop, g_main_loop_unref);
  g_clear_object (&run->result);
  g_clear_error (&run->error);
  g_clear_pointer (&run->states, g_array_unref);
  g_clear_pointer (&run->phases, g_ptr_array_unref);
}

static char *lock_dir;

static void
test_new_kind (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-job-XXXXXX", &error);
  g_autofree char *history_dir = g_build_filename (dir, "history", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (history_dir);
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(CmJob) job = NULL;
  g_autoptr(GPtrArray) loaded = NULL;
  gboolean listed = FALSE;
  Run run = { 0 };

  g_assert_no_error (error);
  g_assert_null (cm_job_kinds_lookup ("tiny"));
  cm_job_kinds_add_for_testing (&tiny_kind);
  g_assert_true (g_strv_contains (cm_job_kinds_list_names (), "tiny"));
  g_assert_true (g_strv_contains (cm_job_kinds_list_names (), "verify"));

  job = cm_job_new ("tiny", dir);
  cm_job_set_history (job, history);
  cm_job_set_name (job, "Card A");
  g_assert_cmpstr (cm_job_get_kind (job), ==, "tiny");
  g_assert_cmpstr (cm_job_get_title (job), ==, "Tiny job");
  g_assert_cmpint (cm_job_get_state (job), ==, CM_JOB_STATE_WAITING);
  g_assert_true (cm_job_is_active (job));

  run_job (job, &run);
  g_assert_no_error (run.error);
  g_assert_nonnull (run.result);

  /* Running, then done; the kind's phases in order. */
  g_assert_cmpuint (run.states->len, ==, 2);
  g_assert_cmpint (g_array_index (run.states, CmJobState, 0), ==, CM_JOB_STATE_RUNNING);
  g_assert_cmpint (g_array_index (run.states, CmJobState, 1), ==, CM_JOB_STATE_DONE);
  g_assert_cmpuint (run.phases->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (run.phases, 0), ==, "Starting");
  g_assert_cmpstr (g_ptr_array_index (run.phases, 1), ==, "Half-way");
  g_assert_false (cm_job_is_active (job));
  g_assert_cmpfloat (cm_job_get_progress (job), ==, 1);

  /* The job described and judged the document, and kept it. */
  g_assert_cmpstr (cm_result_get_kind (run.result), ==, "tiny");
  g_assert_cmpstr (cm_result_get_name (run.result), ==, "Card A");
  g_assert_cmpstr (cm_result_get_summary (run.result), ==, "judged by the tiny kind");
  g_assert_cmpuint (tiny_judged, ==, 1);
  g_assert_nonnull (cm_job_get_saved_file (job));
  loaded = cm_history_load (history, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < loaded->len; i++)
    listed |= g_strcmp0 (cm_result_get_kind (g_ptr_array_index (loaded, i)), "tiny") == 0;
  g_assert_true (listed);
  /* A kind this CardMark does not know is named by its name. */
  g_assert_cmpstr (cm_job_kind_get_title ("from-the-future"), ==, "from-the-future");

  run_clear (&run);
  g_assert_true (g_file_delete (cm_job_get_saved_file (job), NULL, NULL));
  g_rmdir (history_dir);
  g_rmdir (dir);
}

static void
test_empty_target (void)
{
  g_autoptr(CmJob) job = cm_job_new ("bench", "");
  Run run = { 0 };

  run_job (job, &run);
  g_assert_null (run.result);
  g_assert_error (run.error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_FOUND);
  g_assert_cmpint (cm_job_get_state (job), ==, CM_JOB_STATE_FAILED);
  run_clear (&run);
}

/* A second job on the same card is refused, from this process and from
 * another, with what holds it; the lock goes with the process. */
static void
test_one_job_per_card (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-job-XXXXXX", &error);
  g_autofree char *sub = g_build_filename (dir, "sub", NULL);
  g_autoptr(CmCardLock) lock = NULL;
  g_autoptr(CmCardLock) again = NULL;
  g_autoptr(CmJob) job = NULL;
  int ready[2], go[2];
  char byte = 0;
  pid_t child;
  int status;
  Run run = { 0 };

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);

  /* A folder and a folder under it are on one file system: one card. */
  lock = cm_card_lock_take (dir, "a full verify (test)", &error);
  g_assert_no_error (error);
  again = cm_card_lock_take (sub, "a benchmark (test)", &error);
  g_assert_error (error, CM_CARD_LOCK_ERROR, CM_CARD_LOCK_ERROR_BUSY);
  g_assert_null (again);
  g_assert_nonnull (strstr (error->message, "a full verify (test)"));
  g_clear_error (&error);

  /* The job refuses with the same sentence. */
  job = cm_job_new ("bench", sub);
  run_job (job, &run);
  g_assert_error (run.error, CM_CARD_LOCK_ERROR, CM_CARD_LOCK_ERROR_BUSY);
  g_assert_nonnull (strstr (run.error->message, "a full verify (test)"));
  g_assert_cmpint (cm_job_get_state (job), ==, CM_JOB_STATE_FAILED);
  run_clear (&run);

  g_clear_pointer (&lock, cm_card_lock_release);

  /* Across processes: a child holds the card until told to let go. */
  g_assert_cmpint (pipe (ready), ==, 0);
  g_assert_cmpint (pipe (go), ==, 0);
  child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      CmCardLock *held = cm_card_lock_take (dir, "a capacity check (child)", NULL);

      byte = held != NULL ? 'y' : 'n';
      if (write (ready[1], &byte, 1) != 1 || read (go[0], &byte, 1) < 0)
        _exit (2);
      _exit (held != NULL ? 0 : 1);
    }
  g_assert_cmpint (read (ready[0], &byte, 1), ==, 1);
  g_assert_cmpint (byte, ==, 'y');
  again = cm_card_lock_take (dir, "a benchmark (test)", &error);
  g_assert_error (error, CM_CARD_LOCK_ERROR, CM_CARD_LOCK_ERROR_BUSY);
  g_assert_nonnull (strstr (error->message, "a capacity check (child)"));
  g_clear_error (&error);
  /* Killed, not released: the kernel lets go of the card. */
  kill (child, SIGKILL);
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  again = cm_card_lock_take (dir, "a benchmark (test)", &error);
  g_assert_no_error (error);
  g_assert_nonnull (again);

  close (ready[0]);
  close (ready[1]);
  close (go[0]);
  close (go[1]);
  g_rmdir (sub);
  g_rmdir (dir);
}

/* Each kind's settings are its own options, with a default inside
 * their bounds; the job has none of them. */
static void
test_options (void)
{
  const struct { const CmJobKind *kind; GType type; const char *option; } kinds[] = {
    { &cm_job_kind_bench, CM_TYPE_JOB_BENCH_OPTIONS, "sustained-limit" },
    { &cm_job_kind_capacity, CM_TYPE_JOB_CAPACITY_OPTIONS, "cache-bytes" },
    { &cm_job_kind_verify, CM_TYPE_JOB_VERIFY_OPTIONS, "read-only" },
    { &cm_job_kind_wear, CM_TYPE_JOB_WEAR_OPTIONS, "rounds" },
    { &cm_job_kind_format, CM_TYPE_JOB_FORMAT_OPTIONS, "label" },
  };
  guint64 cache = 0;

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autoptr(CmJob) job = cm_job_new (kinds[i].kind->name, "/nonexistent");
      GObject *options = cm_job_get_options (job);
      g_autofree GParamSpec **pspecs = NULL;
      guint n_pspecs = 0;

      g_assert_true (G_TYPE_CHECK_INSTANCE_TYPE (options, kinds[i].type));
      /* One object, made once. */
      g_assert_true (cm_job_get_options (job) == (gpointer) options);
      g_assert_nonnull (g_object_class_find_property (G_OBJECT_GET_CLASS (options), kinds[i].option));
      /* The consent is the job's, never an option of a kind. */
      g_assert_null (g_object_class_find_property (G_OBJECT_GET_CLASS (options), "destroy-data"));
      g_assert_null (g_object_class_find_property (G_OBJECT_GET_CLASS (job), kinds[i].option));
      pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (options), &n_pspecs);
      for (guint j = 0; j < n_pspecs; j++)
        {
          g_auto(GValue) value = G_VALUE_INIT;

          g_value_init (&value, pspecs[j]->value_type);
          g_object_get_property (options, pspecs[j]->name, &value);
          g_assert_true (g_param_value_defaults (pspecs[j], &value));
          g_assert_false (g_param_value_validate (pspecs[j], &value));
        }
    }

  /* A capacity check's default is the probe's. */
  {
    g_autoptr(CmJob) job = cm_job_new ("capacity", "/nonexistent");

    g_object_get (cm_job_get_options (job), "cache-bytes", &cache, NULL);
    g_assert_cmpuint (cache, ==, CM_CAPACITY_DEFAULT_CACHE);
  }
  /* A kind without options has none. */
  {
    g_autoptr(CmJob) job = cm_job_new ("health", "/nonexistent");

    g_assert_null (cm_job_get_options (job));
  }
}

/* A kind that needs a whole card is refused on anything else by the
 * job, before its own run starts, naming the kind. */
static void
test_needs_whole_card (void)
{
  const CmJobKind *kinds[] = { &cm_job_kind_wear, &cm_job_kind_format };

  g_assert_true (cm_job_kind_wear.needs & CM_JOB_KIND_NEEDS_WHOLE_CARD);
  g_assert_true (cm_job_kind_format.needs & CM_JOB_KIND_NEEDS_WHOLE_CARD);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *dir = g_dir_make_tmp ("cardmark-job-XXXXXX", &error);
      g_autoptr(CmJob) job = cm_job_new (kinds[i]->name, dir);
      Run run = { 0 };

      g_assert_no_error (error);
      g_assert_nonnull (kinds[i]->consent);
      cm_job_set_destroy_data (job, TRUE);
      run_job (job, &run);
      g_assert_error (run.error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED);
      g_assert_nonnull (strstr (run.error->message, kinds[i]->title));
      /* Refused before its run said a phase. */
      g_assert_cmpuint (run.phases->len, ==, 0);
      run_clear (&run);
      g_rmdir (dir);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  /* Locks of their own, never those of a real CardMark on this machine. */
  lock_dir = g_dir_make_tmp ("cardmark-locks-XXXXXX", &error);
  g_assert_no_error (error);
  cm_card_lock_set_folder_for_testing (lock_dir);

  g_test_add_func ("/cardmark/job/new-kind", test_new_kind);
  g_test_add_func ("/cardmark/job/empty-target", test_empty_target);
  g_test_add_func ("/cardmark/job/one-per-card", test_one_job_per_card);
  g_test_add_func ("/cardmark/job/options", test_options);
  g_test_add_func ("/cardmark/job/needs-whole-card", test_needs_whole_card);

  status = g_test_run ();
  cm_test_remove_folder (lock_dir);
  return status;
}
