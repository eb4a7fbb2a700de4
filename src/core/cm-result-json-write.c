/* cm-result-json-write.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writes a result in its JSON form (docs/result-format.md), to a tree, to
 * text, or to a file. The GUI, the CLI, the history and the exports all
 * read and write this format; cm-result-json-read.c reads it back.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "cm-file.h"
#include "cm-json.h"
#include "cm-result-private.h"


/* The latency scatter as the charts draw it, so a document stays small
 * (a quick benchmark's was 1 MB, half of it these points): at most
 * SCATTER_WRITE_MAX points a test, evenly thinned as the engine thins
 * them; a time to 1/128 s, which a double prints in a few digits, where
 * a float's 17 digits were noise; a latency to the whole microsecond,
 * the least the chart draws. The measured percentiles come from every
 * command and are written apart, unchanged. */
#define SCATTER_WRITE_MAX 1000
#define SCATTER_T_STEPS   128.0

static void
add_latency_scatter (JsonBuilder  *builder,
                     const GArray *scatter)
{
  guint stride = (scatter->len + SCATTER_WRITE_MAX - 1) / SCATTER_WRITE_MAX;

  json_builder_set_member_name (builder, "latency_scatter");
  json_builder_begin_array (builder);
  for (guint i = 0; i < scatter->len; i += MAX (stride, 1))
    {
      const CmLatencyPoint *p = &g_array_index (scatter, CmLatencyPoint, i);

      json_builder_begin_array (builder);
      json_builder_add_double_value (builder, round (p->t * SCATTER_T_STEPS) / SCATTER_T_STEPS);
      json_builder_add_int_value (builder, MAX (1, (gint64) round (p->us)));
      json_builder_end_array (builder);
    }
  json_builder_end_array (builder);
}

/* The cards that moved data on the bus beside a bulk test; left out
 * when none did. */
static void
add_shared_bus_with (JsonBuilder        *builder,
                     const char * const *devices)
{
  if (devices == NULL || devices[0] == NULL)
    return;
  json_builder_set_member_name (builder, "shared_bus_with");
  json_builder_begin_array (builder);
  for (guint i = 0; devices[i] != NULL; i++)
    json_builder_add_string_value (builder, devices[i]);
  json_builder_end_array (builder);
}

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

  add_latency_scatter (builder, test->scatter);

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

  add_shared_bus_with (builder, (const char * const *) test->shared_bus_with);
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

/* A count, or null while the threshold was not reached. */
static void
add_count_or_null (JsonBuilder *builder,
                   const char  *member,
                   gboolean     known,
                   guint64      value)
{
  json_builder_set_member_name (builder, member);
  if (known)
    json_builder_add_int_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* What the card says it wrote to its flash in the round, and that ÷
 * what the round wrote: null where the card did not tell. */
static void
add_flash_written (JsonBuilder       *builder,
                   const CmWearRound *r,
                   const CmWearRound *previous)
{
  guint64 wrote = r->bytes_written - (previous != NULL ? previous->bytes_written : 0);

  add_count_or_null (builder, "flash_bytes_written", r->flash_known, r->flash_bytes_written);
  json_builder_set_member_name (builder, "write_amplification");
  if (r->flash_known && wrote > 0)
    json_builder_add_double_value (builder, (double) r->flash_bytes_written / wrote);
  else
    json_builder_add_null_value (builder);
}

static void
build_endurance (JsonBuilder       *builder,
                 const CmEndurance *e)
{
  guint first = 0;
  gboolean lost = cm_endurance_get_threshold (e, 0, &first, NULL);

  json_builder_set_member_name (builder, "endurance");
  json_builder_begin_object (builder);
  add_count_or_null (builder, "first_error_round", lost, first);
  cm_json_add_string (builder, "stopped", e->stopped);
  add_count_or_null (builder, "maker_bytes", e->maker_bytes > 0, e->maker_bytes);
  json_builder_set_member_name (builder, "thresholds");
  json_builder_begin_array (builder);
  for (guint i = 0; i < CM_ENDURANCE_N_THRESHOLDS; i++)
    {
      guint round = 0;
      guint64 bytes = 0;
      gboolean reached = cm_endurance_get_threshold (e, i, &round, &bytes);

      json_builder_begin_object (builder);
      cm_json_add_double (builder, "bad_share", cm_endurance_threshold_share (i));
      add_count_or_null (builder, "round", reached, round);
      add_count_or_null (builder, "bytes_written", reached, bytes);
      json_builder_set_member_name (builder, "maker_share");
      if (reached && e->maker_bytes > 0)
        json_builder_add_double_value (builder, (double) bytes / e->maker_bytes);
      else
        json_builder_add_null_value (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "rounds");
  json_builder_begin_array (builder);
  for (guint i = 0; i < e->rounds->len; i++)
    {
      const CmWearRound *r = &g_array_index (e->rounds, CmWearRound, i);

      json_builder_begin_object (builder);
      cm_json_add_int (builder, "round", r->round);
      cm_json_add_double (builder, "write_mb_per_s", r->write_mb_per_s);
      cm_json_add_double (builder, "read_mb_per_s", r->read_mb_per_s);
      cm_json_add_int (builder, "sectors", r->sectors);
      cm_json_add_int (builder, "bad_sectors", r->bad_sectors);
      cm_json_add_int (builder, "new_bad_sectors", r->new_bad_sectors);
      cm_json_add_int (builder, "bytes_written", r->bytes_written);
      cm_json_add_double (builder, "seconds", r->seconds);
      add_flash_written (builder, r, i > 0 ? &g_array_index (e->rounds, CmWearRound, i - 1) : NULL);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  add_shared_bus_with (builder, (const char * const *) e->shared_bus_with);
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

static void
build_capacity (JsonBuilder            *builder,
                const CmCapacityReport *report)
{
  json_builder_set_member_name (builder, "capacity");
  json_builder_begin_object (builder);
  cm_json_add_int (builder, "reported_bytes", report->reported_bytes);
  cm_json_add_int (builder, "real_bytes", report->real_bytes);
  cm_json_add_int (builder, "last_good_bytes", report->last_good_bytes);
  cm_json_add_boolean (builder, "fake", report->fake);
  cm_json_add_int (builder, "positions", report->n_positions);
  cm_json_add_int (builder, "bad_positions", report->n_bad);
  cm_json_add_int (builder, "error_positions", report->n_errors);
  cm_json_add_int (builder, "cache_ruled_out_bytes", report->cache_ruled_out);
  cm_json_add_double (builder, "seconds", report->seconds);
  cm_json_add_int (builder, "cell_bytes", report->cell_bytes);
  json_builder_set_member_name (builder, "cells");
  json_builder_begin_array (builder);
  for (guint i = 0; i < report->cells->len; i++)
    json_builder_add_string_value (builder, cm_capacity_cell_to_string (g_array_index (report->cells, guint8, i)));
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

/* The capacity check's findings alone, as `probe-capacity --json` has
 * always printed them: the member of the document, unwrapped. */
JsonNode *
cm_capacity_report_to_json (const CmCapacityReport *report)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  JsonNode *root;

  g_return_val_if_fail (report != NULL, NULL);

  json_builder_begin_object (builder);
  build_capacity (builder, report);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  {
    JsonNode *member = json_node_copy (json_object_get_member (json_node_get_object (root), "capacity"));

    json_node_unref (root);
    return member;
  }
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
  cm_json_add_string (builder, "kind", cm_result_get_kind (self));
  cm_json_add_string (builder, "tool", self->tool);
  cm_json_add_string (builder, "started", started);

  json_builder_set_member_name (builder, "target");
  json_builder_begin_object (builder);
  cm_json_add_string (builder, "path", self->target_path);
  cm_json_add_string (builder, "mode", self->target_mode);
  cm_json_add_string (builder, "device", self->device);
  cm_json_add_string (builder, "reader", self->reader);
  if (self->sighting != NULL)
    cm_json_add_string (builder, "sighting", self->sighting);
  cm_json_add_positive_int (builder, "usb_speed_mbps", self->usb_speed_mbps);
  cm_json_add_positive_int (builder, "area_bytes", self->area_bytes);
  cm_json_add_positive_int (builder, "device_bytes", self->device_bytes);
  cm_json_add_string (builder, "host", self->host);
  cm_json_add_string (builder, "bus_timing", self->bus_timing);
  cm_json_add_string (builder, "host_queueing", cm_queueing_to_string (self->host_queueing));
  cm_json_add_string (builder, "name", self->name);
  if (self->name_from != NULL)
    {
      cm_json_add_string (builder, "name_from", self->name_from);
      cm_json_add_string (builder, "name_detail", self->name_detail);
    }
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
  if (self->capacity != NULL)
    build_capacity (builder, self->capacity);
  if (self->endurance != NULL)
    build_endurance (builder, self->endurance);
  if (self->part != NULL && self->kind != NULL)
    {
      json_builder_set_member_name (builder, self->kind);
      json_builder_add_value (builder, json_node_copy (self->part));
    }

  json_builder_set_member_name (builder, "notes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->notes->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (self->notes, i));
  json_builder_end_array (builder);

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static char *
to_data (CmResult *self,
         gboolean  pretty,
         gsize    *length)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = cm_result_to_json (self);

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, pretty);

  return json_generator_to_data (generator, length);
}

char *
cm_result_to_data (CmResult *self,
                   gsize    *length)
{
  g_return_val_if_fail (CM_IS_RESULT (self), NULL);

  return to_data (self, TRUE, length);
}

/* Writes to a temporary file and renames it over @file, so a crash or a
 * full disk never leaves half a result behind. */
static gboolean
save (CmResult  *self,
      GFile     *file,
      gboolean   pretty,
      GError   **error)
{
  g_autofree char *data = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  GError *local_error = NULL;
  gboolean existed;
  gsize length;

  data = to_data (self, pretty, &length);
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

gboolean
cm_result_save (CmResult  *self,
                GFile     *file,
                GError   **error)
{
  g_return_val_if_fail (CM_IS_RESULT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  return save (self, file, TRUE, error);
}

/* On one line, for the history: the indentation of a pretty document was
 * more than half of it, and a history keeps thousands. */
gboolean
cm_result_save_compact (CmResult  *self,
                        GFile     *file,
                        GError   **error)
{
  g_return_val_if_fail (CM_IS_RESULT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  return save (self, file, FALSE, error);
}
