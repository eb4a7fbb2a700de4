/* cm-power.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The method is diskchecker.pl's, for a card: write self-checking
 * records, keep on the host which of them a completed flush confirmed,
 * cut the power while writes are in flight, and check every confirmed
 * record after. Reference sectors between the records, written once
 * and never again, show data the card damaged while writing elsewhere.
 *
 * The card is opened by its path for each step and closed before its
 * power goes: a card that comes back is a new device to the kernel,
 * perhaps under another name, and is believed to be the same card only
 * when this run's mark is in its reference (and its CID, where its
 * reader gives one, is the same).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cm-power.h"
#include "cm-power-records.h"
#include "cm-text.h"

#define CHUNK (1024 * 1024)
#define POLL_US (100 * 1000)
/* Writes a card may still take after a switch-off command ended: more,
 * and the command did not cut its power. */
#define WRITES_AFTER_OFF 256

typedef struct
{
  guint64 confirmed_pass;  /* 0: no confirmed write */
  guint64 flight[CM_POWER_FLUSH_EVERY + 1];
  guint   n_flight;
} SlotExpect;

static void
progress (CmPowerRun  *run,
          CmPowerStep  step,
          double       within)
{
  CmPowerState *s = run->state;
  guint done = s->cuts->len;

  if (run->callbacks != NULL && run->callbacks->progress != NULL)
    run->callbacks->progress (step, MIN (done + 1, s->cuts_planned), s->cuts_planned,
                              (done + CLAMP (within, 0, 1)) / MAX (s->cuts_planned, 1), run->user_data);
}

static gboolean
set_errno_error (GError     **error,
                 int          errsv,
                 const char  *device)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
               /* Translators: %s is the device, the second %s what went wrong */
               _("The card in %s failed: %s"), device, g_strerror (errsv));
  return FALSE;
}

static int
open_card (const char  *device,
           int          flags,
           GError     **error)
{
  int fd = open (device, flags | O_DIRECT | O_CLOEXEC);

  if (fd < 0)
    set_errno_error (error, errno, device);
  return fd;
}

static gboolean
pwrite_all (int           fd,
            const guint8 *buf,
            gsize         length,
            guint64       offset)
{
  while (length > 0)
    {
      ssize_t n = pwrite (fd, buf, length, offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      buf += n;
      length -= n;
      offset += n;
    }
  return TRUE;
}

static gboolean
pread_all (int      fd,
           guint8  *buf,
           gsize    length,
           guint64  offset)
{
  while (length > 0)
    {
      ssize_t n = pread (fd, buf, length, offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      buf += n;
      length -= n;
      offset += n;
    }
  return TRUE;
}

char *
cm_power_dup_cid (const char *device)
{
  g_autofree char *real = realpath (device, NULL);
  g_autofree char *name = real != NULL ? g_path_get_basename (real) : NULL;
  g_autofree char *path = name != NULL ? g_build_filename ("/sys/class/block", name, "device", "cid", NULL) : NULL;
  g_autofree char *cid = NULL;

  if (path == NULL || !g_file_get_contents (path, &cid, NULL, NULL))
    return NULL;
  return cm_text_dup_clean (g_strstrip (cid), 64);
}

static guint64
n_slots (CmPowerRun *run)
{
  return run->state->area / CM_POWER_SLOT;
}

/* Whether the card answers at @device, and then whether it holds this
 * run's mark (its first reference) and the CID it had. */
typedef enum
{
  CARD_ABSENT,
  CARD_OTHER,
  CARD_OURS,
} CardSeen;

static CardSeen
look_at_card (CmPowerRun *run,
              gboolean    need_mark)
{
  g_autofree guint8 *buf = NULL;
  g_autofree char *cid = NULL;
  gboolean marked = FALSE;
  int fd = open (run->device, O_RDONLY | O_DIRECT | O_CLOEXEC);

  if (fd < 0)
    return CARD_ABSENT;
  buf = g_aligned_alloc (1, CM_POWER_RECORD, 4096);
  if (!pread_all (fd, buf, CM_POWER_RECORD, cm_power_reference_offset (0)))
    {
      close (fd);
      return CARD_ABSENT;
    }
  close (fd);
  if (!need_mark)
    return CARD_OURS;
  for (guint at = 0; at < CM_POWER_RECORD && !marked; at += CM_POWER_SECTOR)
    marked = cm_power_sector_check (buf + at, run->state->run, cm_power_reference_offset (0) + at, NULL) ==
             CM_POWER_SECTOR_VALID;
  cid = cm_power_dup_cid (run->device);
  if (!marked || (run->state->cid != NULL && cid != NULL && g_strcmp0 (cid, run->state->cid) != 0))
    return CARD_OTHER;
  return CARD_OURS;
}

/* A card that came back under another name (a reader put back in
 * another port, or after another device took its name): a whole disk
 * of the same size that holds this run's mark. Each is only read. */
static gboolean
find_elsewhere (CmPowerRun *run)
{
  g_autoptr(GDir) dir = g_dir_open ("/sys/class/block", 0, NULL);
  g_autofree char *was = g_strdup (run->device);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *partition = g_build_filename ("/sys/class/block", name, "partition", NULL);
      g_autofree char *size_path = g_build_filename ("/sys/class/block", name, "size", NULL);
      g_autofree char *size = NULL;

      if (g_file_test (partition, G_FILE_TEST_EXISTS) ||
          !g_file_get_contents (size_path, &size, NULL, NULL) ||
          g_ascii_strtoull (size, NULL, 10) * 512 != run->state->card_bytes)
        continue;
      g_free (run->device);
      run->device = g_build_filename ("/dev", name, NULL);
      if (g_strcmp0 (run->device, was) != 0 && look_at_card (run, TRUE) == CARD_OURS)
        return TRUE;
    }
  g_free (run->device);
  run->device = g_steal_pointer (&was);
  return FALSE;
}

static gboolean
wait_gone (CmPowerRun    *run,
           GCancellable  *cancellable,
           GError       **error)
{
  gint64 until = g_get_monotonic_time () + run->limit * G_USEC_PER_SEC;

  while (look_at_card (run, FALSE) != CARD_ABSENT)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (g_get_monotonic_time () > until)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       /* Translators: %s is the device, %.0f seconds */
                       _("The card in %s still answered %.0f seconds after its power was to be cut: the switch does "
                         "not cut this card's power. Nothing was judged."),
                       run->device, run->limit);
          return FALSE;
        }
      g_usleep (POLL_US);
    }
  return TRUE;
}

static gboolean
wait_back (CmPowerRun    *run,
           gboolean       need_mark,
           GCancellable  *cancellable,
           GError       **error)
{
  gint64 until = g_get_monotonic_time () + run->limit * G_USEC_PER_SEC;
  CardSeen seen;

  while ((seen = look_at_card (run, need_mark)) != CARD_OURS)
    {
      if (need_mark && find_elsewhere (run))
        return TRUE;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (g_get_monotonic_time () > until && seen == CARD_OTHER)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("A card answers in %s, but it is not the card under test: this run's mark is not on it. "
                         "Nothing was judged on it. Put the card under test back and run the same command again "
                         "to carry on."),
                       run->device);
          return FALSE;
        }
      if (g_get_monotonic_time () > until)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       /* Translators: %s is the device, %.0f seconds */
                       _("The card did not come back in %s within %.0f seconds of switching its power on. "
                         "Run the same command again to carry on once it is back."),
                       run->device, run->limit);
          return FALSE;
        }
      g_usleep (POLL_US);
    }
  return TRUE;
}

/* Before the first write: the card must go, and come back. */
static gboolean
check_switch (CmPowerRun    *run,
              GCancellable  *cancellable,
              GError       **error)
{
  progress (run, CM_POWER_STEP_CHECK, 0);
  return cm_power_switch_start_off (&run->sw, error) &&
         wait_gone (run, cancellable, error) &&
         cm_power_switch_finish_off (&run->sw, cancellable, error) &&
         cm_power_switch_on (&run->sw, cancellable, error) &&
         wait_back (run, FALSE, cancellable, error);
}

/* The whole area: every record slot at pass 0 (old data of this run)
 * and every reference; the reference's digest goes to the host. */
static gboolean
fill (CmPowerRun    *run,
      GCancellable  *cancellable,
      GError       **error)
{
  CmPowerState *s = run->state;
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guint8 *buf = g_aligned_alloc (1, CHUNK, 4096);
  int fd = open_card (run->device, O_RDWR, error);

  if (fd < 0)
    return FALSE;
  for (guint64 at = 0; at < s->area; at += CHUNK)
    {
      gsize length = MIN (CHUNK, s->area - at);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          close (fd);
          return FALSE;
        }
      cm_power_record_fill (buf, length, s->run, at, 0);
      for (gsize slot = 0; slot < length; slot += CM_POWER_SLOT)
        g_checksum_update (sum, buf + slot + CM_POWER_RECORD, CM_POWER_RECORD);
      if (!pwrite_all (fd, buf, length, at))
        {
          int errsv = errno;

          close (fd);
          return set_errno_error (error, errsv, run->device);
        }
      progress (run, CM_POWER_STEP_FILL, 0.2 * (at + length) / s->area);
    }
  if (fdatasync (fd) != 0)
    {
      int errsv = errno;

      close (fd);
      return set_errno_error (error, errsv, run->device);
    }
  close (fd);
  g_free (s->reference_sha256);
  s->reference_sha256 = g_strdup (g_checksum_get_string (sum));
  s->phase = CM_POWER_PHASE_WRITING;
  s->confirmed = 0;
  return cm_power_state_save (s, error);
}

/* Whether the card may still take writes after its cut was asked. */
static gboolean
still_writing_ok (CmPowerRun  *run,
                  guint64     *after_off,
                  gint64       cut_at,
                  GError     **error)
{
  if (g_get_monotonic_time () - cut_at > run->limit * G_USEC_PER_SEC)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                   _("The card in %s still answered %.0f seconds after its power was to be cut: the switch does "
                     "not cut this card's power. Nothing was judged."),
                   run->device, run->limit);
      return FALSE;
    }
  if (run->sw.running != NULL && g_subprocess_get_identifier (run->sw.running) == NULL &&
      ++*after_off > WRITES_AFTER_OFF)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("The card in %s still took writes after the switch-off command ended: the switch does not "
                     "cut this card's power. Nothing was judged."), run->device);
      return FALSE;
    }
  return TRUE;
}

/* Records until the power goes: a flush every CM_POWER_FLUSH_EVERY, each
 * one that completes kept on the host; at a random moment the switch is
 * asked to cut, and records go on until the card stops taking them.
 * @issued: how many writes were begun. */
static gboolean
write_until_cut (CmPowerRun    *run,
                 guint64       *issued,
                 gint64        *cut_at,
                 GCancellable  *cancellable,
                 GError       **error)
{
  CmPowerState *s = run->state;
  guint cut = s->cuts->len;
  g_autofree guint8 *buf = g_aligned_alloc (1, CM_POWER_RECORD, 4096);
  guint64 cut_after = s->confirmed + 4 * CM_POWER_FLUSH_EVERY + g_random_int_range (0, 12 * CM_POWER_FLUSH_EVERY);
  guint64 after_off = 0;
  gboolean asked = FALSE;
  int fd = open_card (run->device, O_RDWR, error);

  if (fd < 0)
    return FALSE;
  for (guint64 i = s->confirmed; ; i++)
    {
      guint64 slot = cm_power_write_slot (s->run, cut, i, n_slots (run));
      guint64 pass = cm_power_write_pass (cut, i);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        break;
      if (i == cut_after)
        {
          progress (run, CM_POWER_STEP_CUT, 0.5);
          s->phase = CM_POWER_PHASE_OFF;
          if (!cm_power_state_save (s, error) || !cm_power_switch_start_off (&run->sw, error))
            break;
          asked = TRUE;
          *cut_at = g_get_monotonic_time ();
        }
      /* A command that ended while the card still takes writes did not
       * cut its power, nor did a person who let the time limit pass. */
      if (asked && !still_writing_ok (run, &after_off, *cut_at, error))
        {
          /* The card's power is on: nothing to switch on again. */
          s->phase = CM_POWER_PHASE_WRITING;
          cm_power_state_save (s, NULL);
          break;
        }
      cm_power_record_fill (buf, CM_POWER_RECORD, s->run, cm_power_record_offset (slot), pass);
      *issued = i + 1;
      if (!pwrite_all (fd, buf, CM_POWER_RECORD, cm_power_record_offset (slot)) ||
          ((i + 1) % CM_POWER_FLUSH_EVERY == 0 && fdatasync (fd) != 0))
        {
          int errsv = errno;

          close (fd);
          /* Failing once the cut was asked is the cut; before, the card
           * failed (or went) on its own. */
          return asked || set_errno_error (error, errsv, run->device);
        }
      if ((i + 1) % CM_POWER_FLUSH_EVERY != 0)
        continue;
      s->confirmed = i + 1;
      if (!cm_power_state_save (s, error))
        break;
      if (!asked)
        progress (run, CM_POWER_STEP_WRITE, 0.5 * MIN (i + 1, cut_after) / MAX (cut_after, 1));
    }
  close (fd);
  return FALSE;
}

/* What each slot written in this cut should hold. */
static GHashTable *
expectations (CmPowerRun *run,
              guint64     issued)
{
  CmPowerState *s = run->state;
  GHashTable *slots = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  guint cut = s->cuts->len;

  for (guint64 i = 0; i < issued; i++)
    {
      gint64 slot = cm_power_write_slot (s->run, cut, i, n_slots (run));
      SlotExpect *e = g_hash_table_lookup (slots, &slot);

      if (e == NULL)
        {
          e = g_new0 (SlotExpect, 1);
          g_hash_table_insert (slots, g_memdup2 (&slot, sizeof slot), e);
        }
      if (i < s->confirmed)
        {
          e->confirmed_pass = cm_power_write_pass (cut, i);
          e->n_flight = 0;
        }
      else if (e->n_flight < G_N_ELEMENTS (e->flight))
        e->flight[e->n_flight++] = cm_power_write_pass (cut, i);
    }
  return slots;
}

static gboolean
pass_in_flight (const SlotExpect *e,
                guint64           pass)
{
  for (guint i = 0; i < e->n_flight; i++)
    if (e->flight[i] == pass)
      return TRUE;
  return FALSE;
}

static void
judge_record (CmPowerRun       *run,
              const SlotExpect *e,
              const guint8     *record,
              guint64           offset,
              CmPowerCut       *c)
{
  guint64 passes[CM_POWER_RECORD / CM_POWER_SECTOR];
  gboolean whole = TRUE, same = TRUE;

  for (guint k = 0; k < G_N_ELEMENTS (passes); k++)
    {
      if (cm_power_sector_check (record + k * CM_POWER_SECTOR, run->state->run,
                                 offset + k * CM_POWER_SECTOR, &passes[k]) != CM_POWER_SECTOR_VALID)
        {
          whole = FALSE;
          passes[k] = G_MAXUINT64;
        }
      same = same && passes[k] == passes[0];
    }
  if (e->confirmed_pass != 0)
    {
      gboolean kept = whole;

      for (guint k = 0; k < G_N_ELEMENTS (passes) && kept; k++)
        kept = passes[k] == e->confirmed_pass || pass_in_flight (e, passes[k]);
      if (kept)
        c->kept++;
      else
        c->lost++;
    }
  if (e->n_flight > 0)
    {
      if (whole && same && passes[0] == e->flight[e->n_flight - 1])
        c->fresh++;
      else if (whole && same)
        c->old++;
      else
        c->torn++;
    }
}

/* Counts the reference's damaged sectors; a block with any is written
 * again, so that the next cut counts only its own damage. */
static gboolean
judge_reference (CmPowerRun   *run,
                 int           fd,
                 const guint8 *reference,
                 guint64       offset,
                 CmPowerCut   *c)
{
  g_autofree guint8 *again = NULL;
  gboolean damaged = FALSE;

  for (guint k = 0; k < CM_POWER_RECORD; k += CM_POWER_SECTOR)
    {
      guint64 pass = 1;

      if (cm_power_sector_check (reference + k, run->state->run, offset + k, &pass) == CM_POWER_SECTOR_VALID &&
          pass == 0)
        continue;
      damaged = TRUE;
      if (c->collateral++ == 0)
        c->collateral_first = offset + k;
    }
  if (!damaged)
    return TRUE;
  again = g_aligned_alloc (1, CM_POWER_RECORD, 4096);
  cm_power_record_fill (again, CM_POWER_RECORD, run->state->run, offset, 0);
  return pwrite_all (fd, again, CM_POWER_RECORD, offset);
}

static gboolean
read_back (CmPowerRun    *run,
           guint64        issued,
           CmPowerCut    *c,
           GCancellable  *cancellable,
           GError       **error)
{
  CmPowerState *s = run->state;
  g_autoptr(GHashTable) slots = expectations (run, issued);
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guint8 *buf = g_aligned_alloc (1, CHUNK, 4096);
  int fd = open_card (run->device, O_RDWR, error);

  if (fd < 0)
    return FALSE;
  for (guint64 at = 0; at < s->area; at += CHUNK)
    {
      gsize length = MIN (CHUNK, s->area - at);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          close (fd);
          return FALSE;
        }
      if (!pread_all (fd, buf, length, at))
        {
          int errsv = errno;

          close (fd);
          return set_errno_error (error, errsv, run->device);
        }
      for (gsize o = 0; o < length; o += CM_POWER_SLOT)
        {
          gint64 slot = (at + o) / CM_POWER_SLOT;
          SlotExpect *e = g_hash_table_lookup (slots, &slot);

          if (e != NULL)
            judge_record (run, e, buf + o, at + o, c);
          g_checksum_update (sum, buf + o + CM_POWER_RECORD, CM_POWER_RECORD);
          if (!judge_reference (run, fd, buf + o + CM_POWER_RECORD, at + o + CM_POWER_RECORD, c))
            {
              int errsv = errno;

              close (fd);
              return set_errno_error (error, errsv, run->device);
            }
        }
      progress (run, CM_POWER_STEP_READ, 0.7 + 0.3 * (at + length) / s->area);
    }
  if (c->collateral > 0 && fdatasync (fd) != 0)
    {
      int errsv = errno;

      close (fd);
      return set_errno_error (error, errsv, run->device);
    }
  close (fd);
  /* The digest kept off the card is the last word: a difference the
   * sectors' own checks could not place still counts. */
  if (c->collateral == 0 && g_strcmp0 (g_checksum_get_string (sum), s->reference_sha256) != 0)
    c->collateral = 1;
  return TRUE;
}

/* One cut, from wherever the state stands in it. */
static gboolean
run_cut (CmPowerRun    *run,
         GCancellable  *cancellable,
         GError       **error)
{
  CmPowerState *s = run->state;
  CmPowerCut c = { 0 };
  guint64 issued = s->confirmed + CM_POWER_FLUSH_EVERY;
  gint64 cut_at = g_get_monotonic_time ();

  if (s->phase == CM_POWER_PHASE_WRITING)
    {
      progress (run, CM_POWER_STEP_WRITE, 0);
      if (!write_until_cut (run, &issued, &cut_at, cancellable, error))
        return FALSE;
      progress (run, CM_POWER_STEP_CUT, 0.5);
      if (!wait_gone (run, cancellable, error) || !cm_power_switch_finish_off (&run->sw, cancellable, error))
        return FALSE;
    }
  progress (run, CM_POWER_STEP_WAIT, 0.6);
  if (!cm_power_switch_on (&run->sw, cancellable, error) || !wait_back (run, TRUE, cancellable, error))
    return FALSE;
  c.back_seconds = (g_get_monotonic_time () - cut_at) / (double) G_USEC_PER_SEC;
  progress (run, CM_POWER_STEP_READ, 0.7);
  if (!read_back (run, issued, &c, cancellable, error))
    return FALSE;
  g_array_append_val (s->cuts, c);
  s->phase = CM_POWER_PHASE_WRITING;
  s->confirmed = 0;
  if (run->callbacks != NULL && run->callbacks->cut_done != NULL)
    run->callbacks->cut_done (&c, run->user_data);
  return cm_power_state_save (s, error);
}

gboolean
cm_power_run (CmPowerRun    *run,
              GCancellable  *cancellable,
              GError       **error)
{
  CmPowerState *s = run->state;

  g_return_val_if_fail (run != NULL && run->state != NULL, FALSE);

  if (s->run == 0)
    {
      s->run = ((guint64) g_random_int () << 32) | g_random_int () | 1;
      s->phase = CM_POWER_PHASE_FILL;
      if (!check_switch (run, cancellable, error) || !cm_power_state_save (s, error))
        return FALSE;
    }
  if (s->phase == CM_POWER_PHASE_FILL && !fill (run, cancellable, error))
    return FALSE;
  while (s->cuts->len < s->cuts_planned)
    if (!run_cut (run, cancellable, error))
      return FALSE;
  return TRUE;
}
