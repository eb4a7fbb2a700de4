/* cm-result.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One benchmark run: its figures, claims, notes and what the card and
 * host said. Its JSON form (docs/result-format.md) is written by
 * cm-result-json-write.c and read by cm-result-json-read.c.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-result-private.h"

G_DEFINE_FINAL_TYPE (CmResult, cm_result, G_TYPE_OBJECT)

G_DEFINE_QUARK (cm-result-error-quark, cm_result_error)

static const char * const status_names[] = {
  [CM_STATUS_MEETS] = "meets",
  [CM_STATUS_MARGINAL] = "marginal",
  [CM_STATUS_BELOW] = "below",
  [CM_STATUS_NOT_JUDGED] = "not-judged",
};

const char *
cm_status_to_string (CmStatus status)
{
  g_return_val_if_fail (status <= CM_STATUS_NOT_JUDGED, "not-judged");

  return status_names[status];
}

gboolean
cm_status_from_string (const char *str,
                       CmStatus   *status)
{
  for (guint i = 0; i < G_N_ELEMENTS (status_names); i++)
    {
      if (g_strcmp0 (str, status_names[i]) == 0)
        {
          *status = i;
          return TRUE;
        }
    }

  return FALSE;
}

CmTestResult *
cm_test_result_new (const char *name)
{
  CmTestResult *test = g_new0 (CmTestResult, 1);

  test->name = g_strdup (name);
  test->samples = g_array_new (FALSE, FALSE, sizeof (CmSample));
  test->scatter = g_array_new (FALSE, FALSE, sizeof (CmLatencyPoint));
  test->positions = g_array_new (FALSE, FALSE, sizeof (CmPosition));

  return test;
}

/* The rate a sequential test sustains, as the classes are judged
 * (docs/methodology.md § Which write figure): a write's mean after its
 * cliff, or its whole mean when it has none; a read's, or an older
 * result's, 10th percentile of 1-second windows. 0 for other tests. */
double
cm_test_result_get_sustained_mb_per_s (const CmTestResult *test)
{
  g_return_val_if_fail (test != NULL, 0);

  if (test->has_cliff && test->cliff.after_mb_per_s > 0)
    return test->cliff.after_mb_per_s;
  return test->sustained_mb_per_s;
}

/**
 * cm_test_result_reached_limit:
 * @limit: the most the test was to write, 0 for none
 *
 * Whether a sustained write ran to @limit without its speed falling:
 * the card's write cache may be larger than that, and a higher limit
 * would let it write further.
 */
gboolean
cm_test_result_reached_limit (const CmTestResult *test,
                              guint64             limit)
{
  g_return_val_if_fail (test != NULL, FALSE);

  return limit > 0 && test->error == NULL && test->has_cliff && !test->cliff.found &&
         test->bytes + test->block_size >= limit;
}

void
cm_test_result_free (CmTestResult *test)
{
  if (test == NULL)
    return;

  g_free (test->name);
  g_free (test->error);
  g_free (test->engine);
  g_clear_pointer (&test->samples, g_array_unref);
  g_clear_pointer (&test->scatter, g_array_unref);
  g_clear_pointer (&test->positions, g_array_unref);
  g_strfreev (test->shared_bus_with);
  g_free (test);
}

CmCriterion *
cm_criterion_new (const char *name,
                  const char *test,
                  const char *unit,
                  double      measured,
                  double      required)
{
  CmCriterion *criterion = g_new0 (CmCriterion, 1);

  criterion->name = g_strdup (name);
  criterion->test = g_strdup (test);
  criterion->unit = g_strdup (unit);
  criterion->measured = measured;
  criterion->required = required;
  criterion->status = CM_STATUS_NOT_JUDGED;

  return criterion;
}

void
cm_criterion_free (CmCriterion *criterion)
{
  if (criterion == NULL)
    return;

  g_free (criterion->name);
  g_free (criterion->test);
  g_free (criterion->unit);
  g_free (criterion->reason);
  g_free (criterion);
}

CmClaim *
cm_claim_new (const char *klass)
{
  CmClaim *claim = g_new0 (CmClaim, 1);

  claim->klass = g_strdup (klass);
  claim->status = CM_STATUS_NOT_JUDGED;
  claim->criteria = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_criterion_free);

  return claim;
}

void
cm_claim_free (CmClaim *claim)
{
  if (claim == NULL)
    return;

  g_free (claim->klass);
  g_free (claim->reason);
  g_free (claim->source);
  g_clear_pointer (&claim->criteria, g_ptr_array_unref);
  g_free (claim);
}

CmVerifySummary *
cm_verify_summary_new (void)
{
  CmVerifySummary *summary = g_new0 (CmVerifySummary, 1);

  summary->first_bad_offset = -1;
  summary->complete = TRUE;
  summary->bad_regions = g_array_new (FALSE, FALSE, sizeof (CmRegion));
  return summary;
}

CmVerifySummary *
cm_verify_summary_copy (const CmVerifySummary *summary)
{
  CmVerifySummary *copy;

  g_return_val_if_fail (summary != NULL, NULL);

  copy = g_memdup2 (summary, sizeof *summary);
  copy->mode = g_strdup (summary->mode);
  copy->bad_regions = g_array_copy (summary->bad_regions);
  return copy;
}

void
cm_verify_summary_free (CmVerifySummary *summary)
{
  if (summary == NULL)
    return;
  g_free (summary->mode);
  g_clear_pointer (&summary->bad_regions, g_array_unref);
  g_free (summary);
}

static void
cm_result_finalize (GObject *object)
{
  CmResult *self = (CmResult *) object;

  g_clear_pointer (&self->kind, g_free);
  g_clear_pointer (&self->tool, g_free);
  g_clear_pointer (&self->started, g_date_time_unref);
  g_clear_pointer (&self->profile, g_free);
  g_clear_pointer (&self->target_path, g_free);
  g_clear_pointer (&self->target_mode, g_free);
  g_clear_pointer (&self->device, g_free);
  g_clear_pointer (&self->reader, g_free);
  g_clear_pointer (&self->sighting, g_free);
  g_clear_pointer (&self->name_from, g_free);
  g_clear_pointer (&self->name_detail, g_free);
  g_clear_pointer (&self->host, g_free);
  g_clear_pointer (&self->bus_timing, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_object (&self->card);
  g_clear_pointer (&self->summary, g_free);
  g_clear_pointer (&self->tests, g_ptr_array_unref);
  g_clear_pointer (&self->claims, g_ptr_array_unref);
  g_clear_pointer (&self->notes, g_ptr_array_unref);
  g_clear_pointer (&self->verify, cm_verify_summary_free);
  g_clear_pointer (&self->capacity, cm_capacity_report_free);
  g_clear_pointer (&self->endurance, cm_endurance_free);
  g_clear_pointer (&self->part, json_node_unref);

  G_OBJECT_CLASS (cm_result_parent_class)->finalize (object);
}

static void
cm_result_class_init (CmResultClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cm_result_finalize;
}

static void
cm_result_init (CmResult *self)
{
  self->tool = g_strdup ("cardmark " PACKAGE_VERSION);
  self->started = g_date_time_new_now_local ();
  self->profile = g_strdup ("quick");
  self->direct_io = TRUE;
  self->tests = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_test_result_free);
  self->claims = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_claim_free);
  self->notes = g_ptr_array_new_with_free_func (g_free);
}

CmResult *
cm_result_new (void)
{
  return g_object_new (CM_TYPE_RESULT, NULL);
}

/* Accessors */

GDateTime *
cm_result_get_started (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->started;
}

void
cm_result_set_started (CmResult  *self,
                       GDateTime *started)
{
  g_return_if_fail (CM_IS_RESULT (self));
  g_return_if_fail (started != NULL);

  g_date_time_ref (started);
  g_clear_pointer (&self->started, g_date_time_unref);
  self->started = started;
}

const char *
cm_result_get_profile (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->profile;
}

void
cm_result_set_profile (CmResult   *self,
                       const char *profile)
{
  g_return_if_fail (CM_IS_RESULT (self));

  g_free (self->profile);
  self->profile = g_strdup (profile);
}

const char *
cm_result_get_target_path (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->target_path;
}

const char *
cm_result_get_target_mode (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->target_mode;
}

const char *
cm_result_get_device (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->device;
}

/**
 * cm_result_dup_run_key:
 *
 * What tells one test apart from every other on one machine: its kind,
 * its device and its start to the microsecond. A stopped wear test saves
 * what it did; carried on, it keeps its start, and its new document (the
 * earlier one's rounds as well) takes the earlier one's place, in the
 * history and in the store.
 *
 * Returns: (nullable): the key, or %NULL for a test of a folder (no
 *   device), which is never carried on
 */
char *
cm_result_dup_run_key (CmResult *self)
{
  GDateTime *started;

  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  started = cm_result_get_started (self);
  if (self->device == NULL || started == NULL)
    return NULL;
  return g_strdup_printf ("%s %s %" G_GINT64_FORMAT, self->kind != NULL ? self->kind : "", self->device,
                          g_date_time_to_unix (started) * G_USEC_PER_SEC + g_date_time_get_microsecond (started));
}

const char *
cm_result_get_reader (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->reader;
}

void
cm_result_set_target (CmResult   *self,
                      const char *path,
                      const char *mode,
                      const char *device,
                      const char *reader)
{
  char *old[] = { self->target_path, self->target_mode, self->device, self->reader };

  g_return_if_fail (CM_IS_RESULT (self));

  /* Copy before freeing: callers may pass back what the getters gave. */
  self->target_path = g_strdup (path);
  self->target_mode = g_strdup (mode);
  self->device = g_strdup (device);
  self->reader = g_strdup (reader);

  for (guint i = 0; i < G_N_ELEMENTS (old); i++)
    g_free (old[i]);
}

/* Where and when the card was seen: its reader's disk sequence number
 * in this boot (cm-card-same.h), or NULL. */
/* The name as facts, when CardMark made it from the device rather than
 * the user giving one: the reader kind whose words made it ("loop") and
 * what told the device apart in them ("card.img"), so that a face says
 * it in its reader's language (cm_summary_dup_name()). */
void
cm_result_set_name_facts (CmResult   *self,
                          const char *reader,
                          const char *detail)
{
  g_return_if_fail (CM_IS_RESULT (self));

  g_free (self->name_from);
  self->name_from = g_strdup (reader);
  g_free (self->name_detail);
  self->name_detail = g_strdup (detail);
}

/* The reader kind whose words made the name, or NULL (the user's name,
 * an older document). */
const char *
cm_result_get_name_from (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);
  return self->name_from;
}

const char *
cm_result_get_name_detail (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);
  return self->name_detail;
}

const char *
cm_result_get_sighting (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->sighting;
}

void
cm_result_set_sighting (CmResult   *self,
                        const char *sighting)
{
  g_return_if_fail (CM_IS_RESULT (self));

  g_free (self->sighting);
  self->sighting = g_strdup (sighting);
}

guint
cm_result_get_usb_speed_mbps (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), 0);

  return self->usb_speed_mbps;
}

void
cm_result_set_usb_speed_mbps (CmResult *self,
                              guint     mbps)
{
  g_return_if_fail (CM_IS_RESULT (self));

  self->usb_speed_mbps = mbps;
}

/* The size the card's device reports (what a card without readable
 * registers is told apart by); 0 when not known. */
guint64
cm_result_get_device_bytes (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), 0);

  return self->device_bytes;
}

void
cm_result_set_device_bytes (CmResult *self,
                            guint64   bytes)
{
  g_return_if_fail (CM_IS_RESULT (self));

  self->device_bytes = bytes;
}

void
cm_result_set_area_bytes (CmResult *self,
                          guint64   area_bytes)
{
  g_return_if_fail (CM_IS_RESULT (self));

  self->area_bytes = area_bytes;
}

const char *
cm_result_get_host (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->host;
}

void
cm_result_set_host (CmResult   *self,
                    const char *host)
{
  g_return_if_fail (CM_IS_RESULT (self));

  g_free (self->host);
  self->host = g_strdup (host);
}

gboolean
cm_result_get_direct_io (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), FALSE);

  return self->direct_io;
}

void
cm_result_set_direct_io (CmResult *self,
                         gboolean  direct_io)
{
  g_return_if_fail (CM_IS_RESULT (self));

  self->direct_io = !!direct_io;
}

const char *
cm_result_get_name (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->name;
}

void
cm_result_set_name (CmResult   *self,
                    const char *name)
{
  g_return_if_fail (CM_IS_RESULT (self));

  g_free (self->name);
  self->name = g_strdup (name);
}

CmCardInfo *
cm_result_get_card (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->card;
}

void
cm_result_set_card (CmResult   *self,
                    CmCardInfo *card)
{
  g_return_if_fail (CM_IS_RESULT (self));

  g_set_object (&self->card, card);
}

const char *
cm_result_get_summary (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->summary;
}

void
cm_result_set_summary (CmResult   *self,
                       const char *summary)
{
  g_return_if_fail (CM_IS_RESULT (self));

  g_free (self->summary);
  self->summary = g_strdup (summary);
}

GPtrArray *
cm_result_get_tests (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->tests;
}

CmTestResult *
cm_result_lookup_test (CmResult   *self,
                       const char *name)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  for (guint i = 0; i < self->tests->len; i++)
    {
      CmTestResult *test = g_ptr_array_index (self->tests, i);

      if (g_strcmp0 (test->name, name) == 0)
        return test;
    }

  return NULL;
}

void
cm_result_take_test (CmResult     *self,
                     CmTestResult *test)
{
  g_return_if_fail (CM_IS_RESULT (self));
  g_return_if_fail (test != NULL);

  g_ptr_array_add (self->tests, test);
}

GPtrArray *
cm_result_get_claims (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->claims;
}

void
cm_result_take_claim (CmResult *self,
                      CmClaim  *claim)
{
  g_return_if_fail (CM_IS_RESULT (self));
  g_return_if_fail (claim != NULL);

  g_ptr_array_add (self->claims, claim);
}

CmClaim *
cm_result_lookup_claim (CmResult   *self,
                        const char *klass)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  for (guint i = 0; i < self->claims->len; i++)
    {
      CmClaim *claim = g_ptr_array_index (self->claims, i);

      if (g_strcmp0 (claim->klass, klass) == 0)
        return claim;
    }

  return NULL;
}

/* Whether any class came from the label or the card itself, rather than
 * only showing what the figures would meet (source "figures"). */
gboolean
cm_result_has_claimed_classes (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), FALSE);

  for (guint i = 0; i < self->claims->len; i++)
    {
      const CmClaim *claim = g_ptr_array_index (self->claims, i);

      if (g_strcmp0 (claim->source, "figures") != 0)
        return TRUE;
    }

  return FALSE;
}

void
cm_result_clear_claims (CmResult *self)
{
  g_return_if_fail (CM_IS_RESULT (self));

  g_ptr_array_set_size (self->claims, 0);
}

GPtrArray *
cm_result_get_notes (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->notes;
}

void
cm_result_add_note (CmResult   *self,
                    const char *note)
{
  g_return_if_fail (CM_IS_RESULT (self));
  g_return_if_fail (note != NULL);

  if (!cm_result_has_note (self, note))
    g_ptr_array_add (self->notes, g_strdup (note));
}

void
cm_result_add_shared_bus_note (CmResult           *self,
                               const char * const *devices,
                               const char * const *more)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) all = NULL;
  g_autofree char *names = NULL;
  g_autofree char *note = NULL;

  g_return_if_fail (CM_IS_RESULT (self));

  for (guint i = 0; devices != NULL && devices[i] != NULL; i++)
    g_strv_builder_add (builder, devices[i]);
  for (guint i = 0; more != NULL && more[i] != NULL; i++)
    if (devices == NULL || !g_strv_contains (devices, more[i]))
      g_strv_builder_add (builder, more[i]);
  all = g_strv_builder_end (builder);
  if (all[0] == NULL)
    return;

  names = g_strjoinv (", ", all);
  /* Translators: %s names devices, such as "/dev/sdc, /dev/sdd" */
  note = g_strdup_printf (_("The rates were measured while the cards in %s moved data on the same bus, "
                            "so they shared its bandwidth: alone, this card may be faster."), names);
  cm_result_add_note (self, note);
}

gboolean
cm_result_has_note (CmResult   *self,
                    const char *note)
{
  g_return_val_if_fail (CM_IS_RESULT (self), FALSE);

  for (guint i = 0; i < self->notes->len; i++)
    if (g_str_equal (g_ptr_array_index (self->notes, i), note))
      return TRUE;

  return FALSE;
}

const char *
cm_result_get_bus_timing (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->bus_timing;
}

CmQueueing
cm_result_get_host_queueing (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), CM_QUEUEING_UNKNOWN);

  return self->host_queueing;
}

/* The slot's own word on its timing and command queueing, where the
 * computer told it (cm-host.c). */
void
cm_result_set_host_facts (CmResult          *self,
                          const CmHostFacts *facts)
{
  g_return_if_fail (CM_IS_RESULT (self));

  g_free (self->host);
  g_free (self->bus_timing);
  self->host = facts != NULL ? g_strdup (facts->model) : NULL;
  self->bus_timing = facts != NULL ? g_strdup (facts->bus_timing) : NULL;
  self->host_queueing = facts != NULL ? facts->queueing : CM_QUEUEING_UNKNOWN;
}

/* The findings of a full verify, or NULL for a benchmark. */
const CmVerifySummary *
cm_result_get_verify (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->verify;
}

void
cm_result_set_verify (CmResult              *self,
                      const CmVerifySummary *verify)
{
  g_return_if_fail (CM_IS_RESULT (self));

  g_clear_pointer (&self->verify, cm_verify_summary_free);
  if (verify != NULL)
    self->verify = cm_verify_summary_copy (verify);
}

/* What job made the document: "bench", "capacity", "verify" or "wear"
 * (the job kinds' names, src/core/cm-job-kinds.c). A document from
 * before kinds were written is a verify when it holds one, else a
 * benchmark. */
const char *
cm_result_get_kind (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  if (self->kind != NULL)
    return self->kind;
  if (self->capacity != NULL)
    return "capacity";
  if (self->endurance != NULL)
    return "wear";
  return self->verify != NULL ? "verify" : "bench";
}

void
cm_result_set_kind (CmResult   *self,
                    const char *kind)
{
  g_return_if_fail (CM_IS_RESULT (self));

  g_free (self->kind);
  self->kind = g_strdup (kind);
}

/* What a capacity check found, or NULL for any other job. */
const CmCapacityReport *
cm_result_get_capacity (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->capacity;
}

void
cm_result_set_capacity (CmResult               *self,
                        const CmCapacityReport *report)
{
  g_return_if_fail (CM_IS_RESULT (self));

  g_clear_pointer (&self->capacity, cm_capacity_report_free);
  if (report != NULL)
    self->capacity = cm_capacity_report_copy (report);
}

/* What a wear test found, or NULL for any other job. */
const CmEndurance *
cm_result_get_endurance (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->endurance;
}

void
cm_result_set_endurance (CmResult          *self,
                         const CmEndurance *endurance)
{
  g_return_if_fail (CM_IS_RESULT (self));

  g_clear_pointer (&self->endurance, cm_endurance_free);
  if (endurance != NULL)
    self->endurance = cm_endurance_copy (endurance);
}

/**
 * cm_result_get_part:
 *
 * The kind's own part of the document: its member named as the kind
 * ("format", "power"), written and read only by the kind's own code,
 * which treats it as hostile (it comes from a file). %NULL when the
 * document has none.
 *
 * Returns: (transfer none) (nullable): a JSON object
 */
JsonNode *
cm_result_get_part (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->part;
}

/**
 * cm_result_set_part:
 * @part: (nullable): a JSON object
 *
 * Keeps a copy of @part as the kind's own part; the document must have
 * its kind (cm_result_set_kind()) to write it.
 */
void
cm_result_set_part (CmResult *self,
                    JsonNode *part)
{
  g_return_if_fail (CM_IS_RESULT (self));
  g_return_if_fail (part == NULL || JSON_NODE_HOLDS_OBJECT (part));

  g_clear_pointer (&self->part, json_node_unref);
  if (part != NULL)
    self->part = json_node_copy (part);
}
