/* cm-job-queue.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The queue check as a kind of card job: is the kernel queueing commands
 * to this card, and is that safe? It reads what is (cm-queue-host.c),
 * then for some minutes writes self-checking 4 KiB blocks at a deep
 * queue, mixed with reads, flushes and discards, and reads every block
 * back (cm-queue-check.c), while the kernel log is read for the host's
 * recoveries and errors (cm-queue-kmsg.c). On a card the kernel does not
 * queue for (a USB reader, a loop device) the same check runs as a data
 * check under a deep queue, and says queueing was not on.
 *
 * Its part of the document is the member "queue" (docs/result-format.md),
 * read back as hostile: every member is checked for its type and bounds.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "cm-job-open.h"
#include "cm-job-kind.h"
#include "cm-json.h"
#include "cm-queue-check.h"
#include "cm-queue-host.h"
#include "cm-queue-kmsg.h"
#include "cm-queue-options.h"
#include "cm-summary.h"
#include "cm-target.h"
#include "cm-text.h"
#include "cm-job-queue.h"

/* Events a document keeps with their times; the rest are counted. */
#define MAX_KEPT_EVENTS 1000

typedef struct
{
  CmJob              *job;
  GMainContext       *context;
  CmTarget           *target;
  char               *path;
  char               *block;
  CmQueueHost        *host;
  gboolean            native;
  double              minutes;
  guint64             area;
  guint               depth;
  CmQueueCheckReport  report;
  GArray             *events;
  const char         *kernel_log;
} Queue;

static void
queue_free (Queue *q)
{
  g_clear_object (&q->job);
  g_main_context_unref (q->context);
  g_clear_object (&q->target);
  g_free (q->path);
  g_free (q->block);
  g_clear_pointer (&q->host, cm_queue_host_free);
  g_clear_pointer (&q->events, g_array_unref);
  g_free (q);
}

static const char * const host_kinds[] = { "other", "raspberry-pi", "pi5" };
static const char * const listings[] = { "unknown", "neither", "allowed", "denied" };

/* The facts a document keeps, read back from its part. */
typedef struct
{
  CmQueueHost host;
  gboolean    native;
  gboolean    queueing;
  guint       depth;
  guint64     writes;
  guint64     reads;
  guint64     flushes;
  guint64     discards;
  guint64     blocks_checked;
  guint64     bad_blocks;
  double      iops_depth_1;
  double      iops_deep;
  guint64     counts[CM_QUEUE_N_EVENTS];
  guint64     named[CM_QUEUE_CHECK_MAX_NAMED];
  guint       n_named;
} Facts;

/* Progress, from the check's thread to the job's. */
typedef struct
{
  CmJob             *job;
  CmQueueCheckPhase  phase;
  double             fraction;
  double             seconds_left;
} Progress;

static gboolean
report_cb (gpointer data)
{
  Progress *p = data;
  const char *phase;

  switch (p->phase)
    {
    case CM_QUEUE_CHECK_PHASE_DEPTH_1:
      /* Translators: the queue check's phase */
      phase = _("Writing and reading at depth 1");
      break;
    case CM_QUEUE_CHECK_PHASE_DEEP:
      /* Translators: the queue check's phase */
      phase = _("Writing and reading at a deep queue");
      break;
    case CM_QUEUE_CHECK_PHASE_READ_BACK:
    default:
      phase = _("Reading back");
      break;
    }
  cm_job_report (p->job, p->fraction, p->seconds_left, phase);
  g_object_unref (p->job);
  g_free (p);
  return G_SOURCE_REMOVE;
}

static void
progress_cb (CmQueueCheckPhase phase,
             double            fraction,
             double            seconds_left,
             gpointer          user_data)
{
  Queue *q = user_data;
  Progress *p = g_new0 (Progress, 1);

  p->job = g_object_ref (q->job);
  p->phase = phase;
  p->fraction = CLAMP (fraction, 0, 1);
  p->seconds_left = seconds_left;
  g_main_context_invoke (q->context, report_cb, p);
}

static void
check_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Queue *q = task_data;
  g_autofree char *mmc_host = cm_queue_kmsg_host_of (q->block);
  guint64 size = cm_target_get_size (q->target);
  CmQueueCheckSpec spec = {
    .fd = cm_target_get_fd (q->target),
    .area_bytes = MIN (q->area, size) / CM_QUEUE_CHECK_BLOCK * CM_QUEUE_CHECK_BLOCK,
    .seconds = q->minutes * 60,
    .depth = q->depth,
    .cancellable = cancellable,
    .progress = progress_cb,
    .user_data = q,
  };
  CmQueueKmsg *kmsg;
  GError *error = NULL;
  gboolean ok;

  q->native = mmc_host != NULL;
  q->host = cm_queue_host_read (q->block);
  q->area = spec.area_bytes;
  if (spec.area_bytes < 64 * CM_QUEUE_CHECK_BLOCK)
    {
      g_task_return_new_error (task, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                               _("%s is too small for the queue check, which needs 256 KiB."), q->path);
      return;
    }
  kmsg = cm_queue_kmsg_start (mmc_host, q->block);
  ok = cm_queue_check_run (&spec, &q->report, &error);
  q->kernel_log = cm_queue_kmsg_get_source (kmsg);
  q->events = cm_queue_kmsg_stop (kmsg);
  if (!ok)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static JsonNode *
host_to_json (const CmQueueHost *host)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  cm_json_add_string (b, "kind", host_kinds[host->kind]);
  cm_json_add_string (b, "model", host->model);
  if (host->sd_cqe >= 0)
    cm_json_add_int (b, "sd_cqe", host->sd_cqe);
  cm_json_add_string (b, "slot", cm_queueing_to_string (host->slot) ?: "unknown");
  cm_json_add_string (b, "now", cm_queueing_to_string (host->now) ?: "unknown");
  cm_json_add_int (b, "queue_depth", host->queue_depth);
  cm_json_add_string (b, "listing", listings[host->listing]);
  cm_json_add_string (b, "listed_by", host->listed_by);
  cm_json_add_string (b, "table_kernel", cm_cqe_quirks_kernel ());
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static JsonNode *
part_to_json (Queue *q)
{
  const CmQueueCheckReport *r = &q->report;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint64 counts[CM_QUEUE_N_EVENTS] = { 0 };

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "host");
  json_builder_add_value (b, host_to_json (q->host));
  cm_json_add_boolean (b, "native", q->native);
  cm_json_add_boolean (b, "queueing", q->native && q->host->now == CM_QUEUEING_YES);
  cm_json_add_double (b, "minutes", q->minutes);
  cm_json_add_int (b, "area_bytes", q->area);
  cm_json_add_int (b, "depth", q->depth);
  cm_json_add_int (b, "writes", r->writes);
  cm_json_add_int (b, "reads", r->reads);
  cm_json_add_int (b, "flushes", r->flushes);
  cm_json_add_int (b, "discards", r->discards);
  cm_json_add_int (b, "discards_refused", r->discards_refused);
  cm_json_add_double (b, "iops_depth_1", r->iops_depth_1);
  if (q->depth > 1)
    cm_json_add_double (b, "iops_deep", r->iops_deep);
  cm_json_add_int (b, "blocks_checked", r->blocks_checked);
  cm_json_add_int (b, "bad_blocks", r->bad_blocks);
  cm_json_add_int (b, "bad_during", r->bad_during);
  json_builder_set_member_name (b, "bad_offsets");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->n_named; i++)
    json_builder_add_int_value (b, r->named[i]);
  json_builder_end_array (b);
  cm_json_add_string (b, "kernel_log", q->kernel_log);
  json_builder_set_member_name (b, "events");
  json_builder_begin_array (b);
  for (guint i = 0; i < q->events->len; i++)
    {
      const CmQueueEventAt *e = &g_array_index (q->events, CmQueueEventAt, i);

      counts[e->event]++;
      if (i >= MAX_KEPT_EVENTS)
        continue;
      json_builder_begin_object (b);
      cm_json_add_string (b, "event", cm_queue_event_to_string (e->event));
      if (e->at >= 0)
        cm_json_add_double (b, "at", e->at);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "counts");
  json_builder_begin_object (b);
  for (guint i = 0; i < CM_QUEUE_N_EVENTS; i++)
    cm_json_add_int (b, cm_queue_event_to_string (i), counts[i]);
  json_builder_end_object (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
done_cb (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Queue *q = g_task_get_task_data (G_TASK (res));
  g_autoptr(JsonNode) part = NULL;
  CmResult *result;
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (res), &error))
    {
      g_task_return_error (task, error);
      return;
    }
  result = cm_result_new ();
  cm_result_set_profile (result, "queue");
  cm_result_set_target (result, q->path, "raw-write", q->path, NULL);
  part = part_to_json (q);
  cm_result_set_part (result, part);
  g_task_return_pointer (task, result, g_object_unref);
}

static void
opened_cb (GObject      *object,
           GAsyncResult *res,
           gpointer      user_data)
{
  GTask *task = user_data;
  Queue *q = g_object_steal_data (G_OBJECT (task), "queue");
  g_autoptr(GTask) worker = NULL;
  GError *error = NULL;

  q->target = cm_job_open_target_finish (res, &error);
  if (q->target == NULL || cm_target_get_write_protected (q->target))
    {
      if (error == NULL)
        error = g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_READ_ONLY,
                             _("%s is write-protected, so it cannot be checked. Slide the card's lock switch up, or use another card."),
                             q->path);
      queue_free (q);
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  worker = g_task_new (q->job, g_task_get_cancellable (task), done_cb, task);
  g_task_set_task_data (worker, q, (GDestroyNotify) queue_free);
  g_task_run_in_thread (worker, check_thread);
}

static void
run (CmJob *job,
     GTask *task)
{
  CmQueueOptions *options = cm_job_get_options (job);
  Queue *q = g_new0 (Queue, 1);

  q->job = g_object_ref (job);
  q->context = g_main_context_ref_thread_default ();
  q->path = g_strdup (cm_job_get_device_path (job));
  q->block = g_path_get_basename (q->path);
  q->minutes = cm_queue_options_get_minutes (options);
  q->area = cm_queue_options_get_area (options);
  q->depth = cm_queue_options_get_depth (options);

  cm_job_report (job, 0, -1, _("Opening the card"));
  g_object_set_data (G_OBJECT (task), "queue", q);
  cm_job_open_target_async (cm_job_get_device (job), q->path, TRUE, cm_job_get_prefer_udisks (job),
                            g_task_get_cancellable (task), opened_cb, task);
}

/* Reading the part back: every member checked, anything else ignored. */

static guint64
get_count (JsonObject *object,
           const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return 0;
  return (guint64) MAX (json_node_get_int (node), 0);
}

static double
get_double (JsonObject *object,
            const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;
  double value;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      (json_node_get_value_type (node) != G_TYPE_DOUBLE && json_node_get_value_type (node) != G_TYPE_INT64))
    return 0;
  value = json_node_get_double (node);
  return isfinite (value) && value > 0 ? value : 0;
}

static gboolean
get_boolean (JsonObject *object,
             const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
         json_node_get_boolean (node);
}

static guint
get_word (JsonObject         *object,
          const char         *name,
          const char * const *words,
          guint               n_words)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;
  const char *text;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return 0;
  text = json_node_get_string (node);
  for (guint i = 0; i < n_words; i++)
    if (g_strcmp0 (text, words[i]) == 0)
      return i;
  return 0;
}

static void
host_from_json (JsonObject  *object,
                CmQueueHost *host)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, "now") : NULL;

  host->kind = get_word (object, "kind", host_kinds, G_N_ELEMENTS (host_kinds));
  host->listing = get_word (object, "listing", listings, G_N_ELEMENTS (listings));
  host->sd_cqe = object != NULL && json_object_has_member (object, "sd_cqe") ?
                 (int) MIN (get_count (object, "sd_cqe"), 2) : -1;
  host->now = CM_QUEUEING_UNKNOWN;
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    cm_queueing_from_string (json_node_get_string (node), &host->now);
  node = object != NULL ? json_object_get_member (object, "slot") : NULL;
  host->slot = CM_QUEUEING_UNKNOWN;
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    cm_queueing_from_string (json_node_get_string (node), &host->slot);
  host->queue_depth = (guint) MIN (get_count (object, "queue_depth"), G_MAXUINT);
}

static gboolean
facts_read (CmResult *result,
            Facts    *f)
{
  JsonNode *part = cm_result_get_part (result);
  JsonObject *object, *counts, *host;
  JsonNode *node;

  memset (f, 0, sizeof *f);
  if (part == NULL || !JSON_NODE_HOLDS_OBJECT (part))
    return FALSE;
  object = json_node_get_object (part);
  if (!json_object_has_member (object, "blocks_checked"))
    return FALSE;
  node = json_object_get_member (object, "host");
  host = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  host_from_json (host, &f->host);
  node = json_object_get_member (object, "counts");
  counts = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

  f->native = get_boolean (object, "native");
  f->queueing = get_boolean (object, "queueing");
  f->depth = (guint) CLAMP (get_count (object, "depth"), 1, 32);
  f->writes = get_count (object, "writes");
  f->reads = get_count (object, "reads");
  f->flushes = get_count (object, "flushes");
  f->discards = get_count (object, "discards");
  f->blocks_checked = get_count (object, "blocks_checked");
  f->bad_blocks = get_count (object, "bad_blocks");
  f->iops_depth_1 = get_double (object, "iops_depth_1");
  f->iops_deep = get_double (object, "iops_deep");
  for (guint i = 0; i < CM_QUEUE_N_EVENTS; i++)
    f->counts[i] = get_count (counts, cm_queue_event_to_string (i));
  node = json_object_get_member (object, "bad_offsets");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array) && f->n_named < CM_QUEUE_CHECK_MAX_NAMED; i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_INT64 &&
              json_node_get_int (element) >= 0)
            f->named[f->n_named++] = json_node_get_int (element);
        }
    }
  return TRUE;
}

static guint64
trouble (const Facts *f)
{
  guint64 n = 0;

  for (guint i = 0; i < CM_QUEUE_N_EVENTS; i++)
    n += f->counts[i];
  return n;
}

static char *
dup_count (guint64 n)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, n);
}

static CmOutcome *
outcome (CmResult *result)
{
  Facts f;
  g_autofree char *answer = NULL;
  g_autofree char *bad = NULL;
  g_autofree char *writes = NULL;
  g_autofree char *recoveries = NULL;
  g_autofree char *n = NULL;
  CmOutcome *outcome;
  guint64 n_trouble;

  if (!facts_read (result, &f))
    return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("Not judged"), NULL);
  n_trouble = trouble (&f);
  bad = dup_count (f.bad_blocks);
  writes = dup_count (f.writes);
  n = dup_count (n_trouble);
  /* Translators: the kernel log's trouble during a queue check; %s is a count */
  recoveries = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s recovery or error", "%s recoveries or errors",
                                             n_trouble), n);
  if (f.bad_blocks > 0 && f.queueing)
    /* Translators: the queue check's answer; the first %s is "14 recoveries or errors", the second a count of blocks */
    answer = g_strdup_printf (_("Queueing on, not safe · %s, %s blocks read back wrong · turn it off: dtparam=sd_cqe=0"),
                              recoveries, bad);
  else if (f.bad_blocks > 0 && f.depth == 1)
    /* Translators: the queue check's answer; %s is a count of blocks */
    answer = g_strdup_printf (_("Queueing was not on · %s blocks read back wrong at depth 1"), bad);
  else if (f.bad_blocks > 0)
    /* Translators: the queue check's answer; %s is a count of blocks */
    answer = g_strdup_printf (_("Queueing was not on · %s blocks read back wrong under a deep queue"), bad);
  if (answer != NULL)
    {
      /* Translators: a badge: the card did not give back what was written */
      outcome = cm_outcome_new (CM_OUTCOME_FAIL, CM_STATUS_BELOW, _("Data lost"), answer);
      outcome->exit_status = 4;
      return outcome;
    }
  if (f.queueing && n_trouble > 0)
    {
      /* Translators: the queue check's answer; %s is "14 recoveries or errors" */
      answer = g_strdup_printf (_("Queueing on, not safe · %s, every block held · turn it off: dtparam=sd_cqe=0"),
                                recoveries);
      /* Translators: a badge: queueing commands to this card is not safe */
      return cm_outcome_new (CM_OUTCOME_FAIL, CM_STATUS_BELOW, _("Not safe"), answer);
    }
  if (f.queueing)
    {
      /* Translators: the queue check's answer; %s is a count of writes, %.1f how many times */
      answer = g_strdup_printf (_("Queueing on, safe so far · held every block through %s queued writes, no recovery · %.1f× the random I/O at depth 1"),
                                writes, f.iops_depth_1 > 0 ? f.iops_deep / f.iops_depth_1 : 0);
      /* Translators: a badge: queueing held every block, so far */
      return cm_outcome_new (CM_OUTCOME_PASS, CM_STATUS_MEETS, _("Safe so far"), answer);
    }
  if (f.native && f.host.kind == CM_QUEUE_HOST_PI5)
    {
      answer = cm_queue_host_describe (&f.host);
      /* Translators: a badge: the kernel did not queue commands to this card */
      return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("Queueing off"), answer);
    }
  if (f.depth == 1)
    /* Translators: the queue check's answer at depth 1 only; %s is a count of writes */
    answer = g_strdup_printf (_("Queueing was not on · every block held at depth 1, through %s writes"), writes);
  else
    /* Translators: the queue check's answer on a host that cannot queue; %s is a count of writes */
    answer = g_strdup_printf (_("Queueing was not on · every block held under a deep queue, through %s writes"), writes);
  /* Translators: a badge: every block came back */
  return cm_outcome_new (CM_OUTCOME_PASS, CM_STATUS_MEETS, _("Intact"), answer);
}

static void
headline (CmResult  *result,
          GPtrArray *figures)
{
  Facts f;

  if (!facts_read (result, &f))
    return;
  /* Translators: the queue check's figure: random 4K I/O with no queue */
  cm_summary_add_figure (figures, NULL, CM_DIRECTION_WRITE, _("Depth 1"), cm_summary_format_rate (f.iops_depth_1, "IOPS"));
  if (f.iops_deep > 0)
    /* Translators: the queue check's figure: random 4K I/O at a deep queue */
    cm_summary_add_figure (figures, NULL, CM_DIRECTION_WRITE, _("Deep queue"), cm_summary_format_rate (f.iops_deep, "IOPS"));
  /* Translators: the queue check's figure: blocks that read back wrong */
  cm_summary_add_figure (figures, NULL, CM_DIRECTION_READ, _("Read back wrong"), dup_count (f.bad_blocks));
}

/**
 * cm_job_queue_dup_lines:
 *
 * What a queue check found, line by line, in the reader's language: the
 * CLI's report. Empty for a document without the part.
 */
GPtrArray *
cm_job_queue_dup_lines (CmResult *result)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *said = NULL;
  Facts f;

  g_return_val_if_fail (CM_IS_RESULT (result), lines);

  if (!facts_read (result, &f))
    return lines;
  /* A card on no MMC host: a USB reader, a loop device. */
  said = f.native ? cm_queue_host_describe (&f.host)
                  : g_strdup (_("a reader or device that does not queue commands to SD cards"));
  /* Translators: the queue check's report; %s is what the host says, "Queueing on for this card" */
  g_ptr_array_add (lines, g_strdup_printf (_("Host:         %s"), said));
  g_ptr_array_add (lines, g_strdup (f.queueing ? _("Queueing:     on during the check")
                                               : _("Queueing:     not on during the check")));
  /* Translators: the queue check's report; counts of commands */
  g_ptr_array_add (lines, g_strdup_printf (_("Commands:     %llu writes, %llu reads, %llu flushes, %llu discards"),
                                           (unsigned long long) f.writes, (unsigned long long) f.reads,
                                           (unsigned long long) f.flushes, (unsigned long long) f.discards));
  if (f.depth > 1)
    g_ptr_array_add (lines, g_strdup_printf (_("Random 4K:    %.0f IOPS at depth 1, %.0f at depth %u"),
                                             f.iops_depth_1, f.iops_deep, f.depth));
  else
    /* Translators: the queue check's report; random 4 KiB commands a second */
    g_ptr_array_add (lines, g_strdup_printf (_("Random 4K:    %.0f IOPS at depth 1"), f.iops_depth_1));
  /* Translators: the queue check's report; counts of what the kernel logged */
  g_ptr_array_add (lines, g_strdup_printf (_("Kernel log:   %llu recoveries, %llu timeouts, %llu spurious TCN, %llu resets, %llu I/O errors"),
                                           (unsigned long long) f.counts[CM_QUEUE_EVENT_RECOVERY],
                                           (unsigned long long) f.counts[CM_QUEUE_EVENT_TIMEOUT],
                                           (unsigned long long) f.counts[CM_QUEUE_EVENT_SPURIOUS_TCN],
                                           (unsigned long long) f.counts[CM_QUEUE_EVENT_RESET],
                                           (unsigned long long) f.counts[CM_QUEUE_EVENT_IO_ERROR]));
  /* Translators: the queue check's report; blocks read back, and how many wrong */
  g_ptr_array_add (lines, g_strdup_printf (_("Read back:    %llu blocks, %llu wrong"),
                                           (unsigned long long) f.blocks_checked, (unsigned long long) f.bad_blocks));
  for (guint i = 0; i < f.n_named; i++)
    /* Translators: the queue check's report; a 4 KiB block that read back wrong, by its first byte */
    g_ptr_array_add (lines, g_strdup_printf (_("Wrong block:  at byte %llu"), (unsigned long long) f.named[i]));
  return lines;
}

/* The blocks that read back wrong, 4 KiB each. */
static gint64
lost_bytes (CmResult *result)
{
  Facts f;

  if (!facts_read (result, &f))
    return -1;
  return (gint64) MIN (f.bad_blocks, G_MAXINT64 / CM_QUEUE_CHECK_BLOCK) * CM_QUEUE_CHECK_BLOCK;
}

static GType
options_type (void)
{
  return CM_TYPE_QUEUE_OPTIONS;
}

const CmJobKind cm_job_kind_queue = {
  .name = "queue",
  .title = N_("Queue check"),
  .doing = N_("a queue check"),
  .writes = TRUE,
  .erases = TRUE,
  /* Translators: what stopping it does, after "Queue check of /dev/mmcblk0: " */
  .on_stop = N_("leaves the card's data destroyed"),
  .run = run,
  .outcome = outcome,
  .headline = headline,
  .lost_bytes = lost_bytes,
  .needs = CM_JOB_KIND_NEEDS_WHOLE_CARD,
  /* Translators: %s is the device */
  .consent = N_("The queue check overwrites %s, destroying everything on it."),
  .options_type = options_type,
};
