/* cm-verify-io.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writing the pattern to a card and reading it back so that the pattern
 * is never what limits the card; the full verify (cm-verify-run.c,
 * cm-verify-read.c) and the wear test (cm-wear.c) both go through here.
 * Two buffers: while one chunk is written, the next one's pattern is
 * made in the other; while one chunk is checked, the next one is read
 * into the other. Making and checking run in a pool of threads, one per
 * core but one, each taking a slice of the chunk. The I/O itself stays
 * in the caller's thread, one command at a time and in the caller's
 * order, so the card sees the same commands, and the caller handles
 * each result before its next command is sent (a write is never sent
 * past one that failed).
 */

#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "cm-block-io.h"
#include "cm-engine.h"
#include "cm-verify-private.h"

#define MAX_SLICES 16
#define SLICE_ALIGN 4096       /* whole blocks of sectors, as the pattern is made */

/* The pattern work on one buffer, split in slices over the pool. */
typedef struct _Work Work;

typedef struct
{
  Work  *work;
  gsize  from;
  gsize  to;
} Slice;

struct _Work
{
  GMutex          lock;
  GCond           done;
  guint           left;      /* slices still being worked on */
  gboolean        fill;      /* make the pattern, or check it */
  guint8         *data;
  guint64         pattern;   /* the offset the first sector names */
  CmVerifyCounts  counts;
  gboolean        intact;
  Slice           slices[MAX_SLICES];
};

typedef enum
{
  HOLDS_NOTHING,
  HOLDS_PATTERN,             /* made, not yet written */
  HOLDS_READ,                /* read ahead, not yet checked */
} Holds;

typedef struct
{
  guint8  *data;
  Holds    holds;
  guint64  at;               /* the pattern's first offset, or where it was read */
  gsize    length;
  gssize   done;             /* read: what came back */
  int      errsv;
  double   seconds;          /* read: how long the card took to answer */
} Slot;

struct _CmVerifyIo
{
  int   fd;
  Slot  slots[2];
  Work  work;
};

/* One slice per core but one: that one is left to the I/O's own work,
 * which takes a core of its own on a fast device (the kernel copying a
 * RAM device's data, a USB or FUSE stack); pattern threads on every
 * core would take turns with it and slow the card down. */
static guint
n_slices (void)
{
  return CLAMP (g_get_num_processors () - 1, 1, MAX_SLICES);
}

static void
slice_cb (gpointer data,
          gpointer user_data)
{
  Slice *slice = data;
  Work *w = slice->work;
  CmVerifyCounts counts = { 0 };
  gboolean intact = TRUE;
  gsize length = slice->to - slice->from;

  if (w->fill)
    cm_verify_fill (w->data + slice->from, length, w->pattern + slice->from);
  else
    intact = cm_verify_check (w->data + slice->from, length, w->pattern + slice->from, &counts);

  g_mutex_lock (&w->lock);
  w->counts.ok += counts.ok;
  w->counts.corrupted += counts.corrupted;
  w->counts.changed += counts.changed;
  w->counts.overwritten += counts.overwritten;
  w->intact = w->intact && intact;
  if (--w->left == 0)
    g_cond_signal (&w->done);
  g_mutex_unlock (&w->lock);
}

/* Shared by every run, so that several cards at once still use each
 * core once. */
static GThreadPool *
pattern_pool (void)
{
  static GThreadPool *pool;

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (slice_cb, NULL, n_slices (), FALSE, NULL));
  return pool;
}

/* Starts making (@fill) or checking the pattern in @length bytes of
 * @data; work_wait() waits for it. */
static void
work_start (Work     *w,
            gboolean  fill,
            guint8   *data,
            gsize     length,
            guint64   pattern)
{
  guint n = n_slices ();
  gsize per = (length / n + SLICE_ALIGN - 1) / SLICE_ALIGN * SLICE_ALIGN;

  g_assert (w->left == 0);
  w->fill = fill;
  w->data = data;
  w->pattern = pattern;
  w->counts = (CmVerifyCounts) { 0 };
  w->intact = TRUE;
  per = MAX (per, SLICE_ALIGN);

  g_mutex_lock (&w->lock);
  for (gsize from = 0; from < length; from += per)
    {
      Slice *slice = &w->slices[w->left++];

      *slice = (Slice) { w, from, MIN (length, from + per) };
      g_thread_pool_push (pattern_pool (), slice, NULL);
    }
  g_mutex_unlock (&w->lock);
}

static void
work_wait (Work *w)
{
  g_mutex_lock (&w->lock);
  while (w->left > 0)
    g_cond_wait (&w->done, &w->lock);
  g_mutex_unlock (&w->lock);
}

/* The one loop (cm-block-io.c): the whole of @length, unless the card
 * stops short: then what was done (0 at the end, -1 when refused at once)
 * and why in @errsv. */
static gssize
transfer (int       fd,
          gboolean  write,
          guint8   *data,
          gsize     length,
          guint64   offset,
          int      *errsv)
{
  return cm_block_io_transfer (fd, write, data, length, offset, errsv);
}

CmVerifyIo *
cm_verify_io_new (int fd)
{
  CmVerifyIo *io = g_new0 (CmVerifyIo, 1);

  io->fd = fd;
  for (guint i = 0; i < G_N_ELEMENTS (io->slots); i++)
    io->slots[i].data = cm_engine_alloc (CM_VERIFY_CHUNK);
  g_mutex_init (&io->work.lock);
  g_cond_init (&io->work.done);
  return io;
}

void
cm_verify_io_free (CmVerifyIo *io)
{
  if (io == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (io->slots); i++)
    g_free (io->slots[i].data);
  g_mutex_clear (&io->work.lock);
  g_cond_clear (&io->work.done);
  g_free (io);
}

static Slot *
other_slot (CmVerifyIo *io,
            Slot       *slot)
{
  return slot == &io->slots[0] ? &io->slots[1] : &io->slots[0];
}

/* Writing. */

static gboolean
holds_pattern (const Slot          *slot,
               const CmVerifyPlace *place)
{
  return slot->holds == HOLDS_PATTERN && place->pattern >= slot->at &&
         place->pattern + place->length <= slot->at + slot->length;
}

static void
make_pattern (CmVerifyIo          *io,
              Slot                *slot,
              const CmVerifyPlace *place)
{
  g_assert (place->length <= CM_VERIFY_CHUNK);

  work_start (&io->work, TRUE, slot->data, place->length, place->pattern);
  slot->holds = HOLDS_PATTERN;
  slot->at = place->pattern;
  slot->length = place->length;
}

/**
 * cm_verify_io_write:
 * @place: what to write where
 * @next: the place the caller means to write next, or %NULL
 * @errsv: (out): why the card took less than @place's length
 *
 * Writes the pattern at @place and, while the card takes it, makes the
 * pattern for @next (so a retry of part of @place, or a write of @next,
 * finds its pattern made).
 *
 * Returns: the bytes written; -1 when none could be.
 */
gssize
cm_verify_io_write (CmVerifyIo          *io,
                    const CmVerifyPlace *place,
                    const CmVerifyPlace *next,
                    int                 *errsv)
{
  Slot *slot, *other;
  gssize done;

  g_return_val_if_fail (io != NULL && place != NULL && errsv != NULL, -1);

  slot = holds_pattern (&io->slots[1], place) ? &io->slots[1] : &io->slots[0];
  other = other_slot (io, slot);
  if (!holds_pattern (slot, place))
    {
      make_pattern (io, slot, place);
      work_wait (&io->work);
    }
  /* What was read ahead is the card's old data. */
  if (other->holds == HOLDS_READ)
    other->holds = HOLDS_NOTHING;
  if (next != NULL && next->length > 0)
    make_pattern (io, other, next);

  done = transfer (io->fd, TRUE, slot->data + (place->pattern - slot->at), place->length, place->offset, errsv);
  work_wait (&io->work);
  return done;
}

/* Reading. */

static void
read_into (CmVerifyIo          *io,
           Slot                *slot,
           const CmVerifyPlace *place)
{
  gint64 start = g_get_monotonic_time ();

  g_assert (place->length <= CM_VERIFY_CHUNK);

  slot->done = transfer (io->fd, FALSE, slot->data, place->length, place->offset, &slot->errsv);
  slot->seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  slot->holds = HOLDS_READ;
  slot->at = place->offset;
  slot->length = place->length;
}

/* The slot the last call read @place into, ahead, or NULL. */
static Slot *
read_ahead (CmVerifyIo          *io,
            const CmVerifyPlace *place)
{
  for (guint i = 0; i < G_N_ELEMENTS (io->slots); i++)
    {
      Slot *slot = &io->slots[i];

      if (slot->holds == HOLDS_READ && slot->at == place->offset && slot->length == place->length)
        return slot;
    }
  return NULL;
}

/**
 * cm_verify_io_read:
 * @place: what to read from where, and the pattern it should hold
 * @next: the place the caller means to read next, or %NULL
 * @result: (out): what came back
 *
 * Reads @place (unless the last call read it ahead as its @next) and
 * checks every whole sector that came back, while reading @next. The
 * data stays in @result until the next call.
 */
void
cm_verify_io_read (CmVerifyIo          *io,
                   const CmVerifyPlace *place,
                   const CmVerifyPlace *next,
                   CmVerifyRead        *result)
{
  Slot *slot, *other;
  gsize whole;

  g_return_if_fail (io != NULL && place != NULL && result != NULL);

  slot = read_ahead (io, place);
  if (slot == NULL)
    {
      slot = &io->slots[0];
      read_into (io, slot, place);
    }
  other = other_slot (io, slot);
  slot->holds = HOLDS_NOTHING;

  whole = slot->done > 0 ? (gsize) slot->done / CM_VERIFY_SECTOR * CM_VERIFY_SECTOR : 0;
  work_start (&io->work, FALSE, slot->data, whole, place->pattern);
  if (next != NULL && next->length > 0)
    read_into (io, other, next);
  work_wait (&io->work);

  result->done = slot->done;
  result->errsv = slot->errsv;
  result->seconds = slot->seconds;
  result->data = slot->data;
  result->counts = io->work.counts;
  result->intact = whole > 0 && io->work.intact;
}
