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
 * reader's serial, a loop device's backing file) and by its fingerprint:
 * the SHA-256 of a few places the check never writes, read before the
 * first write. A reader's serial names the reader, not the card, so two
 * cards of one size in one reader share an identity; the fingerprint
 * tells them apart. Nothing is written unless the fingerprint matches;
 * a place is put back only sector by sector where it still shows the
 * check's signature; and the journal is removed only once at least one
 * signature proved this is the card.
 *
 * File: "CMJRNL02", a 64-bit header length, the header (a GVariant:
 * device, identity, size, nonce, block size, offsets, original bytes,
 * fingerprint offsets and their SHA-256s), the SHA-256 of the length and
 * the header, then, at the next 4 KiB boundary, one slot for the chunk of
 * card the check is rewriting at the moment (offset, length, SHA-256 of
 * both and the bytes, bytes). The header is written and fsynced before
 * the card is touched; a slot torn by a kill fails its own checksum and
 * is known never to have been followed by a write to the card. A journal
 * put back whose folder would not let it be removed gets "CMJDONE2" as
 * its magic, outside the checksum.
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

#include "cm-block-io.h"
#include "cm-capacity-private.h"
#include "cm-engine.h"
#include "cm-target.h"
#include "cm-test-hooks.h"

#define MAGIC "CMJRNL02"
#define DONE_MAGIC "CMJDONE2"
#define OLD_MAGIC "CMJRNL01"
#define SLOT_MAGIC "CMSLOT02"
#define HEADER_TYPE "(sstayuatayatay)"
#define DIGEST 32
/* Bounds on what a journal may say: a check has at most a few hundred
 * places and chunks of 4 MiB. */
#define MAX_PLACES 4096
#define MAX_FINGERPRINT 64
#define MAX_SLOT (64 * 1024 * 1024)
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
  guint8  sha256[DIGEST];
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
  const char *at = cm_test_hook ("CARDMARK_PROBE_STOP_AT");
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

/* The journal could not be written before the check wrote anything. */
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

/* The journal could not keep the next chunk, after signatures were
 * written: the check stops and puts them back (cm-capacity-probe.c says
 * so if it cannot). */
static void
set_chunk_error (GError     **error,
                 const char  *path,
                 int          errsv)
{
  if (errsv == ENOSPC || errsv == EDQUOT)
    g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_JOURNAL,
                 _("This computer's disk filled up during the check, so the journal %s could not keep the next part "
                   "of the card. The check stopped and put back what it had written to the card. "
                   "Free some space and try again."),
                 path);
  else
    g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_JOURNAL,
                 _("The journal %s could not keep the next part of the card (%s). The check stopped and put back "
                   "what it had written to the card."),
                 path, g_strerror (errsv));
}

static void
header_digest (const guint8 *data,
               guint64       header_len,
               guint8       *digest)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize digest_len = DIGEST;

  /* The length too: a flipped length must not move the checksum with it. */
  g_checksum_update (sum, data + 8, 8 + header_len);
  g_checksum_get_digest (sum, digest, &digest_len);
}

static guint64
slot_position (guint64 header_len)
{
  return (16 + header_len + DIGEST + 4095) / 4096 * 4096;
}

/* Whether the file at @path is a journal already put back, one whose
 * folder would not let it be removed. */
static gboolean
journal_is_done (const char *path)
{
  char magic[8] = { 0 };
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  gboolean done;

  if (fd < 0)
    return FALSE;
  done = pread (fd, magic, 8, 0) == 8 && memcmp (magic, DONE_MAGIC, 8) == 0;
  close (fd);
  return done;
}

/* Removes the journal at @path or, where its folder does not allow that,
 * marks it put back, so that it stands in no check's way. Returns NULL,
 * or what to tell the user. */
static char *
retire (const char *path,
        int         fd)
{
  int errsv;
  int own_fd = -1;

  if (g_unlink (path) == 0 || errno == ENOENT)
    return NULL;
  errsv = errno;
  if (fd < 0)
    fd = own_fd = open (path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd >= 0 && write_all (fd, DONE_MAGIC, 8, 0) && fdatasync (fd) == 0)
    {
      if (own_fd >= 0)
        close (own_fd);
      return g_strdup_printf (_("The journal %s could not be removed (%s); it is marked as put back, "
                                "so it stands in no check's way. Delete it when you can."),
                              path, g_strerror (errsv));
    }
  if (own_fd >= 0)
    close (own_fd);
  return g_strdup_printf (_("The journal %s could not be removed or marked as put back (%s). The card's data is back: "
                            "delete the journal yourself."),
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
                            GArray        *fingerprint_offsets,
                            const guint8  *fingerprint,
                            GError       **error)
{
  g_autofree char *dir = g_file_get_path (folder);
  g_autofree char *name = journal_name (identity);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GVariant) header = NULL;
  g_autofree guint8 *head = NULL;
  CmCapacityJournal *journal;
  guint64 length;
  int fd, dirfd;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      set_journal_error (error, dir, errno);
      return NULL;
    }

  header = g_variant_ref_sink (g_variant_new ("(sst@ayu@at@ay@at@ay)", device, identity, size,
                                              g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, nonce, 16, 1),
                                              (guint32) CM_CAPACITY_BLOCK,
                                              g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, offsets->data,
                                                                         offsets->len, sizeof (guint64)),
                                              g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, originals,
                                                                         (gsize) offsets->len * CM_CAPACITY_BLOCK, 1),
                                              g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, fingerprint_offsets->data,
                                                                         fingerprint_offsets->len, sizeof (guint64)),
                                              g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, fingerprint,
                                                                         (gsize) fingerprint_offsets->len * DIGEST, 1)));
  length = g_variant_get_size (header);
  head = g_malloc (16 + length + DIGEST);
  memcpy (head, MAGIC, 8);
  memcpy (head + 8, &length, 8);
  memcpy (head + 16, g_variant_get_data (header), length);
  header_digest (head, length, head + 16 + length);

  fd = open (path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  /* A journal put back but left in a folder that would not let it go is
   * reused: it names this card and holds nothing to restore. */
  if (fd < 0 && errno == EEXIST && journal_is_done (path))
    fd = open (path, O_RDWR | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    {
      set_journal_error (error, path, errno);
      return NULL;
    }
  /* Held while the check runs: a journal nobody holds is one to restore. */
  flock (fd, LOCK_EX);
  if (!write_all (fd, head, 16 + length + DIGEST, 0) || fdatasync (fd) != 0)
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
  journal->slot = slot_position (length);
  return journal;
}

static void
slot_digest (const SlotHeader *header,
             const guint8     *data,
             guint8           *digest)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize digest_len = DIGEST;

  g_checksum_update (sum, (const guint8 *) &header->offset, 8);
  g_checksum_update (sum, (const guint8 *) &header->length, 8);
  g_checksum_update (sum, data, header->length);
  g_checksum_get_digest (sum, digest, &digest_len);
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

  slot_digest (&header, data, header.sha256);
  if (!write_all (journal->fd, data, length, journal->slot + 4096) ||
      !write_all (journal->fd, &header, sizeof header, journal->slot) ||
      fdatasync (journal->fd) != 0)
    {
      set_chunk_error (error, journal->path, errno);
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
char *
cm_capacity_journal_discard (CmCapacityJournal *journal)
{
  char *note;

  if (journal == NULL)
    return NULL;
  note = retire (journal->path, journal->fd);
  cm_capacity_journal_close (journal);
  return note;
}

/* Reading. Everything in the file is hostile until its checksum and the
 * ranges of what it holds say otherwise. */

typedef struct
{
  char          *path;
  GBytes        *bytes;
  GVariant      *header;
  gboolean       done;
  const char    *device;
  const char    *identity;
  guint64        size;
  const guint8  *nonce;
  const guint64 *offsets;
  gsize          n_offsets;
  const guint8  *originals;
  const guint64 *fp_offsets;
  gsize          n_fp;
  const guint8  *fingerprint;
  guint64        slot_offset;
  guint64        slot_length;
  const guint8  *slot_data;   /* NULL when the slot holds nothing sound */
} Journal;

static void
journal_clear (Journal *j)
{
  g_clear_pointer (&j->header, g_variant_unref);
  g_clear_pointer (&j->bytes, g_bytes_unref);
  g_clear_pointer (&j->path, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Journal, journal_clear)

/* Never the card's fault: the file on this computer is what failed. */
static gboolean
journal_damaged (const char  *path,
                 const char  *why,
                 GError     **error)
{
  g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_DAMAGED,
               _("The journal %s is damaged (%s); it cannot put the card back, so nothing was written to the card. "
                 "If you are sure the card holds nothing the check wrote, delete %s."),
               path, why, path);
  return FALSE;
}

static void
load_slot (Journal *j,
           guint64  header_len)
{
  gsize length;
  const guint8 *data = g_bytes_get_data (j->bytes, &length);
  guint64 slot = slot_position (header_len);
  SlotHeader header;
  guint8 digest[DIGEST];

  if (slot > length || length - slot < 4096)
    return;
  memcpy (&header, data + slot, sizeof header);
  if (memcmp (header.magic, SLOT_MAGIC, 8) != 0 || header.length > length - slot - 4096 ||
      header.length == 0 || header.length > MAX_SLOT)
    return;
  slot_digest (&header, data + slot + 4096, digest);
  if (memcmp (digest, header.sha256, DIGEST) != 0)
    return;
  /* A sound slot out of the card's range is not a torn write: refused
   * with the rest by journal_sane. */
  j->slot_offset = header.offset;
  j->slot_length = header.length;
  j->slot_data = data + slot + 4096;
}

static gboolean
journal_sane (const Journal *j)
{
  if (j->size < CM_CAPACITY_BLOCK || j->size % 512 != 0 ||
      j->n_offsets == 0 || j->n_offsets > MAX_PLACES || j->n_fp == 0 || j->n_fp > MAX_FINGERPRINT)
    return FALSE;
  for (gsize i = 0; i < j->n_offsets; i++)
    if (j->offsets[i] % CM_CAPACITY_BLOCK != 0 || j->offsets[i] > j->size - CM_CAPACITY_BLOCK)
      return FALSE;
  for (gsize i = 0; i < j->n_fp; i++)
    if (j->fp_offsets[i] % CM_CAPACITY_BLOCK != 0 || j->fp_offsets[i] > j->size - CM_CAPACITY_BLOCK)
      return FALSE;
  if (j->slot_data != NULL &&
      (j->slot_offset % 512 != 0 || j->slot_length % 512 != 0 || j->slot_offset > j->size - j->slot_length))
    return FALSE;
  return TRUE;
}

static gboolean
journal_parse (Journal     *j,
               GError     **error)
{
  g_autoptr(GVariant) nonce = NULL;
  g_autoptr(GVariant) offsets = NULL;
  g_autoptr(GVariant) originals = NULL;
  g_autoptr(GVariant) fp_offsets = NULL;
  g_autoptr(GVariant) fingerprint = NULL;
  const guint8 *data;
  guint8 digest[DIGEST];
  gsize length, n_nonce, n_originals, n_fingerprint;
  guint64 header_len;
  guint32 block;

  data = g_bytes_get_data (j->bytes, &length);
  if (length >= 8 && memcmp (data, OLD_MAGIC, 8) == 0)
    return journal_damaged (j->path, _("it was written by an older CardMark and has no checksum"), error);
  if (length < 16 || (memcmp (data, MAGIC, 8) != 0 && memcmp (data, DONE_MAGIC, 8) != 0))
    return journal_damaged (j->path, _("it is not a capacity check journal"), error);
  j->done = memcmp (data, DONE_MAGIC, 8) == 0;
  memcpy (&header_len, data + 8, 8);
  if (header_len > length - 16 || length - 16 - header_len < DIGEST)
    return journal_damaged (j->path, _("it is cut short"), error);
  header_digest (data, header_len, digest);
  if (memcmp (digest, data + 16 + header_len, DIGEST) != 0)
    return journal_damaged (j->path, _("its checksum does not match what it holds"), error);

  j->header = g_variant_ref_sink (g_variant_new_from_data (G_VARIANT_TYPE (HEADER_TYPE), data + 16, header_len,
                                                           FALSE, NULL, NULL));
  if (!g_variant_is_normal_form (j->header))
    return journal_damaged (j->path, _("what it holds is not laid out as a journal"), error);
  g_variant_get (j->header, "(&s&st@ayu@at@ay@at@ay)", &j->device, &j->identity, &j->size,
                 &nonce, &block, &offsets, &originals, &fp_offsets, &fingerprint);
  j->nonce = g_variant_get_fixed_array (nonce, &n_nonce, 1);
  j->offsets = g_variant_get_fixed_array (offsets, &j->n_offsets, sizeof (guint64));
  j->originals = g_variant_get_fixed_array (originals, &n_originals, 1);
  j->fp_offsets = g_variant_get_fixed_array (fp_offsets, &j->n_fp, sizeof (guint64));
  j->fingerprint = g_variant_get_fixed_array (fingerprint, &n_fingerprint, 1);
  load_slot (j, header_len);
  if (n_nonce != 16 || block != CM_CAPACITY_BLOCK || n_originals != j->n_offsets * CM_CAPACITY_BLOCK ||
      n_fingerprint != j->n_fp * DIGEST || !journal_sane (j))
    return journal_damaged (j->path, _("what it holds is out of range"), error);
  return TRUE;
}

static gboolean
journal_load (Journal     *j,
              const char  *path,
              GError     **error)
{
  g_autoptr(GMappedFile) file = NULL;
  g_autoptr(GError) local_error = NULL;

  j->path = g_strdup (path);
  if ((file = g_mapped_file_new (path, FALSE, &local_error)) == NULL)
    {
      g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_JOURNAL,
                   _("Could not read the journal: %s"), local_error->message);
      return FALSE;
    }
  j->bytes = g_mapped_file_get_bytes (file);
  return journal_parse (j, error);
}

gboolean
cm_capacity_journal_validate (GBytes  *contents,
                              GError **error)
{
  g_auto(Journal) j = { 0 };

  g_return_val_if_fail (contents != NULL, FALSE);

  j.path = g_strdup ("(memory)");
  j.bytes = g_bytes_ref (contents);
  return journal_parse (&j, error);
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
      /* Put back already; its folder kept it. */
      if (journal_is_done (path))
        {
          g_unlink (path);
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
      if (!journal_load (&other, other_path, NULL) || other.done || g_strcmp0 (other.device, device) != 0)
        continue;
      /* The identities say what differs, the sizes in bytes included. */
      g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_OTHER_CARD,
                   _("The capacity check journal %s was made for another card in %s (“%s”), not the card in it now "
                     "(“%s”). Nothing was written. Insert that card and restore again."),
                   other_path, device, other.identity, identity);
      return NULL;
    }
  return NULL;
}

/* The one loop (cm-block-io.c): all of @length, or FALSE with why in
 * errno, which the callers here read. */
static gboolean
transfer (int      fd,
          gboolean write,
          guint8  *buffer,
          gsize    length,
          guint64  offset)
{
  int errsv;

  if (cm_block_io_transfer (fd, write, buffer, length, offset, &errsv) == (gssize) length && errsv == 0)
    return TRUE;
  errno = errsv;
  return FALSE;
}

/* Whether @block carries this check's signature for any place: a card
 * that maps a fingerprint place onto a checked one shows it there. */
static gboolean
shows_any_signature (const guint8 *block,
                     const guint8 *nonce)
{
  guint64 offset;

  if (memcmp (block, SIGNATURE_MAGIC, sizeof SIGNATURE_MAGIC) != 0 || memcmp (block + 32, nonce, 16) != 0)
    return FALSE;
  memcpy (&offset, block + 48, 8);
  return cm_capacity_shows_signature (block, nonce, offset);
}

char *
cm_capacity_fingerprint_text (const guint8 *fingerprint,
                              gsize         n)
{
  g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, fingerprint, n * DIGEST);

  return g_strndup (sum, 12);
}

/* Reads the places the check never writes and compares them with what
 * they held when it started. FALSE with errno set when the card cannot
 * be read; *@differ counts the places that changed. */
static gboolean
read_fingerprint (int            fd,
                  const Journal *j,
                  guint8        *now,
                  guint         *differ)
{
  g_autofree guint8 *block = cm_engine_alloc (CM_CAPACITY_BLOCK);

  *differ = 0;
  for (gsize i = 0; i < j->n_fp; i++)
    {
      gsize digest_len = DIGEST;
      g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);

      if (!transfer (fd, FALSE, block, CM_CAPACITY_BLOCK, j->fp_offsets[i]))
        return FALSE;
      g_checksum_update (sum, block, CM_CAPACITY_BLOCK);
      g_checksum_get_digest (sum, now + i * DIGEST, &digest_len);
      if (memcmp (now + i * DIGEST, j->fingerprint + i * DIGEST, DIGEST) == 0)
        continue;
      if (shows_any_signature (block, j->nonce))
        memcpy (now + i * DIGEST, j->fingerprint + i * DIGEST, DIGEST);
      else
        (*differ)++;
    }
  return TRUE;
}

/* Whether the journal names this card at all: size, identity and the
 * places the check never writes. */
static gboolean
same_card (int            fd,
           const Journal *j,
           const char    *device,
           guint64        size,
           GError       **error)
{
  g_autofree char *identity = cm_capacity_card_identity (device, size);
  g_autofree guint8 *now = g_malloc0 (j->n_fp * DIGEST);
  g_autofree char *then_text = NULL;
  g_autofree char *now_text = NULL;
  guint differ = 0;

  if (j->size != size || g_strcmp0 (j->identity, identity) != 0)
    {
      g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_OTHER_CARD,
                   _("The journal %s is for another card (“%s”), not the one in %s (“%s”). Nothing was written."),
                   j->path, j->identity, device, identity);
      return FALSE;
    }
  if (!read_fingerprint (fd, j, now, &differ))
    {
      int errsv = errno;
      g_autoptr(GError) cause = cm_target_error_from_errno (errsv, NULL);

      g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_JOURNAL,
                   _("The card in %s could not be read to tell whether the journal %s is its own: %s "
                     "Nothing was written; the journal is kept."),
                   device, j->path, cause->message);
      return FALSE;
    }
  if (differ == 0)
    return TRUE;

  then_text = cm_capacity_fingerprint_text (j->fingerprint, j->n_fp);
  now_text = cm_capacity_fingerprint_text (now, j->n_fp);
  /* Translators: a reader's serial names the reader, not the card in it. */
  g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_OTHER_CARD,
               g_dngettext (GETTEXT_PACKAGE,
                            "The journal %s is for another card of the same size in the same reader: %u place the check "
                            "never writes holds other data than when the check started (fingerprint %s then, %s now). "
                            "Nothing was written; the journal is kept. Insert the card the check ran on and restore again.",
                            "The journal %s is for another card of the same size in the same reader: %u places the check "
                            "never writes hold other data than when the check started (fingerprint %s then, %s now). "
                            "Nothing was written; the journal is kept. Insert the card the check ran on and restore again.",
                            differ),
               j->path, differ, then_text, now_text);
  return FALSE;
}

gboolean
cm_capacity_journal_check_pending (int          fd,
                                   const char  *device,
                                   guint64      size,
                                   const char  *path,
                                   GError     **error)
{
  g_auto(Journal) j = { 0 };

  if (!journal_load (&j, path, error) || !same_card (fd, &j, device, size, error))
    return FALSE;
  g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_INTERRUPTED,
               _("An earlier capacity check of this card was interrupted and its data is still in the journal %s. "
                 "Put it back first: restore %s from its journal, or start CardMark, which does it."),
               path, device);
  return FALSE;
}

typedef struct
{
  guint   restored;       /* places written back */
  guint   signed_places;  /* places that showed the signature */
  guint64 changed;        /* bytes that hold neither the signature nor the original */
  guint64 first_changed;
} Tally;

static void
note_changed (Tally   *tally,
              guint64  offset,
              guint64  length)
{
  if (tally->changed == 0 || offset < tally->first_changed)
    tally->first_changed = offset;
  tally->changed += length;
}

/* One place, sector by sector: a sector that shows the signature gets its
 * original back; one that holds its original is fine; anything else was
 * written since the check stopped, and is left as it is. */
static gboolean
restore_place (int            fd,
               const Journal *j,
               gsize          i,
               guint8        *block,
               guint8        *expected,
               Tally         *tally)
{
  guint64 offset = j->offsets[i];
  const guint8 *original = j->originals + i * CM_CAPACITY_BLOCK;
  gboolean any = FALSE;

  if (!transfer (fd, FALSE, block, CM_CAPACITY_BLOCK, offset))
    return FALSE;
  cm_capacity_signature (expected, j->nonce, offset);
  for (guint s = 0; s < CM_CAPACITY_BLOCK; s += 512)
    {
      if (memcmp (block + s, expected + s, 512) == 0)
        {
          memcpy (block + s, original + s, 512);
          any = TRUE;
        }
      else if (memcmp (block + s, original + s, 512) != 0)
        note_changed (tally, offset + s, 512);
    }
  if (!any)
    return TRUE;
  tally->signed_places++;
  if (!transfer (fd, TRUE, block, CM_CAPACITY_BLOCK, offset))
    return FALSE;
  tally->restored++;
  cm_capacity_test_stop ("restore-journal", tally->restored);
  return TRUE;
}

/* The chunk the check was rewriting with the card's own bytes when it
 * ended. Where the card holds what the check wrote, it holds its own
 * data already; where it holds something else, someone wrote there
 * since, and that is left alone. Nothing is written. */
static gboolean
check_slot (int            fd,
            const Journal *j,
            Tally         *tally)
{
  g_autofree guint8 *chunk = NULL;

  if (j->slot_data == NULL)
    return TRUE;
  chunk = cm_engine_alloc (j->slot_length);
  if (!transfer (fd, FALSE, chunk, j->slot_length, j->slot_offset))
    return FALSE;
  for (guint64 s = 0; s < j->slot_length; s += 512)
    if (memcmp (chunk + s, j->slot_data + s, 512) != 0)
      note_changed (tally, j->slot_offset + s, 512);
  return TRUE;
}

static char *
describe_changed (const Tally *tally)
{
  g_autofree char *amount = NULL;

  if (tally->changed == 0)
    return NULL;
  amount = g_format_size (tally->changed);
  return g_strdup_printf (_("%s of the places the check wrote hold new data written since it stopped (the first at "
                            "byte %llu); they were left as they are."),
                          amount, (unsigned long long) tally->first_changed);
}

/* Puts back what the journal at @path holds, onto the card in @device,
 * and removes the journal: only on the card it was made for (the places
 * the check never writes unchanged) and only where the card still holds
 * what the check wrote. The journal goes only once the card showed at
 * least one of the check's signatures: nothing else proves it was the
 * card. @note, if not NULL, gets what else the user should know. */
gboolean
cm_capacity_journal_restore (int          fd,
                             const char  *device,
                             guint64      size,
                             const char  *path,
                             guint       *n_restored,
                             char       **note,
                             GError     **error)
{
  g_auto(Journal) j = { 0 };
  g_autofree guint8 *block = cm_engine_alloc (CM_CAPACITY_BLOCK);
  g_autofree guint8 *expected = g_malloc (CM_CAPACITY_BLOCK);
  g_autofree char *changed = NULL;
  g_autofree char *retired = NULL;
  Tally tally = { 0 };

  g_return_val_if_fail (fd >= 0, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!journal_load (&j, path, error))
    return FALSE;
  if (j.done)
    {
      if (note != NULL)
        *note = retire (path, -1);
      if (n_restored != NULL)
        *n_restored = 0;
      return TRUE;
    }
  if (!same_card (fd, &j, device, size, error))
    return FALSE;

  /* Every place, from the top down as the check wrote them. */
  for (gsize i = 0; i < j.n_offsets; i++)
    if (!restore_place (fd, &j, i, block, expected, &tally))
      goto failed;
  if (!check_slot (fd, &j, &tally) || fdatasync (fd) != 0)
    goto failed;

  changed = describe_changed (&tally);
  if (tally.signed_places == 0)
    {
      g_set_error (error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_OTHER_CARD,
                   _("No place on the card in %s shows the signature of the check the journal %s was made for, so "
                     "nothing proves it is that card. Nothing was written and the journal is kept. "
                     "Insert the card the check ran on and restore again; if you are sure no card holds anything the "
                     "check wrote, delete %s."),
                   device, path, path);
      return FALSE;
    }

  retired = retire (path, -1);
  if (n_restored != NULL)
    *n_restored = tally.restored;
  if (note != NULL && changed != NULL && retired != NULL)
    *note = g_strconcat (changed, " ", retired, NULL);
  else if (note != NULL)
    *note = g_strdup (changed != NULL ? changed : retired);
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
  gboolean      found;       /* a journal of the card was there */
  char         *note;
} RestoreData;

static void
restore_data_free (RestoreData *data)
{
  g_free (data->device);
  g_free (data->note);
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
  else if ((data->found = path != NULL) &&
           !cm_capacity_journal_restore (data->fd, data->device, data->size, path,
                                         &data->n_restored, &data->note, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
cm_capacity_restore_async (int                  fd,
                           const char          *device,
                           guint64              size,
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
  data->folder = cm_capacity_journal_default_folder ();
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

/**
 * cm_capacity_restore_get_found:
 * @note: (out) (optional) (transfer none): what else the restore has to
 *   say, or NULL
 *
 * After cm_capacity_restore_finish(): whether a journal of the card was
 * there to put back (FALSE: nothing to do).
 */
gboolean
cm_capacity_restore_get_found (GAsyncResult  *result,
                               const char   **note)
{
  RestoreData *data;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  data = g_task_get_task_data (G_TASK (result));
  if (note != NULL)
    *note = data->note;
  return data->found;
}
