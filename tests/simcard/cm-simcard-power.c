/* cm-simcard-power.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The card's power (see README.md, "Power").
 *
 * With a volatile cache, a write command is kept in the card's memory, in
 * order, and answered at once; reads see it; a flush (FUSE fsync, which
 * the loop driver sends for REQ_OP_FLUSH) writes the commands kept to the
 * backing file. A cut drops what the cache holds (an honest card); a card
 * whose flush lies also loses the last lying-flush write commands it had
 * flushed (their old contents come back); a card with collateral damage
 * also corrupts that many 512-byte sectors right after the last write (a
 * partly programmed page takes its neighbours). The last cut's losses go
 * to the stats file, so a test can compare a checker's findings with them.
 *
 * Addresses are the host's, wrapped onto the real storage as cm-simcard.c
 * does; the cache itself matches by host address, so a fake card with a
 * volatile cache is not modelled. */

#include "config.h"

#include "cm-simcard-power.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SECTOR 512

typedef struct
{
  guint64  offset;
  gsize    len;
  guint8  *data;
  guint8  *old;                /* what it replaced, for a lying flush */
} PowerWrite;

static struct
{
  SimPowerModel model;
  int           fd;
  guint64       real_size;
  GMutex        lock;
  gboolean      off;
  GPtrArray    *pending;       /* PowerWrite, oldest first */
  GQueue        flushed;       /* the last lying-flush writes flushed, oldest first */
  gboolean      wrote;
  guint64       last_end;      /* host address after the last write */
  /* Counters and the last cut, for stats. */
  guint64       flushes;
  guint64       cuts;
  guint64       dropped_writes;
  guint64       dropped_bytes;
  guint64       lost_writes;
  guint64       lost_bytes;
  GString      *lost_offsets;
  guint64       collateral_sectors;
  guint64       collateral_offset;
} power;

static void
power_write_free (gpointer data)
{
  PowerWrite *w = data;

  if (w == NULL)
    return;
  g_free (w->data);
  g_free (w->old);
  g_free (w);
}

static gboolean
power_enabled (void)
{
  return power.model.volatile_cache;
}

/* A count, 0 when the key is not there, -1 when it is not a number. */
static gint64
key_count (GKeyFile   *kf,
           const char *key)
{
  g_autoptr(GError) error = NULL;
  gint64 v;

  if (!g_key_file_has_key (kf, "power", key, NULL))
    return 0;
  v = g_key_file_get_int64 (kf, "power", key, &error);
  return error != NULL ? -1 : v;
}

gboolean
sim_power_model_from_keyfile (GKeyFile       *kf,
                              SimPowerModel  *m,
                              GError        **error)
{
  g_autoptr(GError) local = NULL;
  gint64 lying = key_count (kf, "lying-flush");
  gint64 collateral = key_count (kf, "collateral");

  m->volatile_cache = g_key_file_get_boolean (kf, "power", "volatile-cache", &local);
  if (local != NULL)
    m->volatile_cache = FALSE;
  if (lying < 0 || collateral < 0)
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   "[power] lying-flush and collateral are counts, 0 or more");
      return FALSE;
    }
  m->lying_flush = lying;
  m->collateral = collateral;
  /* Losing flushed writes or damaging neighbours is what a card with a
   * volatile cache does when its power goes. */
  if (m->lying_flush > 0 || m->collateral > 0)
    m->volatile_cache = TRUE;
  return TRUE;
}

void
sim_power_print_model (const SimPowerModel *m)
{
  printf ("SIMCARD_VOLATILE_CACHE=%d\n", m->volatile_cache ? 1 : 0);
  printf ("SIMCARD_LYING_FLUSH=%" G_GUINT64_FORMAT "\n", m->lying_flush);
  printf ("SIMCARD_COLLATERAL=%" G_GUINT64_FORMAT "\n", m->collateral);
}

void
sim_power_start (const SimPowerModel *m,
                 int                  backing_fd,
                 guint64              real_size)
{
  power.model = *m;
  power.fd = backing_fd;
  power.real_size = real_size;
  g_mutex_init (&power.lock);
  power.pending = g_ptr_array_new_with_free_func (power_write_free);
  g_queue_init (&power.flushed);
  power.lost_offsets = g_string_new (NULL);
}

/* Reads or writes the backing file at host address @offset, wrapped. */
static gboolean
backing_rw (gboolean  is_write,
            guint8   *buf,
            gsize     len,
            guint64   offset)
{
  gsize done = 0;

  while (done < len)
    {
      guint64 pos = (offset + done) % power.real_size;
      gsize chunk = MIN (len - done, power.real_size - pos);
      ssize_t r = is_write ? pwrite (power.fd, buf + done, chunk, pos)
                           : pread (power.fd, buf + done, chunk, pos);

      if (r < 0)
        return FALSE;
      if (r == 0 && !is_write)
        {
          memset (buf + done, 0, chunk);
          r = chunk;
        }
      done += r;
    }
  return TRUE;
}

/* A write command: kept in the cache and answered. Returns 0 when there is
 * no volatile cache (the caller writes through), -ENOMEDIUM while the power
 * is off, else the bytes taken. */
int
sim_power_write (const char *buf,
                 size_t      len,
                 off_t       offset)
{
  PowerWrite *w;

  if (!power_enabled ())
    return 0;
  g_mutex_lock (&power.lock);
  if (power.off)
    {
      g_mutex_unlock (&power.lock);
      return -ENOMEDIUM;
    }
  w = g_new0 (PowerWrite, 1);
  w->offset = offset;
  w->len = len;
  w->data = g_memdup2 (buf, len);
  g_ptr_array_add (power.pending, w);
  power.wrote = TRUE;
  power.last_end = offset + len;
  g_mutex_unlock (&power.lock);
  return (int) len;
}

/* After the backing read: what the cache holds wins, newest last. */
void
sim_power_read (char   *buf,
                size_t  len,
                off_t   offset)
{
  guint64 start = offset, end = offset + len;

  if (!power_enabled ())
    return;
  g_mutex_lock (&power.lock);
  for (guint i = 0; i < power.pending->len; i++)
    {
      PowerWrite *w = g_ptr_array_index (power.pending, i);
      guint64 a = MAX (start, w->offset);
      guint64 b = MIN (end, w->offset + w->len);

      if (a < b)
        memcpy (buf + (a - start), w->data + (a - w->offset), b - a);
    }
  g_mutex_unlock (&power.lock);
}

/* Keeps @w among the last lying-flush writes flushed, with what it
 * replaced. Called with the lock held. */
static void
flushed_keep (PowerWrite *w)
{
  w->old = g_malloc (w->len);
  if (!backing_rw (FALSE, w->old, w->len, w->offset))
    memset (w->old, 0, w->len);
  g_queue_push_tail (&power.flushed, w);
  while (power.flushed.length > power.model.lying_flush)
    power_write_free (g_queue_pop_head (&power.flushed));
}

/* A flush: every write kept goes to the backing file, in order. */
int
sim_power_flush (void)
{
  int r = 0;

  g_mutex_lock (&power.lock);
  power.flushes++;
  if (power_enabled () && !power.off)
    {
      for (guint i = 0; i < power.pending->len; i++)
        {
          PowerWrite *w = g_ptr_array_index (power.pending, i);

          if (power.model.lying_flush > 0)
            flushed_keep (w);
          if (!backing_rw (TRUE, w->data, w->len, w->offset))
            r = -errno;
          if (power.model.lying_flush > 0)
            power.pending->pdata[i] = NULL;
        }
      g_ptr_array_set_size (power.pending, 0);
    }
  else if (power_enabled ())
    r = -ENOMEDIUM;             /* a card with no power keeps nothing */
  g_mutex_unlock (&power.lock);
  return r;
}

/* Puts back what the last flushed writes replaced, newest first. Called
 * with the lock held. */
static void
cut_lose_flushed (void)
{
  PowerWrite *w;

  power.lost_writes = 0;
  power.lost_bytes = 0;
  g_string_truncate (power.lost_offsets, 0);
  while ((w = g_queue_pop_tail (&power.flushed)) != NULL)
    {
      g_autofree char *at = g_strdup_printf ("%" G_GUINT64_FORMAT, w->offset);

      backing_rw (TRUE, w->old, w->len, w->offset);
      power.lost_writes++;
      power.lost_bytes += w->len;
      g_string_prepend (power.lost_offsets, power.lost_writes > 1 ? "," : "");
      g_string_prepend (power.lost_offsets, at);
      power_write_free (w);
    }
}

/* Inverts the collateral sectors right after the last write. Called with
 * the lock held. */
static void
cut_damage_neighbours (void)
{
  guint8 sector[SECTOR];
  guint64 first = (power.last_end + SECTOR - 1) / SECTOR * SECTOR;

  power.collateral_sectors = 0;
  power.collateral_offset = first;
  if (!power.wrote)
    return;
  for (guint64 i = 0; i < power.model.collateral; i++)
    {
      guint64 at = first + i * SECTOR;

      if (!backing_rw (FALSE, sector, SECTOR, at))
        continue;
      for (guint j = 0; j < SECTOR; j++)
        sector[j] = ~sector[j];
      if (backing_rw (TRUE, sector, SECTOR, at))
        power.collateral_sectors++;
    }
}

/* The power goes: from now on every command fails until it comes back.
 * A card already off loses nothing more. */
void
sim_power_cut (void)
{
  g_mutex_lock (&power.lock);
  if (power.off)
    {
      g_mutex_unlock (&power.lock);
      return;
    }
  power.off = TRUE;
  power.cuts++;
  power.dropped_writes = power.pending->len;
  power.dropped_bytes = 0;
  for (guint i = 0; i < power.pending->len; i++)
    power.dropped_bytes += ((PowerWrite *) g_ptr_array_index (power.pending, i))->len;
  g_ptr_array_set_size (power.pending, 0);
  cut_lose_flushed ();
  if (power.model.collateral > 0)
    cut_damage_neighbours ();
  g_mutex_unlock (&power.lock);
}

void
sim_power_restore (void)
{
  g_mutex_lock (&power.lock);
  power.off = FALSE;
  g_mutex_unlock (&power.lock);
}

gboolean
sim_power_is_off (void)
{
  gboolean off;

  g_mutex_lock (&power.lock);
  off = power.off;
  g_mutex_unlock (&power.lock);
  return off;
}

void
sim_power_stats (GString *s)
{
  g_mutex_lock (&power.lock);
  g_string_append_printf (s,
                          "power=%s\n"
                          "flushes=%" G_GUINT64_FORMAT "\n"
                          "cache_writes=%u\n"
                          "power_cuts=%" G_GUINT64_FORMAT "\n"
                          "cut_dropped_writes=%" G_GUINT64_FORMAT "\n"
                          "cut_dropped_bytes=%" G_GUINT64_FORMAT "\n"
                          "cut_lost_flushed_writes=%" G_GUINT64_FORMAT "\n"
                          "cut_lost_flushed_bytes=%" G_GUINT64_FORMAT "\n"
                          "cut_lost_flushed_offsets=%s\n"
                          "cut_collateral_sectors=%" G_GUINT64_FORMAT "\n"
                          "cut_collateral_offset=%" G_GUINT64_FORMAT "\n",
                          power.off ? "off" : "on",
                          power.flushes, power.pending->len, power.cuts,
                          power.dropped_writes, power.dropped_bytes,
                          power.lost_writes, power.lost_bytes,
                          power.lost_offsets->str,
                          power.collateral_sectors, power.collateral_offset);
  g_mutex_unlock (&power.lock);
}
