/* cm-job-format.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Erase and format as a kind of card job: the whole unmounted card,
 * only with leave to destroy its data (CM_VERIFY_FLAGS_DESTROY_DATA),
 * opened the way every job opens a card, and cm_format_run() in a
 * worker thread. Its document (kind "format") holds the layout made,
 * whether the card honoured the discard, and fsck's word.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <sys/stat.h>

#include "cm-card-use.h"
#include "cm-format.h"
#include "cm-history-index.h"
#include "cm-job-format.h"
#include "cm-job-kind.h"
#include "cm-summary.h"
#include "cm-job-open.h"
#include "cm-target.h"

#define LABEL_KEY "cm-format-label"
#define SIZE_KEY  "cm-format-size"
/* The newest documents looked at for a card without a CID serial, whose
 * own are told by their device. */
#define REAL_SIZE_CANDIDATES 16

/**
 * cm_job_set_format_options:
 * @label: (nullable): the volume label
 * @use_bytes: the bytes to lay out (a fake card's real size), 0 for all
 *
 * What a format job makes; set before it runs.
 */
void
cm_job_set_format_options (CmJob      *job,
                           const char *label,
                           guint64     use_bytes)
{
  g_return_if_fail (CM_IS_JOB (job));

  g_object_set_data_full (G_OBJECT (job), LABEL_KEY, g_strdup (label), g_free);
  g_object_set_data_full (G_OBJECT (job), SIZE_KEY, g_memdup2 (&use_bytes, sizeof use_bytes), g_free);
}

/**
 * cm_format_find_real_size:
 * @history: where the card's checks are kept
 * @serial: (nullable): the card's CID serial; a card without one is
 *   told by its device: only documents of @device count
 * @device: the card's device now
 * @device_bytes: what the card says it holds
 * @found: (out) (optional) (transfer full): the document the size comes
 *   from, when one does
 *
 * Where the card's storage that keeps data ends, from its newest
 * capacity check or full verify in the history (the kind's real_size):
 * a fake card's real size. 0 when the newest found it whole, or there is
 * none (or, with @error set, the history's index could not be read). A
 * document of a card that said it held another size is not this card's.
 */
guint64
cm_format_find_real_size (CmHistory   *history,
                          const char  *serial,
                          const char  *device,
                          guint64      device_bytes,
                          CmResult   **found,
                          GError     **error)
{
  static const char * const kinds[] = { "capacity", "verify", NULL };
  g_autoptr(CmHistoryIndex) index = NULL;
  g_autoptr(GPtrArray) entries = NULL;

  g_return_val_if_fail (CM_IS_HISTORY (history), 0);
  g_return_val_if_fail (device != NULL, 0);

  if (found != NULL)
    *found = NULL;
  if ((index = cm_history_index_open (cm_history_get_folder (history), error)) == NULL ||
      !cm_history_index_refresh (index, error))
    return 0;
  entries = cm_history_index_query_kinds (index, serial, kinds, REAL_SIZE_CANDIDATES);
  for (guint i = 0; i < entries->len; i++)
    {
      CmHistoryEntry *entry = g_ptr_array_index (entries, i);
      g_autoptr(GFile) file = g_file_new_for_path (entry->path);
      g_autoptr(CmResult) result = cm_result_new_from_file (file, NULL);
      const CmJobKind *kind;
      guint64 reported = 0;
      guint64 real;

      if (result == NULL || (serial == NULL && g_strcmp0 (cm_result_get_device (result), device) != 0))
        continue;
      kind = cm_job_kinds_lookup (cm_result_get_kind (result));
      if (kind == NULL || kind->real_size == NULL)
        continue;
      real = kind->real_size (result, &reported);
      if (reported != 0 && reported != device_bytes)
        continue;
      /* The newest check of the card decides: one that found it whole
       * says there is no shorter end. */
      if (real == 0 || real >= device_bytes)
        return 0;
      if (found != NULL)
        *found = g_steal_pointer (&result);
      return real;
    }
  return 0;
}

typedef struct
{
  CmJob          *job;
  GMainContext   *context;
  CmTarget       *target;
  CmHistory      *history;
  char           *serial;
  char           *label;
  guint64         use_bytes;
  guint64         au_bytes;
  GDateTime      *started;
  CmFormatReport *report;
} FormatJob;

static void
format_job_free (FormatJob *f)
{
  g_clear_object (&f->job);
  g_clear_pointer (&f->context, g_main_context_unref);
  g_clear_object (&f->target);
  g_clear_object (&f->history);
  g_free (f->serial);
  g_free (f->label);
  g_clear_pointer (&f->started, g_date_time_unref);
  g_clear_pointer (&f->report, cm_format_report_free);
  g_free (f);
}

typedef struct
{
  CmJob  *job;
  char   *phase;
  double  fraction;
} Report;

static gboolean
report_in_job (gpointer data)
{
  Report *r = data;

  cm_job_report (r->job, r->fraction, -1, r->phase);
  return G_SOURCE_REMOVE;
}

static void
report_free (gpointer data)
{
  Report *r = data;

  g_object_unref (r->job);
  g_free (r->phase);
  g_free (r);
}

static void
progress_cb (const char *phase,
             double      fraction,
             gpointer    user_data)
{
  FormatJob *f = user_data;
  Report *r = g_new0 (Report, 1);

  r->job = g_object_ref (f->job);
  r->phase = g_strdup (phase);
  r->fraction = fraction;
  g_main_context_invoke_full (f->context, G_PRIORITY_DEFAULT, report_in_job, r, report_free);
}

/* In the worker, before the card is written to: the real size its last
 * check found, or why it is not known. */
static gboolean
resolve_real_size (FormatJob  *f,
                   GError    **error)
{
  const char *device = cm_target_get_path (f->target);
  GError *local = NULL;

  f->use_bytes = f->history != NULL
                 ? cm_format_find_real_size (f->history, f->serial, device, cm_target_get_size (f->target), NULL, &local)
                 : 0;
  if (f->use_bytes > 0)
    return TRUE;
  if (local != NULL)
    {
      g_propagate_prefixed_error (error, local, _("The history could not be read for the card's real size: "));
      return FALSE;
    }
  g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
               _("No capacity check or full verify of %s in the history found where its storage ends, so its real "
                 "size is not known. Check its capacity first, or give the size in bytes."), device);
  return FALSE;
}

static void
thread_func (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  FormatJob *f = task_data;
  GError *error = NULL;

  if (f->use_bytes == CM_FORMAT_USE_REAL_SIZE && !resolve_real_size (f, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  f->report = cm_format_run (cm_target_get_fd (f->target), cm_target_get_path (f->target),
                             cm_target_get_size (f->target), f->use_bytes, f->au_bytes, f->label,
                             progress_cb, f, cancellable, &error);
  if (f->report == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static CmResult *
make_result (FormatJob *f)
{
  CmResult *result = cm_result_new ();
  const char *device = cm_target_get_path (f->target);
  g_autoptr(JsonNode) node = cm_format_report_to_json (f->report);
  g_autofree char *layout = cm_format_report_dup_layout_text (f->report);
  g_autofree char *discard = cm_format_report_dup_discard_text (f->report);
  g_autofree char *summary = NULL;

  cm_result_set_started (result, f->started);
  cm_result_set_profile (result, "format");
  cm_result_set_target (result, device, "raw-write", device, NULL);
  cm_result_set_direct_io (result, TRUE);
  cm_result_set_area_bytes (result, f->report->used_bytes);
  cm_result_set_format (result, node);
  if (f->report->fsck_clean)
    /* Translators: a format's summary; the first %s is the device, the second the layout */
    summary = g_strdup_printf (_("%s is formatted: %s, one partition aligned to the card."), device, layout);
  else
    /* Translators: a format's summary; %s is the device */
    summary = g_strdup_printf (_("%s was formatted, but the file system check found faults in it."), device);
  cm_result_set_summary (result, summary);
  cm_result_add_note (result, discard);
  if (f->report->used_bytes < f->report->device_bytes)
    {
      g_autofree char *used = g_format_size (f->report->used_bytes);
      g_autofree char *says = g_format_size (f->report->device_bytes);
      g_autofree char *note = g_strdup_printf (_("The partition ends where the card's storage does: %s of the %s it reports."),
                                               used, says);

      cm_result_add_note (result, note);
    }
  if (!f->report->fsck_clean && f->report->fsck_output != NULL)
    cm_result_add_note (result, f->report->fsck_output);
  return result;
}

static void
done_cb (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  GTask *outer = user_data;
  FormatJob *f = g_task_get_task_data (G_TASK (res));
  GError *error = NULL;

  cm_target_close (f->target);
  if (!g_task_propagate_boolean (G_TASK (res), &error))
    g_task_return_error (outer, error);
  else
    g_task_return_pointer (outer, make_result (f), g_object_unref);
  g_object_unref (outer);
}

static void
opened_cb (GObject      *object,
           GAsyncResult *res,
           gpointer      user_data)
{
  GTask *task = user_data;
  CmJob *job = g_task_get_source_object (task);
  g_autoptr(GTask) worker = NULL;
  GError *error = NULL;
  CmTarget *target = cm_job_open_target_finish (res, &error);
  const guint64 *size = g_object_get_data (G_OBJECT (job), SIZE_KEY);
  CmCardInfo *card = cm_job_get_card (job);
  FormatJob *f;

  if (target == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  if (cm_target_get_write_protected (target))
    {
      g_task_return_new_error (task, CM_TARGET_ERROR, CM_TARGET_ERROR_READ_ONLY,
                               _("%s is write-protected, so it cannot be formatted. Slide the card's lock switch up, or use another card."),
                               cm_target_get_path (target));
      g_object_unref (target);
      g_object_unref (task);
      return;
    }

  f = g_new0 (FormatJob, 1);
  f->job = g_object_ref (job);
  f->context = g_main_context_ref_thread_default ();
  f->target = target;
  f->label = g_strdup (g_object_get_data (G_OBJECT (job), LABEL_KEY));
  f->use_bytes = size != NULL ? *size : 0;
  f->history = cm_job_get_history (job) != NULL ? g_object_ref (cm_job_get_history (job)) : NULL;
  f->serial = card != NULL ? g_strdup (cm_card_info_get_serial (card)) : NULL;
  f->au_bytes = card != NULL ? cm_card_info_get_au_size_bytes (card) : 0;
  f->started = g_date_time_new_now_utc ();

  worker = g_task_new (job, g_task_get_cancellable (task), done_cb, task);
  g_task_set_task_data (worker, f, (GDestroyNotify) format_job_free);
  g_task_run_in_thread (worker, thread_func);
}

static void
run (CmJob *job,
     GTask *task)
{
  CmDevice *device = cm_job_get_device (job);
  const char *path = cm_job_get_device_path (job);
  GError *error = NULL;
  struct stat st;

  if (path == NULL || stat (path, &st) != 0 || !S_ISBLK (st.st_mode))
    {
      g_task_return_new_error (task, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                               _("%s is not a card's device. Formatting takes a whole unmounted card, such as /dev/mmcblk0."),
                               path != NULL ? path : "");
      g_object_unref (task);
      return;
    }
  if (!(cm_job_get_verify_flags (job) & CM_VERIFY_FLAGS_DESTROY_DATA))
    {
      g_task_return_new_error (task, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NEEDS_CONSENT,
                               _("Formatting erases all of %s and everything on it."), path);
      g_object_unref (task);
      return;
    }
  if (!cm_card_check_not_in_use (path, CM_CARD_USE_FORMAT, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  cm_job_report (job, 0, -1, _("Opening the card"));
  cm_job_open_target_async (device, path, TRUE, cm_job_get_prefer_udisks (job),
                            g_task_get_cancellable (task), opened_cb, task);
}

/* Formatted · FAT32, 32 KiB clusters; or failed when fsck found faults. */
static CmOutcome *
outcome (CmResult *result)
{
  g_autoptr(CmFormatReport) report = cm_format_report_from_json (cm_result_get_format (result), NULL);
  g_autofree char *layout = NULL;
  g_autofree char *answer = NULL;
  CmOutcome *outcome;

  if (report == NULL)
    return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("Not judged"), NULL);
  layout = cm_format_report_dup_layout_text (report);
  if (report->fsck_clean)
    {
      /* Translators: a format's answer; %s is its layout, "FAT32, 32 KiB clusters" */
      answer = g_strdup_printf (_("Formatted · %s"), layout);
      /* Translators: a badge: the card was erased and formatted */
      return cm_outcome_new (CM_OUTCOME_PASS, CM_STATUS_MEETS, _("Formatted"), answer);
    }
  /* Translators: a format's answer when fsck found faults; %s is its layout */
  answer = g_strdup_printf (_("The file system check found faults · %s"), layout);
  /* Translators: a badge: the format did not give a clean file system */
  outcome = cm_outcome_new (CM_OUTCOME_FAIL, CM_STATUS_BELOW, _("Not clean"), answer);
  outcome->exit_status = 1;
  return outcome;
}

/* The layout made and whether the erase took, for History and Compare. */
static void
headline (CmResult  *result,
          GPtrArray *figures)
{
  g_autoptr(CmFormatReport) report = cm_format_report_from_json (cm_result_get_format (result), NULL);

  if (report == NULL)
    return;
  /* Translators: a format's figure: the file system and its clusters */
  cm_summary_add_figure (figures, NULL, CM_DIRECTION_WRITE, _("Layout"), cm_format_report_dup_layout_text (report));
  /* Translators: a format's figure: the size laid out */
  cm_summary_add_figure (figures, NULL, CM_DIRECTION_READ, _("Laid out"), g_format_size (report->used_bytes));
}

const CmJobKind cm_job_kind_format = {
  .name = "format",
  .title = N_("Erase and format"),
  .doing = N_("an erase and format"),
  .writes = TRUE,
  /* Translators: what stopping it does, after "Erase and format of /dev/sdb: " */
  .on_stop = N_("leaves the card erased and perhaps not formatted: format it again"),
  .run = run,
  .outcome = outcome,
  .headline = headline,
};
