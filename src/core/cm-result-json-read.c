/* cm-result-json-read.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads a result from its JSON form (docs/result-format.md) and checks
 * every member as it goes: a corrupt or hand-edited file gives an error
 * that names the field, never a crash or a silently wrong figure.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "cm-json.h"
#include "cm-result-private.h"
#include "cm-text.h"

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

  /* Anyone could have written the document: what it says is cleaned
   * once, here, for every label and terminal line that shows it. */
  *out = cm_text_dup_clean (json_node_get_string (node), CM_TEXT_FIELD_MAX);
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

/* An optional list of strings: absent or null is none. */
static gboolean
read_strings (JsonObject  *object,
              const char  *member,
              GStrv       *out,
              GError     **error)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  JsonNode *node = json_object_get_member (object, member);
  JsonArray *array;

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return invalid (error, member);

  array = json_node_get_array (node);
  builder = g_strv_builder_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        return invalid (error, member);
      {
        g_autofree char *clean = cm_text_dup_clean (json_node_get_string (element), CM_TEXT_FIELD_MAX);

        g_strv_builder_add (builder, clean);
      }
    }
  *out = g_strv_builder_end (builder);
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
      !read_strings (object, "shared_bus_with", &test->shared_bus_with, error) ||
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
  double device_bytes;

  if (target == NULL)
    return invalid (error, "target");

  if (!read_string (target, "path", TRUE, &self->target_path, error) ||
      !read_string (target, "mode", FALSE, &self->target_mode, error) ||
      !read_string (target, "device", TRUE, &self->device, error) ||
      !read_string (target, "reader", TRUE, &self->reader, error) ||
      !read_string (target, "sighting", TRUE, &self->sighting, error) ||
      !read_string (target, "name", TRUE, &self->name, error) ||
      !read_string (target, "name_from", TRUE, &self->name_from, error) ||
      !read_string (target, "name_detail", TRUE, &self->name_detail, error) ||
      !read_string (target, "host", TRUE, &self->host, error) ||
      !read_string (target, "bus_timing", TRUE, &self->bus_timing, error) ||
      !read_string (target, "host_queueing", TRUE, &queueing, error) ||
      !read_number (target, "usb_speed_mbps", TRUE, &usb_speed, error) ||
      !read_number (target, "area_bytes", TRUE, &area, error) ||
      !read_number (target, "device_bytes", TRUE, &device_bytes, error))
    return FALSE;

  if (usb_speed > G_MAXINT32)
    return out_of_range (error, "usb_speed_mbps");

  self->usb_speed_mbps = (guint) usb_speed;
  self->area_bytes = (guint64) area;
  self->device_bytes = (guint64) device_bytes;
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

/* A positive number that is not beyond what a double holds exactly. */
static gboolean
read_finite (JsonObject  *object,
             const char  *member,
             double      *out,
             GError     **error)
{
  if (!read_number (object, member, FALSE, out, error))
    return FALSE;
  if (!(*out >= 0 && *out < 1e15))
    return invalid (error, member);
  return TRUE;
}

/* A kind's own part: the member named as the document's kind ("format",
 * "power"), kept as it is and read, member by member, by the kind's own
 * code (its cm-job-NAME.c), which treats it as hostile. The members the
 * document itself reads ("capacity", "verify", …) are never a part. */
static const char * const own_members[] = {
  "schema", "tool", "started", "profile", "summary", "kind", "target",
  "card", "tests", "claims", "notes", "verify", "capacity", "endurance",
  NULL,
};

static gboolean
read_part (CmResult    *self,
           JsonObject  *root,
           GError     **error)
{
  const char *kind = self->kind;  /* read_kind() checked it */
  JsonNode *node;

  if (kind == NULL || g_strv_contains (own_members, kind) ||
      !json_object_has_member (root, kind))
    return TRUE;
  node = json_object_get_member (root, kind);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return invalid (error, kind);
  self->part = json_node_copy (node);
  return TRUE;
}

/* "endurance" is optional: only a wear test writes it. Its thresholds
 * and first_error_round follow from its rounds and are worked out again
 * from them; the rounds must count up from 1 and add up. */
static gboolean
read_endurance (CmResult    *self,
                JsonObject  *root,
                GError     **error)
{
  g_autoptr(CmEndurance) e = NULL;
  JsonObject *object;
  JsonArray *rounds;

  if (!json_object_has_member (root, "endurance"))
    return TRUE;
  if ((object = get_object (root, "endurance")) == NULL)
    return invalid (error, "endurance");
  if ((rounds = get_array (object, "rounds")) == NULL)
    return invalid (error, "rounds");

  e = cm_endurance_new ();
  if (!read_string (object, "stopped", TRUE, &e->stopped, error) ||
      !read_strings (object, "shared_bus_with", &e->shared_bus_with, error))
    return FALSE;
  /* Optional, null when the maker's endurance was not given. */
  if (json_object_has_member (object, "maker_bytes") && !json_object_get_null_member (object, "maker_bytes"))
    {
      if (!read_verify_count (object, "maker_bytes", &e->maker_bytes, error))
        return FALSE;
      if (e->maker_bytes == 0)
        return invalid (error, "maker_bytes");
    }
  for (guint i = 0; i < json_array_get_length (rounds); i++)
    {
      JsonNode *node = json_array_get_element (rounds, i);
      JsonObject *o;
      CmWearRound r = { 0 };
      guint64 number;
      const CmWearRound *previous = i > 0 ? &g_array_index (e->rounds, CmWearRound, i - 1) : NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return invalid (error, "rounds");
      o = json_node_get_object (node);
      if (!read_verify_count (o, "round", &number, error) ||
          !read_finite (o, "write_mb_per_s", &r.write_mb_per_s, error) ||
          !read_finite (o, "read_mb_per_s", &r.read_mb_per_s, error) ||
          !read_verify_count (o, "sectors", &r.sectors, error) ||
          !read_verify_count (o, "bad_sectors", &r.bad_sectors, error) ||
          !read_verify_count (o, "new_bad_sectors", &r.new_bad_sectors, error) ||
          !read_verify_count (o, "bytes_written", &r.bytes_written, error) ||
          !read_finite (o, "seconds", &r.seconds, error))
        return FALSE;
      /* Optional: null, or absent in a document from before, where the
       * card did not tell; write_amplification is worked out again. */
      if (json_object_has_member (o, "flash_bytes_written") && !json_object_get_null_member (o, "flash_bytes_written"))
        {
          if (!read_verify_count (o, "flash_bytes_written", &r.flash_bytes_written, error))
            return FALSE;
          r.flash_known = TRUE;
        }
      if (number != i + 1)
        return invalid (error, "round");
      if (r.bad_sectors > r.sectors || r.new_bad_sectors > r.bad_sectors)
        return invalid (error, "bad_sectors");
      if (previous != NULL && r.bytes_written < previous->bytes_written)
        return invalid (error, "bytes_written");
      r.round = (guint) number;
      g_array_append_val (e->rounds, r);
    }

  self->endurance = g_steal_pointer (&e);
  return TRUE;
}

static gboolean
read_cell (JsonNode  *node,
           guint8    *out)
{
  const char *name;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;
  name = json_node_get_string (node);
  for (guint8 cell = 0; cell < CM_CAPACITY_N_CELL_STATES; cell++)
    if (g_str_equal (name, cm_capacity_cell_to_string (cell)))
      {
        *out = cell;
        return TRUE;
      }
  return FALSE;
}

static gboolean
read_flag (JsonObject  *object,
           const char  *member,
           gboolean    *out,
           GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return invalid (error, member);
  *out = json_node_get_boolean (node);
  return TRUE;
}

/* "capacity" is optional: only a capacity check writes it. Its counts
 * are bounded by the cells it lists and the sizes by each other, so a
 * damaged document cannot claim more than it shows. */
static gboolean
read_capacity (CmResult    *self,
               JsonObject  *root,
               GError     **error)
{
  g_autoptr(CmCapacityReport) report = NULL;
  guint64 positions, bad, errors;
  JsonObject *object;
  JsonArray *cells;

  if (!json_object_has_member (root, "capacity"))
    return TRUE;
  if ((object = get_object (root, "capacity")) == NULL)
    return invalid (error, "capacity");

  report = cm_capacity_report_new ();
  if (!read_verify_count (object, "reported_bytes", &report->reported_bytes, error) ||
      !read_verify_count (object, "real_bytes", &report->real_bytes, error) ||
      !read_verify_count (object, "last_good_bytes", &report->last_good_bytes, error) ||
      !read_flag (object, "fake", &report->fake, error) ||
      !read_verify_count (object, "positions", &positions, error) ||
      !read_verify_count (object, "bad_positions", &bad, error) ||
      !read_verify_count (object, "error_positions", &errors, error) ||
      !read_verify_count (object, "cache_ruled_out_bytes", &report->cache_ruled_out, error) ||
      !read_number (object, "seconds", FALSE, &report->seconds, error) ||
      !read_verify_count (object, "cell_bytes", &report->cell_bytes, error))
    return FALSE;
  if ((cells = get_array (object, "cells")) == NULL || json_array_get_length (cells) != positions)
    return invalid (error, "cells");
  if (report->real_bytes > report->reported_bytes || report->last_good_bytes > report->real_bytes)
    return invalid (error, "real_bytes");
  if (bad > positions || errors > bad)
    return invalid (error, "bad_positions");

  g_array_set_size (report->cells, positions);
  for (guint i = 0; i < positions; i++)
    if (!read_cell (json_array_get_element (cells, i), &g_array_index (report->cells, guint8, i)))
      return invalid (error, "cells");
  report->n_positions = (guint) positions;
  report->n_bad = (guint) bad;
  report->n_errors = (guint) errors;

  self->capacity = g_steal_pointer (&report);
  return TRUE;
}

/* "kind" came with the job kinds; older documents have none, and
 * cm_result_get_kind() tells from what they hold. */
static gboolean
read_kind (CmResult    *self,
           JsonObject  *root,
           GError     **error)
{
  g_clear_pointer (&self->kind, g_free);
  if (!json_object_has_member (root, "kind"))
    return TRUE;
  if (!read_string (root, "kind", FALSE, &self->kind, error))
    return FALSE;
  /* A name, not prose: lower-case letters and dashes. */
  for (const char *p = self->kind; *p; p++)
    if (!(g_ascii_islower (*p) || *p == '-'))
      return invalid (error, "kind");
  return *self->kind != '\0' || invalid (error, "kind");
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
      !read_verify (self, root, error) ||
      !read_capacity (self, root, error) ||
      !read_endurance (self, root, error) ||
      !read_kind (self, root, error) ||
      !read_part (self, root, error))
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
      g_ptr_array_add (self->notes, cm_text_dup_clean (json_node_get_string (note), CM_TEXT_FIELD_MAX));
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
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (data != NULL, NULL);

  /* A file from outside: bounded before json-glib parses it (cm-json.c). */
  if ((parser = cm_json_parse_data_bounded (data, length, &local_error)) == NULL)
    {
      if (local_error->domain == CM_JSON_ERROR)
        {
          g_set_error_literal (error, CM_RESULT_ERROR, CM_RESULT_ERROR_INVALID, local_error->message);
          return NULL;
        }
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

  if ((data = cm_json_read_file_bounded (file, &length, error)) == NULL)
    return NULL;

  return cm_result_new_from_data (data, length, error);
}
