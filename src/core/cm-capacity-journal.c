/* cm-capacity-journal.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The capacity check overwrites a few hundred blocks of the card with
 * signatures. Before the first write, their original bytes go to a
 * journal on the computer's disk, fsynced, so a check that is killed, or
 * a computer that loses power, leaves a way to put them back: the next
 * `probe-capacity --restore` or the app's next start.
 *
 * The journal names the card by its size and identity (the card's CID, a
 * reader's serial, a loop device's backing file), so it is never written
 * to another card. And even on the right card, a block is put back only
 * where it still shows the check's signature: what the check never
 * reached, or what someone wrote since, is left alone.
 *
 * File: "CMJRNL01", a 64-bit header length, the header (a GVariant:
 * device, identity, size, nonce, block size, offsets, original bytes),
 * then, at the next 4 KiB boundary, one slot for the chunk of card the
 * check is rewriting at the moment (offset, length, SHA-256, bytes).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cm-capacity-private.h"
#include "cm-engine.h"
#include "cm-target.h"

#define MAGIC "CMJRNL01"
#define SLOT_MAGIC "CMSLOT01"
#define HEADER_TYPE "(sstayuatay)"
#define SIGNATURE_MAGIC "CardMark capacity probe"

G_DEFINE_QUARK (cm-capacity-error-quark, cm_capacity_error)

struct _CmCapacityJournal
{
  char    *path;
  int      fd;
  guint64  slot;   /* file offset of the chunk slot */
};

typedef struct
{
  char    magic[8];
  guint64 offset;
  guint64 length;
  guint8  sha256[32];
} SlotHeader;

/* Signatures. */

void
cm_capacity_signature (guint8       *block,
                       const guint8 *nonce,
                       guint64       offset)
{
  guint64 state = offset ^ 0x9E3779B97F4A7C15ULL;

  for (guint i = 0; i < 16; i++)
    state = state * 31 + nonce[i];
  for (guint i = 0; i < CM_CAPACITY_BLOCK; i += 8)
    {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      memcpy (block + i, &state, 8);
    }

  memcpy (block, SIGNATURE_MAGIC, sizeof SIGNATURE_MAGIC);
  memcpy (block + 32, nonce, 16);
  memcpy (block + 48, &offset, 8);
}

/* Whether any 512-byte sector of @block is the signature's: a write the
 * check was killed in may have reached the card only in part. */
gboolean
cm_capacity_shows_signature (const guint8 *block,
                             const guint8 *nonce,
                             guint64       offset)
{
  guint8 expected[CM_CAPACITY_BLOCK];

  cm_capacity_signature (expected, nonce, offset);
  for (guint i = 0; i < CM_CAPACITY_BLOCK; i += 512)
    if (memcmp (block + i, expected + i, 512) == 0)
      return TRUE;
  return FALSE;
}

/* A test hook: CARDMARK_PROBE_STOP_AT=PHASE:N stops the process (SIGSTOP)
 * when @phase reaches @count, so a test can kill it at a known moment
 * instead of after a guessed sleep. */
void
cm_capacity_test_stop (const char *phase,
                       guint       count)
{
  const char *at = g_getenv ("CARDMARK_PROBE_STOP_AT");
  g_autofree char *want = NULL;

  if (at == NULL)
    return;
  want = g_strdup_printf ("%s:%u", phase, count);
  if (g_str_equal (at, want))
    raise (SIGSTOP);
}

/* Where journals live: beside the history, in the app's data folder. */
GFile *
cm_capacity_journal_default_folder (void)
{
  const char *name = DEVELOPMENT ? "cardmark-devel" : "cardmark";
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), name, "journals", NULL);

  return g_file_new_for_path (path);
}

/* Identity. */

static char *
read_sysfs (const char *dir,
            const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  g_strstrip (text);
  return *text != '\0' ? g_steal_pointer (&text) : NULL;
}

static char *
udev_property (dev_t       rdev,
               const char *key)
{
  g_autofree char *path = g_strdup_printf ("/run/udev/data/b%u:%u", major (rdev), minor (rdev));
  g_autofree char *text = NULL;
  g_autofree char *prefix = g_strdup_printf ("E:%s=", key);
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return g_strdup (lines[i] + strlen (prefix));
  return NULL;
}

/* The card as a string: its size, and the most specific identity the
 * system has for it — an SD card's CID, a disk's WWID or serial, a USB
 * reader's serial (which names the reader, not the card: the size and
 * the signature check must then tell cards apart), a loop device's
 * backing file. */
char *
cm_capacity_card_identity (const char *device,
                           guint64     size)
{
  g_autofree char *sys = NULL;
  g_autofree char *value = NULL;
  const char *kind = "none";
  struct stat st;

  g_return_val_if_fail (device != NULL, NULL);

  if (stat (device, &st) == 0 && S_ISBLK (st.st_mode))
    {
      sys = g_strdup_printf ("/sys/dev/block/%u:%u", major (st.st_rdev), minor (st.st_rdev));
      if ((value = read_sysfs (sys, "device/cid")) != NULL)
        kind = "cid";
      else if ((value = read_sysfs (sys, "loop/backing_file")) != NULL)
        kind = "loop";
      else if ((value = read_sysfs (sys, "wwid")) != NULL || (value = read_sysfs (sys, "device/wwid")) != NULL)
        kind = "wwid";
      else if ((value = udev_property (st.st_rdev, "ID_SERIAL")) != NULL)
        kind = "serial";
      else if ((value = read_sysfs (sys, "serial")) != NULL)
        kind = "serial";
    }

  return g_strdup_printf ("%" G_GUINT64_FORMAT " %s:%s", size, kind, value != NULL ? value : "");
}

static char *
journal_name (const char *identity)
{
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, identity, -1);

  return g_strdup_printf ("%.24s.journal", sum);
}

/* Writing. */

static gboolean
write_all (int            fd,
           const void    *data,
           gsize          length,
           guint64        offset)
{
  gsize done = 0;

  while (done < length)
    {
      gssize n = pwrite (fd, (const guint8 *) data + done, length - done, offset + done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = ENOSPC;
          return FALSE;
        }
      done += n;
    }
  return TRUE;
}

static void
set_journal_error (GError     **error,
                   const char  *path,
                   int          errsv)
{
  if (errsv == ENOSPC || errsv == EDQUOT)
    g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_JOURNAL,
                 _("This computer's disk is full, so the journal that keeps the card's data safe during the check "
                   "could not be written (%s). Free some space and try again; nothing was written to the card."),
                 path);
  else
    g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_JOURNAL,
                 _("The journal that keeps the card's data safe during the check could not be written (%s: %s). "
                   "Nothing was written to the card."),
                 path, g_strerror (errsv));
}

CmCapacityJournal *
cm_capacity_journal_create (GFile         *folder,
                            const char    *device,
                            const char    *identity,
                            guint64        size,
                            const guint8  *nonce,
                            GArray        *offsets,
                            const guint8  *originals,
                            GError       **error)
{
  g_autofree char *dir = g_file_get_path (folder);
  g_autofree char *name = journal_name (identity);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GVariant) header = NULL;
  CmCapacityJournal *journal;
  guint64 length;
  int fd, dirfd;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      set_journal_error (error, dir, errno);
      return NULL;
    }

  header = g_variant_ref_sink (g_variant_new ("(sst@ayu@at@ay)", device, identity, size,
                                              g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, nonce, 16, 1),
                                              (guint32) CM_CAPACITY_BLOCK,
                                              g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, offsets->data,
                                                                         offsets->len, sizeof (guint64)),
                                              g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, originals,
                                                                         (gsize) offsets->len * CM_CAPACITY_BLOCK, 1)));
  length = g_variant_get_size (header);

  fd = open (path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      set_journal_error (error, path, errno);
      return NULL;
    }
  /* Held while the check runs: a journal nobody holds is one to restore. */
  flock (fd, LOCK_EX);
  if (!write_all (fd, MAGIC, 8, 0) || !write_all (fd, &length, 8, 8) ||
      !write_all (fd, g_variant_get_data (header), length, 16) || fdatasync (fd) != 0)
    {
      int errsv = errno;

      close (fd);
      g_unlink (path);
      set_journal_error (error, path, errsv);
      return NULL;
    }
  /* The file's name must survive a power cut too. */
  if ((dirfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
    {
      fsync (dirfd);
      close (dirfd);
    }

  journal = g_new0 (CmCapacityJournal, 1);
  journal->path = g_steal_pointer (&path);
  journal->fd = fd;
  journal->slot = (16 + length + 4095) / 4096 * 4096;
  return journal;
}

/* Keeps the chunk of card about to be rewritten. One fdatasync: a slot
 * whose bytes do not match its checksum was never followed by a write
 * to the card. */
gboolean
cm_capacity_journal_save_chunk (CmCapacityJournal  *journal,
                                guint64             offset,
                                const guint8       *data,
                                gsize               length,
                                GError            **error)
{
  SlotHeader header = { SLOT_MAGIC, offset, length, { 0 } };
  gsize digest_len = sizeof header.sha256;
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);

  g_checksum_update (sum, data, length);
  g_checksum_get_digest (sum, header.sha256, &digest_len);
  if (!write_all (journal->fd, data, length, journal->slot + 4096) ||
      !write_all (journal->fd, &header, sizeof header, journal->slot) ||
      fdatasync (journal->fd) != 0)
    {
      set_journal_error (error, journal->path, errno);
      return FALSE;
    }
  return TRUE;
}

void
cm_capacity_journal_close (CmCapacityJournal *journal)
{
  if (journal == NULL)
    return;
  close (journal->fd);
  g_free (journal->path);
  g_free (journal);
}

/* The card holds its own data again: the journal has done its work. */
void
cm_capacity_journal_discard (CmCapacityJournal *journal)
{
  if (journal == NULL)
    return;
  g_unlink (journal->path);
  cm_capacity_journal_close (journal);
}

/* Reading. */

typedef struct
{
  char         *path;
  GBytes       *bytes;
  GVariant     *header;
  const char   *device;
  const char   *identity;
  guint64       size;
  const guint8 *nonce;
  const guint64 *offsets;
  gsize         n_offsets;
  const guint8 *originals;
  guint64       slot_offset;
  guint64       slot_length;
  const guint8 *slot_data;   /* NULL when the slot holds nothing sound */
} Journal;

static void
journal_clear (Journal *j)
{
  g_clear_pointer (&j->header, g_variant_unref);
  g_clear_pointer (&j->bytes, g_bytes_unref);
  g_clear_pointer (&j->path, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Journal, journal_clear)

static gboolean
journal_damaged (const char  *path,
                 GError     **error)
{
  g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_JOURNAL,
               _("The journal %s is damaged, so nothing was written back from it. "
                 "If the card lost data, restore it from a backup."), path);
  return FALSE;
}

static void
load_slot (Journal *j)
{
  gsize length;
  const guint8 *data = g_bytes_get_data (j->bytes, &length);
  guint64 header_len;
  guint64 slot;
  SlotHeader header;
  guint8 digest[32];
  gsize digest_len = sizeof digest;
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);

  memcpy (&header_len, data + 8, 8);
  slot = (16 + header_len + 4095) / 4096 * 4096;
  if (slot + 4096 > length)
    return;
  memcpy (&header, data + slot, sizeof header);
  if (memcmp (header.magic, SLOT_MAGIC, 8) != 0 || header.length > length - slot - 4096)
    return;
  g_checksum_update (sum, data + slot + 4096, header.length);
  g_checksum_get_digest (sum, digest, &digest_len);
  if (memcmp (digest, header.sha256, sizeof digest) != 0)
    return;
  j->slot_offset = header.offset;
  j->slot_length = header.length;
  j->slot_data = data + slot + 4096;
}

static gboolean
journal_load (Journal     *j,
              const char  *path,
              GError     **error)
{
  g_autoptr(GMappedFile) file = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GVariant) nonce = NULL;
  g_autoptr(GVariant) offsets = NULL;
  g_autoptr(GVariant) originals = NULL;
  const guint8 *data;
  gsize length, n_nonce, n_originals;
  guint64 header_len;
  guint32 block;

  j->path = g_strdup (path);
  if ((file = g_mapped_file_new (path, FALSE, &local_error)) == NULL)
    {
      g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_JOURNAL,
                   _("Could not read the journal: %s"), local_error->message);
      return FALSE;
    }
  j->bytes = g_mapped_file_get_bytes (file);
  data = g_bytes_get_data (j->bytes, &length);
  if (length < 16 || memcmp (data, MAGIC, 8) != 0)
    return journal_damaged (path, error);
  memcpy (&header_len, data + 8, 8);
  if (header_len > length - 16)
    return journal_damaged (path, error);

  j->header = g_variant_ref_sink (g_variant_new_from_data (G_VARIANT_TYPE (HEADER_TYPE), data + 16, header_len,
                                                           FALSE, NULL, NULL));
  if (!g_variant_is_normal_form (j->header))
    return journal_damaged (path, error);
  g_variant_get (j->header, "(&s&st@ayu@at@ay)", &j->device, &j->identity, &j->size,
                 &nonce, &block, &offsets, &originals);
  j->nonce = g_variant_get_fixed_array (nonce, &n_nonce, 1);
  j->offsets = g_variant_get_fixed_array (offsets, &j->n_offsets, sizeof (guint64));
  j->originals = g_variant_get_fixed_array (originals, &n_originals, 1);
  if (n_nonce != 16 || block != CM_CAPACITY_BLOCK || n_originals != j->n_offsets * CM_CAPACITY_BLOCK)
    return journal_damaged (path, error);

  load_slot (j);
  return TRUE;
}

/* The journal for the card in @device, or NULL (and no error) when there
 * is none. A journal made on @device for a card that is not the one in
 * it now is an error: the user must insert the right card. */
char *
cm_capacity_journal_find (GFile       *folder,
                          const char  *device,
                          guint64      size,
                          GError     **error)
{
  g_autofree char *identity = cm_capacity_card_identity (device, size);
  g_autofree char *dir = g_file_get_path (folder);
  g_autofree char *name = journal_name (identity);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GDir) listing = NULL;
  const char *entry;

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      int fd = open (path, O_RDONLY | O_CLOEXEC);
      gboolean busy = fd >= 0 && flock (fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;

      if (fd >= 0)
        close (fd);
      if (busy)
        {
          g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_BUSY,
                       _("A capacity check of the card in %s is running now. Wait for it to end."), device);
          return NULL;
        }
      return g_steal_pointer (&path);
    }

  if ((listing = g_dir_open (dir, 0, NULL)) == NULL)
    return NULL;
  while ((entry = g_dir_read_name (listing)) != NULL)
    {
      g_auto(Journal) other = { 0 };
      g_autofree char *other_path = NULL;

      if (!g_str_has_suffix (entry, ".journal"))
        continue;
      other_path = g_build_filename (dir, entry, NULL);
      if (!journal_load (&other, other_path, NULL) || g_strcmp0 (other.device, device) != 0)
        continue;
      {
        g_autofree char *other_size = g_format_size (other.size);

        g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_OTHER_CARD,
                     _("The capacity check journal %s was made for another card in %s (%s, %s), not the card in it now. "
                       "Nothing was written. Insert that card and restore again."),
                     other_path, device, other_size, other.identity);
      }
      return NULL;
    }
  return NULL;
}

static gboolean
transfer (int      fd,
          gboolean write,
          guint8  *buffer,
          gsize    length,
          guint64  offset)
{
  gsize done = 0;

  while (done < length)
    {
      gssize n = write ? pwrite (fd, buffer + done, length - done, offset + done)
                       : pread (fd, buffer + done, length - done, offset + done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = write ? ENOSPC : EIO;
          return FALSE;
        }
      done += n;
    }
  return TRUE;
}

/* Puts back what the journal at @path holds, onto the card in @device,
 * and removes the journal. */
gboolean
cm_capacity_journal_restore (int          fd,
                             const char  *device,
                             guint64      size,
                             const char  *path,
                             guint       *n_restored,
                             GError     **error)
{
  g_auto(Journal) j = { 0 };
  g_autofree char *identity = cm_capacity_card_identity (device, size);
  g_autofree guint8 *block = cm_engine_alloc (CM_CAPACITY_BLOCK);
  guint restored = 0;

  g_return_val_if_fail (fd >= 0, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!journal_load (&j, path, error))
    return FALSE;
  if (j.size != size || g_strcmp0 (j.identity, identity) != 0)
    {
      g_autofree char *journal_size = g_format_size (j.size);
      g_autofree char *card_size = g_format_size (size);

      g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_OTHER_CARD,
                   _("The journal %s is for another card (%s, %s), not the one in %s (%s, %s). Nothing was written."),
                   path, journal_size, j.identity, device, card_size, identity);
      return FALSE;
    }

  /* Then every block that still shows this check's signature, from the
   * top down as the check wrote them. */
  for (gsize i = 0; i < j.n_offsets; i++)
    {
      guint64 offset = j.offsets[i];

      if (offset + CM_CAPACITY_BLOCK > size)
        continue;
      if (!transfer (fd, FALSE, block, CM_CAPACITY_BLOCK, offset))
        goto failed;
      if (!cm_capacity_shows_signature (block, j.nonce, offset))
        continue;
      memcpy (block, j.originals + i * CM_CAPACITY_BLOCK, CM_CAPACITY_BLOCK);
      if (!transfer (fd, TRUE, block, CM_CAPACITY_BLOCK, offset))
        goto failed;
      restored++;
      cm_capacity_test_stop ("restore-journal", restored);
    }

  /* The chunk the check was rewriting with its own bytes when it ended,
   * in case that write was torn; only where signatures proved this is the
   * card (the filler comes after signing), since a reader's serial cannot
   * tell two cards of one size apart. */
  if (restored > 0 && j.slot_data != NULL && j.slot_offset + j.slot_length <= size)
    {
      g_autofree guint8 *chunk = cm_engine_alloc (MAX (j.slot_length, CM_CAPACITY_BLOCK));

      memcpy (chunk, j.slot_data, j.slot_length);
      if (!transfer (fd, TRUE, chunk, j.slot_length, j.slot_offset))
        goto failed;
    }
  if (fdatasync (fd) != 0)
    goto failed;

  g_unlink (path);
  if (n_restored != NULL)
    *n_restored = restored;
  return TRUE;

failed:
  {
    int errsv = errno;
    g_autoptr(GError) cause = cm_target_error_from_errno (errsv, NULL);

    g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_JOURNAL,
                 _("Not all of the card's data could be written back: %s The journal %s is kept; try again."),
                 cause->message, path);
    return FALSE;
  }
}

/* Restoring in a thread, for the app. */

typedef struct
{
  int      fd;
  char    *device;
  guint64  size;
  GFile   *folder;
  guint    n_restored;
} RestoreData;

static void
restore_data_free (RestoreData *data)
{
  g_free (data->device);
  g_clear_object (&data->folder);
  g_free (data);
}

static void
restore_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  RestoreData *data = task_data;
  g_autofree char *path = NULL;
  GError *error = NULL;

  /* Not cancellable: a restore half done is worse than one finished. */
  path = cm_capacity_journal_find (data->folder, data->device, data->size, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else if (path != NULL && !cm_capacity_journal_restore (data->fd, data->device, data->size, path,
                                                         &data->n_restored, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
cm_capacity_restore_async (int                  fd,
                           const char          *device,
                           guint64              size,
                           GFile               *journal_folder,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  RestoreData *data = g_new0 (RestoreData, 1);

  g_return_if_fail (fd >= 0);
  g_return_if_fail (device != NULL);

  data->fd = fd;
  data->device = g_strdup (device);
  data->size = size;
  data->folder = journal_folder != NULL ? g_object_ref (journal_folder) : cm_capacity_journal_default_folder ();
  g_task_set_source_tag (task, cm_capacity_restore_async);
  g_task_set_task_data (task, data, (GDestroyNotify) restore_data_free);
  g_task_run_in_thread (task, restore_thread);
}

gboolean
cm_capacity_restore_finish (GAsyncResult  *result,
                            guint         *n_restored,
                            GError       **error)
{
  RestoreData *data;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  data = g_task_get_task_data (G_TASK (result));
  if (n_restored != NULL)
    *n_restored = data->n_restored;
  return g_task_propagate_boolean (G_TASK (result), error);
}
