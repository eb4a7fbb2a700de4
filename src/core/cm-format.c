/* cm-format.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Erase and format a whole card, in the worker thread of its job
 * (cm-job-format.c). The steps, each checked before the next:
 *
 * 1. Discard. A few regions spread over the card are written with data
 *    of their own, the whole card is discarded (BLKDISCARD), and the
 *    regions are read back: erased (all zeros or all ones) means the
 *    card honoured the discard, their data still there means it ignored
 *    it. Reads bypass the cache (the card's device is open O_DIRECT).
 * 2. The MBR, written by hand (512 bytes, cm_format_layout_mbr), after
 *    zeros up to the partition's start, so nothing old is found there;
 *    then the kernel rereads the table (BLKRRPART) and shows the
 *    partition's device.
 * 3. The file system: mkfs.fat or mkfs.exfat, with the layout's type,
 *    cluster size and alignment given explicitly.
 * 4. fsck.fat -n or fsck.exfat -n: the format is done only when it
 *    finds nothing to mend.
 *
 * As a user who is not root, the card is open through UDisks and steps
 * 1 and 2 are the same; steps 3 and 4 run on a sparse image of the
 * partition, with the same mkfs arguments, and the image is copied onto
 * the card and read back (make_fs_image, cm-format-image.c). Where no
 * image can be made, UDisks makes the file system (cm-format-udisks.c).
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cm-format.h"
#include "cm-format-private.h"
#include "cm-json.h"
#include "cm-block-io.h"
#include "cm-target.h"
#include "cm-test-hooks.h"

#define io_at cm_format_io_at
#define aligned_buffer cm_format_aligned_buffer

#define SAMPLES       16
#define SAMPLE_BYTES  (64 * 1024)
#define ZERO_CHUNK    (1024 * 1024)
/* The discard goes in this many pieces, so its progress and its time
 * left can be said and a stop heard between them. */
#define DISCARD_PIECES 64

/**
 * cm_format_needs_udisks:
 *
 * Rereading the partition table and opening the partition need root:
 * without it, the card is open through UDisks and the file system is
 * made on an image of the partition, then copied onto the card.
 * CARDMARK_FORMAT_VIA_UDISKS lets the tests, who run as root, take that
 * route.
 */
gboolean
cm_format_needs_udisks (void)
{
  return geteuid () != 0 || cm_test_hook ("CARDMARK_FORMAT_VIA_UDISKS") != NULL;
}

void
cm_format_report_free (CmFormatReport *report)
{
  if (report == NULL)
    return;
  g_free (report->label);
  g_free (report->size_proof);
  g_free (report->partition);
  g_free (report->fsck_output);
  g_free (report);
}

const char *
cm_format_discard_to_string (CmFormatDiscard discard)
{
  switch (discard)
    {
    case CM_FORMAT_DISCARD_HONOURED:
      return "honoured";
    case CM_FORMAT_DISCARD_IGNORED:
      return "ignored";
    case CM_FORMAT_DISCARD_PARTLY:
      return "partly";
    case CM_FORMAT_DISCARD_NOT_SUPPORTED:
      return "not-supported";
    default:
      g_return_val_if_reached (NULL);
    }
}

static gboolean
discard_from_string (const char      *str,
                     CmFormatDiscard *discard)
{
  for (CmFormatDiscard d = CM_FORMAT_DISCARD_HONOURED; d <= CM_FORMAT_DISCARD_NOT_SUPPORTED; d++)
    if (g_strcmp0 (str, cm_format_discard_to_string (d)) == 0)
      {
        *discard = d;
        return TRUE;
      }
  return FALSE;
}

static guint64
sample_offset (guint   i,
               guint64 used)
{
  guint64 step = used / SAMPLES;

  return (step * i + step / 2) / 4096 * 4096;
}

static gboolean
all_bytes (const guint8 *buf,
           gsize         len,
           guint8        value)
{
  for (gsize i = 0; i < len; i++)
    if (buf[i] != value)
      return FALSE;
  return TRUE;
}

/* Step 1: the samples written, the card discarded, the samples read.
 * The discard goes in pieces: after each, the share done and the time
 * left at the rate measured so far. */
static gboolean
discard_card (int                    fd,
              CmFormatReport        *report,
              CmFormatProgressFunc   progress,
              gpointer               user_data,
              double                 from,
              double                 to,
              GCancellable          *cancellable,
              GError               **error)
{
  g_autofree guint8 *pattern = aligned_buffer (SAMPLE_BYTES * SAMPLES);
  g_autofree guint8 *back = aligned_buffer (SAMPLE_BYTES);
  guint64 piece = MAX (report->device_bytes / DISCARD_PIECES / ZERO_CHUNK, 1) * ZERO_CHUNK;
  guint erased = 0, kept = 0;
  gint64 start;

  for (gsize i = 0; i < SAMPLE_BYTES * SAMPLES / 4; i++)
    ((guint32 *) pattern)[i] = g_random_int ();
  for (guint i = 0; i < SAMPLES; i++)
    if (!io_at (fd, TRUE, pattern + i * SAMPLE_BYTES, SAMPLE_BYTES, sample_offset (i, report->used_bytes), error))
      return FALSE;
  if (!cm_format_sync (fd, _("The card did not take what was written to it: %s. Check the card and its reader, and try again."), error))
    return FALSE;

  start = g_get_monotonic_time ();
  for (guint64 done = 0; done < report->device_bytes;)
    {
      guint64 range[2] = { done, MIN (piece, report->device_bytes - done) };
      double elapsed;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      /* Erasing is the optional half: a reader that refuses a discard,
       * at once or part-way (EOPNOTSUPP, and the kernel turns discard off
       * for it; EREMOTEIO or EIO from a SCSI reader that claims UNMAP and
       * fails it), stops the erase, not the format. */
      if (ioctl (fd, BLKDISCARD, range) < 0)
        {
          g_debug ("BLKDISCARD refused after %" G_GUINT64_FORMAT " bytes: %s", done, g_strerror (errno));
          report->discard = CM_FORMAT_DISCARD_NOT_SUPPORTED;
          report->discard_refused_after = done;
          report->discard_seconds = 0;
          return TRUE;
        }
      done += range[1];
      elapsed = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
      if (progress != NULL)
        progress (_("Erasing the card"), from + (to - from) * done / report->device_bytes,
                  elapsed > 0 ? elapsed / done * (report->device_bytes - done) : -1, user_data);
    }
  report->discard_seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  report->discard_samples = SAMPLES;

  for (guint i = 0; i < SAMPLES; i++)
    {
      if (!io_at (fd, FALSE, back, SAMPLE_BYTES, sample_offset (i, report->used_bytes), error))
        return FALSE;
      if (all_bytes (back, SAMPLE_BYTES, 0x00) || all_bytes (back, SAMPLE_BYTES, 0xff))
        erased++;
      else if (memcmp (back, pattern + i * SAMPLE_BYTES, SAMPLE_BYTES) == 0)
        kept++;
    }
  report->discard = erased == SAMPLES ? CM_FORMAT_DISCARD_HONOURED
                    : kept == SAMPLES ? CM_FORMAT_DISCARD_IGNORED
                    : CM_FORMAT_DISCARD_PARTLY;
  return TRUE;
}

/* Step 2: zeros up to the partition, the MBR in the first sector. */
static gboolean
write_table (int              fd,
             CmFormatReport  *report,
             GError         **error)
{
  g_autofree guint8 *buf = aligned_buffer (ZERO_CHUNK);

  memset (buf, 0, ZERO_CHUNK);
  for (guint64 at = ZERO_CHUNK; at < report->layout.start; at += ZERO_CHUNK)
    if (!io_at (fd, TRUE, buf, MIN (ZERO_CHUNK, report->layout.start - at), at, error))
      return FALSE;
  cm_format_layout_mbr (&report->layout, g_random_int (), buf);
  if (!io_at (fd, TRUE, buf, ZERO_CHUNK, 0, error))
    return FALSE;
  return cm_format_sync (fd, _("The card did not take its partition table: %s. Check the card and its reader, and try again."), error);
}

/* The card's name in /sys/class/block. */
static char *
block_name (const char *device)
{
  g_autofree char *real = realpath (device, NULL);

  return g_path_get_basename (real != NULL ? real : device);
}

/* The device of the card's first partition, once the kernel shows it. */
static char *
find_partition (const char *device)
{
  g_autofree char *name = block_name (device);
  g_autofree char *folder = g_build_filename ("/sys/class/block", name, NULL);
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *entry;

  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (folder, entry, "partition", NULL);
      g_autofree char *text = NULL;
      g_autofree char *node = NULL;
      struct stat st;

      if (!g_str_has_prefix (entry, name) || !g_file_get_contents (file, &text, NULL, NULL))
        continue;
      node = g_build_filename ("/dev", entry, NULL);
      if (g_strcmp0 (g_strstrip (text), "1") == 0 && stat (node, &st) == 0 && S_ISBLK (st.st_mode))
        return g_steal_pointer (&node);
    }
  return NULL;
}

/* Where the kernel shows no partitions (one built without MBR support,
 * or a loop device attached without --partscan), the file system is
 * made through a loop device over the partition's bytes of the card:
 * the same bytes, one more device, gone when it is closed. */
static int
open_window (int               card_fd,
             CmFormatReport   *report,
             GError          **error)
{
  int ctl = open ("/dev/loop-control", O_RDWR | O_CLOEXEC);
  int errsv = ENODEV;

  for (guint tries = 0; ctl >= 0 && tries < 10; tries++)
    {
      struct loop_config config = { 0 };
      g_autofree char *path = NULL;
      int n = ioctl (ctl, LOOP_CTL_GET_FREE);
      int fd;

      if (n < 0)
        {
          errsv = errno;
          break;
        }
      path = g_strdup_printf ("/dev/loop%d", n);
      if ((fd = open (path, O_RDWR | O_CLOEXEC)) < 0)
        {
          errsv = errno;
          continue;
        }
      config.fd = card_fd;
      config.info.lo_offset = report->layout.start;
      config.info.lo_sizelimit = report->layout.length;
      config.info.lo_flags = LO_FLAGS_AUTOCLEAR;
      if (ioctl (fd, LOOP_CONFIGURE, &config) == 0)
        {
          close (ctl);
          report->partition = g_steal_pointer (&path);
          report->window = TRUE;
          return fd;
        }
      errsv = errno;
      close (fd);
      if (errsv != EBUSY)
        break;
    }
  if (ctl >= 0)
    close (ctl);
  else
    errsv = errno;
  g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
               _("The partition table is written, but this computer shows no partitions on the card and "
                 "cannot reach the partition another way (%s). Format the card on a computer whose kernel "
                 "reads MBR partition tables."), g_strerror (errsv));
  return -1;
}

/* The kernel rereads the table; the partition's device, or a window
 * (open_window) where it shows none; -1 when neither. Someone (udev's
 * probe) may hold an old partition for a moment: then it is asked
 * again, for up to 5 s. */
static int
reach_partition (int            fd,
                 const char    *device,
                 CmFormatReport *report,
                 GCancellable  *cancellable,
                 GError       **error)
{
  int errsv = 0;

  for (guint tries = 0; tries < 50; tries++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return -1;
      errsv = ioctl (fd, BLKRRPART) < 0 ? errno : 0;
      if (errsv != EBUSY)
        break;
      g_usleep (G_USEC_PER_SEC / 10);
    }
  /* The kernel adds the partitions before BLKRRPART returns. */
  if (errsv == 0 && (report->partition = find_partition (device)) != NULL)
    return -2;
  if (errsv == 0 || errsv == EINVAL)
    return open_window (fd, report, error);
  g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
               _("The partition table is written, but the kernel could not read it back from %s (%s). "
                 "Take the card out, put it back and format it again."),
               device, g_strerror (errsv));
  return -1;
}

/* A tool from the distribution: on PATH, or where Debian puts it, as a
 * user's PATH may lack /usr/sbin. */
static char *
find_tool (const char  *name,
           const char  *package,
           GError     **error)
{
  static const char *folders[] = { "/usr/sbin", "/sbin", "/usr/bin" };
  char *path = g_find_program_in_path (name);

  for (guint i = 0; path == NULL && i < G_N_ELEMENTS (folders); i++)
    {
      g_autofree char *candidate = g_build_filename (folders[i], name, NULL);

      if (g_file_test (candidate, G_FILE_TEST_IS_EXECUTABLE))
        path = g_steal_pointer (&candidate);
    }
  if (path == NULL)
    g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                 _("%s is not installed, so the card cannot be formatted. Install the %s package "
                   "(sudo apt install %s) and try again."), name, package, package);
  return path;
}

/* Runs @argv; its exit status in @status, its output (both streams). */
static gboolean
run_tool (const char * const  *argv,
          int                 *status,
          char               **output,
          GCancellable        *cancellable,
          GError             **error)
{
  g_autoptr(GSubprocess) proc = NULL;
  g_autofree char *out = NULL;

  proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE, error);
  if (proc == NULL)
    return FALSE;
  if (!g_subprocess_communicate_utf8 (proc, NULL, cancellable, &out, NULL, error))
    {
      g_subprocess_force_exit (proc);
      return FALSE;
    }
  *status = g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : -1;
  *output = cm_format_clean_output (out);
  return TRUE;
}

static GPtrArray *
mkfs_argv (const CmFormatReport *report,
           const char           *tool,
           const char           *target,
           guint                 reserved)
{
  const CmFormatLayout *l = &report->layout;
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (argv, g_strdup (tool));
  if (l->fs == CM_FORMAT_FS_EXFAT)
    {
      g_ptr_array_add (argv, g_strdup_printf ("--cluster-size=%u", l->cluster));
      /* The FAT and the cluster heap start on the boundary unit. */
      g_ptr_array_add (argv, g_strdup_printf ("--boundary-align=%" G_GUINT64_FORMAT, l->boundary));
      if (report->label != NULL)
        g_ptr_array_add (argv, g_strdup_printf ("--volume-label=%s", report->label));
    }
  else
    {
      g_ptr_array_add (argv, g_strdup ("-F"));
      g_ptr_array_add (argv, g_strdup (l->fs == CM_FORMAT_FS_FAT12 ? "12" : l->fs == CM_FORMAT_FS_FAT16 ? "16" : "32"));
      g_ptr_array_add (argv, g_strdup ("-S"));
      g_ptr_array_add (argv, g_strdup ("512"));
      g_ptr_array_add (argv, g_strdup ("-s"));
      g_ptr_array_add (argv, g_strdup_printf ("%u", l->cluster / 512));
      g_ptr_array_add (argv, g_strdup ("-f"));
      g_ptr_array_add (argv, g_strdup ("2"));
      if (reserved > 0)
        {
          /* Exactly these reserved sectors: mkfs.fat aligns nothing itself. */
          g_ptr_array_add (argv, g_strdup ("-a"));
          g_ptr_array_add (argv, g_strdup ("-R"));
          g_ptr_array_add (argv, g_strdup_printf ("%u", reserved));
        }
      /* The sectors before the partition, as the boot sector records them. */
      g_ptr_array_add (argv, g_strdup ("-h"));
      g_ptr_array_add (argv, g_strdup_printf ("%" G_GUINT64_FORMAT, l->start / 512));
      if (report->label != NULL)
        {
          g_ptr_array_add (argv, g_strdup ("-n"));
          g_ptr_array_add (argv, g_strdup (report->label));
        }
    }
  g_ptr_array_add (argv, g_strdup (target));
  g_ptr_array_add (argv, NULL);
  return argv;
}

/* Where a FAT's data area starts, in bytes from its partition's start,
 * and its reserved sectors, from its boot sector. */
static gboolean
fat_data_start (const char  *partition,
                guint       *reserved,
                guint64     *data_start,
                GError     **error)
{
  guint8 bs[512];
  guint per_sector, fats, root_entries;
  guint64 fat_sectors;
  int fd = open (partition, O_RDONLY | O_CLOEXEC);
  gboolean ok = fd >= 0 && io_at (fd, FALSE, bs, sizeof bs, 0, error);

  if (fd < 0)
    g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                 _("Cannot read back the file system on %s: %s"), partition, g_strerror (errno));
  if (fd >= 0)
    close (fd);
  if (!ok)
    return FALSE;
  per_sector = bs[11] | bs[12] << 8;
  *reserved = bs[14] | bs[15] << 8;
  fats = bs[16];
  root_entries = bs[17] | bs[18] << 8;
  fat_sectors = bs[22] | bs[23] << 8;
  if (fat_sectors == 0)
    fat_sectors = bs[36] | bs[37] << 8 | bs[38] << 16 | (guint32) bs[39] << 24;
  if (per_sector != 512)
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                   _("mkfs.fat left no FAT boot sector on %s. Try again; if it fails again, the card may be failing."),
                   partition);
      return FALSE;
    }
  *data_start = ((guint64) *reserved + fats * fat_sectors) * 512 + root_entries * 32;
  return TRUE;
}

/* Step 3, on @target: the partition's device, or its image. */
static gboolean
make_fs (CmFormatReport  *report,
         const char      *target,
         GCancellable    *cancellable,
         GError         **error)
{
  gboolean exfat = report->layout.fs == CM_FORMAT_FS_EXFAT;
  g_autofree char *tool = find_tool (exfat ? "mkfs.exfat" : "mkfs.fat", exfat ? "exfatprogs" : "dosfstools", error);
  g_autoptr(GPtrArray) argv = NULL;
  g_autofree char *output = NULL;
  int status;

  guint reserved = 0;

  if (tool == NULL)
    return FALSE;
  /* FAT: the data area starts on the boundary unit, as the SD
   * Association's formatter lays it out, by growing the reserved area;
   * the FATs then shrink a little, so it is tried again, a few times. */
  for (guint tries = 0; tries < 4; tries++)
    {
      guint64 data_start;

      g_clear_pointer (&argv, g_ptr_array_unref);
      g_clear_pointer (&output, g_free);
      argv = mkfs_argv (report, tool, target, reserved);
      if (!run_tool ((const char * const *) argv->pdata, &status, &output, cancellable, error))
        return FALSE;
      if (status != 0)
        {
          g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                       _("%s could not make the file system on %s (exit status %d): %s"),
                       tool, target, status, g_strstrip (output));
          return FALSE;
        }
      if (exfat)
        return TRUE;
      if (!fat_data_start (target, &reserved, &data_start, error))
        return FALSE;
      report->data_start = report->layout.start + data_start;
      if (report->data_start % report->layout.boundary == 0)
        return TRUE;
      reserved += (report->layout.boundary - report->data_start % report->layout.boundary) / 512;
      if (reserved > G_MAXUINT16)
        return TRUE;
    }
  return TRUE;
}

static gboolean
check_fs (CmFormatReport  *report,
          const char      *target,
          GCancellable    *cancellable,
          GError         **error)
{
  gboolean exfat = report->layout.fs == CM_FORMAT_FS_EXFAT;
  g_autofree char *tool = find_tool (exfat ? "fsck.exfat" : "fsck.fat", exfat ? "exfatprogs" : "dosfstools", error);
  const char *argv[] = { tool, "-n", target, NULL };
  int status;

  if (tool == NULL)
    return FALSE;
  if (!run_tool (argv, &status, &report->fsck_output, cancellable, error))
    return FALSE;
  report->fsck_ran = TRUE;
  report->fsck_clean = status == 0;
  return TRUE;
}

static void
say (CmFormatProgressFunc  progress,
     gpointer              user_data,
     const char           *phase,
     double                fraction)
{
  if (progress != NULL)
    progress (phase, fraction, -1, user_data);
}

/* The partition's device as the kernel names it once it reads the
 * table: mmcblk0 → mmcblk0p1, sdb → sdb1, loop12 → loop12p1. */
static char *
kernel_partition_name (const char *device)
{
  g_autofree char *name = block_name (device);
  gsize len = strlen (name);

  return g_strdup_printf ("/dev/%s%s1", name, len > 0 && g_ascii_isdigit (name[len - 1]) ? "p" : "");
}

typedef enum
{
  IMAGE_FAILED,   /* @error says why */
  IMAGE_NO_ROOM,  /* no image can be made here: take UDisks' route */
  IMAGE_DONE,
} ImageOutcome;

/* Steps 3 and 4 as a user who is not root: the same mkfs command line
 * as root's on a sparse image of the partition in a private temporary
 * folder, fsck -n on the image, then the image copied onto the card
 * through its UDisks handle and read back (cm-format-image.c). The
 * image is removed however it ends. */
static ImageOutcome
make_fs_image (int                   card,
               const char           *device,
               CmFormatReport       *report,
               CmFormatProgressFunc  progress,
               gpointer              user_data,
               GCancellable         *cancellable,
               GError              **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *image = NULL;
  ImageOutcome outcome = IMAGE_FAILED;
  int fd = -1;

  dir = g_dir_make_tmp ("cardmark-format-XXXXXX", &local);
  if (dir == NULL)
    {
      g_debug ("No image of the partition: %s", local->message);
      return IMAGE_NO_ROOM;
    }
  image = g_build_filename (dir, "partition.img", NULL);
  /* Sparse: only what mkfs writes takes room. */
  if ((fd = open (image, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0 ||
      ftruncate (fd, report->layout.length) < 0)
    {
      g_debug ("No image of the partition in %s: %s", dir, g_strerror (errno));
      outcome = IMAGE_NO_ROOM;
      goto out;
    }
  g_free (report->partition);
  report->partition = kernel_partition_name (device);
  report->window = FALSE;
  if (!make_fs (report, image, cancellable, error))
    goto out;
  /* mkfs.exfat finds no partition's offset for a file: told here, so
   * the bytes checked and read back are the card's final ones. (A
   * FAT's hidden sectors are in mkfs.fat's arguments.) */
  if (report->layout.fs == CM_FORMAT_FS_EXFAT && !cm_format_exfat_set_offset (fd, 0, report, error))
    goto out;
  say (progress, user_data, _("Checking the file system"), 0.6);
  if (g_cancellable_set_error_if_cancelled (cancellable, error) || !check_fs (report, image, cancellable, error))
    goto out;
  /* Its words name the partition, not a file that is gone. */
  {
    GString *words = g_string_new (report->fsck_output);

    g_string_replace (words, image, report->partition, 0);
    g_free (report->fsck_output);
    report->fsck_output = g_string_free (words, FALSE);
  }
  if (!cm_format_image_copy (card, fd, report, progress, user_data, 0.65, 0.98, cancellable, error) ||
      !cm_format_read_boot (card, report, error))
    goto out;
  report->through_image = TRUE;
  outcome = IMAGE_DONE;

out:
  if (fd >= 0)
    close (fd);
  g_unlink (image);
  g_rmdir (dir);
  return outcome;
}

static CmFormatReport *
run_steps (int                   fd,
           const char           *device,
           guint64               device_bytes,
           guint64               use_bytes,
           guint64               au_bytes,
           const char           *label,
           gboolean              through_udisks,
           CmFormatProgressFunc  progress,
           gpointer              user_data,
           gboolean             *erased,
           GCancellable         *cancellable,
           GError              **error)
{
  g_autoptr(CmFormatReport) report = g_new0 (CmFormatReport, 1);
  gint64 started = g_get_monotonic_time ();
  int window = -1;
  gboolean ok;

  g_return_val_if_fail (fd >= 0 && device != NULL, NULL);

  if (use_bytes > device_bytes)
    {
      g_autofree char *use = g_format_size (use_bytes);
      g_autofree char *has = g_format_size (device_bytes);

      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_TOO_SMALL,
                   _("%s holds %s; it cannot be formatted to %s. Give a size no larger than the card."),
                   device, has, use);
      return NULL;
    }
  report->device_bytes = device_bytes;
  report->used_bytes = use_bytes > 0 ? use_bytes : device_bytes;
  report->label = g_strdup (label);
  if (!cm_format_layout_plan (report->used_bytes, au_bytes, &report->layout, error) ||
      !cm_format_check_label (label, report->layout.fs, error))
    return NULL;
  report->asked_fs = report->layout.fs;
  report->asked_cluster = report->layout.cluster;

  say (progress, user_data, _("Erasing the card"), 0.05);
  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !discard_card (fd, report, progress, user_data, 0.05, 0.4, cancellable, error))
    return NULL;
  *erased = TRUE;
  say (progress, user_data, _("Writing the partition table"), 0.4);
  if (g_cancellable_set_error_if_cancelled (cancellable, error) || !write_table (fd, report, error))
    return NULL;
  if (through_udisks)
    {
      /* The table is the one written above, through the card's UDisks
       * handle; the file system is made on an image and copied into
       * it, or, where no image can be made, made by UDisks. */
      say (progress, user_data, _("Making the file system"), 0.5);
      switch (make_fs_image (fd, device, report, progress, user_data, cancellable, error))
        {
        case IMAGE_FAILED:
          return NULL;
        case IMAGE_NO_ROOM:
          report->through_udisks = TRUE;
          if (!cm_format_udisks_make_fs (fd, report, cancellable, error))
            return NULL;
          break;
        case IMAGE_DONE:
        default:
          break;
        }
      report->seconds = (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC;
      return g_steal_pointer (&report);
    }
  if ((window = reach_partition (fd, device, report, cancellable, error)) == -1)
    return NULL;
  say (progress, user_data, _("Making the file system"), 0.5);
  ok = !g_cancellable_set_error_if_cancelled (cancellable, error) && make_fs (report, report->partition, cancellable, error);
  if (ok && window >= 0 && report->layout.fs == CM_FORMAT_FS_EXFAT)
    ok = cm_format_exfat_set_offset (window, 0, report, error);
  if (ok)
    say (progress, user_data, _("Checking the file system"), 0.8);
  ok = ok && check_fs (report, report->partition, cancellable, error);
  if (window >= 0)
    close (window);
  if (!ok)
    return NULL;
  report->seconds = (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC;
  return g_steal_pointer (&report);
}

/**
 * cm_format_run:
 * @fd: the whole card, open for writing (O_DIRECT)
 * @device: its device, as /dev names it
 * @device_bytes: its size
 * @use_bytes: the bytes to lay out (a fake card's real size), 0 for all
 * @au_bytes: its allocation unit, 0 when not known
 * @label: (nullable): the volume label
 * @through_udisks: this process may not do what needs root (make the
 *   kernel reread the table, open the partition): the file system is
 *   made and checked on an image of the partition and copied onto the
 *   card through its handle (make_fs_image); where no image can be made,
 *   by UDisks (cm-format-udisks.c), whose mkfs chooses its cluster size,
 *   read back and reported as its choice
 *
 * Blocking: run it in a worker thread.
 *
 * Returns: the report (a format whose fsck was not clean too), or
 *   %NULL with @error set when a step could not be done. Stopped
 *   (%G_IO_ERROR_CANCELLED), the error says what state the card is left
 *   in and that it wants formatting again.
 */
CmFormatReport *
cm_format_run (int                   fd,
               const char           *device,
               guint64               device_bytes,
               guint64               use_bytes,
               guint64               au_bytes,
               const char           *label,
               gboolean              through_udisks,
               CmFormatProgressFunc  progress,
               gpointer              user_data,
               GCancellable         *cancellable,
               GError              **error)
{
  GError *local = NULL;
  gboolean erased = FALSE;
  CmFormatReport *report = run_steps (fd, device, device_bytes, use_bytes, au_bytes, label, through_udisks,
                                      progress, user_data, &erased, cancellable, &local);

  if (report != NULL)
    return report;
  /* Stopped part way, the card holds neither its old data nor a file
   * system to use: said so, with what to do. */
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_error (&local);
      local = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                   erased ? _("The format was stopped after the card was erased: the card has no "
                                              "working file system. Format it again before you use it.")
                                          : _("The format was stopped while it erased the card: some of the card's old "
                                              "data may be left on it, and it has no working file system. Format it "
                                              "again before you use it."));
    }
  g_propagate_error (error, local);
  return NULL;
}

/* "FAT32", "exFAT": as people write them. */
static const char *
fs_label (CmFormatFs fs)
{
  switch (fs)
    {
    case CM_FORMAT_FS_FAT12:
      return "FAT12";
    case CM_FORMAT_FS_FAT16:
      return "FAT16";
    case CM_FORMAT_FS_FAT32:
      return "FAT32";
    case CM_FORMAT_FS_EXFAT:
      return "exFAT";
    default:
      g_return_val_if_reached (NULL);
    }
}

char *
cm_format_report_dup_layout_text (const CmFormatReport *report)
{
  g_return_val_if_fail (report != NULL, NULL);

  /* Translators: a format's layout: the file system, then the cluster size in KiB */
  return g_strdup_printf (_("%s, %u KiB clusters"), fs_label (report->layout.fs), report->layout.cluster / 1024);
}

/**
 * cm_format_report_dup_check_text:
 *
 * What the check of the new file system found, or why none ran: never
 * "clean" for a file system nothing checked.
 */
char *
cm_format_report_dup_check_text (const CmFormatReport *report)
{
  g_return_val_if_fail (report != NULL, NULL);

  if (!report->fsck_ran)
    /* Translators: a format's check; %s says why, "UDisks cannot check exFAT on this computer" */
    return g_strdup_printf (_("not checked: %s"), report->fsck_output != NULL ? report->fsck_output : "");
  if (report->through_udisks)
    return g_strdup (report->fsck_clean ? _("clean (UDisks' check found nothing to mend)") : _("faults found (UDisks' check)"));
  if (report->through_image && report->fsck_clean)
    return g_strdup (_("clean (fsck -n found nothing to mend; the card read back what was written)"));
  return g_strdup (report->fsck_clean ? _("clean (fsck -n found nothing to mend)") : _("faults found"));
}

char *
cm_format_report_dup_choice_text (const CmFormatReport *report)
{
  GString *text;
  gboolean misaligned;

  g_return_val_if_fail (report != NULL, NULL);

  if (!report->through_udisks)
    return NULL;
  misaligned = report->layout.fs != CM_FORMAT_FS_EXFAT && report->layout.boundary > 0 &&
               report->data_start % report->layout.boundary != 0;
  if (report->layout.fs == report->asked_fs && report->layout.cluster == report->asked_cluster)
    text = g_string_new (_("UDisks made the file system, as CardMark was not running as root: its mkfs chose the "
                           "cluster size, which is the one the SD specification asks for."));
  else
    {
      g_autofree char *asked = NULL;

      /* Translators: "FAT32, 32 KiB clusters": the specification's layout */
      asked = g_strdup_printf (_("%s, %u KiB clusters"), fs_label (report->asked_fs), report->asked_cluster / 1024);
      text = g_string_new (NULL);
      /* Translators: a format made through UDisks; %s is the specification's layout, "FAT32, 32 KiB clusters" */
      g_string_printf (text, _("UDisks made the file system, as CardMark was not running as root: its type and "
                               "cluster size are its mkfs's own choice, not the SD specification's (%s)."), asked);
    }
  if (misaligned)
    {
      g_string_append_c (text, ' ');
      g_string_append (text, _("Its data area does not start on the card's boundary unit, as the specification asks."));
    }
  if (misaligned || report->layout.fs != report->asked_fs || report->layout.cluster != report->asked_cluster)
    {
      g_string_append_c (text, ' ');
      g_string_append (text, _("Format the card as root for the specification's layout."));
    }
  return g_string_free (text, FALSE);
}

char *
cm_format_report_dup_discard_text (const CmFormatReport *report)
{
  g_return_val_if_fail (report != NULL, NULL);

  switch (report->discard)
    {
    case CM_FORMAT_DISCARD_HONOURED:
      return g_strdup_printf (_("The card honoured the discard: what was written read back erased (%.1f s)."),
                              report->discard_seconds);
    case CM_FORMAT_DISCARD_IGNORED:
      return g_strdup_printf (_("The card ignored the discard: what was written was still there after it (%.1f s)."),
                              report->discard_seconds);
    case CM_FORMAT_DISCARD_PARTLY:
      return g_strdup_printf (_("The card honoured the discard in part: some of what was written was still there (%.1f s)."),
                              report->discard_seconds);
    case CM_FORMAT_DISCARD_NOT_SUPPORTED:
      if (report->discard_refused_after > 0)
        {
          g_autofree char *size = g_format_size (report->discard_refused_after);

          /* Translators: "…after 16.8 MB"; the format went on */
          return g_strdup_printf (_("Not erased: the reader refused the discard after %s, so the card was not erased first."),
                                  size);
        }
      return g_strdup (_("The card or its reader does not take a discard, so it was not erased first."));
    default:
      g_return_val_if_reached (NULL);
    }
}

JsonNode *
cm_format_report_to_json (const CmFormatReport *report)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (report != NULL, NULL);

  json_builder_begin_object (builder);
  cm_json_add_string (builder, "file_system", cm_format_fs_to_string (report->layout.fs));
  cm_json_add_int (builder, "partition_start", report->layout.start);
  cm_json_add_int (builder, "partition_bytes", report->layout.length);
  cm_json_add_int (builder, "cluster_bytes", report->layout.cluster);
  cm_json_add_int (builder, "boundary_bytes", report->layout.boundary);
  cm_json_add_int (builder, "device_bytes", report->device_bytes);
  cm_json_add_int (builder, "used_bytes", report->used_bytes);
  if (report->size_proof != NULL)
    cm_json_add_string (builder, "real_size_proof", report->size_proof);
  json_builder_set_member_name (builder, "label");
  if (report->label != NULL)
    json_builder_add_string_value (builder, report->label);
  else
    json_builder_add_null_value (builder);
  cm_json_add_string (builder, "partition", report->partition);
  cm_json_add_boolean (builder, "partition_window", report->window);
  cm_json_add_int (builder, "data_start", report->data_start);
  cm_json_add_string (builder, "discard", cm_format_discard_to_string (report->discard));
  cm_json_add_double (builder, "discard_seconds", report->discard_seconds);
  cm_json_add_int (builder, "discard_samples", report->discard_samples);
  if (report->discard == CM_FORMAT_DISCARD_NOT_SUPPORTED)
    cm_json_add_int (builder, "discard_refused_after_bytes", report->discard_refused_after);
  cm_json_add_string (builder, "made_by", report->through_image ? "image" : report->through_udisks ? "udisks" : "mkfs");
  /* Through an image: the bytes copied onto the card and read back. */
  if (report->through_image)
    cm_json_add_int (builder, "copied_bytes", report->copied_bytes);
  /* Made by mkfs with CardMark's arguments, it is what was asked for. */
  if (report->through_udisks)
    {
      cm_json_add_string (builder, "asked_file_system", cm_format_fs_to_string (report->asked_fs));
      cm_json_add_int (builder, "asked_cluster_bytes", report->asked_cluster);
    }
  cm_json_add_boolean (builder, "fsck_ran", report->fsck_ran);
  cm_json_add_boolean (builder, "fsck_clean", report->fsck_clean);
  cm_json_add_string (builder, "fsck_output", report->fsck_output != NULL ? report->fsck_output : "");
  cm_json_add_double (builder, "seconds", report->seconds);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static gboolean
get_int (JsonObject *o,
         const char *member,
         guint64    *value)
{
  JsonNode *node = json_object_get_member (o, member);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_INT64 || json_node_get_int (node) < 0)
    return FALSE;
  *value = json_node_get_int (node);
  return TRUE;
}

static const char *
get_string (JsonObject *o,
            const char *member)
{
  JsonNode *node = json_object_get_member (o, member);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* The document's "format" member, every member checked. */
CmFormatReport *
cm_format_report_from_json (JsonNode  *node,
                            GError   **error)
{
  g_autoptr(CmFormatReport) report = g_new0 (CmFormatReport, 1);
  JsonObject *o;
  guint64 cluster = 0, samples = 0;
  JsonNode *label, *clean;
  const char *text;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    goto invalid;
  o = json_node_get_object (node);
  if (!cm_format_fs_from_string (get_string (o, "file_system"), &report->layout.fs) ||
      !get_int (o, "partition_start", &report->layout.start) ||
      !get_int (o, "partition_bytes", &report->layout.length) ||
      !get_int (o, "cluster_bytes", &cluster) || cluster == 0 || cluster > G_MAXUINT32 ||
      !get_int (o, "boundary_bytes", &report->layout.boundary) ||
      !get_int (o, "device_bytes", &report->device_bytes) ||
      !get_int (o, "used_bytes", &report->used_bytes) ||
      !discard_from_string (get_string (o, "discard"), &report->discard) ||
      !get_int (o, "discard_samples", &samples) || samples > G_MAXUINT)
    goto invalid;
  report->layout.cluster = cluster;
  report->discard_samples = samples;
  report->discard_seconds = json_object_get_double_member_with_default (o, "discard_seconds", 0);
  if (json_object_has_member (o, "discard_refused_after_bytes") &&
      !get_int (o, "discard_refused_after_bytes", &report->discard_refused_after))
    goto invalid;
  report->seconds = json_object_get_double_member_with_default (o, "seconds", 0);
  clean = json_object_get_member (o, "fsck_clean");
  if (clean == NULL || json_node_get_value_type (clean) != G_TYPE_BOOLEAN)
    goto invalid;
  report->fsck_clean = json_node_get_boolean (clean);
  /* Documents from before the UDisks route: made by mkfs as the
   * specification asks, and checked. */
  report->fsck_ran = json_object_get_boolean_member_with_default (o, "fsck_ran", TRUE);
  report->fsck_clean = report->fsck_clean && report->fsck_ran;
  report->through_udisks = g_strcmp0 (get_string (o, "made_by"), "udisks") == 0;
  report->through_image = g_strcmp0 (get_string (o, "made_by"), "image") == 0;
  if (json_object_has_member (o, "copied_bytes") && !get_int (o, "copied_bytes", &report->copied_bytes))
    goto invalid;
  report->asked_fs = report->layout.fs;
  report->asked_cluster = report->layout.cluster;
  if (json_object_has_member (o, "asked_file_system") &&
      !cm_format_fs_from_string (get_string (o, "asked_file_system"), &report->asked_fs))
    goto invalid;
  if (json_object_has_member (o, "asked_cluster_bytes"))
    {
      guint64 asked = 0;

      if (!get_int (o, "asked_cluster_bytes", &asked) || asked == 0 || asked > G_MAXUINT32)
        goto invalid;
      report->asked_cluster = asked;
    }
  report->window = json_object_get_boolean_member_with_default (o, "partition_window", FALSE);
  if (json_object_has_member (o, "data_start") && !get_int (o, "data_start", &report->data_start))
    goto invalid;
  label = json_object_get_member (o, "label");
  if (label != NULL && json_node_get_value_type (label) == G_TYPE_STRING)
    report->label = cm_format_clean_output (json_node_get_string (label));
  if ((text = get_string (o, "partition")) != NULL)
    report->partition = cm_format_clean_output (text);
  if ((text = get_string (o, "real_size_proof")) != NULL)
    {
      if (!g_str_equal (text, "cid") && !g_str_equal (text, "never-left-reader"))
        goto invalid;
      report->size_proof = g_strdup (text);
    }
  if ((text = get_string (o, "fsck_output")) != NULL)
    report->fsck_output = cm_format_clean_output (text);
  return g_steal_pointer (&report);

invalid:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("The document's “format” member is damaged; it cannot be read."));
  return NULL;
}
