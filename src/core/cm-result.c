/* cm-result.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One benchmark run, and its JSON form (docs/result-format.md). The GUI,
 * the CLI, the history and the exports all read and write this format.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "cm-file.h"
#include "cm-json.h"
#include "cm-result.h"

struct _CmResult
{
  GObject     parent_instance;

  char       *tool;
  GDateTime  *started;
  char       *profile;
  char       *target_path;
  char       *target_mode;
  char       *device;
  char       *reader;
  guint       usb_speed_mbps;
  guint64     area_bytes;
  char       *host;
  char       *bus_timing;
  CmQueueing  host_queueing;
  char       *name;
  gboolean    direct_io;
  CmCardInfo *card;
  char       *summary;
  GPtrArray  *tests;
  GPtrArray  *claims;
  GPtrArray  *notes;
  CmVerifySummary *verify;
};

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

  g_clear_pointer (&self->tool, g_free);
  g_clear_pointer (&self->started, g_date_time_unref);
  g_clear_pointer (&self->profile, g_free);
  g_clear_pointer (&self->target_path, g_free);
  g_clear_pointer (&self->target_mode, g_free);
  g_clear_pointer (&self->device, g_free);
  g_clear_pointer (&self->reader, g_free);
  g_clear_pointer (&self->host, g_free);
  g_clear_pointer (&self->bus_timing, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_object (&self->card);
  g_clear_pointer (&self->summary, g_free);
  g_clear_pointer (&self->tests, g_ptr_array_unref);
  g_clear_pointer (&self->claims, g_ptr_array_unref);
  g_clear_pointer (&self->notes, g_ptr_array_unref);
  g_clear_pointer (&self->verify, cm_verify_summary_free);

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

/* Writing */

static void
build_test (JsonBuilder        *builder,
            const CmTestResult *test)
{
  static const char * const percentiles[] = { "p50", "p90", "p99", "max" };

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, test->name);
  cm_json_add_int (builder, "block_size", test->block_size);
  cm_json_add_int (builder, "queue_depth", test->queue_depth);
  cm_json_add_int (builder, "bytes", test->bytes);
  cm_json_add_double (builder, "seconds", test->seconds);
  cm_json_add_double (builder, "mb_per_s", test->mb_per_s);
  cm_json_add_double (builder, "iops", test->iops);

  json_builder_set_member_name (builder, "latency_us");
  json_builder_begin_object (builder);
  for (guint i = 0; i < G_N_ELEMENTS (percentiles); i++)
    cm_json_add_double (builder, percentiles[i], test->latency_us[i]);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "sustained_mb_per_s");
  if (test->sustained_mb_per_s > 0)
    json_builder_add_double_value (builder, test->sustained_mb_per_s);
  else
    json_builder_add_null_value (builder);

  if (test->has_cliff)
    {
      json_builder_set_member_name (builder, "cliff");
      json_builder_begin_object (builder);
      cm_json_add_boolean (builder, "past_cliff", test->cliff.found);
      cm_json_add_int (builder, "full_speed_bytes", test->cliff.full_speed_bytes);
      cm_json_add_double (builder, "t", test->cliff.t);
      cm_json_add_double (builder, "before_mb_per_s", test->cliff.before_mb_per_s);
      cm_json_add_double (builder, "after_mb_per_s", test->cliff.after_mb_per_s);
      json_builder_end_object (builder);
    }

  json_builder_set_member_name (builder, "samples");
  json_builder_begin_array (builder);
  for (guint i = 0; i < test->samples->len; i++)
    {
      const CmSample *s = &g_array_index (test->samples, CmSample, i);

      json_builder_begin_object (builder);
      cm_json_add_double (builder, "t", s->t_end);
      cm_json_add_double (builder, "seconds", s->t_end - s->t_start);
      cm_json_add_int (builder, "bytes", s->bytes);
      cm_json_add_double (builder, "mb_per_s", cm_stats_sample_mb_per_s (s));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "latency_scatter");
  json_builder_begin_array (builder);
  for (guint i = 0; i < test->scatter->len; i++)
    {
      const CmLatencyPoint *p = &g_array_index (test->scatter, CmLatencyPoint, i);

      json_builder_begin_array (builder);
      json_builder_add_double_value (builder, p->t);
      json_builder_add_double_value (builder, p->us);
      json_builder_end_array (builder);
    }
  json_builder_end_array (builder);

  if (test->positions->len > 0)
    {
      json_builder_set_member_name (builder, "positions");
      json_builder_begin_array (builder);
      for (guint i = 0; i < test->positions->len; i++)
        {
          const CmPosition *p = &g_array_index (test->positions, CmPosition, i);

          json_builder_begin_array (builder);
          json_builder_add_int_value (builder, (gint64) p->offset);
          json_builder_add_double_value (builder, p->mb_per_s);
          json_builder_end_array (builder);
        }
      json_builder_end_array (builder);
    }

  if (test->engine != NULL)
    cm_json_add_string (builder, "engine", test->engine);
  if (test->error != NULL)
    cm_json_add_string (builder, "error", test->error);

  json_builder_end_object (builder);
}

static void
build_claim (JsonBuilder   *builder,
             const CmClaim *claim)
{
  json_builder_begin_object (builder);
  cm_json_add_string (builder, "class", claim->klass);
  cm_json_add_string (builder, "status", cm_status_to_string (claim->status));
  cm_json_add_string (builder, "reason", claim->reason);
  cm_json_add_string (builder, "source", claim->source);

  json_builder_set_member_name (builder, "criteria");
  json_builder_begin_array (builder);
  for (guint i = 0; i < claim->criteria->len; i++)
    {
      const CmCriterion *c = g_ptr_array_index (claim->criteria, i);

      json_builder_begin_object (builder);
      cm_json_add_string (builder, "name", c->name);
      cm_json_add_string (builder, "test", c->test);
      cm_json_add_string (builder, "unit", c->unit);
      cm_json_add_double (builder, "measured", c->measured);
      cm_json_add_double (builder, "required", c->required);
      cm_json_add_string (builder, "status", cm_status_to_string (c->status));
      cm_json_add_string (builder, "reason", c->reason);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static void
build_verify (JsonBuilder           *builder,
              const CmVerifySummary *v)
{
  json_builder_set_member_name (builder, "verify");
  json_builder_begin_object (builder);
  cm_json_add_string (builder, "mode", v->mode);
  cm_json_add_int (builder, "files", v->n_files);
  cm_json_add_int (builder, "written_bytes", v->written_bytes);
  cm_json_add_int (builder, "checked_bytes", v->checked_bytes);
  json_builder_set_member_name (builder, "sectors");
  json_builder_begin_object (builder);
  cm_json_add_int (builder, "ok", v->sectors_ok);
  cm_json_add_int (builder, "corrupted", v->sectors_corrupted);
  cm_json_add_int (builder, "changed", v->sectors_changed);
  cm_json_add_int (builder, "overwritten", v->sectors_overwritten);
  cm_json_add_int (builder, "unreadable", v->sectors_unreadable);
  json_builder_end_object (builder);
  cm_json_add_int (builder, "usable_bytes", v->usable_bytes);
  cm_json_add_int (builder, "lost_bytes", v->lost_bytes);
  json_builder_set_member_name (builder, "first_bad_offset");
  if (v->first_bad_offset >= 0)
    json_builder_add_int_value (builder, v->first_bad_offset);
  else
    json_builder_add_null_value (builder);
  cm_json_add_boolean (builder, "complete", v->complete);
  json_builder_set_member_name (builder, "bad_regions");
  json_builder_begin_array (builder);
  for (guint i = 0; i < v->bad_regions->len; i++)
    {
      const CmRegion *r = &g_array_index (v->bad_regions, CmRegion, i);

      json_builder_begin_array (builder);
      json_builder_add_int_value (builder, r->start);
      json_builder_add_int_value (builder, r->end);
      json_builder_end_array (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

JsonNode *
cm_result_to_json (CmResult *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *started = NULL;

  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  started = g_date_time_format_iso8601 (self->started);

  json_builder_begin_object (builder);
  cm_json_add_int (builder, "schema", CM_RESULT_SCHEMA);
  cm_json_add_string (builder, "tool", self->tool);
  cm_json_add_string (builder, "started", started);

  json_builder_set_member_name (builder, "target");
  json_builder_begin_object (builder);
  cm_json_add_string (builder, "path", self->target_path);
  cm_json_add_string (builder, "mode", self->target_mode);
  cm_json_add_string (builder, "device", self->device);
  cm_json_add_string (builder, "reader", self->reader);
  cm_json_add_positive_int (builder, "usb_speed_mbps", self->usb_speed_mbps);
  cm_json_add_positive_int (builder, "area_bytes", self->area_bytes);
  cm_json_add_string (builder, "host", self->host);
  cm_json_add_string (builder, "bus_timing", self->bus_timing);
  cm_json_add_string (builder, "host_queueing", cm_queueing_to_string (self->host_queueing));
  cm_json_add_string (builder, "name", self->name);
  json_builder_set_member_name (builder, "direct_io");
  json_builder_add_boolean_value (builder, self->direct_io);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "card");
  if (self->card != NULL)
    json_builder_add_value (builder, cm_card_info_to_json (self->card));
  else
    json_builder_add_null_value (builder);

  cm_json_add_string (builder, "profile", self->profile);

  json_builder_set_member_name (builder, "tests");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->tests->len; i++)
    build_test (builder, g_ptr_array_index (self->tests, i));
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "claims");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->claims->len; i++)
    build_claim (builder, g_ptr_array_index (self->claims, i));
  json_builder_end_array (builder);

  cm_json_add_string (builder, "summary", self->summary);

  if (self->verify != NULL)
    build_verify (builder, self->verify);

  json_builder_set_member_name (builder, "notes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->notes->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (self->notes, i));
  json_builder_end_array (builder);

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

char *
cm_result_to_data (CmResult *self,
                   gsize    *length)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  root = cm_result_to_json (self);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);

  return json_generator_to_data (generator, length);
}

/* Writes to a temporary file and renames it over @file, so a crash or a
 * full disk never leaves half a result behind. */
gboolean
cm_result_save (CmResult  *self,
                GFile     *file,
                GError   **error)
{
  g_autofree char *data = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  GError *local_error = NULL;
  gboolean existed;
  gsize length;

  g_return_val_if_fail (CM_IS_RESULT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  data = cm_result_to_data (self, &length);
  path = g_file_get_path (file);
  existed = g_file_query_exists (file, NULL);

  /* A local file is written to a temporary one renamed into place, so a
   * failure keeps the file it was to replace; elsewhere, a new file that
   * could not be written whole is removed. */
  if (path != NULL
      ? cm_file_set_contents (path, data, length, &local_error)
      : g_file_replace_contents (file, data, length, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                 NULL, NULL, &local_error))
    return TRUE;

  if (path == NULL && !existed)
    (void) g_file_delete (file, NULL, NULL);
  name = g_file_get_parse_name (file);
  g_propagate_prefixed_error (error, local_error, _("Could not save the result to %s: "), name);
  return FALSE;
}

/* Reading. Every accessor checks the type it expects, so a corrupt or
 * hand-edited file gives an error that names the field instead of a
 * crash or a silently wrong figure. */

static gboolean
invalid (GError     **error,
         const char  *member)
{
  g_set_error (error, CM_RESULT_ERROR, CM_RESULT_ERROR_INVALID,
               _("This is not a CardMark result: “%s” is missing or has the wrong type."),
               member);
  return FALSE;
}

/* No figure of a real run comes near this (a petabyte, a billion
 * seconds); it keeps every figure exact as an integer, finite through
 * the charts' arithmetic, and castable to guint64. */
#define MAX_NUMBER 1e15

static gboolean
out_of_range (GError     **error,
              const char  *member)
{
  g_set_error (error, CM_RESULT_ERROR, CM_RESULT_ERROR_INVALID,
               _("This is not a CardMark result: “%s” is out of range."),
               member);
  return FALSE;
}

/* A number from a JSON value node: finite, not negative, at most @max. */
static gboolean
read_number_node (JsonNode    *node,
                  const char  *member,
                  double       max,
                  double      *out,
                  GError     **error)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return invalid (error, member);

  type = json_node_get_value_type (node);
  if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
    return invalid (error, member);

  *out = json_node_get_double (node);
  if (*out < 0)
    return invalid (error, member);
  if (!isfinite (*out) || *out > max)
    return out_of_range (error, member);

  return TRUE;
}

static gboolean
read_string (JsonObject  *object,
             const char  *member,
             gboolean     nullable,
             char       **out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (!nullable)
        return invalid (error, member);
      *out = NULL;
      return TRUE;
    }

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return invalid (error, member);

  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

static gboolean
read_number (JsonObject  *object,
             const char  *member,
             gboolean     nullable,
             double      *out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (!nullable)
        return invalid (error, member);
      *out = 0;
      return TRUE;
    }

  return read_number_node (node, member, MAX_NUMBER, out, error);
}

/* A count that becomes an integer: in range for its type, so the cast is
 * defined on every platform. */
static gboolean
read_count (JsonObject  *object,
            const char  *member,
            double       max,
            double      *out,
            GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return invalid (error, member);

  return read_number_node (node, member, max, out, error);
}

static JsonArray *
get_array (JsonObject *object,
           const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_node_get_array (node);
}

static JsonObject *
get_object (JsonObject *object,
            const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return json_node_get_object (node);
}

static gboolean
read_samples (CmTestResult  *test,
              JsonArray     *array,
              GError       **error)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *object;
      double t, seconds, bytes;
      CmSample sample;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return invalid (error, "samples");

      object = json_node_get_object (node);
      if (!read_number (object, "t", FALSE, &t, error) ||
          !read_number (object, "seconds", FALSE, &seconds, error) ||
          !read_number (object, "bytes", FALSE, &bytes, error))
        return FALSE;

      sample.t_start = t - seconds;
      sample.t_end = t;
      sample.bytes = (guint64) bytes;
      g_array_append_val (test->samples, sample);
    }

  return TRUE;
}

static gboolean
read_scatter (CmTestResult  *test,
              JsonArray     *array,
              GError       **error)
{
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonArray *pair;
      CmLatencyPoint point;

      double t, us;

      if (!JSON_NODE_HOLDS_ARRAY (node) ||
          json_array_get_length (pair = json_node_get_array (node)) != 2)
        return invalid (error, "latency_scatter");

      /* Stored as floats: in range for a float too. */
      if (!read_number_node (json_array_get_element (pair, 0), "latency_scatter", G_MAXFLOAT, &t, error) ||
          !read_number_node (json_array_get_element (pair, 1), "latency_scatter", G_MAXFLOAT, &us, error))
        return FALSE;

      point.t = (float) t;
      point.us = (float) us;
      g_array_append_val (test->scatter, point);
    }

  return TRUE;
}

static gboolean
read_positions (CmTestResult  *test,
                JsonArray     *array,
                GError       **error)
{
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonArray *pair;
      CmPosition position;

      double offset;

      if (!JSON_NODE_HOLDS_ARRAY (node) ||
          json_array_get_length (pair = json_node_get_array (node)) != 2)
        return invalid (error, "positions");

      if (!read_number_node (json_array_get_element (pair, 0), "positions", MAX_NUMBER, &offset, error) ||
          !read_number_node (json_array_get_element (pair, 1), "positions", MAX_NUMBER, &position.mb_per_s, error))
        return FALSE;

      position.offset = (guint64) offset;
      g_array_append_val (test->positions, position);
    }

  return TRUE;
}

/* "cliff", on sequential writes of results from CardMark 0.x on; absent
 * in older ones. */
static gboolean
read_cliff (CmTestResult  *test,
            JsonObject    *object,
            GError       **error)
{
  JsonNode *node = json_object_get_member (object, "cliff");
  JsonNode *found;
  JsonObject *cliff;
  double bytes;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return invalid (error, "cliff");

  cliff = json_node_get_object (node);
  found = json_object_get_member (cliff, "past_cliff");
  if (found == NULL || !JSON_NODE_HOLDS_VALUE (found) ||
      json_node_get_value_type (found) != G_TYPE_BOOLEAN)
    return invalid (error, "past_cliff");

  if (!read_number (cliff, "full_speed_bytes", FALSE, &bytes, error) ||
      !read_number (cliff, "t", TRUE, &test->cliff.t, error) ||
      !read_number (cliff, "before_mb_per_s", FALSE, &test->cliff.before_mb_per_s, error) ||
      !read_number (cliff, "after_mb_per_s", FALSE, &test->cliff.after_mb_per_s, error))
    return FALSE;

  test->has_cliff = TRUE;
  test->cliff.found = json_node_get_boolean (found);
  test->cliff.full_speed_bytes = (guint64) bytes;
  return TRUE;
}

static CmTestResult *
read_test (JsonNode  *node,
           GError   **error)
{
  static const char * const percentiles[] = { "p50", "p90", "p99", "max" };
  g_autoptr(CmTestResult) test = NULL;
  g_autofree char *name = NULL;
  JsonObject *object, *latency;
  JsonArray *samples;
  double block_size, queue_depth, bytes;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return invalid (error, "tests"), NULL;

  object = json_node_get_object (node);
  if (!read_string (object, "name", FALSE, &name, error))
    return NULL;

  test = cm_test_result_new (name);
  if (!read_count (object, "block_size", G_MAXINT32, &block_size, error) ||
      !read_count (object, "queue_depth", G_MAXINT32, &queue_depth, error) ||
      !read_number (object, "bytes", FALSE, &bytes, error) ||
      !read_number (object, "seconds", FALSE, &test->seconds, error) ||
      !read_number (object, "mb_per_s", FALSE, &test->mb_per_s, error) ||
      !read_number (object, "iops", FALSE, &test->iops, error) ||
      !read_number (object, "sustained_mb_per_s", TRUE, &test->sustained_mb_per_s, error) ||
      !read_string (object, "error", TRUE, &test->error, error) ||
      !read_string (object, "engine", TRUE, &test->engine, error) ||
      !read_cliff (test, object, error))
    return NULL;

  test->block_size = (gsize) block_size;
  test->queue_depth = (guint) queue_depth;
  test->bytes = (guint64) bytes;

  if ((latency = get_object (object, "latency_us")) == NULL)
    return invalid (error, "latency_us"), NULL;
  for (guint i = 0; i < G_N_ELEMENTS (percentiles); i++)
    if (!read_number (latency, percentiles[i], FALSE, &test->latency_us[i], error))
      return NULL;

  if ((samples = get_array (object, "samples")) == NULL)
    return invalid (error, "samples"), NULL;
  if (!read_samples (test, samples, error) ||
      !read_scatter (test, get_array (object, "latency_scatter"), error) ||
      !read_positions (test, get_array (object, "positions"), error))
    return NULL;

  return g_steal_pointer (&test);
}

static CmClaim *
read_claim (JsonNode  *node,
            GError   **error)
{
  g_autoptr(CmClaim) claim = NULL;
  g_autofree char *klass = NULL;
  g_autofree char *status = NULL;
  JsonObject *object;
  JsonArray *criteria;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return invalid (error, "claims"), NULL;

  object = json_node_get_object (node);
  if (!read_string (object, "class", FALSE, &klass, error) ||
      !read_string (object, "status", FALSE, &status, error))
    return NULL;

  claim = cm_claim_new (klass);
  if (!cm_status_from_string (status, &claim->status))
    return invalid (error, "status"), NULL;
  if (!read_string (object, "reason", TRUE, &claim->reason, error) ||
      !read_string (object, "source", TRUE, &claim->source, error))
    return NULL;

  if ((criteria = get_array (object, "criteria")) == NULL)
    return invalid (error, "criteria"), NULL;

  for (guint i = 0; i < json_array_get_length (criteria); i++)
    {
      JsonNode *element = json_array_get_element (criteria, i);
      g_autoptr(CmCriterion) c = g_new0 (CmCriterion, 1);
      g_autofree char *c_status = NULL;
      JsonObject *c_object;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        return invalid (error, "criteria"), NULL;

      c_object = json_node_get_object (element);
      if (!read_string (c_object, "name", FALSE, &c->name, error) ||
          !read_string (c_object, "test", TRUE, &c->test, error) ||
          !read_string (c_object, "unit", TRUE, &c->unit, error) ||
          !read_number (c_object, "measured", FALSE, &c->measured, error) ||
          !read_number (c_object, "required", FALSE, &c->required, error) ||
          !read_string (c_object, "status", FALSE, &c_status, error) ||
          !read_string (c_object, "reason", TRUE, &c->reason, error))
        return NULL;
      if (!cm_status_from_string (c_status, &c->status))
        return invalid (error, "status"), NULL;

      g_ptr_array_add (claim->criteria, g_steal_pointer (&c));
    }

  return g_steal_pointer (&claim);
}

static gboolean
read_target (CmResult    *self,
             JsonObject  *root,
             GError     **error)
{
  JsonObject *target = get_object (root, "target");
  JsonNode *direct_io;
  g_autofree char *queueing = NULL;
  double usb_speed;
  double area;

  if (target == NULL)
    return invalid (error, "target");

  if (!read_string (target, "path", TRUE, &self->target_path, error) ||
      !read_string (target, "mode", FALSE, &self->target_mode, error) ||
      !read_string (target, "device", TRUE, &self->device, error) ||
      !read_string (target, "reader", TRUE, &self->reader, error) ||
      !read_string (target, "name", TRUE, &self->name, error) ||
      !read_string (target, "host", TRUE, &self->host, error) ||
      !read_string (target, "bus_timing", TRUE, &self->bus_timing, error) ||
      !read_string (target, "host_queueing", TRUE, &queueing, error) ||
      !read_number (target, "usb_speed_mbps", TRUE, &usb_speed, error) ||
      !read_number (target, "area_bytes", TRUE, &area, error))
    return FALSE;

  if (usb_speed > G_MAXINT32)
    return out_of_range (error, "usb_speed_mbps");

  self->usb_speed_mbps = (guint) usb_speed;
  self->area_bytes = (guint64) area;
  if (!cm_queueing_from_string (queueing, &self->host_queueing))
    return invalid (error, "host_queueing");

  direct_io = json_object_get_member (target, "direct_io");
  self->direct_io = direct_io == NULL || json_node_get_boolean (direct_io);

  return TRUE;
}

static gboolean
read_card (CmResult    *self,
           JsonObject  *root,
           GError     **error)
{
  JsonNode *card = json_object_get_member (root, "card");

  if (card == NULL || JSON_NODE_HOLDS_NULL (card))
    return TRUE;

  if (!JSON_NODE_HOLDS_OBJECT (card))
    return invalid (error, "card");

  self->card = cm_card_info_new_from_json (card, error);

  return self->card != NULL;
}

static gboolean
read_verify_count (JsonObject  *object,
                   const char  *member,
                   guint64     *out,
                   GError     **error)
{
  double value;

  if (!read_number (object, member, FALSE, &value, error))
    return FALSE;
  /* In range for the cast: a byte or sector count below 2^63. */
  if (!(value >= 0 && value < 9.2e18))
    return invalid (error, member);
  *out = (guint64) value;
  return TRUE;
}

static gboolean
read_regions (CmVerifySummary  *v,
              JsonArray        *array,
              GError          **error)
{
  if (array == NULL)
    return invalid (error, "bad_regions");

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonArray *pair;
      CmRegion region;

      if (!JSON_NODE_HOLDS_ARRAY (node) ||
          json_array_get_length (pair = json_node_get_array (node)) != 2)
        return invalid (error, "bad_regions");
      region.start = (guint64) json_array_get_int_element (pair, 0);
      region.end = (guint64) json_array_get_int_element (pair, 1);
      g_array_append_val (v->bad_regions, region);
    }
  return TRUE;
}

/* "verify" is optional: only a full verify writes it. */
static gboolean
read_verify (CmResult    *self,
             JsonObject  *root,
             GError     **error)
{
  g_autoptr(CmVerifySummary) v = NULL;
  JsonObject *object, *sectors;
  guint64 n_files;
  double first_bad;
  JsonNode *complete;

  if (!json_object_has_member (root, "verify"))
    return TRUE;
  if ((object = get_object (root, "verify")) == NULL)
    return invalid (error, "verify");
  if ((sectors = get_object (object, "sectors")) == NULL)
    return invalid (error, "sectors");

  v = cm_verify_summary_new ();
  if (!read_string (object, "mode", FALSE, &v->mode, error) ||
      !read_verify_count (object, "files", &n_files, error) ||
      !read_verify_count (object, "written_bytes", &v->written_bytes, error) ||
      !read_verify_count (object, "checked_bytes", &v->checked_bytes, error) ||
      !read_verify_count (sectors, "ok", &v->sectors_ok, error) ||
      !read_verify_count (sectors, "corrupted", &v->sectors_corrupted, error) ||
      !read_verify_count (sectors, "changed", &v->sectors_changed, error) ||
      !read_verify_count (sectors, "overwritten", &v->sectors_overwritten, error) ||
      !read_verify_count (sectors, "unreadable", &v->sectors_unreadable, error) ||
      !read_verify_count (object, "usable_bytes", &v->usable_bytes, error) ||
      !read_verify_count (object, "lost_bytes", &v->lost_bytes, error) ||
      !read_number (object, "first_bad_offset", TRUE, &first_bad, error) ||
      !read_regions (v, get_array (object, "bad_regions"), error))
    return FALSE;

  complete = json_object_get_member (object, "complete");
  if (complete == NULL || !JSON_NODE_HOLDS_VALUE (complete) ||
      json_node_get_value_type (complete) != G_TYPE_BOOLEAN)
    return invalid (error, "complete");
  v->complete = json_node_get_boolean (complete);
  v->n_files = (guint) n_files;
  complete = json_object_get_member (object, "first_bad_offset");
  v->first_bad_offset = complete == NULL || JSON_NODE_HOLDS_NULL (complete) ? -1 : (gint64) first_bad;

  self->verify = g_steal_pointer (&v);
  return TRUE;
}

static gboolean
read_root (CmResult    *self,
           JsonObject  *root,
           GError     **error)
{
  g_autofree char *started = NULL;
  JsonArray *tests, *claims, *notes;

  g_clear_pointer (&self->tool, g_free);
  g_clear_pointer (&self->profile, g_free);

  if (!read_string (root, "tool", FALSE, &self->tool, error) ||
      !read_string (root, "started", FALSE, &started, error) ||
      !read_string (root, "profile", FALSE, &self->profile, error) ||
      !read_string (root, "summary", TRUE, &self->summary, error) ||
      !read_target (self, root, error) ||
      !read_card (self, root, error) ||
      !read_verify (self, root, error))
    return FALSE;

  g_clear_pointer (&self->started, g_date_time_unref);
  if ((self->started = g_date_time_new_from_iso8601 (started, NULL)) == NULL)
    return invalid (error, "started");

  if ((tests = get_array (root, "tests")) == NULL)
    return invalid (error, "tests");
  for (guint i = 0; i < json_array_get_length (tests); i++)
    {
      CmTestResult *test = read_test (json_array_get_element (tests, i), error);

      if (test == NULL)
        return FALSE;
      g_ptr_array_add (self->tests, test);
    }

  if ((claims = get_array (root, "claims")) == NULL)
    return invalid (error, "claims");
  for (guint i = 0; i < json_array_get_length (claims); i++)
    {
      CmClaim *claim = read_claim (json_array_get_element (claims, i), error);

      if (claim == NULL)
        return FALSE;
      g_ptr_array_add (self->claims, claim);
    }

  if ((notes = get_array (root, "notes")) == NULL)
    return invalid (error, "notes");
  for (guint i = 0; i < json_array_get_length (notes); i++)
    {
      JsonNode *note = json_array_get_element (notes, i);

      if (!JSON_NODE_HOLDS_VALUE (note) || json_node_get_value_type (note) != G_TYPE_STRING)
        return invalid (error, "notes");
      g_ptr_array_add (self->notes, g_strdup (json_node_get_string (note)));
    }

  return TRUE;
}

CmResult *
cm_result_new_from_json (JsonNode  *node,
                         GError   **error)
{
  g_autoptr(CmResult) self = NULL;
  JsonObject *root;
  JsonNode *schema;

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return invalid (error, "schema"), NULL;

  root = json_node_get_object (node);
  schema = json_object_get_member (root, "schema");
  if (schema == NULL || !JSON_NODE_HOLDS_VALUE (schema) ||
      json_node_get_value_type (schema) != G_TYPE_INT64)
    return invalid (error, "schema"), NULL;

  /* Format 1 is the first; anything below it was never written. */
  if (json_node_get_int (schema) < 1)
    return invalid (error, "schema"), NULL;
  if (json_node_get_int (schema) > CM_RESULT_SCHEMA)
    {
      g_set_error (error, CM_RESULT_ERROR, CM_RESULT_ERROR_UNSUPPORTED_SCHEMA,
                   _("This result was written by a newer CardMark (format %d). Update CardMark to open it."),
                   (int) MIN (json_node_get_int (schema), G_MAXINT));
      return NULL;
    }

  self = cm_result_new ();
  if (!read_root (self, root, error))
    return NULL;

  return g_steal_pointer (&self);
}

CmResult *
cm_result_new_from_data (const char  *data,
                         gssize       length,
                         GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;

  if (!json_parser_load_from_data (parser, data, length, &local_error))
    {
      g_set_error (error, CM_RESULT_ERROR, CM_RESULT_ERROR_INVALID,
                   _("This is not a CardMark result: %s"), local_error->message);
      return NULL;
    }

  if (json_parser_get_root (parser) == NULL)
    return invalid (error, "schema"), NULL;

  return cm_result_new_from_json (json_parser_get_root (parser), error);
}

CmResult *
cm_result_new_from_file (GFile   *file,
                         GError **error)
{
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  if (!g_file_load_contents (file, NULL, &data, &length, NULL, error))
    return NULL;

  return cm_result_new_from_data (data, length, error);
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
cm_result_get_tool (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return self->tool;
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

/* The size of the part of the card the tests used; 0 when not known. */
guint64
cm_result_get_area_bytes (CmResult *self)
{
  g_return_val_if_fail (CM_IS_RESULT (self), 0);

  return self->area_bytes;
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
