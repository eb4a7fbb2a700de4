/* cm-job-format.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Erase and format as a kind of card job: the whole unmounted card,
 * only with leave to destroy its data (the job's consent, asked by the
 * job for a kind that needs a whole card),
 * opened the way every job opens a card, and cm_format_run() in a
 * worker thread. Its document (kind "format") holds the layout made,
 * whether the card honoured the discard, and fsck's word.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "cm-bench.h"
#include "cm-format.h"
#include "cm-history-index.h"
#include "cm-job-format.h"
#include "cm-job-kind.h"
#include "cm-summary.h"
#include "cm-job-open.h"
#include "cm-json.h"
#include "cm-target.h"
#include "cm-test-table.h"
#include "cm-text.h"

/* With a benchmark after it, the format is this share of the progress. */
#define FORMAT_SHARE 0.3
/* The newest documents looked at for a card without a CID serial, whose
 * own are told by their device. */
#define REAL_SIZE_CANDIDATES 16

/* The options, the kind's own (cm-job-format.h). */

struct _CmJobFormatOptions
{
  GObject   parent_instance;

  char     *label;
  guint64   size;
  gboolean  bench;
};

G_DEFINE_FINAL_TYPE (CmJobFormatOptions, cm_job_format_options, G_TYPE_OBJECT)

enum {
  OPT_0,
  OPT_LABEL,
  OPT_SIZE,
  OPT_BENCH,
  N_OPTS
};

static GParamSpec *options_props[N_OPTS];

static void
cm_job_format_options_finalize (GObject *object)
{
  CmJobFormatOptions *self = CM_JOB_FORMAT_OPTIONS (object);

  g_free (self->label);
  G_OBJECT_CLASS (cm_job_format_options_parent_class)->finalize (object);
}

static void
cm_job_format_options_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  CmJobFormatOptions *self = CM_JOB_FORMAT_OPTIONS (object);

  switch (prop_id)
    {
    case OPT_LABEL:
      g_value_set_string (value, self->label);
      break;
    case OPT_SIZE:
      g_value_set_uint64 (value, self->size);
      break;
    case OPT_BENCH:
      g_value_set_boolean (value, self->bench);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_job_format_options_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  CmJobFormatOptions *self = CM_JOB_FORMAT_OPTIONS (object);

  switch (prop_id)
    {
    case OPT_LABEL:
      g_free (self->label);
      self->label = g_value_dup_string (value);
      break;
    case OPT_SIZE:
      self->size = g_value_get_uint64 (value);
      break;
    case OPT_BENCH:
      self->bench = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_job_format_options_class_init (CmJobFormatOptionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = cm_job_format_options_finalize;
  object_class->get_property = cm_job_format_options_get_property;
  object_class->set_property = cm_job_format_options_set_property;

  options_props[OPT_LABEL] = g_param_spec_string ("label", NULL, NULL, NULL, flags);
  /* 0 lays out the whole card; CM_FORMAT_USE_REAL_SIZE its real size. */
  options_props[OPT_SIZE] = g_param_spec_uint64 ("size", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  options_props[OPT_BENCH] = g_param_spec_boolean ("then-bench", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_OPTS, options_props);
}

static void
cm_job_format_options_init (CmJobFormatOptions *self)
{
}

/* The kind. */

/* The speeds a format's document sets side by side: the history index's
 * figures, in its order. */
static const struct
{
  const char *test;
  const char *member;   /* in "bench"."before" */
  const char *label;
  gboolean    iops;
} speeds[] = {
  { CM_TEST_SEQ_WRITE, "seq_write_mb_per_s", N_("Sequential write"), FALSE },
  { CM_TEST_SEQ_READ, "seq_read_mb_per_s", N_("Sequential read"), FALSE },
  { CM_TEST_RAND_WRITE_4K, "rand_write_4k_iops", N_("Random 4K write"), TRUE },
  { CM_TEST_RAND_READ_4K, "rand_read_4k_iops", N_("Random 4K read"), TRUE },
};

/* "12.1 MB/s", "1 520 IOPS" */
static char *
format_speed (double   value,
              gboolean iops)
{
  /* Translators: a speed in megabytes a second */
  return iops ? g_strdup_printf (_("%.0f IOPS"), value) : g_strdup_printf (_("%.1f MB/s"), value);
}

/**
 * cm_format_dup_speed_lines:
 * @result: a format's document
 *
 * What the erase gave back, one line a speed: "Sequential write: 12.1
 * MB/s before, 19.8 MB/s after", the card's last benchmark in the history
 * beside the one made after the erase (the document's tests). Empty
 * when no benchmark ran after it.
 *
 * Returns: (transfer full): the lines
 */
GPtrArray *
cm_format_dup_speed_lines (CmResult *result)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  JsonNode *format;
  JsonObject *bench = NULL;
  JsonObject *before = NULL;

  g_return_val_if_fail (CM_IS_RESULT (result), lines);

  format = cm_result_get_part (result);
  if (format != NULL && JSON_NODE_HOLDS_OBJECT (format))
    {
      JsonNode *node = json_object_get_member (json_node_get_object (format), "bench");

      bench = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
    }
  if (bench == NULL)
    return lines;
  if (json_object_has_member (bench, "before") && JSON_NODE_HOLDS_OBJECT (json_object_get_member (bench, "before")))
    before = json_object_get_object_member (bench, "before");
  for (guint i = 0; i < G_N_ELEMENTS (speeds); i++)
    {
      CmTestResult *test = cm_result_lookup_test (result, speeds[i].test);
      double after = test == NULL ? -1 : speeds[i].iops ? test->iops : test->mb_per_s;
      double then = before != NULL ? json_object_get_double_member_with_default (before, speeds[i].member, -1) : -1;
      g_autofree char *after_text = NULL;
      g_autofree char *then_text = NULL;

      if (after < 0 || !isfinite (after))
        continue;
      after_text = format_speed (after, speeds[i].iops);
      if (then >= 0 && isfinite (then))
        {
          then_text = format_speed (then, speeds[i].iops);
          /* Translators: "Sequential write: 12.1 MB/s before, 19.8 MB/s after" */
          g_ptr_array_add (lines, g_strdup_printf (_("%s: %s before, %s after"),
                                                   g_dgettext (GETTEXT_PACKAGE, speeds[i].label), then_text, after_text));
        }
      else
        /* Translators: "Sequential write: 19.8 MB/s after (no benchmark before)" */
        g_ptr_array_add (lines, g_strdup_printf (_("%s: %s after (no benchmark of the card before)"),
                                                 g_dgettext (GETTEXT_PACKAGE, speeds[i].label), after_text));
    }
  return lines;
}

/**
 * cm_format_find_real_size:
 * @history: where the card's checks are kept
 * @card: (nullable): the card's registers now, where the reader gives
 *   them
 * @device: the card's device now
 * @device_bytes: what the card says it holds
 * @found: (out) (optional) (transfer full): the document the size comes
 *   from, when one does
 * @proof: (out) (optional): what proved that document is of this card
 * @found_whole: (out) (optional): the card's newest check found it
 *   whole: it has no shorter end
 *
 * Where the card's storage that keeps data ends, from its newest
 * capacity check or full verify in the history (the kind's real_size):
 * a fake card's real size. 0 when the newest found it whole, or there is
 * none (or, with @error set, the history's index could not be read).
 * Only a document proven to be of this card counts (cm_card_same():
 * its CID, or it never left its reader since); one of a card that said
 * it held another size is not this card's either.
 */
guint64
cm_format_find_real_size (CmHistory    *history,
                          CmCardInfo   *card,
                          const char   *device,
                          guint64       device_bytes,
                          CmResult    **found,
                          CmCardProof  *proof,
                          gboolean     *found_whole,
                          GError      **error)
{
  const char * const kinds[] = { cm_job_kind_capacity.name, cm_job_kind_verify.name, NULL };
  const char *serial = card != NULL ? cm_card_info_get_serial (card) : NULL;
  g_autoptr(CmHistoryIndex) index = NULL;
  g_autoptr(GPtrArray) entries = NULL;

  g_return_val_if_fail (CM_IS_HISTORY (history), 0);
  g_return_val_if_fail (device != NULL, 0);

  if (found != NULL)
    *found = NULL;
  if (proof != NULL)
    *proof = CM_CARD_PROOF_NONE;
  if (found_whole != NULL)
    *found_whole = FALSE;
  if (serial != NULL && *serial == '\0')
    serial = NULL;
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
      guint64 said = 0;
      guint64 real;
      CmCardProof same;

      if (result == NULL || (same = cm_card_same (result, card, device)) == CM_CARD_PROOF_NONE)
        continue;
      kind = cm_job_kinds_lookup (cm_result_get_kind (result));
      if (kind == NULL || kind->real_size == NULL)
        continue;
      real = kind->real_size (result, &reported, &said);
      if (reported != 0 && reported != device_bytes)
        continue;
      /* The newest check of the card decides: one that found it whole
       * says there is no shorter end. */
      if (real == 0 || real >= device_bytes)
        {
          if (found_whole != NULL)
            *found_whole = TRUE;
          return 0;
        }
      if (found != NULL)
        *found = g_steal_pointer (&result);
      if (proof != NULL)
        *proof = same;
      return real;
    }
  return 0;
}

/**
 * cm_format_get_said_real_size:
 * @found: the document cm_format_find_real_size() took the size from
 *
 * Returns: the real size as @found's own words name it (a capacity
 *   check's "Real size"), at least the size the format lays out; 0 when
 *   @found names none
 */
guint64
cm_format_get_said_real_size (CmResult *found)
{
  const CmJobKind *kind;
  guint64 reported = 0;
  guint64 said = 0;

  g_return_val_if_fail (CM_IS_RESULT (found), 0);

  kind = cm_job_kinds_lookup (cm_result_get_kind (found));
  if (kind == NULL || kind->real_size == NULL)
    return 0;
  return MAX (kind->real_size (found, &reported, &said), said);
}

typedef struct
{
  CmCardInfo *card;
  char       *device;
  guint64     device_bytes;
} RealSizeAsk;

typedef struct
{
  guint64   real;
  CmResult *found;
} RealSize;

static void
real_size_ask_free (RealSizeAsk *ask)
{
  g_clear_object (&ask->card);
  g_free (ask->device);
  g_free (ask);
}

static void
real_size_free (RealSize *size)
{
  g_clear_object (&size->found);
  g_free (size);
}

static void
find_real_size_thread (GTask        *task,
                       gpointer      source,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  RealSizeAsk *ask = task_data;
  RealSize *size = g_new0 (RealSize, 1);
  GError *error = NULL;

  size->real = cm_format_find_real_size (source, ask->card, ask->device, ask->device_bytes, &size->found,
                                         NULL, NULL, &error);
  if (error != NULL)
    {
      real_size_free (size);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, size, (GDestroyNotify) real_size_free);
}

/**
 * cm_format_find_real_size_async:
 *
 * cm_format_find_real_size() in another thread, for an app: a large
 * history's index may take a moment to bring up to date.
 */
void
cm_format_find_real_size_async (CmHistory           *history,
                                CmCardInfo          *card,
                                const char          *device,
                                guint64              device_bytes,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (history, cancellable, callback, user_data);
  RealSizeAsk *ask = g_new0 (RealSizeAsk, 1);

  ask->card = card != NULL ? g_object_ref (card) : NULL;
  ask->device = g_strdup (device);
  ask->device_bytes = device_bytes;
  g_task_set_source_tag (task, cm_format_find_real_size_async);
  g_task_set_task_data (task, ask, (GDestroyNotify) real_size_ask_free);
  g_task_run_in_thread (task, find_real_size_thread);
}

/* As cm_format_find_real_size(): the real size, or 0 (@error set when
 * the history could not be read). */
guint64
cm_format_find_real_size_finish (CmHistory     *history,
                                 GAsyncResult  *result,
                                 CmResult     **found,
                                 GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  RealSize *size = g_task_propagate_pointer (G_TASK (result), &local_error);
  guint64 real;

  g_return_val_if_fail (g_task_is_valid (result, history), 0);

  if (found != NULL)
    *found = NULL;
  if (size == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return 0;
    }
  real = size->real;
  if (found != NULL)
    *found = g_steal_pointer (&size->found);
  real_size_free (size);
  return real;
}

typedef struct
{
  CmJob          *job;
  GMainContext   *context;
  CmTarget       *target;
  CmHistory      *history;
  char           *serial;
  CmCardInfo     *card;        /* its registers, where the reader gives them */
  CmCardProof     size_proof;  /* --size real: what proved its check was of this card */
  char           *label;
  guint64         use_bytes;
  guint64         au_bytes;
  GDateTime      *started;
  CmFormatReport *report;
  gboolean        bench;       /* a benchmark after it */
  JsonNode       *before;      /* the card's last benchmark, or NULL */
  double          share;       /* of the progress, the format's */
  gboolean        through_udisks; /* not root: UDisks makes the file system */
} FormatJob;

static void
format_job_clear (FormatJob *f)
{
  g_clear_object (&f->job);
  g_clear_pointer (&f->context, g_main_context_unref);
  g_clear_object (&f->target);
  g_clear_object (&f->history);
  g_free (f->serial);
  g_clear_object (&f->card);
  g_free (f->label);
  g_clear_pointer (&f->started, g_date_time_unref);
  g_clear_pointer (&f->report, cm_format_report_free);
  g_clear_pointer (&f->before, json_node_unref);
}

static void
format_job_release (FormatJob *f)
{
  g_atomic_rc_box_release_full (f, (GDestroyNotify) format_job_clear);
}

typedef struct
{
  CmJob  *job;
  char   *phase;
  double  fraction;
  double  seconds_left;
} Report;

static gboolean
report_in_job (gpointer data)
{
  Report *r = data;

  cm_job_report (r->job, r->fraction, r->seconds_left, r->phase);
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
             double      seconds_left,
             gpointer    user_data)
{
  FormatJob *f = user_data;
  Report *r = g_new0 (Report, 1);

  r->job = g_object_ref (f->job);
  r->phase = g_strdup (phase);
  r->fraction = fraction * f->share;
  r->seconds_left = seconds_left;
  g_main_context_invoke_full (f->context, G_PRIORITY_DEFAULT, report_in_job, r, report_free);
}

/* In the worker: the card's last benchmark in the history, its figures
 * as the index has them, or NULL. A card without a CID serial is told
 * by its device. */
static JsonNode *
find_before (FormatJob *f)
{
  const char * const kinds[] = { cm_job_kind_bench.name, NULL };
  const char *device = cm_target_get_path (f->target);
  g_autoptr(CmHistoryIndex) index = NULL;
  g_autoptr(GPtrArray) entries = NULL;

  if (f->history == NULL || (index = cm_history_index_open (cm_history_get_folder (f->history), NULL)) == NULL ||
      !cm_history_index_refresh (index, NULL))
    return NULL;
  entries = cm_history_index_query_kinds (index, f->serial, kinds, REAL_SIZE_CANDIDATES);
  for (guint i = 0; i < entries->len; i++)
    {
      CmHistoryEntry *entry = g_ptr_array_index (entries, i);
      g_autoptr(JsonBuilder) builder = NULL;
      g_autoptr(GDateTime) started = NULL;

      {
        g_autoptr(GFile) file = g_file_new_for_path (entry->path);
        g_autoptr(CmResult) result = cm_result_new_from_file (file, NULL);

        if (result == NULL || cm_card_same (result, f->card, device) == CM_CARD_PROOF_NONE)
          continue;
      }
      builder = json_builder_new ();
      json_builder_begin_object (builder);
      started = entry->started > 0 ? g_date_time_new_from_unix_utc (entry->started) : NULL;
      if (started != NULL)
        {
          g_autofree char *iso = g_date_time_format_iso8601 (started);

          cm_json_add_string (builder, "started", iso);
        }
      for (guint k = 0; k < G_N_ELEMENTS (speeds); k++)
        if (entry->figures[k] >= 0)
          cm_json_add_double (builder, speeds[k].member, entry->figures[k]);
      json_builder_end_object (builder);
      return json_builder_get_root (builder);
    }
  return NULL;
}

/* In the worker, before the card is written to: the real size its last
 * check found, or why it is not known. */
static gboolean
resolve_real_size (FormatJob  *f,
                   GError    **error)
{
  const char *device = cm_target_get_path (f->target);
  GError *local = NULL;
  gboolean whole = FALSE;

  f->use_bytes = f->history != NULL
                 ? cm_format_find_real_size (f->history, f->card, device, cm_target_get_size (f->target), NULL,
                                             &f->size_proof, &whole, &local)
                 : 0;
  if (f->use_bytes > 0)
    return TRUE;
  if (local != NULL)
    {
      g_propagate_prefixed_error (error, local, _("The history could not be read for the card's real size: "));
      return FALSE;
    }
  if (whole)
    g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                 _("The newest capacity check or full verify of the card in %s found it whole: all of it keeps data, "
                   "so it has no smaller real size. Format it without --size."), device);
  else
    g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                 _("Nothing in the history is proven to be of the card in %s now (the same CID, or a card that never "
                   "left its reader since its check), so its real size is not known. Check its capacity now, or give "
                   "--size with a number."), device);
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
                             f->through_udisks, progress_cb, f, cancellable, &error);
  if (f->report != NULL && f->size_proof != CM_CARD_PROOF_NONE)
    f->report->size_proof = g_strdup (cm_card_proof_to_string (f->size_proof));
  if (f->report != NULL && f->bench)
    f->before = find_before (f);
  if (f->report == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* With a benchmark after the format: @bench's tests are the document's,
 * and the format member's "bench" holds the card's last one before. */
static CmResult *
make_result (FormatJob    *f,
             CmResult     *bench,
             const GError *bench_error)
{
  CmResult *result = cm_result_new ();
  const char *device = cm_target_get_path (f->target);
  g_autoptr(JsonNode) node = cm_format_report_to_json (f->report);
  g_autofree char *layout = cm_format_report_dup_layout_text (f->report);
  g_autofree char *summary = NULL;

  cm_result_set_started (result, f->started);
  cm_result_set_profile (result, "format");
  cm_result_set_target (result, device, "raw-write", device, NULL);
  cm_result_set_direct_io (result, TRUE);
  cm_result_set_area_bytes (result, f->report->used_bytes);
  if (bench != NULL || bench_error != NULL)
    {
      JsonObject *member = json_object_new ();

      json_object_set_member (member, "before", f->before != NULL ? json_node_copy (f->before) : json_node_new (JSON_NODE_NULL));
      if (bench_error != NULL)
        {
          g_autofree char *message = cm_text_dup_clean (bench_error->message, 500);

          json_object_set_string_member (member, "error", message);
        }
      json_object_set_object_member (json_node_get_object (node), "bench", member);
    }
  while (bench != NULL && cm_result_get_tests (bench)->len > 0)
    cm_result_take_test (result, g_ptr_array_steal_index (cm_result_get_tests (bench), 0));
  cm_result_set_part (result, node);
  if (!f->report->fsck_ran)
    /* Translators: a format's summary when nothing could check the new file system; the first %s is the device, the second the layout */
    summary = g_strdup_printf (_("%s is formatted: %s, one partition aligned to the card; its file system was not checked."),
                               device, layout);
  else if (f->report->fsck_clean)
    /* Translators: a format's summary; the first %s is the device, the second the layout */
    summary = g_strdup_printf (_("%s is formatted: %s, one partition aligned to the card."), device, layout);
  else
    /* Translators: a format's summary; %s is the device */
    summary = g_strdup_printf (_("%s was formatted, but the file system check found faults in it."), device);
  cm_result_set_summary (result, summary);
  /* The discard is said from the report by each face (the app's Erase
   * row, the CLI's Discard line): a note as well said it twice. */
  if (f->report->used_bytes < f->report->device_bytes)
    {
      g_autofree char *used = g_format_size (f->report->used_bytes);
      g_autofree char *says = g_format_size (f->report->device_bytes);
      g_autofree char *note = g_strdup_printf (_("The partition ends where the card's storage does: %s of the %s it reports."),
                                               used, says);

      cm_result_add_note (result, note);
    }
  {
    g_autofree char *choice = cm_format_report_dup_choice_text (f->report);

    if (choice != NULL)
      cm_result_add_note (result, choice);
  }
  if (!f->report->fsck_ran)
    {
      /* Translators: %s says why, "UDisks cannot check exfat file systems on this computer" */
      g_autofree char *note = g_strdup_printf (_("The new file system was not checked: %s. Check it on a computer "
                                                 "where you are root (fsck -n on the partition) before trusting it "
                                                 "with data."), f->report->fsck_output);

      cm_result_add_note (result, note);
    }
  else if (!f->report->fsck_clean && f->report->fsck_output != NULL)
    cm_result_add_note (result, f->report->fsck_output);
  if (bench_error != NULL)
    {
      g_autofree char *note = g_strdup_printf (_("The benchmark after the erase did not finish: %s"), bench_error->message);

      cm_result_add_note (result, note);
    }
  return result;
}

/* The benchmark after the format. */

static void
bench_progress_cb (CmRunner  *runner,
                   double     fraction,
                   double     seconds_left,
                   FormatJob *f)
{
  cm_job_report (f->job, f->share + (1 - f->share) * fraction, seconds_left, NULL);
}

static void
bench_test_started_cb (CmRunner   *runner,
                       guint       index,
                       const char *name,
                       FormatJob  *f)
{
  const char *label = cm_test_table_get_label (name);
  /* Translators: a phase of a format with --bench; %s is a test, "Sequential write" */
  g_autofree char *phase = g_strdup_printf (_("Speed after the erase: %s"),
                                            label != NULL ? g_dgettext (GETTEXT_PACKAGE, label) : name);

  cm_job_report (f->job, cm_job_get_progress (f->job), cm_job_get_seconds_left (f->job), phase);
}

static void
bench_started_cb (CmBench   *bench,
                  CmRunner  *runner,
                  FormatJob *f)
{
  g_signal_connect_data (runner, "progress", G_CALLBACK (bench_progress_cb), g_atomic_rc_box_acquire (f),
                         (GClosureNotify) (void (*) (void)) format_job_release, 0);
  g_signal_connect_data (runner, "test-started", G_CALLBACK (bench_test_started_cb), g_atomic_rc_box_acquire (f),
                         (GClosureNotify) (void (*) (void)) format_job_release, 0);
}

typedef struct
{
  GTask     *outer;
  FormatJob *f;
  guint      tries;
} BenchRun;

/* Just after mkfs and fsck, udev probes the new file system and holds
 * the card for a moment: a benchmark that finds it busy then is tried
 * again, a bounded number of times, half a second apart. */
#define BENCH_BUSY_TRIES 20
#define BENCH_BUSY_WAIT_MS 500

static void start_bench (FormatJob *f,
                         GTask     *outer,
                         guint      tries);

static gboolean
bench_again_cb (gpointer data)
{
  BenchRun *run = data;

  start_bench (run->f, run->outer, run->tries + 1);
  format_job_release (run->f);
  g_free (run);
  return G_SOURCE_REMOVE;
}

static void
bench_done_cb (GObject      *object,
               GAsyncResult *res,
               gpointer      user_data)
{
  BenchRun *run = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) bench = cm_bench_run_finish (CM_BENCH (object), res, &error);

  if (bench == NULL && g_error_matches (error, CM_TARGET_ERROR, CM_TARGET_ERROR_MOUNTED) &&
      run->tries < BENCH_BUSY_TRIES && !g_cancellable_is_cancelled (g_task_get_cancellable (run->outer)))
    {
      g_timeout_add (BENCH_BUSY_WAIT_MS, bench_again_cb, run);
      return;
    }
  if (g_cancellable_is_cancelled (g_task_get_cancellable (run->outer)))
    /* Stopped in the benchmark: the job stops, as any that is stopped
     * before its end, saying the card is formatted. */
    g_task_return_new_error (run->outer, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s",
                             _("The card is formatted, but the benchmark after the format was stopped before it "
                               "ended. Run a benchmark to measure the card."));
  else
    g_task_return_pointer (run->outer, make_result (run->f, bench, bench == NULL ? error : NULL), g_object_unref);
  g_object_unref (run->outer);
  format_job_release (run->f);
  g_free (run);
}

/* A quick benchmark of the card as the bench kind makes it (raw, what
 * it writes put back), now that the file system is made. */
static void
start_bench (FormatJob *f,
             GTask     *outer,
             guint      tries)
{
  CmJob *job = f->job;
  CmDevice *device = cm_job_get_device (job);
  g_autoptr(CmBench) bench = NULL;
  BenchRun *run = g_new0 (BenchRun, 1);

  if (device != NULL)
    bench = cm_bench_new_for_device (device, CM_METHOD_RAW_WRITE);
  else
    bench = cm_bench_new_for_path (cm_target_get_path (f->target), TRUE, TRUE);
  cm_bench_set_card (bench, cm_job_get_card (job));
  cm_bench_set_profile (bench, CM_PROFILE_QUICK);
  cm_bench_set_prefer_udisks (bench, cm_job_get_prefer_udisks (job));
  g_signal_connect_data (bench, "started", G_CALLBACK (bench_started_cb), g_atomic_rc_box_acquire (f),
                         (GClosureNotify) (void (*) (void)) format_job_release, 0);
  cm_job_report (job, f->share, -1, _("Measuring the card's speed after the erase"));
  run->outer = outer;
  run->tries = tries;
  run->f = g_atomic_rc_box_acquire (f);
  cm_bench_run_async (bench, g_task_get_cancellable (outer), bench_done_cb, run);
}

/* After the table is written and the card let go of: the result, or
 * the benchmark first. */
static void
finish (FormatJob *f,
        GTask     *outer)
{
  /* A file system nothing could check is measured too: the benchmark
   * writes only what it puts back. */
  if (f->bench && (f->report->fsck_clean || !f->report->fsck_ran))
    {
      start_bench (f, outer, 0);
      return;
    }
  g_task_return_pointer (outer, make_result (f, NULL, NULL), g_object_unref);
  g_object_unref (outer);
}

typedef struct
{
  GTask     *outer;
  FormatJob *f;
} Rescan;

static void
rescanned_cb (GObject      *object,
              GAsyncResult *res,
              gpointer      user_data)
{
  Rescan *rescan = user_data;
  g_autoptr(GError) error = NULL;

  /* Where the kernel cannot read the table (or polkit says no), the
   * card shows its partition once it is put in again: nothing is lost. */
  if (!udisks_block_call_rescan_finish (UDISKS_BLOCK (object), res, &error))
    g_debug ("UDisks did not rescan the card: %s", error->message);
  finish (rescan->f, rescan->outer);
  format_job_release (rescan->f);
  g_free (rescan);
}

static void
done_cb (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  GTask *outer = user_data;
  FormatJob *f = g_task_get_task_data (G_TASK (res));
  CmDevice *device = cm_job_get_device (f->job);
  GError *error = NULL;

  cm_target_close (f->target);
  if (!g_task_propagate_boolean (G_TASK (res), &error))
    {
      g_task_return_error (outer, error);
      g_object_unref (outer);
      return;
    }
  /* Made through UDisks, the kernel still knows the card's old table:
   * UDisks (as root) has it read the new one, now that the card is let
   * go of, so the partition shows without taking the card out. */
  if (f->through_udisks && device != NULL)
    {
      g_autoptr(UDisksBlock) block = udisks_object_get_block (cm_device_get_object (device));

      if (block != NULL)
        {
          Rescan *rescan = g_new0 (Rescan, 1);
          GVariantBuilder options;

          rescan->outer = outer;
          rescan->f = g_atomic_rc_box_acquire (f);
          g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
          udisks_block_call_rescan (block, g_variant_builder_end (&options), NULL, rescanned_cb, rescan);
          return;
        }
    }
  finish (f, outer);
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
  CmJobFormatOptions *options = cm_job_get_options (job);
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

  f = g_atomic_rc_box_new0 (FormatJob);
  f->job = g_object_ref (job);
  f->context = g_main_context_ref_thread_default ();
  f->target = target;
  f->label = g_strdup (options->label);
  f->use_bytes = options->size;
  f->history = cm_job_get_history (job) != NULL ? g_object_ref (cm_job_get_history (job)) : NULL;
  f->serial = card != NULL ? g_strdup (cm_card_info_get_serial (card)) : NULL;
  f->card = card != NULL ? g_object_ref (card) : NULL;
  f->au_bytes = card != NULL ? cm_card_info_get_au_size_bytes (card) : 0;
  f->started = g_date_time_new_now_utc ();
  f->bench = options->bench;
  f->share = f->bench ? FORMAT_SHARE : 1;
  f->through_udisks = cm_format_needs_udisks ();

  worker = g_task_new (job, g_task_get_cancellable (task), done_cb, task);
  /* Stopped, cm_format_run() says in what state it left the card. */
  g_task_set_check_cancellable (worker, FALSE);
  g_task_set_task_data (worker, f, (GDestroyNotify) format_job_release);
  g_task_run_in_thread (worker, thread_func);
}

static void
run (CmJob *job,
     GTask *task)
{
  CmDevice *device = cm_job_get_device (job);
  const char *path = cm_job_get_device_path (job);

  /* A whole card nothing uses or holds open, and the leave to destroy
   * its data: the job checked them (CM_JOB_KIND_NEEDS_WHOLE_CARD). */
  cm_job_report (job, 0, -1, _("Opening the card"));
  cm_job_open_target_async (device, path, TRUE, cm_job_get_prefer_udisks (job),
                            g_task_get_cancellable (task), opened_cb, task);
}

/* Formatted · FAT32, 32 KiB clusters; or failed when fsck found faults. */
static CmOutcome *
outcome (CmResult *result)
{
  g_autoptr(CmFormatReport) report = cm_format_report_from_json (cm_result_get_part (result), NULL);
  g_autofree char *layout = NULL;
  g_autofree char *answer = NULL;
  CmOutcome *outcome;

  if (report == NULL)
    return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("Not judged"), NULL);
  layout = cm_format_report_dup_layout_text (report);
  if (!report->fsck_ran)
    {
      /* Translators: a format's answer when nothing could check the new file system; %s is its layout */
      answer = g_strdup_printf (_("Formatted, not checked · %s"), layout);
      /* Translators: a badge: the card was formatted, but nothing checked its file system */
      return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("Not checked"), answer);
    }
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
  g_autoptr(CmFormatReport) report = cm_format_report_from_json (cm_result_get_part (result), NULL);

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
  .says_stop = TRUE,
  .run = run,
  .outcome = outcome,
  .headline = headline,
  .needs = CM_JOB_KIND_NEEDS_WHOLE_CARD,
  /* Translators: %s is the card's device */
  .consent = N_("Formatting erases all of %s and everything on it."),
  .options_type = cm_job_format_options_get_type,
};
