/* cm-wear-state.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where a wear test stood when it stopped, kept on the computer's disk
 * so that it carries on from that round and place: the rounds it
 * finished, the round under way (its phase, the regions done, what they
 * counted), the sectors that ever came back wrong, the bytes written and
 * the time spent. The file is the full verify's kind (cm-state-file.c):
 * sealed with a SHA-256, named after the card (size and serial), and
 * every number in it bounded by the card. The sectors that ever came
 * back wrong are a bitmap of the card in a file of their own, named
 * after its SHA-256, which the state names: it is only written when it
 * changed, and a state never points at a bitmap that is not its own.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cm-state-file.h"
#include "cm-verify-private.h"
#include "cm-wear-state.h"

/* The place a stopped wear test reached (cm-wear.h). */

void
cm_wear_place_init (CmWearPlace *place,
                    guint64      sectors)
{
  memset (place, 0, sizeof *place);
  place->round = 1;
  place->failed = g_array_new (FALSE, FALSE, sizeof (guint64));
  place->ever_bad = g_malloc0 ((sectors + 7) / 8);
  place->endurance = cm_endurance_new ();
}

void
cm_wear_place_clear (CmWearPlace *place)
{
  g_clear_pointer (&place->failed, g_array_unref);
  g_clear_pointer (&place->ever_bad, g_free);
  g_clear_pointer (&place->endurance, cm_endurance_free);
}

char *
cm_wear_place_describe (const CmWearPlace *place,
                        guint64            size)
{
  guint64 n_chunks = (size + CM_VERIFY_CHUNK - 1) / CM_VERIFY_CHUNK;
  double share = n_chunks > 0 ? 100.0 * place->place / n_chunks : 0;

  g_autofree char *at = NULL;
  g_autofree char *total = NULL;

  if (place->reading)
    /* Translators: "round 3, reading back, 40 % checked" */
    return g_strdup_printf (_("round %u, reading back, %.0f %% checked"), place->round, share);
  at = g_format_size (MIN (place->place * CM_VERIFY_CHUNK, size));
  total = g_format_size (size);
  /* Translators: "round 3, writing, at 1.2 GB of 16 GB" */
  return g_strdup_printf (_("round %u, writing, at %s of %s"), place->round, at, total);
}

/* The bytes written by @place, all rounds together. */
guint64
cm_wear_place_bytes_written (const CmWearPlace *place,
                             guint64            size)
{
  guint64 done = (guint64) place->endurance->rounds->len * size;

  if (place->reading)
    return done + size;
  return done + MIN (place->place * CM_VERIFY_CHUNK, size);
}

#define GROUP "wear"
#define STATE_VERSION 1
#define STATE_MAX_BYTES (16 * 1024 * 1024)
#define MAX_ROUNDS 100000
#define MAX_SECONDS (100.0 * 365 * 24 * 3600)
#define MAX_MB_PER_S 1e6
#define MAX_STARTED G_GINT64_CONSTANT (253402300799)  /* 9999-12-31 */
#define MAX_SHARED 64
#define MAX_MAKER_BYTES G_GUINT64_CONSTANT (1000000000000000000)  /* 10^6 TB, as cm_endurance_maker_bytes_from() */          /* cards named as sharing the bus */
#define NO_BITMAP "none"

struct _CmWearState
{
  char    *device;
  char    *identity;
  guint64  card_bytes;
  char    *path;
  char    *stem;          /* the path without ".ini", for the bitmap's name */
  guint64  saved_bad;     /* sectors the last saved bitmap holds */
  char    *saved_sum;     /* and its SHA-256, or NULL */
};

CmWearState *
cm_wear_state_new (const char *device,
                   guint64     card_bytes,
                   const char *folder)
{
  CmWearState *state;
  g_autofree char *default_folder = NULL;
  g_autofree char *file = NULL;

  g_return_val_if_fail (device != NULL, NULL);

  state = g_new0 (CmWearState, 1);
  state->device = g_strdup (device);
  state->card_bytes = card_bytes;
  state->identity = cm_state_file_card_identity (device, card_bytes);
  if (folder == NULL)
    folder = default_folder = cm_state_file_folder ("wear");
  state->stem = g_build_filename (folder, state->identity, NULL);
  state->path = g_strconcat (state->stem, ".ini", NULL);
  return state;
}

void
cm_wear_state_free (CmWearState *state)
{
  if (state == NULL)
    return;
  g_free (state->device);
  g_free (state->identity);
  g_free (state->path);
  g_free (state->stem);
  g_free (state->saved_sum);
  g_free (state);
}

const char *
cm_wear_state_get_path (CmWearState *state)
{
  g_return_val_if_fail (state != NULL, NULL);

  return state->path;
}

const char *
cm_wear_state_get_device (CmWearState *state)
{
  g_return_val_if_fail (state != NULL, NULL);

  return state->device;
}

gboolean
cm_wear_state_exists (CmWearState *state)
{
  g_return_val_if_fail (state != NULL, FALSE);

  return g_file_test (state->path, G_FILE_TEST_EXISTS);
}

static guint64
sectors_of (CmWearState *state)
{
  return state->card_bytes / CM_VERIFY_SECTOR;
}

static gsize
bitmap_bytes (CmWearState *state)
{
  return (sectors_of (state) + 7) / 8;
}

static char *
bitmap_path (CmWearState *state,
             const char  *sum)
{
  return g_strdup_printf ("%s-%.16s.bad", state->stem, sum);
}

static guint64
ever_bad_count (const CmWearPlace *place)
{
  guint64 n = place->round_new_bad;

  for (guint i = 0; i < place->endurance->rounds->len; i++)
    n += g_array_index (place->endurance->rounds, CmWearRound, i).new_bad_sectors;
  return n;
}

/* The bitmap's file, written only when it gained sectors since the last
 * save (bits are only ever set, so the count says whether it changed). */
static gboolean
save_bitmap (CmWearState        *state,
             const CmWearPlace  *place,
             char              **sum,
             GError            **error)
{
  guint64 bad = ever_bad_count (place);
  g_autofree char *path = NULL;

  if (bad == 0)
    {
      *sum = g_strdup (NO_BITMAP);
      return TRUE;
    }
  if (state->saved_sum != NULL && state->saved_bad == bad)
    {
      *sum = g_strdup (state->saved_sum);
      return TRUE;
    }
  *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, place->ever_bad, bitmap_bytes (state));
  path = bitmap_path (state, *sum);
  return cm_state_file_write (path, (const char *) place->ever_bad, bitmap_bytes (state), error);
}

static void
set_rounds (GKeyFile          *key_file,
            const CmWearPlace *place)
{
  GArray *rounds = place->endurance->rounds;
  g_autofree double *write = g_new (double, rounds->len + 1);
  g_autofree double *read = g_new (double, rounds->len + 1);
  g_autofree double *seconds = g_new (double, rounds->len + 1);
  g_autoptr(GArray) bad = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) fresh = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint i = 0; i < rounds->len; i++)
    {
      const CmWearRound *r = &g_array_index (rounds, CmWearRound, i);

      write[i] = r->write_mb_per_s;
      read[i] = r->read_mb_per_s;
      seconds[i] = r->seconds;
      g_array_append_val (bad, r->bad_sectors);
      g_array_append_val (fresh, r->new_bad_sectors);
    }
  g_key_file_set_integer (key_file, GROUP, "rounds-done", rounds->len);
  cm_state_file_set_double_list (key_file, GROUP, "write-mb-per-s", write, rounds->len);
  cm_state_file_set_double_list (key_file, GROUP, "read-mb-per-s", read, rounds->len);
  cm_state_file_set_double_list (key_file, GROUP, "seconds", seconds, rounds->len);
  cm_state_file_set_u64_list (key_file, GROUP, "bad-sectors", bad, bad->len);
  cm_state_file_set_u64_list (key_file, GROUP, "new-bad-sectors", fresh, fresh->len);
}

gboolean
cm_wear_state_save (CmWearState        *state,
                    const CmWearPlace  *place,
                    GError            **error)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autofree char *sum = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;

  g_return_val_if_fail (state != NULL && place != NULL, FALSE);

  if (!save_bitmap (state, place, &sum, error))
    return FALSE;
  g_key_file_set_integer (key_file, GROUP, "version", STATE_VERSION);
  g_key_file_set_string (key_file, GROUP, "card", state->identity);
  g_key_file_set_uint64 (key_file, GROUP, "card-bytes", state->card_bytes);
  g_key_file_set_integer (key_file, GROUP, "round", place->round);
  g_key_file_set_integer (key_file, GROUP, "phase", place->reading ? CM_VERIFY_PHASE_READ : CM_VERIFY_PHASE_WRITE);
  g_key_file_set_uint64 (key_file, GROUP, "place", place->place);
  g_key_file_set_uint64 (key_file, GROUP, "round-bad-sectors", place->round_bad);
  g_key_file_set_uint64 (key_file, GROUP, "round-new-bad-sectors", place->round_new_bad);
  g_key_file_set_double (key_file, GROUP, "round-write-seconds", place->round_write_seconds);
  g_key_file_set_double (key_file, GROUP, "round-read-seconds", place->round_read_seconds);
  cm_state_file_set_u64_list (key_file, GROUP, "failed-regions", place->failed, place->failed->len);
  g_key_file_set_uint64 (key_file, GROUP, "bytes-written", cm_wear_place_bytes_written (place, state->card_bytes));
  g_key_file_set_double (key_file, GROUP, "elapsed-seconds", place->elapsed);
  g_key_file_set_int64 (key_file, GROUP, "started", place->started);
  g_key_file_set_uint64 (key_file, GROUP, "maker-bytes", place->endurance->maker_bytes);
  g_key_file_set_string (key_file, GROUP, "ever-bad", sum);
  set_rounds (key_file, place);
  if (place->endurance->shared_bus_with != NULL)
    g_key_file_set_string_list (key_file, GROUP, "shared-bus-with",
                                (const char * const *) place->endurance->shared_bus_with,
                                g_strv_length (place->endurance->shared_bus_with));

  data = cm_state_file_seal (key_file, &length);
  if (!cm_state_file_write (state->path, data, length, error))
    return FALSE;

  /* The bitmap the state named before is no one's now. */
  if (state->saved_sum != NULL && strcmp (state->saved_sum, sum) != 0)
    {
      g_autofree char *old = bitmap_path (state, state->saved_sum);

      g_unlink (old);
    }
  g_clear_pointer (&state->saved_sum, g_free);
  if (strcmp (sum, NO_BITMAP) != 0)
    state->saved_sum = g_steal_pointer (&sum);
  state->saved_bad = ever_bad_count (place);
  return TRUE;
}

static gboolean
damaged (CmWearState  *state,
         GError      **error)
{
  g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_DAMAGED,
               _("The saved wear test in %s is damaged, so it cannot be trusted, and nothing was written. "
                 "Delete %s, then start a new wear test."),
               state->path, state->path);
  return FALSE;
}

/* The finished rounds, each within the card: round numbers follow from
 * their place, every one wrote the whole card. */
static gboolean
read_rounds (CmWearState   *state,
             CmStateReader *r,
             CmWearPlace   *place)
{
  guint64 sectors = sectors_of (state);
  guint64 n = cm_state_reader_u64 (r, "rounds-done", MAX_ROUNDS);
  g_autoptr(GArray) bad = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) fresh = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autofree double *write = NULL, *read = NULL, *seconds = NULL;
  gsize n_write = 0, n_read = 0, n_seconds = 0;

  write = cm_state_reader_double_list (r, "write-mb-per-s", MAX_ROUNDS, MAX_MB_PER_S, &n_write);
  read = cm_state_reader_double_list (r, "read-mb-per-s", MAX_ROUNDS, MAX_MB_PER_S, &n_read);
  seconds = cm_state_reader_double_list (r, "seconds", MAX_ROUNDS, MAX_SECONDS, &n_seconds);
  cm_state_reader_u64_list (r, "bad-sectors", bad, MAX_ROUNDS, sectors);
  cm_state_reader_u64_list (r, "new-bad-sectors", fresh, MAX_ROUNDS, sectors);
  if (!r->ok || n_write != n || n_read != n || n_seconds != n || bad->len != n || fresh->len != n)
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      CmWearRound round = {
        .round = i + 1,
        .write_mb_per_s = write[i],
        .read_mb_per_s = read[i],
        .sectors = sectors,
        .bad_sectors = g_array_index (bad, guint64, i),
        .new_bad_sectors = g_array_index (fresh, guint64, i),
        .bytes_written = (guint64) (i + 1) * sectors * CM_VERIFY_SECTOR,
        .seconds = seconds[i],
      };

      /* In round 1 every bad sector is new. */
      if (round.new_bad_sectors > round.bad_sectors || (i == 0 && round.new_bad_sectors != round.bad_sectors))
        return FALSE;
      g_array_append_val (place->endurance->rounds, round);
    }
  return TRUE;
}

static gboolean
read_bitmap (CmWearState *state,
             const char  *sum,
             CmWearPlace *place)
{
  g_autofree char *path = NULL;
  g_autofree char *data = NULL;
  g_autofree char *actual = NULL;
  guint64 sectors = sectors_of (state), count = 0;
  gsize length = 0;

  if (strcmp (sum, NO_BITMAP) == 0)
    return ever_bad_count (place) == 0;
  if (strlen (sum) != 64 || strspn (sum, "0123456789abcdef") != 64)
    return FALSE;
  path = bitmap_path (state, sum);
  if (!cm_state_file_read (path, bitmap_bytes (state), &data, &length) || length != bitmap_bytes (state))
    return FALSE;
  actual = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, length);
  if (strcmp (actual, sum) != 0)
    return FALSE;
  /* No bit past the card, and as many as the rounds found new. */
  if (sectors % 8 != 0 && ((guint8) data[length - 1] >> (sectors % 8)) != 0)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    count += __builtin_popcount ((guint8) data[i]);
  if (count != ever_bad_count (place))
    return FALSE;
  memcpy (place->ever_bad, data, length);
  g_free (state->saved_sum);
  state->saved_sum = g_strdup (sum);
  state->saved_bad = count;
  return TRUE;
}

/* The round under way and its place, within the card. */
static gboolean
place_fits (CmWearState *state,
            CmWearPlace *place,
            guint64      bytes_written)
{
  guint64 n_regions = (sectors_of (state) * CM_VERIFY_SECTOR + CM_VERIFY_CHUNK - 1) / CM_VERIFY_CHUNK;

  if (place->round != place->endurance->rounds->len + 1 || place->place > n_regions ||
      place->round_new_bad > place->round_bad || place->round_bad > sectors_of (state) ||
      place->failed->len > n_regions || ever_bad_count (place) > sectors_of (state))
    return FALSE;
  if (!place->reading && (place->round_bad != 0 || place->round_read_seconds != 0))
    return FALSE;
  for (guint i = 0; i < place->failed->len; i++)
    if (g_array_index (place->failed, guint64, i) >= n_regions)
      return FALSE;
  return bytes_written == cm_wear_place_bytes_written (place, state->card_bytes);
}

gboolean
cm_wear_state_load (CmWearState  *state,
                    CmWearPlace  *place,
                    GError      **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  g_return_val_if_fail (state != NULL && place != NULL, FALSE);

  if (!cm_state_file_read (state->path, STATE_MAX_BYTES, &data, &length))
    {
      GStatBuf st;

      /* Something is there, but too large or no plain file: not "none". */
      if (g_lstat (state->path, &st) == 0)
        return damaged (state, error);
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOTHING,
                   _("No stopped wear test of the card in %s is saved, so there is nothing to carry on: start a new one."),
                   state->device);
      return FALSE;
    }
  return cm_wear_state_parse (state, data, length, place, error);
}

gboolean
cm_wear_state_parse (CmWearState  *state,
                     const char   *data,
                     gsize         length,
                     CmWearPlace  *place,
                     GError      **error)
{
  g_autofree char *card = NULL;
  g_autofree char *sum = NULL;
  g_autoptr(GKeyFile) key_file = NULL;
  CmStateReader r = { NULL, GROUP, TRUE };
  guint64 sectors = sectors_of (state), bytes_written;

  g_return_val_if_fail (state != NULL && place != NULL, FALSE);

  key_file = cm_state_file_unseal (data, length, STATE_MAX_BYTES);
  r.key_file = key_file;
  if (key_file == NULL || cm_state_reader_u64 (&r, "version", G_MAXUINT) != STATE_VERSION)
    return damaged (state, error);

  card = cm_state_reader_plain_string (&r, "card");
  if (g_strcmp0 (card, state->identity) != 0 || cm_state_reader_u64 (&r, "card-bytes", G_MAXUINT64) != state->card_bytes)
    {
      if (!r.ok)
        return damaged (state, error);
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_THIS_CARD,
                   _("The saved wear test in %s does not belong to the card in %s, so nothing was written. "
                     "Start a new wear test, or delete %s."),
                   state->path, state->device, state->path);
      return FALSE;
    }

  place->round = cm_state_reader_u64 (&r, "round", MAX_ROUNDS + 1);
  place->reading = cm_state_reader_u64 (&r, "phase", CM_VERIFY_PHASE_READ) == CM_VERIFY_PHASE_READ;
  place->place = cm_state_reader_u64 (&r, "place", G_MAXUINT64);
  place->round_bad = cm_state_reader_u64 (&r, "round-bad-sectors", sectors);
  place->round_new_bad = cm_state_reader_u64 (&r, "round-new-bad-sectors", sectors);
  place->round_write_seconds = cm_state_reader_double (&r, "round-write-seconds", MAX_SECONDS);
  place->round_read_seconds = cm_state_reader_double (&r, "round-read-seconds", MAX_SECONDS);
  cm_state_reader_u64_list (&r, "failed-regions", place->failed, sectors, G_MAXUINT64);
  bytes_written = cm_state_reader_u64 (&r, "bytes-written", G_MAXUINT64);
  place->elapsed = cm_state_reader_double (&r, "elapsed-seconds", MAX_SECONDS);
  /* Not in states saved before it was kept. */
  if (g_key_file_has_key (key_file, GROUP, "started", NULL))
    place->started = cm_state_reader_u64 (&r, "started", MAX_STARTED);
  if (g_key_file_has_key (key_file, GROUP, "maker-bytes", NULL))
    place->endurance->maker_bytes = cm_state_reader_u64 (&r, "maker-bytes", MAX_MAKER_BYTES);
  sum = cm_state_reader_plain_string (&r, "ever-bad");
  place->endurance->shared_bus_with = cm_state_reader_devices (&r, "shared-bus-with", MAX_SHARED);

  if (!r.ok || !read_rounds (state, &r, place) || !place_fits (state, place, bytes_written) ||
      !read_bitmap (state, sum, place))
    return damaged (state, error);
  return TRUE;
}

/* Whether @name is one of this card's bitmaps: its stem, "-", 16 hex
 * digits and ".bad" (another card's name may start like this one's). */
static gboolean
is_own_bitmap (CmWearState *state,
               const char  *name)
{
  g_autofree char *stem = g_path_get_basename (state->stem);
  gsize n = strlen (stem);

  return strlen (name) == n + 1 + 16 + 4 && strncmp (name, stem, n) == 0 && name[n] == '-' &&
         strspn (name + n + 1, "0123456789abcdef") == 16 && g_str_has_suffix (name, ".bad");
}

/* The state and every bitmap of this card, read or not. */
void
cm_wear_state_remove (CmWearState *state)
{
  g_autofree char *folder = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_return_if_fail (state != NULL);

  folder = g_path_get_dirname (state->path);
  dir = g_dir_open (folder, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (is_own_bitmap (state, name))
      {
        g_autofree char *path = g_build_filename (folder, name, NULL);

        g_unlink (path);
      }
  g_clear_pointer (&state->saved_sum, g_free);
  g_unlink (state->path);
}

gint64
cm_wear_state_get_started (CmWearState *state)
{
  CmWearPlace place;
  gint64 started = 0;

  g_return_val_if_fail (state != NULL, 0);

  cm_wear_place_init (&place, sectors_of (state));
  if (cm_wear_state_exists (state) && cm_wear_state_load (state, &place, NULL))
    started = place.started;
  cm_wear_place_clear (&place);
  return started;
}

char *
cm_wear_state_describe (CmWearState *state)
{
  CmWearPlace place;
  char *text = NULL;

  g_return_val_if_fail (state != NULL, NULL);

  cm_wear_place_init (&place, sectors_of (state));
  if (cm_wear_state_exists (state) && cm_wear_state_load (state, &place, NULL))
    text = cm_wear_place_describe (&place, sectors_of (state) * CM_VERIFY_SECTOR);
  cm_wear_place_clear (&place);
  return text;
}
