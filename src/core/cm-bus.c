/* cm-bus.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Cards that share a bus share its bandwidth: a speed measured while a
 * neighbour moves data is the neighbour's too. A benchmark takes its
 * card's bus for its measuring phase (cm-runner.c), and one on the same
 * bus waits until it is free. Bulk jobs (verify, wear) run side by side
 * and never hold a measurement back for long: they pause between two
 * chunks while a card on their bus measures, and note which cards moved
 * data beside them, as their speed is shared.
 *
 * Within a process (the app's jobs, one CLI's targets) that is a mutex
 * and a condition. Across processes (the app beside a CLI, or a CLI per
 * card, as people script F3) two flock()s per bus in the card locks'
 * folder (cm-card-lock.c) do the same, as mfst's shared lock file does:
 *   - the gate: a measurer holds it exclusively while it measures, with
 *     its device written in it for those that wait; a bulk job takes it
 *     shared and lets it go at once before each chunk, so it stops at
 *     the gate while someone measures, and never keeps a measurer out;
 *   - the bus: a bulk job holds it shared while a chunk moves (from one
 *     cm_bus_share_yield() to the next); a measurer takes it
 *     exclusively, so it starts once every bulk job has paused.
 * Which cards moved data beside a bulk job is known within a process
 * only.
 *
 * The bus is the USB host controller above the device in sysfs
 * (/sys/class/block/X/device, up to usbN); anything else (an SD slot, a
 * loop device) is its own. A test build groups loop devices onto one bus
 * with CARDMARK_TEST_BUS_GROUP.
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

#include "cm-bus.h"
#include "cm-card-lock.h"
#include "cm-test-hooks.h"

/* How often a waiting benchmark or a paused bulk job looks whether it
 * was cancelled. */
#define WAIT_STEP_US (G_USEC_PER_SEC / 5)
/* How often one polls another process's lock on the bus. */
#define POLL_US (G_USEC_PER_SEC / 50)
/* How long a waiting benchmark gives another process's measurer to
 * write its card's name in the gate before it says it waits anyway. */
#define NAMELESS_AFTER_US (G_USEC_PER_SEC)
/* The longest a bulk job pauses for a measurer in another process:
 * longer than any benchmark's measuring phase, so only a lock held by
 * what does not measure (another user's flock on the gate, a program
 * that hangs) reaches it. */
#define PAUSE_LIMIT_US (G_GINT64_CONSTANT (15) * 60 * G_USEC_PER_SEC)

/* A bus's two lock files, across processes; -1 when they could not be
 * opened (then this process keeps its own cards apart only). */
typedef struct
{
  int gate;
  int bus;
} Across;

/* One bus: the card measuring on it, and the bulk jobs moving data. */
typedef struct
{
  char      *measurer;
  GPtrArray *shares;   /* CmBusShare*, not owned */
  guint      parked;   /* of them, those paused for the measurer */
  Across     held;     /* the measurer's locks, while it measures */
} Bus;

struct _CmBusShare
{
  char       *key;
  char       *device;
  GHashTable *neighbours;  /* devices that moved data beside this one */
  Across      across;
  gboolean    holding;     /* the bus lock, shared, while a chunk moves */
  gboolean    overrun;     /* carries on beside a lock held past the limit, until it is let go */
  CmBusPausedFunc paused;
  gpointer        paused_data;
};

static Across
across_open (const char *key)
{
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  g_autofree char *gate_name = g_strdup_printf ("cardmark-bus-%.16s.gate", sum);
  g_autofree char *bus_name = g_strdup_printf ("cardmark-bus-%.16s.bus", sum);
  Across a = { cm_card_lock_open_file (gate_name), cm_card_lock_open_file (bus_name) };

  if (a.gate < 0 || a.bus < 0)
    {
      g_debug ("Cards on bus %s are not kept apart from other programs' cards: %s", key, g_strerror (errno));
      if (a.gate >= 0)
        close (a.gate);
      if (a.bus >= 0)
        close (a.bus);
      a.gate = a.bus = -1;
    }
  return a;
}

static void
across_close (Across *a)
{
  if (a->gate >= 0)
    close (a->gate);
  if (a->bus >= 0)
    close (a->bus);
  a->gate = a->bus = -1;
}

/* flock(@op | LOCK_NB) on @fd: TRUE when taken; FALSE when another
 * holds it, or (@broken) when an error says it never will be. */
static gboolean
try_flock (int       fd,
           int       op,
           gboolean *broken)
{
  if (flock (fd, op | LOCK_NB) == 0)
    return TRUE;
  *broken = errno != EWOULDBLOCK && errno != EINTR;
  return FALSE;
}

/* FALSE once @cancellable is cancelled. */
static gboolean
poll_step (GCancellable *cancellable)
{
  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;
  g_usleep (POLL_US);
  return !g_cancellable_is_cancelled (cancellable);
}

static GMutex lock;
static GCond changed;
static GHashTable *buses;  /* key → Bus */

static void
bus_free (gpointer data)
{
  Bus *bus = data;

  g_free (bus->measurer);
  g_ptr_array_unref (bus->shares);
  g_free (bus);
}

/* Called with the lock held. */
static Bus *
bus_get (const char *key)
{
  Bus *bus;

  if (buses == NULL)
    buses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, bus_free);
  bus = g_hash_table_lookup (buses, key);
  if (bus == NULL)
    {
      bus = g_new0 (Bus, 1);
      bus->shares = g_ptr_array_new ();
      bus->held.gate = bus->held.bus = -1;
      g_hash_table_insert (buses, g_strdup (key), bus);
    }
  return bus;
}

/* Waits a step on the lock (held); FALSE once @cancellable is cancelled. */
static gboolean
wait_step (GCancellable *cancellable)
{
  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;
  g_cond_wait_until (&changed, &lock, g_get_monotonic_time () + WAIT_STEP_US);
  return TRUE;
}

static gboolean
is_usb_root (const char *name)
{
  if (!g_str_has_prefix (name, "usb") || name[3] == '\0')
    return FALSE;
  for (const char *c = name + 3; *c != '\0'; c++)
    if (!g_ascii_isdigit (*c))
      return FALSE;
  return TRUE;
}

/**
 * cm_bus_key_for_device:
 * @device: a block device, such as /dev/sdb or /dev/sdb1
 *
 * Returns: a key that is the same for every card on one bus, or %NULL
 * when @device is no block device.
 */
char *
cm_bus_key_for_device (const char *device)
{
  g_autofree char *real = NULL;
  g_autofree char *name = NULL;
  g_autofree char *link = NULL;
  g_autofree char *dir = NULL;
  const char *group;

  if (device == NULL || (real = realpath (device, NULL)) == NULL || !g_str_has_prefix (real, "/dev/"))
    return NULL;
  name = g_path_get_basename (real);

  group = cm_test_hook ("CARDMARK_TEST_BUS_GROUP");
  if (group != NULL && group[0] != '\0' && g_str_has_prefix (name, "loop"))
    return g_strconcat ("test:", group, NULL);

  /* A partition has no device link of its own: its disk's is one up. */
  link = g_strdup_printf ("/sys/class/block/%s/device", name);
  if (!g_file_test (link, G_FILE_TEST_EXISTS))
    {
      g_autofree char *part = g_strdup_printf ("/sys/class/block/%s/..", name);
      g_autofree char *disk = realpath (part, NULL);

      if (disk != NULL)
        {
          g_free (link);
          link = g_build_filename (disk, "device", NULL);
        }
    }
  dir = realpath (link, NULL);
  while (dir != NULL && g_str_has_prefix (dir, "/sys/devices/"))
    {
      g_autofree char *base = g_path_get_basename (dir);
      char *parent;

      if (is_usb_root (base))
        return g_strconcat ("usb:", dir, NULL);
      parent = g_path_get_dirname (dir);
      g_free (dir);
      dir = parent;
    }

  /* An SD slot, a loop device, anything not on USB: a bus of its own. */
  return g_strconcat ("dev:", name, NULL);
}

/* Another user's program (not root's) that holds @fd's lock, by name
 * ("alice (process 1234)"); %NULL when it is this user's or root's, or
 * no one's. Such a lock may be held for ever, and its text is that
 * user's words, not a card's. */
static char *
dup_stranger (int fd)
{
  CmLockHolder holder;
  char *name = NULL;

  if (cm_card_lock_find_holder (fd, &holder) && cm_lock_holder_is_stranger (&holder))
    name = cm_lock_holder_dup_name (&holder);
  cm_lock_holder_clear (&holder);
  return name;
}

/* What a job waits for, or pauses for, at a gate or bus held by
 * @stranger: "another user's program, alice (process 1234)". */
static char *
dup_stranger_holder (const char *stranger)
{
  /* Translators: slotted in "Waiting for the card in %s to finish its speed test" */
  return g_strdup_printf (_("another user's program, %s,"), stranger);
}

static GError *
stranger_error (const char *device,
                const char *stranger)
{
  /* Translators: the first %s is a device, the second a user and a
   * process: "alice (process 1234)" */
  return g_error_new (CM_CARD_LOCK_ERROR, CM_CARD_LOCK_ERROR_BUSY,
                      _("Another user's program holds the bus the card in %s is on: %s. Its speed cannot be measured fairly beside it: wait for it to finish or ask them to stop it, then try again."),
                      device, stranger);
}

static gint64 pause_limit_us (void);

/* Takes the gate, then the bus, from other processes: waits while one
 * of theirs measures (telling @waiting once, with its card's name), then
 * until their bulk jobs on the bus have paused. FALSE when cancelled,
 * or (with @error) when another user's program holds the gate, or the
 * bus past the limit a bulk job pauses for: a root job is not held for
 * ever by a user's `flock`. */
static gboolean
measure_across (Bus              *bus,
                const char       *key,
                const char       *device,
                GCancellable     *cancellable,
                CmBusWaitingFunc  waiting,
                gpointer          user_data,
                GError          **error)
{
  Across a = across_open (key);
  gint64 since = g_get_monotonic_time ();
  gboolean broken = FALSE;
  guint strange = 0;

  if (a.gate < 0)
    return TRUE;
  while (!try_flock (a.gate, LOCK_EX, &broken) && !broken)
    {
      g_autofree char *stranger = dup_stranger (a.gate);

      /* Seen twice, a poll apart: another user's bulk job takes the
       * gate for an instant before each chunk, and is no measurer. */
      strange = stranger != NULL ? strange + 1 : 0;
      if (strange > 1)
        {
          g_propagate_error (error, stranger_error (device, stranger));
          across_close (&a);
          return FALSE;
        }
      /* Another user's words are not a card's. */
      if (waiting != NULL && stranger == NULL)
        {
          g_autofree char *holder = cm_card_lock_read_holder (a.gate);

          if (holder != NULL || g_get_monotonic_time () - since > NAMELESS_AFTER_US)
            {
              /* Translators: a benchmark waits for "the card in another program" */
              waiting (holder != NULL ? holder : _("another program"), user_data);
              waiting = NULL;
            }
        }
      if (!poll_step (cancellable))
        {
          across_close (&a);
          return FALSE;
        }
    }
  if (!broken)
    cm_card_lock_write_holder (a.gate, device);
  since = g_get_monotonic_time ();
  while (!broken && !try_flock (a.bus, LOCK_EX, &broken))
    {
      g_autofree char *stranger = NULL;

      /* Bulk jobs pause between two chunks, within a second: one that
       * does not (or a lock someone else holds) is said, not waited on
       * in silence, and another user's not past the limit. */
      if (g_get_monotonic_time () - since > NAMELESS_AFTER_US)
        stranger = dup_stranger (a.bus);
      if (stranger != NULL && g_get_monotonic_time () - since > pause_limit_us ())
        g_propagate_error (error, stranger_error (device, stranger));
      else if (waiting != NULL && g_get_monotonic_time () - since > NAMELESS_AFTER_US)
        {
          g_autofree char *holder = stranger != NULL ? dup_stranger_holder (stranger) : NULL;

          waiting (holder != NULL ? holder : _("another program"), user_data);
          waiting = NULL;
        }
      if ((error != NULL && *error != NULL) || !poll_step (cancellable))
        {
          if (ftruncate (a.gate, 0) != 0)
            g_debug ("Could not clear the bus's gate: %s", g_strerror (errno));
          across_close (&a);
          return FALSE;
        }
    }
  if (broken)
    {
      g_debug ("Cards on bus %s are not kept apart from other programs' cards: %s", key, g_strerror (errno));
      across_close (&a);
      return TRUE;
    }
  bus->held = a;
  return TRUE;
}

/**
 * cm_bus_measure_begin:
 * @key: (nullable): the bus, from cm_bus_key_for_device()
 * @device: the card that will measure, named to those that wait
 * @cancellable: (nullable): stops the wait
 * @waiting: (nullable): called once, in this thread, if another card
 *   measures on the bus
 * @user_data: for @waiting
 *
 * Blocks (call it in a worker thread) until no other card measures on
 * @key, then takes it, and waits until every bulk job on the bus has
 * paused (cm_bus_share_yield(), between two of its chunks). Returns
 * %FALSE, holding nothing, when cancelled, or with @error when another
 * user's program holds the bus (measure_across()).
 */
gboolean
cm_bus_measure_begin (const char       *key,
                      const char       *device,
                      GCancellable     *cancellable,
                      CmBusWaitingFunc  waiting,
                      gpointer          user_data,
                      GError          **error)
{
  gboolean told = FALSE;
  Bus *bus;

  if (key == NULL)
    return TRUE;

  g_mutex_lock (&lock);
  bus = bus_get (key);
  while (bus->measurer != NULL)
    {
      if (!told && waiting != NULL)
        {
          g_autofree char *holder = g_strdup (bus->measurer);

          told = TRUE;
          g_mutex_unlock (&lock);
          waiting (holder, user_data);
          g_mutex_lock (&lock);
          continue;
        }
      if (!wait_step (cancellable))
        {
          g_mutex_unlock (&lock);
          return FALSE;
        }
    }
  bus->measurer = g_strdup (device);
  g_cond_broadcast (&changed);
  while (bus->parked < bus->shares->len)
    if (!wait_step (cancellable))
      {
        g_clear_pointer (&bus->measurer, g_free);
        g_cond_broadcast (&changed);
        g_mutex_unlock (&lock);
        return FALSE;
      }
  g_mutex_unlock (&lock);

  /* This process's own jobs are held: now other processes' (only this
   * thread touches bus->held while the bus is its). */
  if (!measure_across (bus, key, device, cancellable, told ? NULL : waiting, user_data, error))
    {
      cm_bus_measure_end (key);
      return FALSE;
    }
  return TRUE;
}

/* Gives @key back to those that wait. */
void
cm_bus_measure_end (const char *key)
{
  Bus *bus;

  if (key == NULL)
    return;

  g_mutex_lock (&lock);
  bus = bus_get (key);
  if (bus->held.gate >= 0 && ftruncate (bus->held.gate, 0) != 0)
    g_debug ("Could not clear the bus's gate: %s", g_strerror (errno));
  across_close (&bus->held);
  g_clear_pointer (&bus->measurer, g_free);
  g_cond_broadcast (&changed);
  g_mutex_unlock (&lock);
}

/**
 * cm_bus_share_begin:
 * @key: (nullable): the bus, from cm_bus_key_for_device()
 * @device: the card that moves data
 *
 * A bulk job (verify, wear test) says it moves data on @key: it will
 * pause while another card measures there (cm_bus_share_yield()), and
 * learns which cards moved data beside it.
 *
 * Returns: (transfer full) (nullable): the share, %NULL when @key is;
 *   every cm_bus_share_*() function takes %NULL
 */
CmBusShare *
cm_bus_share_begin (const char *key,
                    const char *device)
{
  CmBusShare *share;
  Bus *bus;

  if (key == NULL)
    return NULL;

  share = g_new0 (CmBusShare, 1);
  share->key = g_strdup (key);
  share->device = g_strdup (device);
  share->neighbours = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  share->across = across_open (key);

  g_mutex_lock (&lock);
  bus = bus_get (key);
  for (guint i = 0; i < bus->shares->len; i++)
    {
      CmBusShare *other = g_ptr_array_index (bus->shares, i);

      g_hash_table_add (other->neighbours, g_strdup (device));
      g_hash_table_add (share->neighbours, g_strdup (other->device));
    }
  g_ptr_array_add (bus->shares, share);
  g_mutex_unlock (&lock);
  return share;
}

static gint64
pause_limit_us (void)
{
  const char *hook = cm_test_hook ("CARDMARK_TEST_BUS_PAUSE_LIMIT_MS");

  return hook != NULL ? g_ascii_strtoll (hook, NULL, 10) * 1000 : PAUSE_LIMIT_US;
}

/* The job carries on beside what holds the bus's locks past the limit,
 * and its document names it among the cards that shared the bus. */
static void
overrun (CmBusShare *share)
{
  g_autofree char *stranger = dup_stranger (share->across.gate);
  /* Another user's words are not a card's: it is "another program". */
  g_autofree char *holder = stranger == NULL ? cm_card_lock_read_holder (share->across.gate) : NULL;

  if (!share->overrun)
    g_debug ("The bus's lock was held past %" G_GINT64_FORMAT " s; carrying on beside %s",
             pause_limit_us () / G_USEC_PER_SEC, holder != NULL ? holder : stranger != NULL ? stranger : "another program");
  share->overrun = TRUE;
  g_mutex_lock (&lock);
  g_hash_table_add (share->neighbours, holder != NULL ? g_steal_pointer (&holder) : g_strdup (_("another program")));
  g_mutex_unlock (&lock);
}

/* Stops at the gate while another process measures (telling the job
 * once, unless @told), then holds the bus (shared) for the next chunk.
 * A lock held past the limit is not waited on again until it is let
 * go: another user can hold it for ever, a benchmark cannot.
 * Returns whether the job was told it paused. */
static gboolean
yield_across (CmBusShare   *share,
              GCancellable *cancellable,
              gboolean      told)
{
  gint64 since = g_get_monotonic_time ();
  gboolean broken = FALSE;

  if (share->across.gate < 0)
    return told;
  for (;;)
    {
      if (try_flock (share->across.gate, LOCK_SH, &broken))
        {
          flock (share->across.gate, LOCK_UN);
          if (try_flock (share->across.bus, LOCK_SH, &broken))
            {
              share->holding = TRUE;
              share->overrun = FALSE;
              return told;
            }
        }
      if (!broken && (share->overrun || g_get_monotonic_time () - since > pause_limit_us ()))
        {
          overrun (share);
          return told;
        }
      if (!told && !broken && share->paused != NULL)
        {
          g_autofree char *stranger = dup_stranger (share->across.gate);
          g_autofree char *holder = stranger != NULL ? dup_stranger_holder (stranger)
                                                     : cm_card_lock_read_holder (share->across.gate);

          /* The other program writes its card's name just after it takes
           * the gate, as measure_across() waits for it. */
          if (holder != NULL || g_get_monotonic_time () - since > NAMELESS_AFTER_US)
            {
              share->paused (holder != NULL ? holder : _("another program"), share->paused_data);
              told = TRUE;
            }
        }
      if (broken || !poll_step (cancellable))
        return told;
    }
}

/**
 * cm_bus_share_yield:
 * @share: (nullable): from cm_bus_share_begin()
 * @cancellable: (nullable): ends the pause
 *
 * Call it between two chunks: while another card measures its speed on
 * the bus, blocks until it is done (or @cancellable is cancelled).
 *
 * Returns: the microseconds it paused, to leave out of a rate
 */
gint64
cm_bus_share_yield (CmBusShare   *share,
                    GCancellable *cancellable)
{
  gboolean told = FALSE;
  gint64 start;
  Bus *bus;

  if (share == NULL)
    return 0;

  /* Between two chunks the bus is not this job's: a measurer in another
   * process, or (below) in this one, may take it now. */
  if (share->holding)
    flock (share->across.bus, LOCK_UN);
  share->holding = FALSE;

  start = g_get_monotonic_time ();
  g_mutex_lock (&lock);
  bus = bus_get (share->key);
  if (bus->measurer != NULL)
    {
      g_autofree char *measurer = g_strdup (bus->measurer);

      bus->parked++;
      g_cond_broadcast (&changed);
      if (share->paused != NULL)
        {
          g_mutex_unlock (&lock);
          share->paused (measurer, share->paused_data);
          g_mutex_lock (&lock);
          told = TRUE;
        }
      while (bus->measurer != NULL && wait_step (cancellable))
        ;
      bus->parked--;
    }
  g_mutex_unlock (&lock);

  told = yield_across (share, cancellable, told);
  if (told)
    share->paused (NULL, share->paused_data);
  /* A few syscalls when no one measures: no pause to leave out. */
  return g_get_monotonic_time () - start > POLL_US / 2 ? g_get_monotonic_time () - start : 0;
}

/**
 * cm_bus_share_set_paused_func:
 * @share: (nullable): from cm_bus_share_begin()
 * @func: called in the bulk job's thread when cm_bus_share_yield()
 *   pauses for a card that measures (its device, or "another program"),
 *   and with %NULL when it carries on
 *
 * So that the job can say why it does not move.
 */
void
cm_bus_share_set_paused_func (CmBusShare      *share,
                              CmBusPausedFunc  func,
                              gpointer         user_data)
{
  if (share == NULL)
    return;
  share->paused = func;
  share->paused_data = user_data;
}

static int
compare_names (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

/**
 * cm_bus_share_take_neighbours:
 * @share: (nullable): from cm_bus_share_begin()
 *
 * The cards that moved data on the bus beside @share since it began or
 * since the last call, sorted; from then on, those still moving data.
 *
 * Returns: (transfer full): their devices, empty when none
 */
GStrv
cm_bus_share_take_neighbours (CmBusShare *share)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  GStrv devices;
  GHashTableIter iter;
  gpointer device;
  Bus *bus;

  if (share == NULL)
    return g_strv_builder_end (builder);

  g_mutex_lock (&lock);
  g_hash_table_iter_init (&iter, share->neighbours);
  while (g_hash_table_iter_next (&iter, &device, NULL))
    g_strv_builder_add (builder, device);
  g_hash_table_remove_all (share->neighbours);
  bus = bus_get (share->key);
  for (guint i = 0; i < bus->shares->len; i++)
    {
      CmBusShare *other = g_ptr_array_index (bus->shares, i);

      if (other != share)
        g_hash_table_add (share->neighbours, g_strdup (other->device));
    }
  g_mutex_unlock (&lock);

  devices = g_strv_builder_end (builder);
  g_qsort_with_data (devices, g_strv_length (devices), sizeof (char *), compare_names, NULL);
  return devices;
}

/* The bulk job is done: measurements no longer wait for it. */
void
cm_bus_share_end (CmBusShare *share)
{
  Bus *bus;

  if (share == NULL)
    return;

  g_mutex_lock (&lock);
  bus = bus_get (share->key);
  g_ptr_array_remove (bus->shares, share);
  g_cond_broadcast (&changed);
  g_mutex_unlock (&lock);

  across_close (&share->across);
  g_free (share->key);
  g_free (share->device);
  g_hash_table_unref (share->neighbours);
  g_free (share);
}
