/* cm-verify-state.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the verify's writer (cm-verify-run.c) and reader
 * (cm-verify-read.c) share: the run's state, the file it is kept in
 * between runs, progress and speed points, and how a .h2w file on the
 * card is opened. Both halves call this; it calls neither.
 *
 * The state file is trusted for nothing it cannot prove: it ends with a
 * SHA-256 of everything before it, names the card it belongs to, and
 * every number in it is bounded by that card. That it belongs to the
 * card in hand is proved by reading back (cm_verify_read_prove).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cm-verify-private.h"

#define CHUNK CM_VERIFY_CHUNK
#define MAX_POINTS 500         /* speed points per direction, as the run makes them */
#define MAX_REGIONS 256
#define REGION_GAP (1024 * 1024)
#define PROGRESS_EVERY_US (G_USEC_PER_SEC / 4)
#define STATE_VERSION 2
#define STATE_MAX_BYTES (1024 * 1024)
#define MAX_SECONDS (100.0 * 365 * 24 * 3600)

/* The last lines of a state file: "[checksum]\nsha256=" and 64 hex digits. */
#define TRAILER_HEAD "[checksum]\nsha256="
#define TRAILER_BYTES (sizeof TRAILER_HEAD - 1 + 64 + 1)

CmVerifyRun *
cm_verify_run_new (CmVerify     *self,
                   GCancellable *cancellable)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  CmVerifyRun *run = g_new0 (CmVerifyRun, 1);

  run->self = g_object_ref (self);
  run->context = g_main_context_ref_thread_default ();
  run->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  run->started = g_date_time_format_iso8601 (now);
  run->phase = CM_VERIFY_PHASE_WRITE;
  run->regions = g_array_new (FALSE, FALSE, sizeof (CmRegion));
  run->write_points = g_array_new (FALSE, FALSE, sizeof (CmPosition));
  run->read_points = g_array_new (FALSE, FALSE, sizeof (CmPosition));
  run->lengths = g_array_new (FALSE, TRUE, sizeof (guint64));
  run->numbers = g_array_new (FALSE, TRUE, sizeof (guint));
  run->skipped = g_ptr_array_new_with_free_func (g_free);
  run->resumed_file = -1;
  return run;
}

void
cm_verify_run_free (CmVerifyRun *run)
{
  g_clear_object (&run->self);
  g_clear_pointer (&run->context, g_main_context_unref);
  g_clear_object (&run->cancellable);
  g_free (run->started);
  g_clear_pointer (&run->regions, g_array_unref);
  g_clear_pointer (&run->write_points, g_array_unref);
  g_clear_pointer (&run->read_points, g_array_unref);
  g_clear_pointer (&run->lengths, g_array_unref);
  g_clear_pointer (&run->numbers, g_array_unref);
  g_clear_pointer (&run->skipped, g_ptr_array_unref);
  g_free (run->buffer);
  g_free (run);
}

guint64
cm_verify_run_file_base (CmVerifyRun *run,
                         guint        index)
{
  return (guint64) (g_array_index (run->numbers, guint, index) - 1) * run->self->file_bytes;
}

void
cm_verify_run_add_region (CmVerifyRun *run,
                          guint64      start,
                          guint64      end)
{
  CmRegion *last = run->regions->len > 0 ? &g_array_index (run->regions, CmRegion, run->regions->len - 1) : NULL;
  CmRegion region = { start, end };

  if (last != NULL && start >= last->start && start <= last->end + REGION_GAP)
    {
      last->end = MAX (last->end, end);
      return;
    }
  /* Past the bound, the last region grows to take the rest: the chart
   * and the report still show where trouble starts and how far it goes. */
  if (last != NULL && run->regions->len >= MAX_REGIONS)
    {
      last->end = MAX (last->end, end);
      return;
    }
  g_array_append_val (run->regions, region);
}

/* The state file: writing. */

static void
set_u64_list (GKeyFile   *key_file,
              const char *key,
              GArray     *array,
              guint       n_values)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) strv = NULL;

  for (guint i = 0; i < n_values; i++)
    {
      guint64 value = g_array_get_element_size (array) == sizeof (guint)
                      ? ((guint *) array->data)[i] : ((guint64 *) array->data)[i];
      char text[32];

      g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, value);
      g_strv_builder_add (builder, text);
    }
  strv = g_strv_builder_end (builder);
  g_key_file_set_string_list (key_file, "verify", key, (const char * const *) strv, g_strv_length (strv));
}

static void
set_points (GKeyFile   *key_file,
            const char *key,
            GArray     *points)
{
  /* GLib wants a list of at least one: none is an empty value. */
  if (points->len == 0)
    g_key_file_set_value (key_file, "verify", key, "");
  else
    g_key_file_set_double_list (key_file, "verify", key, (double *) points->data, points->len * 2);
}

/* The state as the file holds it, checksum included. Only the files
 * that hold data are named: a file the run was about to start is not
 * one yet, so the numbers and lengths always match the count. */
char *
cm_verify_state_to_data (CmVerifyRun *run,
                         gsize       *length)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autofree char *body = NULL;
  g_autofree char *sum = NULL;
  gsize body_length = 0;
  char *data;

  g_key_file_set_integer (key_file, "verify", "version", STATE_VERSION);
  g_key_file_set_string (key_file, "verify", "card", run->self->identity);
  g_key_file_set_uint64 (key_file, "verify", "card-bytes", run->self->card_bytes);
  g_key_file_set_integer (key_file, "verify", "mode", run->self->mode);
  g_key_file_set_string (key_file, "verify", "started", run->started);
  g_key_file_set_uint64 (key_file, "verify", "file-bytes", run->self->file_bytes);
  g_key_file_set_integer (key_file, "verify", "phase", run->phase);
  g_key_file_set_integer (key_file, "verify", "files", run->n_files);
  g_key_file_set_integer (key_file, "verify", "current-file", run->cur_file);
  g_key_file_set_uint64 (key_file, "verify", "current-offset", run->cur_offset);
  g_key_file_set_boolean (key_file, "verify", "full", run->full);
  g_key_file_set_boolean (key_file, "verify", "write-failed", run->write_failed);
  g_key_file_set_uint64 (key_file, "verify", "planned-bytes", run->planned_bytes);
  g_key_file_set_uint64 (key_file, "verify", "written-bytes", run->written_bytes);
  g_key_file_set_double (key_file, "verify", "write-seconds", run->write_seconds);
  g_key_file_set_uint64 (key_file, "verify", "read-bytes", run->read_bytes);
  g_key_file_set_double (key_file, "verify", "read-seconds", run->read_seconds);
  g_key_file_set_uint64 (key_file, "verify", "ok", run->counts.ok);
  g_key_file_set_uint64 (key_file, "verify", "corrupted", run->counts.corrupted);
  g_key_file_set_uint64 (key_file, "verify", "changed", run->counts.changed);
  g_key_file_set_uint64 (key_file, "verify", "overwritten", run->counts.overwritten);
  g_key_file_set_uint64 (key_file, "verify", "unreadable", run->unreadable);
  set_u64_list (key_file, "regions", run->regions, run->regions->len * 2);
  set_u64_list (key_file, "lengths", run->lengths, MIN (run->lengths->len, run->n_files));
  set_u64_list (key_file, "numbers", run->numbers, MIN (run->numbers->len, run->n_files));
  set_points (key_file, "write-points", run->write_points);
  set_points (key_file, "read-points", run->read_points);

  body = g_key_file_to_data (key_file, &body_length, NULL);
  sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) body, body_length);
  data = g_strconcat (body, TRAILER_HEAD, sum, "\n", NULL);
  *length = body_length + TRAILER_BYTES;
  return data;
}

/* Written whole or not at all (a new file renamed over the old), so a
 * stop at any moment leaves the last state or the one before. A
 * --read-only run keeps none: there is nothing to carry on. */
void
cm_verify_run_save_state (CmVerifyRun *run)
{
  g_autofree char *folder = g_path_get_dirname (run->self->state_path);
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;

  run->last_save = g_get_monotonic_time ();
  if (run->self->flags & CM_VERIFY_FLAGS_READ_ONLY)
    return;

  data = cm_verify_state_to_data (run, &length);
  if (g_mkdir_with_parents (folder, 0700) != 0 ||
      !g_file_set_contents_full (run->self->state_path, data, length,
                                 G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE, 0600, &error))
    g_warning ("Could not save the verify's progress to %s: %s", run->self->state_path,
               error ? error->message : g_strerror (errno));
}

/* The state file: reading, each value within what the card allows. */

typedef struct
{
  GKeyFile *key_file;
  gboolean  ok;
} Reader;

static guint64
get_u64 (Reader     *r,
         const char *key,
         guint64     max)
{
  g_autofree char *text = g_key_file_get_value (r->key_file, "verify", key, NULL);
  guint64 value = 0;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 0, max, &value, NULL))
    r->ok = FALSE;
  return value;
}

static double
get_seconds (Reader     *r,
             const char *key)
{
  g_autoptr(GError) error = NULL;
  double value = g_key_file_get_double (r->key_file, "verify", key, &error);

  if (error != NULL || !isfinite (value) || value < 0 || value > MAX_SECONDS)
    r->ok = FALSE;
  return value;
}

static gboolean
get_bool (Reader     *r,
          const char *key)
{
  g_autoptr(GError) error = NULL;
  gboolean value = g_key_file_get_boolean (r->key_file, "verify", key, &error);

  if (error != NULL)
    r->ok = FALSE;
  return value;
}

static void
get_u64_list (Reader     *r,
              const char *key,
              GArray     *array,
              gsize       max_values,
              guint64     max)
{
  gsize n = 0;
  g_autofree char *text = g_key_file_get_value (r->key_file, "verify", key, NULL);
  g_auto(GStrv) strv = NULL;

  /* An empty list is saved as an empty value. */
  if (text == NULL || text[0] == '\0')
    {
      r->ok = r->ok && text != NULL;
      return;
    }
  /* Numbers hold no escapes (see get_plain_string). */
  if (strchr (text, '\\') != NULL)
    {
      r->ok = FALSE;
      return;
    }
  strv = g_key_file_get_string_list (r->key_file, "verify", key, &n, NULL);
  if (strv == NULL || n > max_values)
    {
      r->ok = FALSE;
      return;
    }
  for (gsize i = 0; i < n; i++)
    {
      guint64 value = 0;

      if (!g_ascii_string_to_unsigned (strv[i], 10, 0, max, &value, NULL))
        {
          r->ok = FALSE;
          return;
        }
      if (g_array_get_element_size (array) == sizeof (guint))
        {
          guint small = (guint) value;
          g_array_append_val (array, small);
        }
      else
        g_array_append_val (array, value);
    }
}

static void
get_points (Reader     *r,
            const char *key,
            GArray     *points,
            guint64     span)
{
  gsize n = 0;
  g_autofree char *text = g_key_file_get_value (r->key_file, "verify", key, NULL);
  g_autofree double *values = NULL;

  if (text == NULL || text[0] == '\0')
    {
      r->ok = r->ok && text != NULL;
      return;
    }
  /* Numbers hold no escapes (see get_plain_string). */
  if (strchr (text, '\\') != NULL)
    {
      r->ok = FALSE;
      return;
    }
  values = g_key_file_get_double_list (r->key_file, "verify", key, &n, NULL);
  if (values == NULL)
    {
      r->ok = FALSE;
      return;
    }
  if (n % 2 != 0 || n / 2 > MAX_POINTS * 2)
    {
      r->ok = FALSE;
      return;
    }
  for (gsize i = 0; i < n; i += 2)
    if (!isfinite (values[i]) || values[i] < 0 || values[i] > span ||
        !isfinite (values[i + 1]) || values[i + 1] < 0 || values[i + 1] > 1e6)
      {
        r->ok = FALSE;
        return;
      }
  g_array_append_vals (points, values, n / 2);
}

/* Whether the files and the place the run stopped fit each other and the
 * card: numbers rising from 1, lengths within a file and the card,
 * offsets within what was written. */
static gboolean
places_fit (CmVerifyRun *run,
            guint64      max_number)
{
  CmVerify *self = run->self;
  guint64 total = 0;

  if (run->numbers->len != run->n_files || run->lengths->len != run->n_files || run->cur_file > run->n_files)
    return FALSE;
  for (guint i = 0; i < run->n_files; i++)
    {
      guint number = g_array_index (run->numbers, guint, i);
      guint64 length = g_array_index (run->lengths, guint64, i);

      if (number < 1 || number > max_number || (i > 0 && number <= g_array_index (run->numbers, guint, i - 1)) ||
          length > self->file_bytes || length % CM_VERIFY_SECTOR != 0)
        return FALSE;
      if (self->mode == CM_VERIFY_MODE_DEVICE &&
          (number != i + 1 || cm_verify_run_file_base (run, i) + length > self->card_bytes))
        return FALSE;
      total += length;
    }
  if (total > self->card_bytes || run->cur_offset % CM_VERIFY_SECTOR != 0)
    return FALSE;

  if (run->phase == CM_VERIFY_PHASE_WRITE)
    return run->cur_file == run->n_files
           ? run->cur_offset == 0
           : run->cur_file + 1 == run->n_files && run->cur_offset == g_array_index (run->lengths, guint64, run->cur_file);
  return run->cur_file == run->n_files
         ? run->cur_offset == 0
         : run->cur_offset <= g_array_index (run->lengths, guint64, run->cur_file);
}

static gboolean
counts_fit (CmVerifyRun *run,
            guint64      span)
{
  guint64 sectors = span / CM_VERIFY_SECTOR;
  guint64 total = 0;
  guint64 values[] = { run->counts.ok, run->counts.corrupted, run->counts.changed, run->counts.overwritten, run->unreadable };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      if (values[i] > sectors - total)
        return FALSE;
      total += values[i];
    }
  for (guint i = 0; i < run->regions->len; i++)
    {
      CmRegion *region = &g_array_index (run->regions, CmRegion, i);

      if (region->start >= region->end)
        return FALSE;
    }
  /* Every sector read was counted once. */
  return run->read_bytes <= run->planned_bytes &&
         (total - run->unreadable) * CM_VERIFY_SECTOR <= run->read_bytes;
}

/* A string as written, never through GLib 2.74's unescaping, which
 * sets one error over another at "\\x\\" ending a line: the card's name
 * and a time hold no escapes, so a backslash makes the file damaged. */
static char *
get_plain_string (Reader     *r,
                  const char *key)
{
  g_autofree char *text = g_key_file_get_value (r->key_file, "verify", key, NULL);

  if (text == NULL || strchr (text, '\\') != NULL)
    {
      r->ok = FALSE;
      return NULL;
    }
  return g_steal_pointer (&text);
}

static gboolean
damaged (CmVerifyRun  *run,
         GError      **error)
{
  g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_DAMAGED,
               _("The saved progress in %s is damaged, so it cannot be trusted. Run verify without --resume "
                 "(delete the .h2w files first), or delete %s."),
               run->self->state_path, run->self->state_path);
  return FALSE;
}

/**
 * cm_verify_state_parse:
 *
 * Reads a state file's @data into @run, whose verify already knows its
 * card (identity, size, mode). Refuses, as damaged, a file whose
 * checksum does not match what it holds or whose numbers do not fit the
 * card; as another card's, one that names another card.
 */
gboolean
cm_verify_state_parse (CmVerifyRun  *run,
                       const char   *data,
                       gsize         length,
                       GError      **error)
{
  CmVerify *self = run->self;
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autofree char *sum = NULL;
  g_autofree char *card = NULL;
  g_autoptr(GArray) ends = g_array_new (FALSE, FALSE, sizeof (guint64));
  Reader r = { key_file, TRUE };
  guint64 file_bytes, max_number, span;
  gsize body_length;

  if (length < TRAILER_BYTES || length > STATE_MAX_BYTES)
    return damaged (run, error);
  body_length = length - TRAILER_BYTES;
  sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, body_length);
  if (memcmp (data + body_length, TRAILER_HEAD, strlen (TRAILER_HEAD)) != 0 ||
      memcmp (data + body_length + strlen (TRAILER_HEAD), sum, 64) != 0 || data[length - 1] != '\n' ||
      !g_key_file_load_from_data (key_file, data, body_length, G_KEY_FILE_NONE, NULL) ||
      get_u64 (&r, "version", G_MAXUINT) != STATE_VERSION)
    return damaged (run, error);

  card = get_plain_string (&r, "card");
  if (g_strcmp0 (card, self->identity) != 0 || get_u64 (&r, "card-bytes", G_MAXUINT64) != self->card_bytes ||
      get_u64 (&r, "mode", CM_VERIFY_MODE_DEVICE) != (guint64) self->mode)
    {
      if (!r.ok)
        return damaged (run, error);
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_THIS_CARD,
                   _("The saved verify in %s does not belong to the card in %s: start again without --resume, or delete %s."),
                   self->state_path, self->path, self->state_path);
      return FALSE;
    }

  /* F3's files are 1 GiB; tests make them smaller, never larger. */
  file_bytes = get_u64 (&r, "file-bytes", CM_VERIFY_FILE_BYTES);
  if (!r.ok || file_bytes < CHUNK || file_bytes % CHUNK != 0)
    return damaged (run, error);
  self->file_bytes = file_bytes;
  max_number = self->card_bytes / file_bytes + 1;
  span = max_number * file_bytes;

  g_free (run->started);
  run->started = get_plain_string (&r, "started");
  r.ok = r.ok && run->started != NULL && strlen (run->started) < 64;
  run->phase = get_u64 (&r, "phase", CM_VERIFY_PHASE_READ);
  run->n_files = get_u64 (&r, "files", max_number);
  run->cur_file = get_u64 (&r, "current-file", max_number);
  run->cur_offset = get_u64 (&r, "current-offset", file_bytes);
  run->full = get_bool (&r, "full");
  run->write_failed = get_bool (&r, "write-failed");
  run->planned_bytes = get_u64 (&r, "planned-bytes", self->card_bytes);
  run->written_bytes = get_u64 (&r, "written-bytes", self->card_bytes);
  run->write_seconds = get_seconds (&r, "write-seconds");
  run->read_bytes = get_u64 (&r, "read-bytes", self->card_bytes);
  run->read_seconds = get_seconds (&r, "read-seconds");
  run->counts.ok = get_u64 (&r, "ok", span / CM_VERIFY_SECTOR);
  run->counts.corrupted = get_u64 (&r, "corrupted", span / CM_VERIFY_SECTOR);
  run->counts.changed = get_u64 (&r, "changed", span / CM_VERIFY_SECTOR);
  run->counts.overwritten = get_u64 (&r, "overwritten", span / CM_VERIFY_SECTOR);
  run->unreadable = get_u64 (&r, "unreadable", span / CM_VERIFY_SECTOR);
  g_array_set_size (run->regions, 0);
  g_array_set_size (run->lengths, 0);
  g_array_set_size (run->numbers, 0);
  g_array_set_size (run->write_points, 0);
  g_array_set_size (run->read_points, 0);
  get_u64_list (&r, "regions", ends, MAX_REGIONS * 2, span);
  r.ok = r.ok && ends->len % 2 == 0;
  /* Start and end, a CmRegion of two numbers. */
  g_array_append_vals (run->regions, ends->data, ends->len / 2);
  get_u64_list (&r, "lengths", run->lengths, max_number, file_bytes);
  get_u64_list (&r, "numbers", run->numbers, max_number, max_number);
  get_points (&r, "write-points", run->write_points, span);
  get_points (&r, "read-points", run->read_points, span);

  if (!r.ok || !places_fit (run, max_number) || !counts_fit (run, span))
    return damaged (run, error);
  return TRUE;
}

gboolean
cm_verify_state_load (CmVerifyRun  *run,
                      GError      **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;
  GStatBuf st;

  /* A state file is small: anything large is not one of ours. */
  if (g_lstat (run->self->state_path, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size > STATE_MAX_BYTES ||
      !g_file_get_contents (run->self->state_path, &data, &length, NULL))
    return damaged (run, error);
  return cm_verify_state_parse (run, data, length, error);
}

/* Progress, on the main context. */

typedef struct
{
  CmVerify *self;
  guint     phase;
  double    fraction;
  double    mb_per_s;
  double    seconds_left;
} Progress;

static gboolean
emit_progress_cb (gpointer data)
{
  Progress *p = data;

  /* By name: the verify owns the signal, and this file only relays. */
  g_signal_emit_by_name (p->self, "progress", p->phase, p->fraction, p->mb_per_s, p->seconds_left);
  return G_SOURCE_REMOVE;
}

static void
progress_free (gpointer data)
{
  Progress *p = data;

  g_object_unref (p->self);
  g_free (p);
}

void
cm_verify_run_report_progress (CmVerifyRun *run,
                               gboolean     force)
{
  gint64 now = g_get_monotonic_time ();
  Progress *p;
  double write_rate, read_rate, total, done, left;

  if (!force && now - run->last_progress < PROGRESS_EVERY_US)
    return;
  run->last_progress = now;

  write_rate = run->write_seconds > 0 ? run->written_bytes / run->write_seconds : 0;
  read_rate = run->read_seconds > 0 ? run->read_bytes / run->read_seconds : write_rate;
  total = run->planned_bytes * 2.0;
  done = MIN (run->written_bytes, run->planned_bytes) + run->read_bytes;
  if (run->phase == CM_VERIFY_PHASE_WRITE)
    left = write_rate > 0 ? (run->planned_bytes - MIN (run->written_bytes, run->planned_bytes)) / write_rate +
                            run->planned_bytes / (read_rate > 0 ? read_rate : write_rate) : -1;
  else
    left = read_rate > 0 ? (run->planned_bytes - MIN (run->read_bytes, run->planned_bytes)) / read_rate : -1;

  p = g_new0 (Progress, 1);
  p->self = g_object_ref (run->self);
  p->phase = run->phase;
  p->fraction = total > 0 ? CLAMP (done / total, 0, 1) : 0;
  p->mb_per_s = (run->phase == CM_VERIFY_PHASE_WRITE ? write_rate : read_rate) / 1e6;
  p->seconds_left = left;
  g_main_context_invoke_full (run->context, G_PRIORITY_DEFAULT, emit_progress_cb, p, progress_free);
}

/* One point of the speed chart every run->bucket bytes. */
void
cm_verify_run_account (CmVerifyRun *run,
                       GArray      *points,
                       guint64      offset,
                       guint64      bytes,
                       double       seconds)
{
  if (run->point_bytes == 0)
    run->point_start = offset;
  run->point_bytes += bytes;
  run->point_seconds += seconds;
  if (run->point_bytes >= run->bucket)
    {
      CmPosition p = { (double) run->point_start, run->point_seconds > 0 ? run->point_bytes / run->point_seconds / 1e6 : 0 };

      g_array_append_val (points, p);
      run->point_bytes = 0;
      run->point_seconds = 0;
    }
}

void
cm_verify_run_flush_point (CmVerifyRun *run,
                           GArray      *points)
{
  if (run->point_bytes > 0 && run->point_seconds > 0)
    {
      CmPosition p = { (double) run->point_start, run->point_bytes / run->point_seconds / 1e6 };

      g_array_append_val (points, p);
    }
  run->point_bytes = 0;
  run->point_seconds = 0;
}

gboolean
cm_verify_is_removed (int errsv)
{
  return errsv == ENODEV || errsv == ENXIO || errsv == ENOMEDIUM;
}

/* Whether the card under the run went away: its node is gone, its size is
 * 0 (a reader whose card was pulled), or, for a loop device, its backing
 * file no longer answers (a simulated card whose daemon is gone). An I/O
 * error then means "put it back and carry on", not "the card is failing". */
gboolean
cm_verify_run_card_gone (CmVerifyRun *run)
{
  const char *path = run->self->mode == CM_VERIFY_MODE_DEVICE ? run->self->device : run->self->folder;
  g_autofree char *sys = NULL;
  g_autofree char *size = NULL;
  g_autofree char *backing = NULL;
  g_autofree char *size_path = NULL;
  g_autofree char *backing_path = NULL;
  struct stat st, backing_st;
  dev_t dev;

  if (path == NULL || stat (path, &st) != 0)
    return TRUE;
  dev = S_ISBLK (st.st_mode) ? st.st_rdev : st.st_dev;
  sys = g_strdup_printf ("/sys/dev/block/%u:%u", major (dev), minor (dev));
  size_path = g_build_filename (sys, "size", NULL);
  if (g_file_get_contents (size_path, &size, NULL, NULL) && g_ascii_strtoull (size, NULL, 10) == 0)
    return TRUE;
  /* A partition's loop device is its parent. */
  backing_path = g_build_filename (sys, "loop", "backing_file", NULL);
  if (!g_file_test (backing_path, G_FILE_TEST_EXISTS))
    {
      g_free (backing_path);
      backing_path = g_build_filename (sys, "..", "loop", "backing_file", NULL);
    }
  if (g_file_get_contents (backing_path, &backing, NULL, NULL))
    return stat (g_strchomp (backing), &backing_st) != 0;
  return FALSE;
}

gboolean
cm_verify_run_stop_error (CmVerifyRun *run,
                          int          errsv,
                          GError     **error)
{
  cm_verify_run_save_state (run);
  if (cm_verify_is_removed (errsv))
    g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_REMOVED,
                 _("The card was removed. Put it back and carry on with --resume: what was done is kept."));
  else
    g_propagate_error (error, cm_target_error_from_errno (errsv, NULL));
  return FALSE;
}

gboolean
cm_verify_run_cancelled (CmVerifyRun *run,
                         GError     **error)
{
  if (!g_cancellable_is_cancelled (run->cancellable))
    return FALSE;
  cm_verify_run_save_state (run);
  g_cancellable_set_error_if_cancelled (run->cancellable, error);
  return TRUE;
}

static int
open_at (CmVerifyRun *run,
         const char  *name,
         int          flags)
{
  int fd;

  if (run->direct)
    {
      fd = openat (run->self->dir_fd, name, flags | O_DIRECT | O_NOFOLLOW | O_CLOEXEC, 0644);
      /* tmpfs and some FUSE filesystems refuse O_DIRECT. */
      if (fd >= 0 || errno != EINVAL)
        return fd;
      run->direct = FALSE;
    }
  return openat (run->self->dir_fd, name, flags | O_NOFOLLOW | O_CLOEXEC, 0644);
}

static void
set_not_a_file (CmVerifyRun  *run,
                const char   *name,
                gboolean      appeared,
                GError      **error)
{
  if (appeared)
    g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_A_FILE,
                 _("%s appeared in %s while the verify ran, and the verify did not make it: CardMark stopped rather "
                   "than write to it. Remove it, then carry on with --resume."),
                 name, run->self->folder);
  else
    g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_A_FILE,
                 _("%s in %s is a link or not a file on the card: CardMark neither writes through it nor judges "
                   "the card by it. Remove it, then carry on with --resume."),
                 name, run->self->folder);
}

/**
 * cm_verify_run_open_file:
 *
 * Opens N.h2w (@number) in the card's folder, relative to the folder's
 * descriptor and never through a link; with O_CREAT, only a new file
 * (O_EXCL) unless it is the one a resumed run carries on in. What is
 * opened must be a regular file on the card's filesystem. -1 with
 * @error when it is not; -1 with errno (and no @error) when the open
 * itself failed.
 */
int
cm_verify_run_open_file (CmVerifyRun  *run,
                         guint         number,
                         int           flags,
                         GError      **error)
{
  g_autofree char *name = g_strdup_printf ("%u.h2w", number);
  struct stat st;
  int fd;

  if ((flags & O_CREAT) &&
      !(run->resumed_file >= 0 && (guint) run->resumed_file < run->numbers->len &&
        g_array_index (run->numbers, guint, run->resumed_file) == number))
    flags |= O_EXCL;

  fd = open_at (run, name, flags);
  if (fd < 0 && (errno == ELOOP || errno == EEXIST || errno == ENOTDIR))
    {
      set_not_a_file (run, name, errno == EEXIST, error);
      errno = EPERM;
      return -1;
    }
  if (fd < 0)
    return -1;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_dev != run->self->folder_dev)
    {
      close (fd);
      set_not_a_file (run, name, FALSE, error);
      errno = EPERM;
      return -1;
    }
  return fd;
}
