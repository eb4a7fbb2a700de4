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
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <unistd.h>

#include "cm-target.h"
#include "cm-verify-private.h"
#include "cm-wear.h"

#define CHUNK CM_VERIFY_CHUNK
#define PROGRESS_EVERY_US (G_USEC_PER_SEC / 4)

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
  const CmWearLimits    *limits;
  const CmWearCallbacks *cb;
  gpointer               user_data;
  GCancellable          *cancellable;
  CmVerifyIo            *io;
  guint8                *ever_bad;  /* a bit per sector */
  guint8                *failed;    /* a byte per chunk: its write failed this round */
  gint64                 started;
  gint64                 last_progress;
  double                 done_rounds_seconds;
} Wear;

static guint64
chunk_length (Wear    *w,
              guint64  chunk)
{
  return MIN ((guint64) CHUNK, w->size - chunk * CHUNK);
}

/* Chunk @c of round @round, or an empty place past the end. */
static CmVerifyPlace
place_of (Wear    *w,
          guint64  c,
          guint    round)
{
  CmVerifyPlace place = { c * CHUNK, c < w->n_chunks ? chunk_length (w, c) : 0, (c * CHUNK) ^ round_key (round) };

  return place;
}

static void
report (Wear     *w,
        guint     round,
        gboolean  reading,
        double    in_round,   /* 0–1 of this round */
        gboolean  force)
{
  gint64 now = g_get_monotonic_time ();
  double elapsed = (now - w->started) / (double) G_USEC_PER_SEC;
  double fraction, left = -1;

  if (w->cb == NULL || w->cb->progress == NULL ||
      (!force && now - w->last_progress < PROGRESS_EVERY_US))
    return;
  w->last_progress = now;

  if (w->limits->rounds > 0)
    {
      fraction = (round - 1 + in_round) / w->limits->rounds;
      if (fraction > 0.001)
        left = elapsed / fraction * (1 - fraction);
    }
  else if (w->limits->seconds > 0)
    {
      fraction = elapsed / w->limits->seconds;
      left = MAX (0, w->limits->seconds - elapsed);
    }
  else
    fraction = in_round;
  if (w->limits->seconds > 0 && w->limits->rounds > 0)
    left = left < 0 ? -1 : MIN (left, MAX (0, w->limits->seconds - elapsed));
  w->cb->progress (round, reading, CLAMP (fraction, 0, 1), left, w->user_data);
}

static gboolean
set_io_error (GError      **error,
              int           errsv,
              guint         round,
              const char   *doing,
              guint64       offset)
{
  g_autofree char *where = g_format_size (offset);

  if (cm_verify_is_removed (errsv))
    g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_REMOVED,
                 /* Translators: "round 3, writing at 1.2 GB" */
                 _("The card went away in round %u, %s at %s (byte %llu). Put it back and run the wear test again."),
                 round, doing, where, (unsigned long long) offset);
  else
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                 _("The wear test stopped in round %u, %s at %s: %s"),
                 round, doing, where, g_strerror (errsv));
  return FALSE;
}

/* Writes the whole card. A region the card refuses counts as bad when it
 * is read back. FALSE with @error when the card went away. */
static gboolean
write_round (Wear     *w,
             guint     round,
             double   *seconds,
             GError  **error)
{
  gint64 t0 = g_get_monotonic_time ();

  memset (w->failed, 0, w->n_chunks);
  for (guint64 c = 0; c < w->n_chunks; c++)
    {
      CmVerifyPlace here = place_of (w, c, round), next = place_of (w, c + 1, round);
      gssize done;
      int errsv;

      if (g_cancellable_set_error_if_cancelled (w->cancellable, error))
        return FALSE;
      done = cm_verify_io_write (w->io, &here, &next, &errsv);
      if (done < (gssize) here.length)
        {
          if (cm_verify_is_removed (errsv))
            return set_io_error (error, errsv, round, _("writing"), here.offset + MAX (done, 0));
          w->failed[c] = 1;
        }
      report (w, round, FALSE, 0.5 * (c + 1) / w->n_chunks, FALSE);
    }
  if (fdatasync (w->fd) != 0 && cm_verify_is_removed (errno))
    return set_io_error (error, errno, round, _("writing"), w->size);
  *seconds = (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;
  return TRUE;
}

static void
count_bad (Wear        *w,
           CmWearRound *r,
           guint64      first_sector,
           guint64      n)
{
  r->bad_sectors += n;
  r->new_bad_sectors += cm_endurance_mark_bad (w->ever_bad, first_sector, n);
}

/* Reads it all back, the regions in a shuffled order, and counts. */
static gboolean
read_round (Wear         *w,
            guint         round,
            CmWearRound  *r,
            double       *seconds,
            GError      **error)
{
  g_autofree guint64 *order = g_new (guint64, w->n_chunks);
  g_autoptr(GRand) rand = g_rand_new_with_seed (round_key (round) >> 32);
  gint64 t0 = g_get_monotonic_time ();

  for (guint64 i = 0; i < w->n_chunks; i++)
    order[i] = i;
  for (guint64 i = w->n_chunks; i > 1; i--)
    {
      guint64 j = (guint64) (g_rand_double (rand) * i);
      guint64 t = order[i - 1];

      j = MIN (j, i - 1);
      order[i - 1] = order[j];
      order[j] = t;
    }

  for (guint64 i = 0; i < w->n_chunks; i++)
    {
      guint64 c = order[i], len = chunk_length (w, c);
      guint64 offset = c * CHUNK, key_base = offset ^ round_key (round);
      CmVerifyPlace here = place_of (w, c, round);
      CmVerifyPlace next = place_of (w, i + 1 < w->n_chunks ? order[i + 1] : w->n_chunks, round);
      gboolean readable = TRUE;
      CmVerifyRead chunk;

      if (g_cancellable_set_error_if_cancelled (w->cancellable, error))
        return FALSE;
      cm_verify_io_read (w->io, &here, &next, &chunk);
      if (chunk.done < (gssize) len)
        {
          if (cm_verify_is_removed (chunk.errsv))
            return set_io_error (error, chunk.errsv, round, _("reading back"), offset + MAX (chunk.done, 0));
          readable = FALSE;
        }

      if (!readable || w->failed[c])
        count_bad (w, r, offset / CM_VERIFY_SECTOR, len / CM_VERIFY_SECTOR);
      else if (!chunk.intact)
        for (guint64 s = 0; s < len; s += CM_VERIFY_SECTOR)
          if (!cm_verify_sector_is_ok (chunk.data + s, key_base + s))
            count_bad (w, r, (offset + s) / CM_VERIFY_SECTOR, 1);
      report (w, round, TRUE, 0.5 + 0.5 * (i + 1) / w->n_chunks, FALSE);
    }
  *seconds = (g_get_monotonic_time () - t0) / (double) G_USEC_PER_SEC;
  return TRUE;
}

CmEndurance *
cm_wear_run (int                     fd,
             guint64                 size,
             const CmWearLimits     *limits,
             const CmWearCallbacks  *callbacks,
             gpointer                user_data,
             GCancellable           *cancellable,
             GError                **error)
{
  g_autoptr(CmEndurance) e = cm_endurance_new ();
  g_autoptr(GError) local_error = NULL;
  guint64 bytes_written = 0;
  Wear w = { 0 };

  g_return_val_if_fail (fd >= 0 && limits != NULL, NULL);

  w.fd = fd;
  w.size = size - size % CM_VERIFY_SECTOR;
  w.n_chunks = (w.size + CHUNK - 1) / CHUNK;
  w.limits = limits;
  w.cb = callbacks;
  w.user_data = user_data;
  w.cancellable = cancellable;
  w.started = g_get_monotonic_time ();
  if (w.size == 0)
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                   _("The card has no room to test."));
      return NULL;
    }
  w.io = cm_verify_io_new (fd);
  w.ever_bad = g_malloc0 ((w.size / CM_VERIFY_SECTOR + 7) / 8);
  w.failed = g_malloc0 (w.n_chunks);

  for (guint round = 1; ; round++)
    {
      CmWearRound r = { 0 };
      double write_s = 0, read_s = 0;
      double elapsed = (g_get_monotonic_time () - w.started) / (double) G_USEC_PER_SEC;

      if (limits->rounds > 0 && round > limits->rounds)
        {
          e->stopped = g_strdup ("rounds");
          break;
        }
      if (limits->seconds > 0 && elapsed >= limits->seconds)
        {
          e->stopped = g_strdup ("hours");
          break;
        }

      report (&w, round, FALSE, 0, TRUE);
      if (!write_round (&w, round, &write_s, &local_error) ||
          !read_round (&w, round, &r, &read_s, &local_error))
        {
          e->stopped = g_strdup (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? "cancelled"
                                 : g_error_matches (local_error, CM_TARGET_ERROR, CM_TARGET_ERROR_REMOVED) ? "card-gone"
                                 : "failed");
          g_propagate_error (error, g_steal_pointer (&local_error));
          break;
        }

      bytes_written += w.size;
      r.round = round;
      r.sectors = w.size / CM_VERIFY_SECTOR;
      r.bytes_written = bytes_written;
      r.write_mb_per_s = write_s > 0 ? w.size / write_s / 1e6 : 0;
      r.read_mb_per_s = read_s > 0 ? w.size / read_s / 1e6 : 0;
      r.seconds = write_s + read_s;
      g_array_append_val (e->rounds, r);
      if (callbacks != NULL && callbacks->round_done != NULL)
        callbacks->round_done (&r, user_data);

      if (r.bad_sectors * 2 >= r.sectors)
        {
          e->stopped = g_strdup ("half-bad");
          break;
        }
    }

  cm_verify_io_free (w.io);
  g_free (w.ever_bad);
  g_free (w.failed);
  return g_steal_pointer (&e);
}
