/* cm-wear.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The wear test's rounds, as Mikaey's Flash Stress Test runs them: a
 * round writes the whole card with data keyed by round and place (the
 * full verify's pattern, cm-verify-pattern.c, with a key per round in the
 * high bits of every sector's name, so neither a cache nor an earlier
 * round can answer for it), then reads it all back in 4 MiB regions in an
 * order shuffled anew each round, and counts the 512-byte sectors that
 * came back wrong, and those of them that were right in every earlier
 * round (a bitmap of the card, cm_endurance_mark_bad()).
 *
 * Where it stands (CmWearPlace) is saved as it goes, at a region's
 * boundary every few seconds, at each phase's end and when it stops
 * (cm-wear-state.c), so a test that was stopped, crashed or lost its
 * card carries on from that round and place; the bytes it had written
 * when it stopped are all there is to redo.
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <unistd.h>

#include "cm-block-io.h"
#include "cm-bus.h"
#include "cm-state-file.h"
#include "cm-target.h"
#include "cm-verify-private.h"
#include "cm-wear-state.h"
#include "cm-wear.h"

#define CHUNK CM_VERIFY_CHUNK
#define PROGRESS_EVERY_US (G_USEC_PER_SEC / 4)
#define SAVE_EVERY_US CM_VERIFY_SAVE_EVERY_US
#define PROOF_REGIONS 8
#define PROOF_BYTES (1024 * 1024)

/* The high 32 bits only: a 4 MiB-aligned offset plus a sector's place in
 * it never carries into them, so (offset ^ key) + s == (offset + s) ^ key
 * and each sector still names its own place. */
static guint64
round_key (guint round)
{
  guint64 x = (guint64) round + G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  x = (x ^ (x >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  x = (x ^ (x >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  x ^= x >> 31;
  return (x & G_GUINT64_CONSTANT (0xFFFFFFFF00000000)) | G_GUINT64_CONSTANT (0x100000000);
}

void
cm_wear_fill (guint8  *buffer,
              gsize    length,
              guint64  offset,
              guint    round)
{
  g_return_if_fail (offset % CHUNK == 0 && length <= CHUNK);

  cm_verify_fill (buffer, length, offset ^ round_key (round));
}

typedef struct
{
  int                    fd;
  guint64                size;      /* whole sectors */
  guint64                n_chunks;
  CmWearState           *state;
  const CmWearLimits    *limits;
  const CmWearCallbacks *cb;
  gpointer               user_data;
  GCancellable          *cancellable;
  CmVerifyIo            *io;
  CmBusShare            *bus;       /* pauses while a card on the same bus measures */
  CmWearPlace            p;
  guint8                *failed;    /* a byte per chunk: its write failed this round */
  gint64                 started;   /* earlier runs' time counted in */
  gint64                 last_progress;
  gint64                 last_save;
  double                 round_from;     /* elapsed () when this round (or this run of it) began */
  double                 round_from_at;  /* and how far into the round it was then, 0 to 1 */
  gint64                 flash_before;  /* the card's flash counter as the round began, -1: not known */
} Wear;

static guint64
chunk_length (Wear    *w,
              guint64  chunk)
{
  return MIN ((guint64) CHUNK, w->size - chunk * CHUNK);
}

/* Region @c of round @round, or an empty place past the end. */
static CmVerifyPlace
place_of (Wear    *w,
          guint64  c,
          guint    round)
{
  CmVerifyPlace place = { c * CHUNK, c < w->n_chunks ? chunk_length (w, c) : 0, (c * CHUNK) ^ round_key (round) };

  return place;
}

static double
elapsed (Wear *w)
{
  return (g_get_monotonic_time () - w->started) / (double) G_USEC_PER_SEC;
}

/* The cards that moved data on the bus beside the test join those the
 * document names. */
static void
note_neighbours (Wear *w)
{
  g_auto(GStrv) neighbours = cm_bus_share_take_neighbours (w->bus);
  g_autoptr(GStrvBuilder) builder = NULL;
  GStrv *known = &w->p.endurance->shared_bus_with;

  if (neighbours[0] == NULL)
    return;
  builder = g_strv_builder_new ();
  if (*known != NULL)
    g_strv_builder_addv (builder, (const char **) *known);
  for (guint i = 0; neighbours[i] != NULL; i++)
    if (*known == NULL || !g_strv_contains ((const char * const *) *known, neighbours[i]))
      g_strv_builder_add (builder, neighbours[i]);
  g_strfreev (*known);
  *known = g_strv_builder_end (builder);
}

/* Saved at a region's boundary: every place before it is done. FALSE
 * with @error when it could not be. */
static gboolean
save_or_fail (Wear     *w,
              GError  **error)
{
  w->last_save = g_get_monotonic_time ();
  note_neighbours (w);
  w->p.elapsed = elapsed (w);
  g_array_set_size (w->p.failed, 0);
  for (guint64 c = 0; c < w->n_chunks; c++)
    if (w->failed[c])
      g_array_append_val (w->p.failed, c);
  return cm_wear_state_save (w->state, &w->p, error);
}

static void
save (Wear     *w,
      gboolean  force)
{
  g_autoptr(GError) error = NULL;
  gint64 now = g_get_monotonic_time ();

  if (!force && now - w->last_save < SAVE_EVERY_US)
    return;
  if (!save_or_fail (w, &error))
    g_warning ("Could not save the wear test's progress to %s: %s", cm_wear_state_get_path (w->state), error->message);
}

static void
report (Wear     *w,
        gboolean  force)
{
  gint64 now = g_get_monotonic_time ();
  double spent = elapsed (w);
  double in_round = (w->p.reading ? 0.5 : 0) + 0.5 * w->p.place / w->n_chunks;
  guint round = w->p.round;
  double fraction, left = -1;

  if (w->cb == NULL || w->cb->progress == NULL ||
      (!force && now - w->last_progress < PROGRESS_EVERY_US))
    return;
  w->last_progress = now;

  if (w->limits->rounds > 0)
    {
      fraction = (round - 1 + in_round) / w->limits->rounds;
      if (fraction > 0.001)
        left = spent / fraction * (1 - fraction);
    }
  else if (w->limits->seconds > 0)
    {
      fraction = spent / w->limits->seconds;
      left = MAX (0, w->limits->seconds - spent);
    }
  else
    {
      /* No limit: the round's own progress and time left, from how fast
       * this round (or this run of it) went so far. */
      double done = in_round - w->round_from_at;

      fraction = in_round;
      if (done > 0.001)
        left = (spent - w->round_from) / done * (1 - in_round);
    }
  if (w->limits->seconds > 0 && w->limits->rounds > 0)
    left = left < 0 ? -1 : MIN (left, MAX (0, w->limits->seconds - spent));
  w->cb->progress (round, w->p.reading, CLAMP (fraction, 0, 1), left, w->p.round_bad, w->user_data);
}

/* Before each region: saved now and then, and on a stop, with the place
 * at the region not yet done. */
static gboolean
at_region (Wear     *w,
           guint64   place,
           GError  **error)
{
  w->p.place = place;
  report (w, FALSE);
  if (g_cancellable_set_error_if_cancelled (w->cancellable, error))
    {
      save (w, TRUE);
      return FALSE;
    }
  save (w, FALSE);
  return TRUE;
}

/* Whether an error at @errsv means the card went away rather than that
 * this place of it failed: then the test stops, rather than count it. */
static gboolean
card_went (Wear *w,
           int   errsv)
{
  return cm_verify_is_removed (errsv) || cm_state_file_card_gone (cm_wear_state_get_device (w->state));
}

/* The card went away at @offset while @doing: saved, and said. */
static gboolean
set_card_gone (Wear         *w,
               GError      **error,
               const char   *doing,
               guint64       offset)
{
  g_autofree char *where = g_format_size (offset);

  save (w, TRUE);
  g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_REMOVED,
               /* Translators: "round 3, writing at 1.2 GB" */
               _("The card went away in round %u, %s at %s (byte %llu). Put it back and carry on: what was done is kept."),
               w->p.round, doing, where, (unsigned long long) offset);
  return FALSE;
}

/* Writes the whole card, from the place it stands. A region the card
 * refuses counts as bad when it is read back. FALSE with @error when the
 * card went away or the test was stopped. */
static gboolean
write_round (Wear     *w,
             GError  **error)
{
  guint round = w->p.round;

  if (w->p.place == 0)
    memset (w->failed, 0, w->n_chunks);
  for (guint64 c = w->p.place; c < w->n_chunks; c++)
    {
      CmVerifyPlace here = place_of (w, c, round), next = place_of (w, c + 1, round);
      gssize done;
      gint64 t0;
      int errsv;

      if (!at_region (w, c, error))
        return FALSE;
      /* A pause for a card on the bus that measures is left out of the
       * round's time. */
      cm_bus_share_yield (w->bus, w->cancellable);
      t0 = g_get_monotonic_time ();
      done = cm_verify_io_write (w->io, &here, &next, &errsv);
      if (done < (gssize) here.length)
        {
          if (card_went (w, errsv))
            return set_card_gone (w, error, _("writing"), here.offset + MAX (done, 0));
          w->failed[c] = 1;
        }
      w->p.round_write_seconds += (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;
    }
  {
    gint64 t0 = g_get_monotonic_time ();

    w->p.place = w->n_chunks;
    if (fdatasync (w->fd) != 0 && card_went (w, errno))
      return set_card_gone (w, error, _("writing"), w->size);
    w->p.round_write_seconds += (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;
  }
  w->p.reading = TRUE;
  w->p.place = 0;
  save (w, TRUE);
  return TRUE;
}

static void
count_bad (Wear    *w,
           guint64  first_sector,
           guint64  n)
{
  w->p.round_bad += n;
  w->p.round_new_bad += cm_endurance_mark_bad (w->p.ever_bad, first_sector, n);
}

/* The regions in the order round @round reads them back: shuffled, the
 * same each time for the same round, so a resumed round reads the rest. */
static guint64 *
read_order (guint64 n_chunks,
            guint   round)
{
  guint64 *order = g_new (guint64, n_chunks);
  g_autoptr(GRand) rand = g_rand_new_with_seed (round_key (round) >> 32);

  for (guint64 i = 0; i < n_chunks; i++)
    order[i] = i;
  for (guint64 i = n_chunks; i > 1; i--)
    {
      guint64 j = (guint64) (g_rand_double (rand) * i);
      guint64 t = order[i - 1];

      j = MIN (j, i - 1);
      order[i - 1] = order[j];
      order[j] = t;
    }
  return order;
}

/* Reads it all back, the regions in a shuffled order, and counts. */
static gboolean
read_round (Wear     *w,
            GError  **error)
{
  guint round = w->p.round;
  g_autofree guint64 *order = read_order (w->n_chunks, round);

  for (guint64 i = w->p.place; i < w->n_chunks; i++)
    {
      guint64 c = order[i], len = chunk_length (w, c);
      guint64 offset = c * CHUNK, key_base = offset ^ round_key (round);
      CmVerifyPlace here = place_of (w, c, round);
      CmVerifyPlace next = place_of (w, i + 1 < w->n_chunks ? order[i + 1] : w->n_chunks, round);
      CmVerifyRead chunk;
      gboolean readable;
      gint64 t0;

      if (!at_region (w, i, error))
        return FALSE;
      cm_bus_share_yield (w->bus, w->cancellable);
      t0 = g_get_monotonic_time ();
      /* Checks this region while the next one is read. */
      cm_verify_io_read (w->io, &here, &next, &chunk);
      readable = chunk.done == (gssize) len;
      if (!readable && card_went (w, chunk.errsv))
        return set_card_gone (w, error, _("reading back"), offset + MAX (chunk.done, 0));
      w->p.round_read_seconds += (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;

      if (!readable || w->failed[c])
        count_bad (w, offset / CM_VERIFY_SECTOR, len / CM_VERIFY_SECTOR);
      else if (!chunk.intact)
        for (guint64 s = 0; s < len; s += CM_VERIFY_SECTOR)
          if (!cm_verify_sector_is_ok (chunk.data + s, key_base + s))
            count_bad (w, (offset + s) / CM_VERIFY_SECTOR, 1);
    }
  w->p.place = w->n_chunks;
  return TRUE;
}

/* The round under way is done: it joins the finished ones and the next
 * one starts at the card's first region. */
static gint64
flash_written (Wear *w)
{
  if (w->cb == NULL || w->cb->flash_written == NULL)
    return -1;
  return w->cb->flash_written (w->fd, w->user_data);
}

static const CmWearRound *
end_round (Wear *w)
{
  gint64 flash_after = flash_written (w);
  CmWearRound r = {
    .round = w->p.round,
    .sectors = w->size / CM_VERIFY_SECTOR,
    .bad_sectors = w->p.round_bad,
    .new_bad_sectors = w->p.round_new_bad,
    .bytes_written = (guint64) w->p.round * w->size,
    .write_mb_per_s = w->p.round_write_seconds > 0 ? w->size / w->p.round_write_seconds / 1e6 : 0,
    .read_mb_per_s = w->p.round_read_seconds > 0 ? w->size / w->p.round_read_seconds / 1e6 : 0,
    .seconds = w->p.round_write_seconds + w->p.round_read_seconds,
    .flash_known = w->flash_before >= 0 && flash_after >= w->flash_before,
    .flash_bytes_written = w->flash_before >= 0 && flash_after >= w->flash_before ? flash_after - w->flash_before : 0,
  };
  GArray *rounds = w->p.endurance->rounds;

  g_array_append_val (rounds, r);
  w->p.round++;
  w->p.reading = FALSE;
  w->p.place = 0;
  w->p.round_bad = w->p.round_new_bad = 0;
  w->p.round_write_seconds = w->p.round_read_seconds = 0;
  w->round_from = elapsed (w);
  w->round_from_at = 0;
  memset (w->failed, 0, w->n_chunks);
  save (w, TRUE);
  return &g_array_index (rounds, CmWearRound, rounds->len - 1);
}

/* Whether the regions @place says are written hold their round's data:
 * PROOF_REGIONS of them, spread over the card, each with at least one
 * sector of it in its first MiB, for most of them. A card that is not
 * the one the test wore holds none of this round's keys. */
gboolean
cm_wear_prove (int                 fd,
               guint64             size,
               const CmWearPlace  *place,
               GError            **error)
{
  guint64 n_chunks = (size + CHUNK - 1) / CHUNK;
  guint64 samples = 0, ours = 0;
  void *buffer = NULL;
  int errsv;

  g_return_val_if_fail (place != NULL, FALSE);

  if (posix_memalign (&buffer, 4096, PROOF_BYTES) != 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, g_strerror (ENOMEM));
      return FALSE;
    }
  for (guint k = 0; k < PROOF_REGIONS && k < n_chunks; k++)
    {
      guint64 c = k * n_chunks / MIN (PROOF_REGIONS, n_chunks);
      guint64 len = MIN ((guint64) PROOF_BYTES, size - c * CHUNK);
      /* Before the place a write stopped at, this round's data; after
       * it, the round before's, or this round's too: the place is saved
       * every few seconds, and a kill between two saves leaves regions
       * past it already written. Nothing to tell by in round 1 past it. */
      gboolean written = place->reading || c < place->place;
      guint round = written ? place->round : place->round - 1;
      gboolean found = FALSE;

      if (round == 0)
        continue;
      samples++;
      if (cm_block_io_transfer (fd, FALSE, buffer, len, c * CHUNK, &errsv) != (gssize) len)
        continue;
      for (guint64 s = 0; s < len && !found; s += CM_VERIFY_SECTOR)
        found = cm_verify_sector_is_ok ((guint8 *) buffer + s, ((c * CHUNK) ^ round_key (round)) + s) ||
                (!written && cm_verify_sector_is_ok ((guint8 *) buffer + s, ((c * CHUNK) ^ round_key (place->round)) + s));
      ours += found;
    }
  free (buffer);

  if (samples == 0 || ours * 2 > samples)
    return TRUE;
  g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_THIS_CARD,
               _("The saved wear test does not belong to this card: it does not hold what that test wrote "
                 "(%llu of %llu places checked), so nothing was written. Start a new wear test."),
               (unsigned long long) ours, (unsigned long long) samples);
  return FALSE;
}

static const char *
stop_reason (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return "cancelled";
  if (g_error_matches (error, CM_TARGET_ERROR, CM_TARGET_ERROR_REMOVED))
    return "card-gone";
  return "failed";
}

/* Where the test starts: the saved place, once the card proves it, or
 * the first round's first region. */
static gboolean
start_place (Wear      *w,
             gboolean   resume,
             GError   **error)
{
  cm_wear_place_init (&w->p, w->size / CM_VERIFY_SECTOR);
  if (!resume)
    return TRUE;
  if (!cm_wear_state_load (w->state, &w->p, error) ||
      !cm_wear_prove (w->fd, w->size, &w->p, error))
    return FALSE;
  for (guint i = 0; i < w->p.failed->len; i++)
    w->failed[g_array_index (w->p.failed, guint64, i)] = 1;
  return TRUE;
}

CmEndurance *
cm_wear_run (int                     fd,
             guint64                 size,
             CmWearState            *state,
             gboolean                resume,
             const CmWearLimits     *limits,
             const CmWearCallbacks  *callbacks,
             gpointer                user_data,
             GCancellable           *cancellable,
             GError                **error)
{
  g_autoptr(GError) local_error = NULL;
  CmEndurance *e = NULL;
  Wear w = { 0 };

  g_return_val_if_fail (fd >= 0 && limits != NULL && state != NULL, NULL);

  w.fd = fd;
  w.size = size - size % CM_VERIFY_SECTOR;
  w.n_chunks = (w.size + CHUNK - 1) / CHUNK;
  w.state = state;
  w.limits = limits;
  w.cb = callbacks;
  w.user_data = user_data;
  w.cancellable = cancellable;
  if (w.size == 0)
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                   _("The card has no room to test."));
      return NULL;
    }
  w.io = cm_verify_io_new (fd);
  {
    const char *device = cm_wear_state_get_device (state);
    g_autofree char *key = cm_bus_key_for_device (device);

    w.bus = cm_bus_share_begin (key, device);
    if (callbacks != NULL && callbacks->paused != NULL)
      cm_bus_share_set_paused_func (w.bus, callbacks->paused, user_data);
  }
  w.failed = g_malloc0 (w.n_chunks);
  if (!start_place (&w, resume, error))
    goto out;
  if (w.p.started == 0)
    w.p.started = limits->started;
  if (limits->maker_bytes > 0)
    w.p.endurance->maker_bytes = limits->maker_bytes;
  w.started = g_get_monotonic_time () - (gint64) (w.p.elapsed * G_USEC_PER_SEC);
  w.round_from = elapsed (&w);
  w.round_from_at = (w.p.reading ? 0.5 : 0) + 0.5 * w.p.place / MAX (w.n_chunks, 1);
  /* Where it stands must be kept before the first write, or a stop
   * could not be carried on: a folder that takes no state is said now,
   * with the card untouched, not warned about every round. */
  {
    g_autoptr(GError) save_error = NULL;

    if (!save_or_fail (&w, &save_error))
      {
        g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_REFUSED,
                     _("CardMark cannot keep where the wear test stands (%s), so a stop could not be carried on; "
                       "nothing was written. Make that folder writable, or free some space, and try again."),
                     save_error->message);
        goto out;
      }
  }

  for (;;)
    {
      const CmWearRound *r;

      if (limits->rounds > 0 && w.p.round > limits->rounds)
        {
          w.p.endurance->stopped = g_strdup ("rounds");
          break;
        }
      /* Only a round not yet started waits for the time limit. */
      if (limits->seconds > 0 && elapsed (&w) >= limits->seconds && !w.p.reading && w.p.place == 0 &&
          w.p.endurance->rounds->len > 0)
        {
          w.p.endurance->stopped = g_strdup ("hours");
          break;
        }

      report (&w, TRUE);
      /* A round carried on from its middle has no counter to start from. */
      w.flash_before = !w.p.reading && w.p.place == 0 ? flash_written (&w) : -1;
      if ((!w.p.reading && !write_round (&w, &local_error)) || !read_round (&w, &local_error))
        {
          w.p.endurance->stopped = g_strdup (stop_reason (local_error));
          g_propagate_error (error, g_steal_pointer (&local_error));
          break;
        }

      r = end_round (&w);
      if (callbacks != NULL && callbacks->round_done != NULL)
        callbacks->round_done (r, user_data);
      if (r->bad_sectors * 2 >= r->sectors)
        {
          w.p.endurance->stopped = g_strdup ("half-bad");
          break;
        }
    }
  /* Ended, not stopped: nothing to carry on. */
  if (g_strcmp0 (w.p.endurance->stopped, "rounds") == 0 || g_strcmp0 (w.p.endurance->stopped, "hours") == 0 ||
      g_strcmp0 (w.p.endurance->stopped, "half-bad") == 0)
    cm_wear_state_remove (state);
  e = g_steal_pointer (&w.p.endurance);

out:
  cm_wear_place_clear (&w.p);
  g_clear_pointer (&w.bus, cm_bus_share_end);
  cm_verify_io_free (w.io);
  g_free (w.failed);
  return e;
}
