/* cm-queue-check.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The queue check's I/O. Its own loop rather than the engine's
 * (cm-engine-patterns.c): the engine's tests each move one way over
 * random data, while this one mixes writes, reads, flushes and discards
 * in one queue (the mixes that broke cards in the kernel's threads) and
 * must know, for every block, which of its writes came last. It shares
 * the engine's buffers, clock and random numbers.
 *
 * Every block written carries its own address and a generation, and
 * the rest of it follows from the two, so a block that landed in the
 * wrong place, or a read that returned an older write, shows. No two
 * commands in flight touch the same block, so which write came last is
 * never in doubt. A discarded block is not checked until written again.
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <linux/falloc.h>
#include <liburing.h>
#include <string.h>
#include <unistd.h>

#include "cm-engine-private.h"
#include "cm-target.h"
#include "cm-queue-check.h"

#define BLOCK CM_QUEUE_CHECK_BLOCK
#define MAGIC G_GUINT64_CONSTANT (0x31455545554d4331) /* "1CMQUEUE1" */
#define READ_BACK_CHUNK (1024 * 1024)
/* The share of the time spent at depth 1, to have its figure. */
#define DEPTH_1_SHARE 0.1
/* The share of the progress the writing is; the read back is the rest. */
#define WRITE_SHARE 0.9

typedef enum
{
  OP_WRITE,
  OP_READ,
  OP_FLUSH,
  OP_DISCARD,
} Op;

typedef struct
{
  Op       op;
  guint64  block;
  guint32  gen;
  guint8  *buffer;
} Slot;

typedef struct
{
  const CmQueueCheckSpec *spec;
  CmQueueCheckReport     *report;
  guint64                 n_blocks;
  guint32                *gen;       /* the last write's, 0: nothing to check */
  guint8                 *busy;
  guint8                 *bad;
  guint32                 next_gen;
  guint64                 rng;
  guint                   discard_mode;
  guint8                 *expected;
  double                  t_end;     /* when the writing ends */
  double                  t_last_progress;
} Check;

static const int discard_modes[] = {
  FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
  /* Where the kernel zeroes a punched hole, this asks for a discard. */
  FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE | FALLOC_FL_NO_HIDE_STALE,
};

static void
fill_block (guint8  *buffer,
            guint64  block,
            guint32  gen)
{
  guint64 *words = (guint64 *) buffer;
  guint64 state = (block * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) ^ ((guint64) gen << 17) ^ 1;

  words[0] = MAGIC;
  words[1] = block;
  words[2] = gen;
  for (guint i = 3; i < BLOCK / sizeof (guint64); i++)
    words[i] = cm_engine_next_random (&state);
}

static void
mark_bad (Check   *check,
          guint64  block)
{
  CmQueueCheckReport *report = check->report;

  if (check->bad[block])
    return;
  check->bad[block] = 1;
  report->bad_blocks++;
  if (report->n_named < CM_QUEUE_CHECK_MAX_NAMED)
    report->named[report->n_named++] = block * BLOCK;
}

/* Whether @buffer holds what the block's last write put there. */
static gboolean
block_is_right (Check        *check,
                const guint8 *buffer,
                guint64       block,
                guint32       gen)
{
  fill_block (check->expected, block, gen);
  return memcmp (buffer, check->expected, BLOCK) == 0;
}

/* A block no command in flight touches; for a read, one that holds a
 * write to check. */
static gboolean
pick_block (Check   *check,
            gboolean written,
            guint64 *block)
{
  guint64 b = cm_engine_next_random (&check->rng) % check->n_blocks;

  for (guint i = 0; i < 64; i++, b = (b + 1) % check->n_blocks)
    if (!check->busy[b] && (!written || check->gen[b] != 0))
      {
        *block = b;
        return TRUE;
      }
  return FALSE;
}

/* Of a hundred commands: 55 writes, 35 reads, 5 flushes, 5 discards. */
static Op
pick_op (Check *check)
{
  guint r = cm_engine_next_random (&check->rng) % 100;

  if (r < 55)
    return OP_WRITE;
  if (r < 90)
    return OP_READ;
  if (r < 95)
    return OP_FLUSH;
  return check->discard_mode < G_N_ELEMENTS (discard_modes) ? OP_DISCARD : OP_WRITE;
}

static void
queue_slot (Check           *check,
            struct io_uring *ring,
            Slot            *slot,
            guint            index)
{
  struct io_uring_sqe *sqe = io_uring_get_sqe (ring);
  int fd = check->spec->fd;

  g_assert (sqe != NULL);

  slot->op = pick_op (check);
  if (slot->op == OP_FLUSH)
    io_uring_prep_fsync (sqe, fd, 0);
  else
    {
      if (!pick_block (check, slot->op == OP_READ, &slot->block))
        {
          slot->op = OP_WRITE;
          if (!pick_block (check, FALSE, &slot->block))
            g_assert_not_reached ();
        }
      check->busy[slot->block] = 1;
      slot->gen = check->gen[slot->block];
    }

  switch (slot->op)
    {
    case OP_WRITE:
      slot->gen = ++check->next_gen;
      fill_block (slot->buffer, slot->block, slot->gen);
      io_uring_prep_write (sqe, fd, slot->buffer, BLOCK, slot->block * BLOCK);
      break;
    case OP_READ:
      io_uring_prep_read (sqe, fd, slot->buffer, BLOCK, slot->block * BLOCK);
      break;
    case OP_DISCARD:
      io_uring_prep_fallocate (sqe, fd, discard_modes[check->discard_mode], slot->block * BLOCK, BLOCK);
      break;
    case OP_FLUSH:
    default:
      break;
    }
  io_uring_sqe_set_data64 (sqe, index);
}

/* What one finished command tells; returns an errno for a failure. */
static int
complete_slot (Check *check,
               Slot  *slot,
               int    res)
{
  CmQueueCheckReport *report = check->report;

  if (slot->op != OP_FLUSH)
    check->busy[slot->block] = 0;

  switch (slot->op)
    {
    case OP_WRITE:
      if (res != BLOCK)
        return res < 0 ? -res : EIO;
      check->gen[slot->block] = slot->gen;
      report->writes++;
      return 0;
    case OP_READ:
      if (res != BLOCK)
        return res < 0 ? -res : EIO;
      report->reads++;
      if (!block_is_right (check, slot->buffer, slot->block, slot->gen))
        {
          report->bad_during++;
          mark_bad (check, slot->block);
        }
      return 0;
    case OP_DISCARD:
      /* A card or reader that takes no discard: no more are asked. */
      if (res == -EOPNOTSUPP || res == -EINVAL || res == -ENOTTY)
        {
          check->discard_mode++;
          report->discards_refused++;
          return 0;
        }
      if (res < 0)
        return -res;
      check->gen[slot->block] = 0;
      report->discards++;
      return 0;
    case OP_FLUSH:
    default:
      if (res < 0)
        return -res;
      report->flushes++;
      return 0;
    }
}

static void
report_progress (Check             *check,
                 CmQueueCheckPhase  phase,
                 double             now,
                 double             fraction,
                 double             seconds_left)
{
  if (check->spec->progress == NULL || now - check->t_last_progress < SAMPLE_INTERVAL_S)
    return;
  check->t_last_progress = now;
  check->spec->progress (phase, fraction, seconds_left, check->spec->user_data);
}

/* One part of the check: the queue kept @depth deep until @t_stop.
 * Returns the 4 KiB reads and writes a second, or < 0 on an error. */
static double
run_phase (Check             *check,
           CmQueueCheckPhase  phase,
           guint              depth,
           double             t_stop,
           GError           **error)
{
  const CmQueueCheckSpec *spec = check->spec;
  g_autofree Slot *slots = g_new0 (Slot, depth);
  g_autofree guint8 *buffers = cm_engine_alloc ((gsize) depth * BLOCK);
  guint64 done_before = check->report->reads + check->report->writes;
  double t_start = cm_engine_now (), now = t_start, t_total = spec->seconds;
  struct io_uring ring;
  int in_flight = 0, first_error = 0, ret;

  if ((ret = io_uring_queue_init (depth, &ring, 0)) < 0)
    {
      /* A container's seccomp filter or kernel.io_uring_disabled: the
       * engine's threads would keep a queue full, but not mix commands
       * the way the check must, so it says why it cannot run. */
      if (ret == -ENOSYS || ret == -EPERM || ret == -EACCES)
        g_set_error_literal (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                             _("This system does not allow io_uring, which the queue check sends its commands with. "
                               "Run it outside a container, or with kernel.io_uring_disabled set to 0."));
      else
        g_propagate_error (error, cm_target_error_from_errno (-ret, NULL));
      return -1;
    }
  for (guint i = 0; i < depth; i++)
    {
      slots[i].buffer = buffers + (gsize) i * BLOCK;
      queue_slot (check, &ring, &slots[i], i);
      in_flight++;
    }

  while (in_flight > 0)
    {
      struct io_uring_cqe *cqe;
      unsigned head, seen = 0;

      if (g_cancellable_is_cancelled (spec->cancellable) || first_error != 0)
        t_stop = 0;
      if ((ret = io_uring_submit_and_wait (&ring, 1)) < 0 && ret != -EINTR)
        {
          first_error = first_error ? first_error : -ret;
          break;
        }
      now = cm_engine_now ();
      io_uring_for_each_cqe (&ring, head, cqe)
        {
          guint index = (guint) io_uring_cqe_get_data64 (cqe);
          int errsv = complete_slot (check, &slots[index], cqe->res);

          seen++;
          in_flight--;
          first_error = first_error ? first_error : errsv;
          if (first_error == 0 && now < t_stop)
            {
              queue_slot (check, &ring, &slots[index], index);
              in_flight++;
            }
        }
      io_uring_cq_advance (&ring, seen);
      report_progress (check, phase, now, WRITE_SHARE * (1 - MAX (check->t_end - now, 0) / t_total),
                       MAX (check->t_end - now, 0));
    }
  io_uring_queue_exit (&ring);

  if (first_error != 0)
    {
      g_propagate_error (error, cm_target_error_from_errno (first_error, NULL));
      return -1;
    }
  if (g_cancellable_set_error_if_cancelled (spec->cancellable, error))
    return -1;
  return (check->report->reads + check->report->writes - done_before) / MAX (now - t_start, 1e-6);
}

/* Every block a write is still known for, read back in large reads. */
static gboolean
read_back (Check   *check,
           GError **error)
{
  const CmQueueCheckSpec *spec = check->spec;
  g_autofree guint8 *buffer = cm_engine_alloc (READ_BACK_CHUNK);
  guint64 per_chunk = READ_BACK_CHUNK / BLOCK;
  double t_start = cm_engine_now ();

  for (guint64 first = 0; first < check->n_blocks; first += per_chunk)
    {
      guint64 n = MIN (per_chunk, check->n_blocks - first);
      gssize done = pread (spec->fd, buffer, n * BLOCK, first * BLOCK);
      double now = cm_engine_now (), rate;

      if (g_cancellable_set_error_if_cancelled (spec->cancellable, error))
        return FALSE;
      if (done != (gssize) (n * BLOCK))
        {
          g_propagate_error (error, cm_target_error_from_errno (done < 0 ? errno : EIO, NULL));
          return FALSE;
        }
      for (guint64 i = 0; i < n; i++)
        {
          guint64 b = first + i;

          if (check->gen[b] == 0)
            continue;
          check->report->blocks_checked++;
          if (!block_is_right (check, buffer + i * BLOCK, b, check->gen[b]))
            mark_bad (check, b);
        }
      rate = (first + n) / MAX (now - t_start, 1e-6);
      report_progress (check, CM_QUEUE_CHECK_PHASE_READ_BACK, now,
                       WRITE_SHARE + (1 - WRITE_SHARE) * (first + n) / check->n_blocks,
                       (check->n_blocks - first - n) / rate);
    }
  return TRUE;
}

/**
 * cm_queue_check_run:
 *
 * Runs the check on @spec's descriptor in the calling thread: a tenth
 * of the time at depth 1, the rest at the spec's depth, then the read
 * back. Blocks that read back wrong are no error: @report counts them.
 */
gboolean
cm_queue_check_run (const CmQueueCheckSpec  *spec,
                    CmQueueCheckReport      *report,
                    GError                 **error)
{
  Check check = { 0 };
  double t_start = cm_engine_now ();
  double t_shallow = spec->depth > 1 ? t_start + spec->seconds * DEPTH_1_SHARE : t_start + spec->seconds;
  gboolean ok = FALSE;

  g_return_val_if_fail (spec->fd >= 0 && spec->depth >= 1, FALSE);
  g_return_val_if_fail (spec->area_bytes >= 64 * BLOCK, FALSE);

  memset (report, 0, sizeof *report);
  check.spec = spec;
  check.report = report;
  check.n_blocks = spec->area_bytes / BLOCK;
  check.gen = g_new0 (guint32, check.n_blocks);
  check.busy = g_new0 (guint8, check.n_blocks);
  check.bad = g_new0 (guint8, check.n_blocks);
  check.expected = cm_engine_alloc (BLOCK);
  check.rng = (guint64) g_get_real_time () | 1;
  check.t_end = t_start + spec->seconds;

  if ((report->iops_depth_1 = run_phase (&check, CM_QUEUE_CHECK_PHASE_DEPTH_1, 1, t_shallow, error)) < 0)
    goto out;
  if (spec->depth > 1 &&
      (report->iops_deep = run_phase (&check, CM_QUEUE_CHECK_PHASE_DEEP, spec->depth, check.t_end, error)) < 0)
    goto out;
  ok = read_back (&check, error);

out:
  g_free (check.gen);
  g_free (check.busy);
  g_free (check.bad);
  g_free (check.expected);
  return ok;
}
