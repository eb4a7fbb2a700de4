/* cm-simcard.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A simulated microSD card for CardMark's tests.
 *
 * One file, card.img, is exposed in a FUSE mountpoint; the tests attach it
 * with losetup so the engine sees an ordinary block device. Every FUSE read
 * or write is one card command and costs what the profile says it costs:
 *
 *   latency (+ a penalty for a write that opens a new allocation unit)
 *   + bytes / bandwidth
 *
 * The latency phases of up to `queue` commands overlap (command queueing);
 * the data transfers share one bus and never overlap. The daemon sleeps to
 * absolute CLOCK_MONOTONIC deadlines, so a run of commands gets the modelled
 * rate however long the backing I/O itself took. See README.md. */

#include "config.h"

#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include "cm-simcard-power.h"
#include <linux/falloc.h>
#include <glib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CARD_NAME  "card.img"
#define STATS_NAME "stats"
#define POWER_NAME "power"
#define MAX_OPEN_AUS 64
#define N_SIZE_BUCKETS 32

typedef struct
{
  guint64  size;               /* what the host sees */
  guint64  real_size;          /* what is really stored; size / fake-factor */
  guint    queue;
  guint64  au_size;
  guint    open_aus;
  gboolean read_only;
  gboolean refuse_write_open;
  gboolean ignore_discard;     /* [card] ignore-discard: a discard keeps the data */
  guint64  refuse_discard_after; /* [card] refuse-discard-after: once this many bytes
                                  * were discarded, every discard is refused
                                  * (EOPNOTSUPP), as readers that take the first and
                                  * then turn it off; 0: never */
  double   discard_latency_us; /* [card] discard-latency-us: each discard command's fixed cost */
  double   discard_us_per_mib; /* [card] discard-us-per-mib: its cost per MiB of the range */
  guint64  fail_after;
  /* [card] broken-queue: with more than this many commands in flight, one
   * write in BROKEN_QUEUE_EVERY lands on the next 4 KiB block instead of
   * its own, silently, as cards whose command queue is broken do; 0: a
   * sound queue. */
  guint64  broken_queue;
  guint64  max_command;
  double   credit_us;
  double   read_latency_us;
  double   read_mb_s;          /* 10^6 bytes per second == bytes per µs */
  double   write_latency_us;
  double   write_mb_s;
  double   write_penalty_us;
  guint64  controller_cache;   /* [controller-cache] size: bytes read back from cache */
  /* The write cache and garbage collection: see cache_cost_ns (). */
  guint64  cache_size;         /* 0: no cache; writes cost the same throughout */
  double   cache_after_mb_s;   /* write bandwidth once the cache is full */
  double   cache_drain_mb_s;   /* how fast the cache empties when writes pause */
  double   cache_idle_ms;      /* a pause in writes longer than this drains it */
  guint64  gc_every;           /* 0: no stalls; else one stall per this many bytes written */
  double   gc_stall_ms;
  /* [wear]: see wear_limit (). */
  guint64  wear_writes;        /* 0: blocks never wear out */
  double   wear_spread;        /* relative spread of the limit around wear_writes */
  guint64  wear_seed;
  guint64  wear_block;         /* bytes per wear block */
  SimPowerModel power;         /* [power]: see cm-simcard-power.c */
} SimModel;

typedef struct
{
  gint64   busy_until;         /* ns, CLOCK_MONOTONIC */
  gboolean in_use;
} SimSlot;

typedef struct
{
  SimModel model;
  int      backing_fd;

  GMutex   lock;
  GCond    slot_free;
  SimSlot *slots;
  gint64   bus_free;
  guint64  aus[MAX_OPEN_AUS];  /* most recent first */
  guint    n_aus;

  /* Counters, read through the stats file. */
  guint64  commands;
  guint64  reads;
  guint64  writes;
  guint64  read_bytes;
  guint64  write_bytes;
  guint64  penalties;
  guint64  failed;
  guint64  late;               /* commands that could not be credited */
  guint64  discards;           /* punched holes asked for, honoured or not */
  guint64  discard_bytes;
  guint64  size_buckets[N_SIZE_BUCKETS];

  /* The controller cache (controller_cache_*): the last blocks written,
   * by host address, kept in a sparse file of the announced size. */
  int         cache_fd;
  GHashTable *cache_blocks;    /* block index → GList link in cache_order */
  GQueue      cache_order;     /* block indices, oldest first */
  guint64     cache_hits;
  /* Write cache and garbage-collection state (lock held). */
  guint64  cache_fill;         /* bytes in the fast cache */
  gint64   last_write_end;     /* ns, when the last write's transfer ended */
  guint64  gc_debt;            /* bytes written since the last stall */
  guint64  cached_bytes;       /* counters for stats */
  guint64  slow_bytes;
  guint64  stalls;
  /* Wear: bytes written to each block (lock held). */
  guint64 *wear_counts;
  guint64  wear_blocks;
  guint64  worn_reads;         /* read commands that returned a worn block */
  /* The queue: commands inside the daemon now (lock held), the most
   * ever, and writes a broken queue put in the wrong place. */
  guint    in_flight;
  guint    in_flight_max;
  guint64  deep_writes;
  guint64  misplaced_writes;
} SimCard;

static SimCard card;

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static void
sleep_until_ns (gint64 deadline)
{
  struct timespec ts;

  ts.tv_sec = deadline / G_GINT64_CONSTANT (1000000000);
  ts.tv_nsec = deadline % G_GINT64_CONSTANT (1000000000);
  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
    ;
}

/* Sizes in profiles: plain bytes, or with K/M/G (binary, also KiB…) or
 * KB/MB/GB (decimal) suffixes. */
static gboolean
parse_size (const char *text,
            guint64    *out)
{
  g_autofree char *s = g_strstrip (g_strdup (text));
  char *end = NULL;
  double value = g_ascii_strtod (s, &end);
  guint64 unit = 1;

  if (end == s || value < 0)
    return FALSE;
  while (*end == ' ')
    end++;
  if (*end != '\0')
    {
      char u = g_ascii_toupper (*end);
      gboolean decimal = g_ascii_strcasecmp (end + 1, "B") == 0;

      if (*(end + 1) != '\0' && !decimal &&
          g_ascii_strcasecmp (end + 1, "iB") != 0)
        return FALSE;
      switch (u)
        {
        case 'K': unit = decimal ? 1000 : 1024; break;
        case 'M': unit = decimal ? 1000000 : 1024 * 1024; break;
        case 'G': unit = decimal ? 1000000000 : 1024 * 1024 * 1024; break;
        case 'T': unit = decimal ? G_GUINT64_CONSTANT (1000000000000)
                                 : G_GUINT64_CONSTANT (1) << 40; break;
        default: return FALSE;
        }
    }
  *out = (guint64) (value * unit);
  return TRUE;
}

static gboolean
key_size (GKeyFile   *kf,
          const char *group,
          const char *key,
          guint64     fallback,
          guint64    *out,
          GError    **error)
{
  g_autofree char *text = g_key_file_get_string (kf, group, key, NULL);

  if (text == NULL)
    {
      *out = fallback;
      return TRUE;
    }
  if (!parse_size (text, out))
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   "[%s] %s=%s is not a size; write e.g. 512MiB or 4096",
                   group, key, text);
      return FALSE;
    }
  return TRUE;
}

static double
key_double (GKeyFile   *kf,
            const char *group,
            const char *key,
            double      fallback)
{
  g_autoptr(GError) error = NULL;
  double v = g_key_file_get_double (kf, group, key, &error);

  return error != NULL ? fallback : v;
}

static gboolean
key_bool (GKeyFile   *kf,
          const char *group,
          const char *key,
          gboolean    fallback)
{
  g_autoptr(GError) error = NULL;
  gboolean v = g_key_file_get_boolean (kf, group, key, &error);

  return error != NULL ? fallback : v;
}

/* [cache]: a fast write cache of `size` bytes; once full, writes go at
 * `after-bandwidth-mb-s`. It drains at `drain-mb-s` while no write has
 * arrived for `idle-ms` (the way an SLC cache is folded into slower cells
 * when the card is left alone). [gc]: every `every` bytes written, one
 * write stalls `stall-ms` more (garbage collection). */
static gboolean
model_cache_from_keyfile (GKeyFile  *kf,
                          SimModel  *m,
                          GError   **error)
{
  if (!key_size (kf, "cache", "size", 0, &m->cache_size, error) ||
      !key_size (kf, "gc", "every", 0, &m->gc_every, error))
    return FALSE;

  m->cache_after_mb_s = key_double (kf, "cache", "after-bandwidth-mb-s", 0);
  m->cache_drain_mb_s = key_double (kf, "cache", "drain-mb-s", 0);
  m->cache_idle_ms = key_double (kf, "cache", "idle-ms", 500);
  m->gc_stall_ms = key_double (kf, "gc", "stall-ms", 0);

  if (m->cache_size > 0 && m->cache_after_mb_s <= 0)
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   "[cache] size needs after-bandwidth-mb-s, the write rate once the cache is full");
      return FALSE;
    }
  if (m->gc_every > 0 && m->gc_stall_ms <= 0)
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   "[gc] every needs stall-ms, how long each stall lasts");
      return FALSE;
    }
  return TRUE;
}

/* [wear]: a block (`block` bytes, by host address) survives a number of
 * write commands that varies from block to block: `writes` on average,
 * spread uniformly over ±`spread` of it, drawn from `seed` so the same
 * profile wears the same way every time. Writes are counted in bytes: a
 * block has had one write for every `block` bytes written to it, however
 * the host's commands were cut; once a block has had more writes than its
 * limit it is worn, and every read of it returns its bytes inverted — wrong
 * data, not an I/O error, the way cheap cards die. */
static gboolean
model_wear_from_keyfile (GKeyFile  *kf,
                         SimModel  *m,
                         GError   **error)
{
  if (!key_size (kf, "wear", "writes", 0, &m->wear_writes, error) ||
      !key_size (kf, "wear", "seed", 1, &m->wear_seed, error) ||
      !key_size (kf, "wear", "block", 64 * 1024, &m->wear_block, error))
    return FALSE;
  m->wear_spread = CLAMP (key_double (kf, "wear", "spread", 0.2), 0.0, 1.0);
  if (m->wear_block < 512 || m->wear_block % 512 != 0)
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   "[wear] block must be a multiple of 512 bytes, e.g. 64KiB");
      return FALSE;
    }
  return TRUE;
}

static guint64
splitmix64 (guint64 x)
{
  x += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  x = (x ^ (x >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  x = (x ^ (x >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return x ^ (x >> 31);
}

/* How many writes block @b survives. */
static guint64
wear_limit (const SimModel *m,
            guint64         b)
{
  double u = (splitmix64 (m->wear_seed * G_GUINT64_CONSTANT (0x100000001B3) ^ b) >> 11) * 0x1.0p-53;
  double l = m->wear_writes * (1.0 + m->wear_spread * (2.0 * u - 1.0));

  return l <= 0 ? 0 : (guint64) (l + 0.5);
}

static guint64
wear_n_blocks (const SimModel *m)
{
  return (m->size + m->wear_block - 1) / m->wear_block;
}

/* The wear model's predictions for a host that writes every block once per
 * round: the first round in which a block reads back wrong, and the share
 * of 512-byte sectors that read back wrong in rounds 1, 2, … up to the
 * round after which every block is worn (at most 200 rounds). */
static void
print_wear_model (const SimModel *m)
{
  guint64 n = wear_n_blocks (m), first = 0, last = 0, b, r;
  g_autofree guint64 *worn_sectors = NULL;
  guint64 total = m->size / 512, acc = 0;

  printf ("SIMCARD_WEAR_WRITES=%" G_GUINT64_FORMAT "\n", m->wear_writes);
  printf ("SIMCARD_WEAR_SPREAD=%g\n", m->wear_spread);
  printf ("SIMCARD_WEAR_SEED=%" G_GUINT64_FORMAT "\n", m->wear_seed);
  printf ("SIMCARD_WEAR_BLOCK=%" G_GUINT64_FORMAT "\n", m->wear_block);
  if (m->wear_writes == 0)
    {
      printf ("SIMCARD_WEAR_FIRST_ROUND=0\n");
      printf ("SIMCARD_WEAR_BAD_SHARE=\n");
      return;
    }
  worn_sectors = g_new0 (guint64, 202);
  for (b = 0; b < n; b++)
    {
      guint64 round = wear_limit (m, b) + 1;     /* the first bad round */
      guint64 bytes = MIN (m->wear_block, m->size - b * m->wear_block);

      if (first == 0 || round < first)
        first = round;
      last = MAX (last, round);
      worn_sectors[MIN (round, 201)] += bytes / 512;
    }
  printf ("SIMCARD_WEAR_FIRST_ROUND=%" G_GUINT64_FORMAT "\n", first);
  printf ("SIMCARD_WEAR_BAD_SHARE=\"");
  for (r = 1; r <= MIN (last, 200); r++)
    {
      acc += worn_sectors[r];
      printf ("%s%.6f", r > 1 ? " " : "", (double) acc / total);
    }
  printf ("\"\n");
}

static gboolean
wear_enabled (void)
{
  return card.model.wear_writes > 0;
}

/* A write command: its bytes count against every block it touches. */
static void
wear_write (off_t  offset,
            size_t len)
{
  guint64 b;

  if (!wear_enabled () || len == 0)
    return;
  g_mutex_lock (&card.lock);
  for (b = offset / card.model.wear_block;
       b * card.model.wear_block < (guint64) offset + len && b < card.wear_blocks; b++)
    {
      guint64 start = MAX (b * card.model.wear_block, (guint64) offset);
      guint64 end = MIN ((b + 1) * card.model.wear_block, (guint64) offset + len);

      card.wear_counts[b] += end - start;
    }
  g_mutex_unlock (&card.lock);
}

/* A read command: worn blocks come back inverted. */
static void
wear_read (char   *buf,
           size_t  len,
           off_t   offset)
{
  guint64 b;
  gboolean any = FALSE;

  if (!wear_enabled () || len == 0)
    return;
  g_mutex_lock (&card.lock);
  for (b = offset / card.model.wear_block;
       b * card.model.wear_block < (guint64) offset + len && b < card.wear_blocks; b++)
    {
      guint64 start = MAX (b * card.model.wear_block, (guint64) offset);
      guint64 end = MIN ((b + 1) * card.model.wear_block, (guint64) offset + len);

      if (card.wear_counts[b] <= wear_limit (&card.model, b) * card.model.wear_block)
        continue;
      for (guint64 i = start; i < end; i++)
        buf[i - offset] = ~buf[i - offset];
      any = TRUE;
    }
  if (any)
    card.worn_reads++;
  g_mutex_unlock (&card.lock);
}

static gboolean
model_from_keyfile (GKeyFile  *kf,
                    SimModel  *m,
                    GError   **error)
{
  double factor;
  guint64 queue, open_aus, fail_after;

  if (!key_size (kf, "card", "size", 512 * 1024 * 1024, &m->size, error) ||
      !key_size (kf, "card", "au-size", 4 * 1024 * 1024, &m->au_size, error) ||
      !key_size (kf, "card", "max-command", 512 * 1024, &m->max_command, error) ||
      !key_size (kf, "card", "queue", 1, &queue, error) ||
      !key_size (kf, "card", "open-aus", 1, &open_aus, error) ||
      !key_size (kf, "card", "fail-after", 0, &fail_after, error) ||
      !key_size (kf, "card", "broken-queue", 0, &m->broken_queue, error) ||
      !key_size (kf, "card", "refuse-discard-after", 0, &m->refuse_discard_after, error))
    return FALSE;

  factor = key_double (kf, "card", "fake-factor", 1.0);
  m->queue = CLAMP (queue, 1, 256);
  m->open_aus = CLAMP (open_aus, 1, MAX_OPEN_AUS);
  m->fail_after = fail_after;
  m->read_only = key_bool (kf, "card", "read-only", FALSE);
  m->refuse_write_open = key_bool (kf, "card", "refuse-write-open", TRUE);
  m->ignore_discard = key_bool (kf, "card", "ignore-discard", FALSE);
  m->discard_latency_us = key_double (kf, "card", "discard-latency-us", 0);
  m->discard_us_per_mib = key_double (kf, "card", "discard-us-per-mib", 0);
  m->credit_us = key_double (kf, "card", "credit-us", 2000);
  m->read_latency_us = key_double (kf, "read", "latency-us", 200);
  m->read_mb_s = key_double (kf, "read", "bandwidth-mb-s", 40);
  m->write_latency_us = key_double (kf, "write", "latency-us", 300);
  m->write_mb_s = key_double (kf, "write", "bandwidth-mb-s", 20);
  m->write_penalty_us = key_double (kf, "write", "random-penalty-us", 1000);
  if (!key_size (kf, "controller-cache", "size", 0, &m->controller_cache, error) ||
      !model_cache_from_keyfile (kf, m, error) ||
      !model_wear_from_keyfile (kf, m, error) ||
      !sim_power_model_from_keyfile (kf, &m->power, error))
    return FALSE;

  if (factor < 1.0)
    factor = 1.0;
  m->real_size = (guint64) (m->size / factor);
  m->real_size -= m->real_size % 4096;
  m->size -= m->size % 512;
  m->au_size = MAX (m->au_size, 4096);
  m->max_command = CLAMP (m->max_command, 4096, 1024 * 1024);

  if (m->discard_latency_us < 0 || m->discard_us_per_mib < 0)
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   "[card] discard-latency-us and discard-us-per-mib are costs, "
                   "0 or more microseconds; check the profile and --set");
      return FALSE;
    }
  if (m->real_size < 1024 * 1024 || m->read_mb_s <= 0 || m->write_mb_s <= 0)
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   "the card needs at least 1 MiB of real storage and "
                   "bandwidths above zero; check the profile");
      return FALSE;
    }
  return TRUE;
}

/* The time, in µs, one QD1 request of `bytes` takes when the kernel splits
 * it into commands of at most max-command bytes: the figure a host measures. */
static double
predict_request_us (const SimModel *m,
                    gboolean        is_write,
                    guint64         bytes,
                    gboolean        sequential)
{
  guint64 n = (bytes + m->max_command - 1) / m->max_command;
  guint64 waves = (n + m->queue - 1) / m->queue;
  double lat = is_write ? m->write_latency_us : m->read_latency_us;
  double bw = is_write ? m->write_mb_s : m->read_mb_s;
  double t = waves * lat + bytes / bw;

  if (is_write)
    {
      if (sequential)
        t += m->write_penalty_us * ((double) bytes / m->au_size);
      else
        t += m->write_penalty_us;
    }
  return t;
}

/* Random 4 KiB IOPS with `depth` requests outstanding: each slot cycles
 * through latency + transfer, the bus caps the total. */
static double
predict_iops (const SimModel *m,
              gboolean        is_write,
              guint           depth)
{
  double cycle = predict_request_us (m, is_write, 4096, FALSE);
  double xfer = 4096 / (is_write ? m->write_mb_s : m->read_mb_s);
  guint slots = MIN (depth, m->queue);

  return MIN (1e6 * slots / cycle, 1e6 / xfer);
}

/* What a long sequential write sees: the cache's size (0 without one),
 * the 4 MiB QD1 rate once it is full, and the average rate with the
 * garbage-collection stalls (the figure a card with stalls sustains). */
static void
print_cache_model (const SimModel *m)
{
  guint64 bs = 4 * 1024 * 1024;
  double before_us = predict_request_us (m, TRUE, bs, TRUE);
  double after_us = before_us;

  if (m->cache_size > 0)
    after_us += bs / m->cache_after_mb_s - bs / m->write_mb_s;
  if (m->gc_every > 0)
    {
      before_us += m->gc_stall_ms * 1000 * bs / m->gc_every;
      after_us += m->gc_stall_ms * 1000 * bs / m->gc_every;
    }

  printf ("SIMCARD_CACHE_BYTES=%" G_GUINT64_FORMAT "\n", m->cache_size);
  printf ("SIMCARD_CACHED_WRITE_MB_S=%.2f\n", bs / before_us);
  printf ("SIMCARD_SUSTAINED_WRITE_MB_S=%.2f\n", bs / after_us);
}

static void
print_model (const SimModel *m)
{
  guint64 bs = 4 * 1024 * 1024;

  printf ("SIMCARD_SIZE=%" G_GUINT64_FORMAT "\n", m->size);
  printf ("SIMCARD_REAL_SIZE=%" G_GUINT64_FORMAT "\n", m->real_size);
  printf ("SIMCARD_QUEUE=%u\n", m->queue);
  printf ("SIMCARD_READ_ONLY=%d\n", m->read_only ? 1 : 0);
  printf ("SIMCARD_FAIL_AFTER=%" G_GUINT64_FORMAT "\n", m->fail_after);
  printf ("SIMCARD_BROKEN_QUEUE=%" G_GUINT64_FORMAT "\n", m->broken_queue);
  printf ("SIMCARD_MAX_COMMAND=%" G_GUINT64_FORMAT "\n", m->max_command);
  printf ("SIMCARD_CONTROLLER_CACHE=%" G_GUINT64_FORMAT "\n", m->controller_cache);
  printf ("SIMCARD_IGNORE_DISCARD=%d\n", m->ignore_discard ? 1 : 0);
  printf ("SIMCARD_REFUSE_DISCARD_AFTER=%" G_GUINT64_FORMAT "\n", m->refuse_discard_after);
  printf ("SIMCARD_DISCARD_LATENCY_US=%g\n", m->discard_latency_us);
  printf ("SIMCARD_DISCARD_US_PER_MIB=%g\n", m->discard_us_per_mib);
  printf ("SIMCARD_SEQ_WRITE_MB_S=%.2f\n",
          bs / predict_request_us (m, TRUE, bs, TRUE));
  printf ("SIMCARD_SEQ_READ_MB_S=%.2f\n",
          bs / predict_request_us (m, FALSE, bs, TRUE));
  printf ("SIMCARD_RAND_READ_IOPS=%.0f\n", predict_iops (m, FALSE, 1));
  printf ("SIMCARD_RAND_WRITE_IOPS=%.0f\n", predict_iops (m, TRUE, 1));
  printf ("SIMCARD_RAND_READ_IOPS_QD32=%.0f\n", predict_iops (m, FALSE, 32));
  printf ("SIMCARD_RAND_WRITE_IOPS_QD32=%.0f\n", predict_iops (m, TRUE, 32));
  print_cache_model (m);
  print_wear_model (m);
  sim_power_print_model (&m->power);
}

/* A write into an allocation unit the card does not have open costs the
 * random-write penalty; the unit is then open, evicting the oldest. Chunks
 * of one large request may arrive out of order, so "continues the previous
 * write" is judged per AU, not per byte. Called with the lock held. */
static gboolean
write_opens_au (guint64 offset)
{
  guint64 au = offset / card.model.au_size;
  guint i;

  for (i = 0; i < card.n_aus; i++)
    if (card.aus[i] == au)
      {
        memmove (&card.aus[1], &card.aus[0], i * sizeof (guint64));
        card.aus[0] = au;
        return FALSE;
      }
  card.n_aus = MIN (card.n_aus + 1, card.model.open_aus);
  memmove (&card.aus[1], &card.aus[0], (card.n_aus - 1) * sizeof (guint64));
  card.aus[0] = au;
  return TRUE;
}

/* What the cache holds at @t (ns), after draining while writes paused.
 * Called with the lock held. */
static guint64
cache_fill_at (gint64 t)
{
  const SimModel *m = &card.model;
  gint64 idle = t - card.last_write_end - (gint64) (m->cache_idle_ms * 1e6);
  guint64 drained;

  if (card.last_write_end == 0 || idle <= 0)
    return card.cache_fill;

  drained = (guint64) (idle * m->cache_drain_mb_s / 1000.0);
  return card.cache_fill - MIN (card.cache_fill, drained);
}

/* How long a write's transfer takes, starting at @start (ns), through
 * the cache and garbage collection, and updates their state. Bytes that
 * fit in the cache go at the write bandwidth, the rest at the cache's
 * after-bandwidth; a pause in writes longer than idle-ms drains the cache
 * at drain-mb-s. Called with the lock held. */
static gint64
write_transfer_ns (gint64 start,
                   size_t len)
{
  const SimModel *m = &card.model;
  guint64 fast = len, slow = 0;
  double ns;

  if (m->cache_size > 0)
    {
      card.cache_fill = cache_fill_at (start);
      fast = MIN ((guint64) len, m->cache_size - MIN (card.cache_fill, m->cache_size));
      slow = len - fast;
      card.cache_fill += fast;
      card.cached_bytes += fast;
      card.slow_bytes += slow;
    }

  ns = fast * 1000.0 / m->write_mb_s;
  if (slow > 0)
    ns += slow * 1000.0 / m->cache_after_mb_s;

  if (m->gc_every > 0)
    {
      card.gc_debt += len;
      if (card.gc_debt >= m->gc_every)
        {
          card.gc_debt -= m->gc_every;
          ns += m->gc_stall_ms * 1e6;
          card.stalls++;
        }
    }

  card.last_write_end = start + (gint64) ns;
  return (gint64) ns;
}

static guint
bucket_of (size_t len)
{
  guint b = 0;

  while ((len >> 1) > 0 && b < N_SIZE_BUCKETS - 1)
    {
      len >>= 1;
      b++;
    }
  return b;
}

/* Takes a free slot (waiting for one) and says in @t0 when its command
 * starts. Called with the lock held. */
static guint
slot_take (gint64 *t0)
{
  const SimModel *m = &card.model;
  guint best = G_MAXUINT;
  gint64 now;
  guint i;

  for (;;)
    {
      for (i = 0; i < m->queue; i++)
        if (!card.slots[i].in_use &&
            (best == G_MAXUINT || card.slots[i].busy_until > card.slots[best].busy_until))
          best = i;
      if (best != G_MAXUINT)
        break;
      g_cond_wait (&card.slot_free, &card.lock);
    }
  card.slots[best].in_use = TRUE;

  /* The FUSE and loop round trip between one command's completion and the
   * next one's arrival is the emulator's cost, not the card's: a command
   * that arrives within credit-us of its slot's last completion starts as
   * if it had been sent back to back. */
  now = now_ns ();
  *t0 = now;
  if (card.slots[best].busy_until > 0 &&
      now - card.slots[best].busy_until < (gint64) (m->credit_us * 1000))
    *t0 = card.slots[best].busy_until;
  else if (card.slots[best].busy_until > 0)
    card.late++;
  return best;
}

/* Takes a slot and works out when this command completes. */
static guint
command_begin (gboolean  is_write,
               off_t     offset,
               size_t    len,
               gint64   *deadline)
{
  const SimModel *m = &card.model;
  gint64 t0, lat_end, start;
  double lat_us;
  guint best;

  g_mutex_lock (&card.lock);
  best = slot_take (&t0);

  lat_us = is_write ? m->write_latency_us : m->read_latency_us;
  if (is_write && write_opens_au (offset))
    {
      lat_us += m->write_penalty_us;
      card.penalties++;
    }
  lat_end = t0 + (gint64) (lat_us * 1000);
  start = MAX (lat_end, card.bus_free);
  if (is_write)
    card.bus_free = start + write_transfer_ns (start, len);
  else
    card.bus_free = start + (gint64) (len * 1000.0 / m->read_mb_s);
  *deadline = card.bus_free;

  card.commands++;
  if (is_write)
    {
      card.writes++;
      card.write_bytes += len;
    }
  else
    {
      card.reads++;
      card.read_bytes += len;
    }
  card.size_buckets[bucket_of (len)]++;
  g_mutex_unlock (&card.lock);
  return best;
}

/* A discard the card carries out: discard-latency-us plus
 * discard-us-per-mib for each MiB of the range asked, during which it
 * holds a slot and the bus (the card does nothing else while it erases). */
static guint
discard_begin (guint64  len,
               gint64  *deadline)
{
  const SimModel *m = &card.model;
  double cost_us = m->discard_latency_us + m->discard_us_per_mib * len / (1024.0 * 1024.0);
  gint64 t0;
  guint slot;

  g_mutex_lock (&card.lock);
  slot = slot_take (&t0);
  card.bus_free = MAX (t0, card.bus_free) + (gint64) (cost_us * 1000);
  *deadline = card.bus_free;
  g_mutex_unlock (&card.lock);
  return slot;
}

static gboolean
discard_costs (void)
{
  return card.model.discard_latency_us > 0 || card.model.discard_us_per_mib > 0;
}

static void
command_end (guint  slot,
             gint64 deadline)
{
  sleep_until_ns (deadline);
  g_mutex_lock (&card.lock);
  card.slots[slot].in_use = FALSE;
  card.slots[slot].busy_until = deadline;
  g_cond_signal (&card.slot_free);
  g_mutex_unlock (&card.lock);
}

/* A card pulled out of its reader (SIGUSR1) and put back (SIGUSR2):
 * while it is out, every command fails and card.img is not there, so a
 * host that looks at its loop device's backing file sees the card gone.
 * The daemon, and the card's wear, carry on. The kernel keeps card.img's
 * entry for an hour, so a thread drops it when the card goes. */
static volatile sig_atomic_t card_pulled;
static int pull_pipe[2] = { -1, -1 };
static struct fuse *pull_fuse;

static void
pull_signal (int sig)
{
  char c = 0;

  card_pulled = sig == SIGUSR1 || sig == SIGPWR;
  c = (char) sig;
  if (write (pull_pipe[1], &c, 1) < 0)
    return;
}

static gpointer
pull_thread (gpointer data)
{
  char c;

  while (read (pull_pipe[0], &c, 1) > 0)
    {
      /* A card pulled out loses its power with it (SIGPWR is the same
       * cut by its own name); SIGUSR2 brings both back. */
      if (c == SIGPWR || c == SIGUSR1)
        sim_power_cut ();
      else if (c == SIGUSR2)
        sim_power_restore ();
      fuse_invalidate_path (pull_fuse, "/" CARD_NAME);
    }
  return NULL;
}

static void
pull_watch (void)
{
  struct sigaction sa = { 0 };

  if (pipe (pull_pipe) != 0)
    return;
  pull_fuse = fuse_get_context ()->fuse;
  g_thread_unref (g_thread_new ("pull", pull_thread, NULL));
  sa.sa_handler = pull_signal;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  sigaction (SIGUSR2, &sa, NULL);
  sigaction (SIGPWR, &sa, NULL);
}

/* The power file: "off" cuts the power as SIGPWR does, "on" brings it
 * back as SIGUSR2 does; reading it says which. */
static int
power_control_write (const char *buf,
                     size_t      len)
{
  g_autofree char *word = g_strstrip (g_strndup (buf, len));
  char c = 0;

  if (g_str_equal (word, "off"))
    {
      card_pulled = 1;
      sim_power_cut ();
    }
  else if (g_str_equal (word, "on"))
    {
      sim_power_restore ();
      card_pulled = 0;
    }
  else
    return -EINVAL;
  if (write (pull_pipe[1], &c, 1) < 0)
    return -errno;
  return len;
}

/* True once the card has worn out: every command from then on fails. */
static gboolean
card_failed (void)
{
  gboolean failed;

  g_mutex_lock (&card.lock);
  failed = card.model.fail_after > 0 &&
           card.commands + card.failed >= card.model.fail_after;
  if (failed)
    card.failed++;
  g_mutex_unlock (&card.lock);
  return failed;
}

/* Reads or writes the backing file; offsets past the real size wrap, the
 * way a fake-capacity card's controller drops the high address bits. */
static int
backing_io (gboolean is_write,
            char    *buf,
            size_t   len,
            off_t    offset)
{
  size_t done = 0;

  while (done < len)
    {
      guint64 pos = (guint64) (offset + done) % card.model.real_size;
      size_t chunk = MIN (len - done, card.model.real_size - pos);
      ssize_t r;

      if (is_write)
        r = pwrite (card.backing_fd, buf + done, chunk, pos);
      else
        r = pread (card.backing_fd, buf + done, chunk, pos);
      if (r < 0)
        return -errno;
      if (r == 0 && !is_write)
        {
          memset (buf + done, 0, chunk);
          r = chunk;
        }
      done += r;
    }
  return (int) len;
}

/* The controller cache. A fake card's controller keeps the last blocks
 * written (by host address) in its own memory and answers reads of them
 * from there, so a check that reads back right after writing sees its
 * data even where the flash behind it wrapped. Blocks are 4 KiB; a write
 * that covers a whole block caches it (evicting the oldest beyond
 * [controller-cache] size), a partial write updates a cached block. */

#define CACHE_BLOCK 4096

static gboolean
controller_cache_enabled (void)
{
  return card.model.controller_cache >= CACHE_BLOCK;
}

static gboolean
controller_cache_open (const char *backing)
{
  g_autofree char *path = NULL;

  if (!controller_cache_enabled ())
    return TRUE;
  path = g_strconcat (backing, ".controller-cache", NULL);
  card.cache_fd = open (path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (card.cache_fd < 0 || ftruncate (card.cache_fd, card.model.size) < 0)
    return FALSE;
  card.cache_blocks = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_queue_init (&card.cache_order);
  return TRUE;
}

static void
controller_cache_touch (guint64 block)
{
  GList *link = g_hash_table_lookup (card.cache_blocks, &block);
  guint64 limit = card.model.controller_cache / CACHE_BLOCK;

  if (link != NULL)
    {
      g_queue_unlink (&card.cache_order, link);
      g_queue_push_tail_link (&card.cache_order, link);
      return;
    }
  link = g_list_alloc ();
  link->data = g_memdup2 (&block, sizeof block);
  g_queue_push_tail_link (&card.cache_order, link);
  g_hash_table_insert (card.cache_blocks, link->data, link);
  while (card.cache_order.length > limit)
    {
      GList *old = g_queue_pop_head_link (&card.cache_order);

      g_hash_table_remove (card.cache_blocks, old->data);
      g_free (old->data);
      g_list_free_1 (old);
    }
}

/* After the flash write: keep what was written, by host address. */
static void
controller_cache_write (const char *buf,
                        size_t      len,
                        off_t       offset)
{
  if (!controller_cache_enabled ())
    return;

  g_mutex_lock (&card.lock);
  for (guint64 b = offset / CACHE_BLOCK; b * CACHE_BLOCK < (guint64) offset + len; b++)
    {
      guint64 start = MAX (b * CACHE_BLOCK, (guint64) offset);
      guint64 end = MIN ((b + 1) * CACHE_BLOCK, (guint64) offset + len);
      gboolean whole = end - start == CACHE_BLOCK;

      if (!whole && !g_hash_table_contains (card.cache_blocks, &b))
        continue;
      if (pwrite (card.cache_fd, buf + (start - offset), end - start, start) != (ssize_t) (end - start))
        continue;
      controller_cache_touch (b);
    }
  g_mutex_unlock (&card.lock);
}

/* After the flash read: cached blocks are answered from the cache. */
static void
controller_cache_read (char   *buf,
                       size_t  len,
                       off_t   offset)
{
  if (!controller_cache_enabled ())
    return;

  g_mutex_lock (&card.lock);
  for (guint64 b = offset / CACHE_BLOCK; b * CACHE_BLOCK < (guint64) offset + len; b++)
    {
      guint64 start = MAX (b * CACHE_BLOCK, (guint64) offset);
      guint64 end = MIN ((b + 1) * CACHE_BLOCK, (guint64) offset + len);

      if (!g_hash_table_contains (card.cache_blocks, &b))
        continue;
      if (pread (card.cache_fd, buf + (start - offset), end - start, start) == (ssize_t) (end - start))
        card.cache_hits++;
    }
  g_mutex_unlock (&card.lock);
}

static char *
stats_text (void)
{
  GString *s = g_string_new (NULL);
  guint i;

  g_mutex_lock (&card.lock);
  g_string_append_printf (s,
                          "commands=%" G_GUINT64_FORMAT "\n"
                          "reads=%" G_GUINT64_FORMAT "\n"
                          "writes=%" G_GUINT64_FORMAT "\n"
                          "read_bytes=%" G_GUINT64_FORMAT "\n"
                          "write_bytes=%" G_GUINT64_FORMAT "\n"
                          "penalties=%" G_GUINT64_FORMAT "\n"
                          "failed=%" G_GUINT64_FORMAT "\n"
                          "late=%" G_GUINT64_FORMAT "\n"
                          "controller_cache_hits=%" G_GUINT64_FORMAT "\n"
                          "cached_bytes=%" G_GUINT64_FORMAT "\n"
                          "slow_bytes=%" G_GUINT64_FORMAT "\n"
                          "cache_fill=%" G_GUINT64_FORMAT "\n"
                          "stalls=%" G_GUINT64_FORMAT "\n"
                          "worn_reads=%" G_GUINT64_FORMAT "\n"
                          "discards=%" G_GUINT64_FORMAT "\n"
                          "discard_bytes=%" G_GUINT64_FORMAT "\n"
                          "in_flight_max=%u\n"
                          "misplaced_writes=%" G_GUINT64_FORMAT "\n",
                          card.commands, card.reads, card.writes,
                          card.read_bytes, card.write_bytes,
                          card.penalties, card.failed, card.late,
                          card.cache_hits, card.cached_bytes, card.slow_bytes,
                          cache_fill_at (now_ns ()), card.stalls,
                          card.worn_reads, card.discards, card.discard_bytes,
                          card.in_flight_max, card.misplaced_writes);
  sim_power_stats (s);
  for (i = 0; i < N_SIZE_BUCKETS; i++)
    if (card.size_buckets[i] > 0)
      g_string_append_printf (s, "size_%" G_GUINT64_FORMAT "=%" G_GUINT64_FORMAT "\n",
                              (guint64) 1 << i, card.size_buckets[i]);
  g_mutex_unlock (&card.lock);
  return g_string_free (s, FALSE);
}

static void *
sim_init (struct fuse_conn_info *conn,
          struct fuse_config    *cfg)
{
  cfg->direct_io = 1;
  cfg->kernel_cache = 0;
  pull_watch ();
  cfg->attr_timeout = 3600;
  cfg->entry_timeout = 3600;
  cfg->negative_timeout = 3600;
  conn->max_write = card.model.max_command;
  /* Queued commands reach the daemon only as background requests. */
  conn->max_background = MAX (conn->max_background, 64);
  conn->congestion_threshold = MAX (conn->congestion_threshold, 48);
  return NULL;
}

static int
sim_getattr (const char            *path,
             struct stat           *st,
             struct fuse_file_info *fi)
{
  memset (st, 0, sizeof *st);
  st->st_uid = getuid ();
  st->st_gid = getgid ();
  if (g_str_equal (path, "/"))
    {
      st->st_mode = S_IFDIR | 0755;
      st->st_nlink = 2;
    }
  else if (g_str_equal (path, "/" CARD_NAME) && card_pulled)
    return -ENOENT;
  else if (g_str_equal (path, "/" CARD_NAME))
    {
      st->st_mode = S_IFREG | (card.model.read_only ? 0444 : 0644);
      st->st_nlink = 1;
      st->st_size = card.model.size;
      st->st_blocks = card.model.size / 512;
    }
  else if (g_str_equal (path, "/" STATS_NAME))
    {
      st->st_mode = S_IFREG | 0444;
      st->st_nlink = 1;
    }
  else if (g_str_equal (path, "/" POWER_NAME))
    {
      st->st_mode = S_IFREG | 0644;
      st->st_nlink = 1;
    }
  else
    return -ENOENT;
  return 0;
}

static int
sim_readdir (const char               *path,
             void                     *buf,
             fuse_fill_dir_t           filler,
             off_t                     offset,
             struct fuse_file_info    *fi,
             enum fuse_readdir_flags   flags)
{
  if (!g_str_equal (path, "/"))
    return -ENOENT;
  filler (buf, ".", NULL, 0, 0);
  filler (buf, "..", NULL, 0, 0);
  filler (buf, CARD_NAME, NULL, 0, 0);
  filler (buf, STATS_NAME, NULL, 0, 0);
  filler (buf, POWER_NAME, NULL, 0, 0);
  return 0;
}

static int
sim_open (const char            *path,
          struct fuse_file_info *fi)
{
  gboolean for_write = (fi->flags & O_ACCMODE) != O_RDONLY;

  fi->direct_io = 1;
  if (g_str_equal (path, "/" STATS_NAME))
    {
      if (for_write)
        return -EACCES;
      fi->fh = GPOINTER_TO_SIZE (stats_text ());
      return 0;
    }
  if (g_str_equal (path, "/" POWER_NAME))
    {
      fi->fh = GPOINTER_TO_SIZE (g_strdup (sim_power_is_off () ? "off\n" : "on\n"));
      return 0;
    }
  if (!g_str_equal (path, "/" CARD_NAME) || card_pulled)
    return -ENOENT;
  if (for_write && card.model.read_only && card.model.refuse_write_open)
    return -EROFS;
  fi->fh = 0;
  return 0;
}

static int
sim_release (const char            *path,
             struct fuse_file_info *fi)
{
  g_free (GSIZE_TO_POINTER (fi->fh));
  return 0;
}

/* A command enters the daemon: counted in flight until queue_leave().
 * For a write on a card with a broken queue, returns where it lands:
 * with more than broken-queue commands in flight, one write in
 * BROKEN_QUEUE_EVERY goes to the next 4 KiB block (the one before it at
 * the card's end), as if the card mixed up two queued commands' addresses. */
#define BROKEN_QUEUE_EVERY 64

static off_t
queue_enter (gboolean is_write,
             off_t    offset,
             size_t   len)
{
  const SimModel *m = &card.model;
  off_t lands = offset;

  g_mutex_lock (&card.lock);
  card.in_flight++;
  card.in_flight_max = MAX (card.in_flight_max, card.in_flight);
  if (is_write && m->broken_queue > 0 && card.in_flight > m->broken_queue &&
      ++card.deep_writes % BROKEN_QUEUE_EVERY == 0)
    {
      lands = (guint64) offset + len + 4096 <= m->size ? offset + 4096 : offset - 4096;
      card.misplaced_writes++;
    }
  g_mutex_unlock (&card.lock);
  return lands;
}

static void
queue_leave (void)
{
  g_mutex_lock (&card.lock);
  card.in_flight--;
  g_mutex_unlock (&card.lock);
}

static int
sim_read (const char            *path,
          char                  *buf,
          size_t                 len,
          off_t                  offset,
          struct fuse_file_info *fi)
{
  gint64 deadline;
  guint slot;
  int r;

  if (fi->fh != 0)
    {
      const char *text = GSIZE_TO_POINTER (fi->fh);
      size_t n = strlen (text);

      if ((size_t) offset >= n)
        return 0;
      len = MIN (len, n - offset);
      memcpy (buf, text + offset, len);
      return len;
    }

  if ((guint64) offset >= card.model.size)
    return 0;
  len = MIN (len, card.model.size - offset);
  if (card_pulled)
    return -ENOMEDIUM;
  if (card_failed ())
    return -EIO;

  queue_enter (FALSE, offset, len);
  slot = command_begin (FALSE, offset, len, &deadline);
  r = backing_io (FALSE, buf, len, offset);
  if (r > 0)
    sim_power_read (buf, r, offset);
  if (r > 0)
    controller_cache_read (buf, len, offset);
  if (r > 0)
    wear_read (buf, r, offset);
  command_end (slot, deadline);
  queue_leave ();
  return r;
}

static int
sim_write (const char            *path,
           const char            *buf,
           size_t                 len,
           off_t                  offset,
           struct fuse_file_info *fi)
{
  off_t lands;
  gint64 deadline;
  guint slot;
  int r;

  if (g_str_equal (path, "/" POWER_NAME))
    return power_control_write (buf, len);
  if (card.model.read_only)
    return -EROFS;
  if ((guint64) offset >= card.model.size)
    return -ENOSPC;
  len = MIN (len, card.model.size - offset);
  if (card_pulled)
    return -ENOMEDIUM;
  if (card_failed ())
    return -EIO;

  lands = queue_enter (TRUE, offset, len);
  slot = command_begin (TRUE, offset, len, &deadline);
  r = sim_power_write (buf, len, lands);
  if (r == 0)
    r = backing_io (TRUE, (char *) buf, len, lands);
  if (r > 0)
    controller_cache_write (buf, len, offset);
  if (r > 0)
    wear_write (offset, r);
  command_end (slot, deadline);
  queue_leave ();
  return r;
}

/* A discard: the loop driver turns BLKDISCARD into a punched hole. The
 * card forgets the range (it reads back as zeros, as the backing file's
 * hole does), by host address wrapped onto the real storage the way
 * writes are, and answers when the erase's modelled cost is over
 * (discard_begin); a card with ignore-discard says yes at once and keeps
 * the data. Anything but a punched hole is not a card's to do. */
static int
sim_fallocate (const char            *path,
               int                    mode,
               off_t                  offset,
               off_t                  len,
               struct fuse_file_info *fi)
{
  guint64 done = 0;
  gint64 deadline = 0;
  guint slot = 0;
  int r = 0;

  if (!(mode & FALLOC_FL_PUNCH_HOLE) || fi == NULL || fi->fh != 0)
    return -EOPNOTSUPP;
  if (card.model.read_only)
    return -EROFS;
  if (card_pulled)
    return -ENOMEDIUM;
  if (card_failed ())
    return -EIO;
  if ((guint64) offset >= card.model.size)
    return 0;
  len = MIN ((guint64) len, card.model.size - offset);
  g_mutex_lock (&card.lock);
  if (card.model.refuse_discard_after > 0 && card.discard_bytes >= card.model.refuse_discard_after)
    {
      g_mutex_unlock (&card.lock);
      return -EOPNOTSUPP;
    }
  card.discards++;
  card.discard_bytes += len;
  g_mutex_unlock (&card.lock);
  if (card.model.ignore_discard)
    return 0;
  if (discard_costs ())
    slot = discard_begin (len, &deadline);
  if ((guint64) len >= card.model.real_size)
    len = card.model.real_size, offset = 0;
  while (done < (guint64) len && r == 0)
    {
      guint64 pos = (offset + done) % card.model.real_size;
      guint64 chunk = MIN ((guint64) len - done, card.model.real_size - pos);

      if (fallocate (card.backing_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, pos, chunk) < 0)
        r = -errno;
      done += chunk;
    }
  if (discard_costs ())
    command_end (slot, deadline);
  return r;
}

/* A block device cannot be truncated or chmod-ed; pretend it worked so
 * tools that open card.img with O_TRUNC behave as on a device node. */
static int
sim_truncate (const char            *path,
              off_t                  size,
              struct fuse_file_info *fi)
{
  return 0;
}

static int
sim_chmod (const char            *path,
           mode_t                 mode,
           struct fuse_file_info *fi)
{
  return 0;
}

static int
sim_utimens (const char            *path,
             const struct timespec  tv[2],
             struct fuse_file_info *fi)
{
  return 0;
}

static int
sim_fsync (const char            *path,
           int                    datasync,
           struct fuse_file_info *fi)
{
  /* The loop driver's REQ_OP_FLUSH arrives here (vfs_fsync). */
  if (fi != NULL && fi->fh != 0)
    return 0;
  return sim_power_flush ();
}

static const struct fuse_operations sim_ops = {
  .init = sim_init,
  .getattr = sim_getattr,
  .readdir = sim_readdir,
  .open = sim_open,
  .release = sim_release,
  .read = sim_read,
  .write = sim_write,
  .truncate = sim_truncate,
  .chmod = sim_chmod,
  .utimens = sim_utimens,
  .fsync = sim_fsync,
  .fallocate = sim_fallocate,
};

/* --set GROUP.KEY=VALUE, the generic override. */
static gboolean
apply_override (GKeyFile   *kf,
                const char *assignment,
                GError    **error)
{
  g_auto(GStrv) kv = g_strsplit (assignment, "=", 2);
  g_auto(GStrv) gk = NULL;

  if (g_strv_length (kv) != 2 || strchr (kv[0], '.') == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--set %s: write GROUP.KEY=VALUE, e.g. --set write.bandwidth-mb-s=20",
                   assignment);
      return FALSE;
    }
  gk = g_strsplit (kv[0], ".", 2);
  g_key_file_set_string (kf, gk[0], gk[1], kv[1]);
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *profile = NULL;
  g_autofree char *backing = NULL;
  g_autofree char *size = NULL;
  g_autofree char *fake_factor = NULL;
  g_autofree char *fail_after = NULL;
  g_autofree char *broken_queue = NULL;
  g_autofree char *queue = NULL;
  g_autofree char *controller_cache = NULL;
  g_auto(GStrv) sets = NULL;
  gboolean read_only = FALSE;
  gboolean print = FALSE;
  gboolean volatile_cache = FALSE;
  g_autofree char *lying_flush = NULL;
  g_autofree char *collateral = NULL;
  GOptionEntry entries[] = {
    { "profile", 0, 0, G_OPTION_ARG_FILENAME, &profile, "Card profile (keyfile)", "FILE" },
    { "backing", 0, 0, G_OPTION_ARG_FILENAME, &backing, "Sparse file holding the card's real storage", "FILE" },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, "Size the host sees ([card] size)", "SIZE" },
    { "fake-factor", 0, 0, G_OPTION_ARG_STRING, &fake_factor, "Reported size / real size", "N" },
    { "queue", 0, 0, G_OPTION_ARG_STRING, &queue, "Commands serviced at once", "N" },
    { "read-only", 0, 0, G_OPTION_ARG_NONE, &read_only, "Refuse writes (EROFS)", NULL },
    { "fail-after", 0, 0, G_OPTION_ARG_STRING, &fail_after, "Fail with EIO after N commands", "N" },
    { "broken-queue", 0, 0, G_OPTION_ARG_STRING, &broken_queue,
      "With more than K commands in flight, some writes land on the wrong block ([card] broken-queue)", "K" },
    { "controller-cache", 0, 0, G_OPTION_ARG_STRING, &controller_cache,
      "Answer reads of the last SIZE written from a cache ([controller-cache] size)", "SIZE" },
    { "volatile-cache", 0, 0, G_OPTION_ARG_NONE, &volatile_cache,
      "Keep writes in a cache a power cut loses until a flush ([power] volatile-cache)", NULL },
    { "lying-flush", 0, 0, G_OPTION_ARG_STRING, &lying_flush,
      "A power cut also loses the last N flushed writes ([power] lying-flush)", "N" },
    { "collateral", 0, 0, G_OPTION_ARG_STRING, &collateral,
      "A power cut also corrupts N sectors after the last write ([power] collateral)", "N" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a profile key", "GROUP.KEY=VALUE" },
    { "print-model", 0, 0, G_OPTION_ARG_NONE, &print, "Print the model and its predicted figures, then exit", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("MOUNTPOINT [FUSE OPTIONS] — a simulated microSD card");
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) fargs = g_ptr_array_new ();
  int i, ret;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_ignore_unknown_options (ctx, TRUE);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    goto fail;

  if (profile != NULL && !g_key_file_load_from_file (kf, profile, G_KEY_FILE_NONE, &error))
    goto fail;
  if (size != NULL)
    g_key_file_set_string (kf, "card", "size", size);
  if (fake_factor != NULL)
    g_key_file_set_string (kf, "card", "fake-factor", fake_factor);
  if (queue != NULL)
    g_key_file_set_string (kf, "card", "queue", queue);
  if (fail_after != NULL)
    g_key_file_set_string (kf, "card", "fail-after", fail_after);
  if (broken_queue != NULL)
    g_key_file_set_string (kf, "card", "broken-queue", broken_queue);
  if (read_only)
    g_key_file_set_boolean (kf, "card", "read-only", TRUE);
  if (controller_cache != NULL)
    g_key_file_set_string (kf, "controller-cache", "size", controller_cache);
  if (volatile_cache)
    g_key_file_set_boolean (kf, "power", "volatile-cache", TRUE);
  if (lying_flush != NULL)
    g_key_file_set_string (kf, "power", "lying-flush", lying_flush);
  if (collateral != NULL)
    g_key_file_set_string (kf, "power", "collateral", collateral);
  for (i = 0; sets != NULL && sets[i] != NULL; i++)
    if (!apply_override (kf, sets[i], &error))
      goto fail;
  if (!model_from_keyfile (kf, &card.model, &error))
    goto fail;

  if (print)
    {
      print_model (&card.model);
      return 0;
    }

  if (backing == NULL)
    {
      g_printerr ("cm-simcard: --backing FILE is required; it holds the card's real storage\n");
      return 2;
    }
  card.backing_fd = open (backing, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (card.backing_fd < 0 || ftruncate (card.backing_fd, card.model.real_size) < 0)
    {
      g_printerr ("cm-simcard: cannot use %s as backing file: %s\n", backing, g_strerror (errno));
      return 1;
    }
  if (!controller_cache_open (backing))
    {
      g_printerr ("cm-simcard: cannot keep the controller cache next to %s: %s\n", backing, g_strerror (errno));
      return 1;
    }

  sim_power_start (&card.model.power, card.backing_fd, card.model.real_size);
  g_mutex_init (&card.lock);
  g_cond_init (&card.slot_free);
  card.slots = g_new0 (SimSlot, card.model.queue);
  if (wear_enabled ())
    {
      card.wear_blocks = wear_n_blocks (&card.model);
      card.wear_counts = g_new0 (guint64, card.wear_blocks);
    }

  /* Deadlines are tens of µs apart; the default 50 µs timer slack would
   * blur them. Threads FUSE starts inherit this. */
  prctl (PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);

  /* Every queued command needs a thread of its own to sleep in. */
  for (i = 0; i < argc; i++)
    g_ptr_array_add (fargs, argv[i]);
  g_ptr_array_add (fargs, (char *) "-o");
  g_ptr_array_add (fargs, (char *) "max_threads=80,max_idle_threads=40");
  g_ptr_array_add (fargs, NULL);

  ret = fuse_main (fargs->len - 1, (char **) fargs->pdata, &sim_ops, NULL);
  close (card.backing_fd);
  g_free (card.slots);
  return ret;

fail:
  g_printerr ("cm-simcard: %s\n", error->message);
  return 2;
}
