/* cardmark-read-health.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one thing CardMark does as root for a user who is not: ask a card
 * in a built-in slot how worn it is. The kernel lets only CAP_SYS_RAWIO
 * send CMD56 (MMC_IOC_CMD) and UDisks passes no such command on, so the
 * core runs this helper through pkexec (src/core/cm-health-helper.c),
 * and polkit's action io.github.cardmark.CardMark.read-health asks for
 * the administrator's password (data/polkit/).
 *
 * It takes one argument, the whole device of a card, /dev/mmcblkN: no
 * partition, no other device, no link, no file. It sends only the
 * CMD56 reads of the layouts CardMark decodes, and the two-step
 * layout's argument write (a block sent to the command, not to the
 * card's data), with the core's own transport (cm-health-transport.c),
 * and stops at the first reply in a known layout. On stdout it prints
 * each reply it read, one line each: the argument as 8 hex digits, a
 * space, the 512 bytes as 1024 hex digits; nothing else. The user's
 * side decodes them. Status 0 when it asked, 1 when the card could not
 * be asked, 2 when the argument is refused.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cm-health-helper.h"
#include "cm-health-transport.h"
#include "cm-test-hooks.h"

#define STATUS_CARD_FAILED 1
#define STATUS_REFUSED 2

/* Each command waits CM_HEALTH_COMMAND_TIMEOUT_MS at most; the whole
 * helper no longer than this, whatever the card does. */
#define HELPER_ALARM_S 60

/* The folder of devices: /dev, or in a build with test hooks the one
 * the tests plant their links and files in. */
static const char *
device_folder (void)
{
  const char *hook = cm_test_hook ("CARDMARK_TEST_HELPER_DEV_DIR");

  return hook != NULL ? hook : "/dev";
}

/* mmcblk and a number: the whole device of a card, never a partition
 * (mmcblk0p1), a boot area (mmcblk0boot0) or a replay block (mmcblk0rpmb). */
static gboolean
is_card_name (const char *name)
{
  gsize digits = 0;

  if (!g_str_has_prefix (name, "mmcblk"))
    return FALSE;
  for (const char *p = name + strlen ("mmcblk"); *p != '\0'; p++, digits++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return digits > 0 && digits <= 4;
}

/* Says why @path is refused: its name (escaped, it came from outside),
 * then the reason, a sentence that follows it. */
static void
refuse (const char *path,
        const char *why)
{
  g_autofree char *clean = g_strescape (path, NULL);

  fprintf (stderr, "%s %s\n", clean, why);
}

/* A partition has a `partition` attribute in sysfs; a whole device none. */
static gboolean
is_partition (dev_t rdev)
{
  g_autofree char *attr = g_strdup_printf ("/sys/dev/block/%u:%u/partition", major (rdev), minor (rdev));

  return g_file_test (attr, G_FILE_TEST_EXISTS);
}

/* The card's device sits on an MMC bus: its block device's `device`
 * in sysfs is of the mmc subsystem. */
static gboolean
is_on_mmc_bus (dev_t rdev)
{
  g_autofree char *link = g_strdup_printf ("/sys/dev/block/%u:%u/device/subsystem", major (rdev), minor (rdev));
  g_autofree char *target = g_file_read_link (link, NULL);
  g_autofree char *name = target != NULL ? g_path_get_basename (target) : NULL;

  return g_strcmp0 (name, "mmc") == 0;
}

/* Opens @path when it is the whole device of a card in @folder, itself
 * and not a link to it; -1 (and a message on stderr) when not. */
static int
open_card (const char *path,
           int        *status)
{
  const char *folder = device_folder ();
  g_autofree char *prefix = g_strconcat (folder, "/", NULL);
  const char *name;
  struct stat st;
  int dir, fd, saved;

  *status = STATUS_REFUSED;
  name = g_str_has_prefix (path, prefix) ? path + strlen (prefix) : NULL;
  if (name == NULL || !is_card_name (name))
    {
      refuse (path, _("is not a card in a built-in slot (/dev/mmcblkN)."));
      return -1;
    }
  /* The folder and the name, each opened without following a link, so
   * no link planted on the way leads elsewhere. */
  if ((dir = open (folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
    {
      refuse (path, _("is not in a folder of devices."));
      return -1;
    }
  fd = openat (dir, name, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  saved = errno;
  close (dir);
  if (fd < 0)
    {
      if (saved == ELOOP)
        refuse (path, _("is a link, not the card's device."));
      else if (saved == ENOENT || saved == ENXIO || saved == ENODEV)
        refuse (path, _("is not there: is the card in its slot?"));
      else
        {
          *status = STATUS_CARD_FAILED;
          fprintf (stderr, _("The card could not be opened: %s\n"), g_strerror (saved));
        }
      return -1;
    }
  if (fstat (fd, &st) != 0 || !S_ISBLK (st.st_mode))
    {
      refuse (path, _("is not a block device."));
      close (fd);
      return -1;
    }
  if (is_partition (st.st_rdev))
    {
      refuse (path, _("is a partition: give the whole card (/dev/mmcblkN)."));
      close (fd);
      return -1;
    }
  if (!is_on_mmc_bus (st.st_rdev))
    {
      refuse (path, _("is not a card in a built-in slot: its device is not on an MMC bus."));
      close (fd);
      return -1;
    }
  return fd;
}

/* Asks the card, and prints each reply it read. */
static gboolean
ask_and_print (gpointer   data,
               guint32    argument,
               gboolean   write,
               guint8    *reply,
               GError   **error)
{
  g_autofree char *line = NULL;

  if (!cm_health_ask_card (GPOINTER_TO_INT (data), argument, write, reply, error))
    return FALSE;
  if (write)
    return TRUE;
  line = cm_health_helper_format (argument, reply);
  fputs (line, stdout);
  fflush (stdout);
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  CmHealth health;
  int fd, status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  alarm (HELPER_ALARM_S);

  if (argc != 2)
    {
      fprintf (stderr, _("Usage: %s /dev/mmcblkN\n"), CM_HEALTH_HELPER_NAME);
      return STATUS_REFUSED;
    }
  if ((fd = open_card (argv[1], &status)) < 0)
    return status;
  cm_health_read_with (ask_and_print, GINT_TO_POINTER (fd), &health, &error);
  close (fd);
  if (error != NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return STATUS_CARD_FAILED;
    }
  return 0;
}
