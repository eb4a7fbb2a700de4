/* test-device-monitor.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The device layer against a real udisksd: loop devices over temporary
 * files stand in for cards. Needs root; tests/env/services-up starts the
 * system bus, udev and udisksd when they are not running.
 */

#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cm-device-monitor.h"
#include "cm-device-private.h"

/* Waits are on conditions: this only turns a hang (an event UDisks never
 * sends) into a failure that says which wait it was, well inside meson's
 * timeout. It is no bound on how quickly UDisks answers: a busy machine
 * may take seconds, and how long each wait took is printed. */
#define EVENT_TIMEOUT_US (60 * G_USEC_PER_SEC)
/* Whether the kernel reads a loop device's partition table at all; a
 * kernel that does so answers within this on any machine, else the test
 * is skipped, not failed. */
#define PARTSCAN_TIMEOUT_US (10 * G_USEC_PER_SEC)

static char *services_skip_reason;

typedef struct
{
  char *dir;
  char *image;
  char *loop;
  char *mount_dir;
} Fixture;

static char *
run (const char *command_line,
     GError    **error)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  if (!g_spawn_command_line_sync (command_line, &out, &err, &status, error))
    return NULL;
  if (!g_spawn_check_wait_status (status, error))
    {
      g_prefix_error (error, "%s: %s", command_line, err);
      return NULL;
    }

  return g_strdup (g_strstrip (out));
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("cardmark-device-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->image = g_build_filename (fixture->dir, "card.img", NULL);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->mount_dir != NULL)
    {
      g_autofree char *cmd = g_strdup_printf ("umount %s", fixture->mount_dir);

      g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL);
      g_rmdir (fixture->mount_dir);
    }
  if (fixture->loop != NULL)
    {
      g_autofree char *swapoff = g_strdup_printf ("swapoff %s", fixture->loop);
      g_autofree char *detach = g_strdup_printf ("losetup -d %s", fixture->loop);

      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      /* Quietly: most loops were never swapped on, some already detached. */
      g_spawn_command_line_sync (swapoff, &out, &err, NULL, NULL);
      g_spawn_command_line_sync (detach, NULL, NULL, NULL, NULL);
    }
  g_unlink (fixture->image);
  g_rmdir (fixture->dir);
  g_free (fixture->loop);
  g_free (fixture->mount_dir);
  g_free (fixture->image);
  g_free (fixture->dir);
}

/* Random content, so that a read of the wrong place cannot pass. */
static void
make_image (Fixture *fixture,
            gsize    size)
{
  g_autofree guint8 *data = g_malloc (size);
  g_autoptr(GError) error = NULL;

  for (gsize i = 0; i < size; i += 4)
    *(guint32 *) (data + i) = g_random_int ();

  g_file_set_contents (fixture->image, (const char *) data, size, &error);
  g_assert_no_error (error);
}

static void
attach (Fixture    *fixture,
        const char *losetup_flags)
{
  g_autofree char *cmd = g_strdup_printf ("losetup -f --show %s %s", losetup_flags, fixture->image);
  g_autoptr(GError) error = NULL;

  fixture->loop = run (cmd, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (fixture->loop, "/dev/loop"));
}

static void
detach (Fixture *fixture)
{
  g_autofree char *cmd = g_strdup_printf ("losetup -d %s", fixture->loop);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = run (cmd, &error);

  g_assert_no_error (error);
  g_clear_pointer (&fixture->loop, g_free);
}

static CmDevice *
find (CmDeviceMonitor *monitor,
      const char      *device_path)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (monitor));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmDevice) device = g_list_model_get_item (G_LIST_MODEL (monitor), i);

      if (g_strcmp0 (cm_device_get_device (device), device_path) == 0)
        return g_steal_pointer (&device);
    }

  return NULL;
}

static void
count_cb (GListModel *model,
          guint       position,
          guint       removed,
          guint       added,
          guint      *count)
{
  (*count)++;
}

/* Runs the main context until the device is listed (or not), or the
 * deadline passes; returns the microseconds it took, or -1. */
static gint64
wait_for_presence (CmDeviceMonitor *monitor,
                   const char      *device_path,
                   gboolean         present)
{
  gint64 start = g_get_monotonic_time ();

  for (;;)
    {
      g_autoptr(CmDevice) device = find (monitor, device_path);
      gint64 elapsed = g_get_monotonic_time () - start;

      if ((device != NULL) == present)
        return elapsed;
      if (elapsed > EVENT_TIMEOUT_US)
        return -1;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static gboolean
wait_for_property (CmDevice   *device,
                   gboolean  (*getter) (CmDevice *),
                   gboolean    expected)
{
  gint64 deadline = g_get_monotonic_time () + EVENT_TIMEOUT_US;

  while (getter (device) != expected)
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }

  return TRUE;
}

static CmDeviceMonitor *
new_monitor (gboolean show_loop)
{
  g_autoptr(GError) error = NULL;
  CmDeviceMonitor *monitor = cm_device_monitor_new (&error);

  g_assert_no_error (error);
  g_assert_nonnull (monitor);
  cm_device_monitor_set_show_loop (monitor, show_loop);

  return monitor;
}

static gboolean
skip_without_services (void)
{
  if (services_skip_reason == NULL)
    return FALSE;

  g_test_skip (services_skip_reason);
  return TRUE;
}

static void
test_added_removed (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(CmDeviceMonitor) monitor = NULL;
  g_autoptr(CmDevice) device = NULL;
  struct stat st;
  guint changes = 0;
  gint64 took;
  gint64 deadline;

  if (skip_without_services ())
    return;

  make_image (fixture, 8 * 1024 * 1024);
  g_assert_cmpint (g_stat (fixture->image, &st), ==, 0);

  monitor = new_monitor (TRUE);
  g_signal_connect (monitor, "items-changed", G_CALLBACK (count_cb), &changes);

  attach (fixture, "");
  took = wait_for_presence (monitor, fixture->loop, TRUE);
  g_test_message ("%s listed after %" G_GINT64_FORMAT " µs", fixture->loop, took);
  g_assert_cmpint (took, >=, 0);
  g_assert_cmpuint (changes, >, 0);

  device = find (monitor, fixture->loop);
  g_assert_cmpuint (cm_device_get_size (device), ==, (guint64) st.st_size);
  g_assert_false (cm_device_get_read_only (device));
  g_assert_true (cm_device_get_has_media (device));
  g_assert_false (cm_device_get_mounted (device));
  g_assert_false (cm_device_get_system (device));
  g_assert_cmpint (cm_device_get_reader_kind (device), ==, CM_READER_LOOP);
  g_assert_cmpstr (cm_reader_kind_to_string (cm_device_get_reader_kind (device)), ==, "loop");
  g_assert_null (cm_device_get_sysfs_device_dir (device));

  /* The loop's backing file may be announced a moment after its size. */
  deadline = g_get_monotonic_time () + EVENT_TIMEOUT_US;
  while (strstr (cm_device_get_name (device), "card.img") == NULL && g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_nonnull (strstr (cm_device_get_name (device), "card.img"));

  changes = 0;
  detach (fixture);
  took = wait_for_presence (monitor, cm_device_get_device (device), FALSE);
  g_test_message ("removed after %" G_GINT64_FORMAT " µs", took);
  g_assert_cmpint (took, >=, 0);
  g_assert_cmpuint (changes, >, 0);
}

static void
test_read_only (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(CmDeviceMonitor) monitor = NULL;
  g_autoptr(CmDevice) device = NULL;

  if (skip_without_services ())
    return;

  make_image (fixture, 4 * 1024 * 1024);
  monitor = new_monitor (TRUE);
  attach (fixture, "-r");
  g_assert_cmpint (wait_for_presence (monitor, fixture->loop, TRUE), >=, 0);

  device = find (monitor, fixture->loop);
  g_assert_true (cm_device_get_read_only (device));
}

static void
test_hidden_loop (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(CmDeviceMonitor) hidden = NULL;
  g_autoptr(CmDeviceMonitor) shown = NULL;
  g_autoptr(CmDevice) found = NULL;
  g_autoptr(CmDevice) listed = NULL;

  if (skip_without_services ())
    return;

  make_image (fixture, 4 * 1024 * 1024);
  hidden = new_monitor (FALSE);
  shown = new_monitor (TRUE);
  attach (fixture, "");

  /* Once the other monitor lists it, this one has had its chance. */
  g_assert_cmpint (wait_for_presence (shown, fixture->loop, TRUE), >=, 0);
  g_assert_null (find (hidden, fixture->loop));

  /* Hidden is not unknown. */
  found = cm_device_monitor_lookup (hidden, fixture->loop);
  g_assert_nonnull (found);
  g_assert_cmpstr (cm_device_get_device (found), ==, fixture->loop);

  cm_device_monitor_set_show_loop (hidden, TRUE);
  listed = find (hidden, fixture->loop);
  g_assert_nonnull (listed);
}

static void
test_lookup (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(CmDeviceMonitor) monitor = NULL;
  g_autoptr(CmDevice) whole = NULL;
  g_autoptr(CmDevice) from_partition = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cmd = NULL;
  g_autofree char *out = NULL;
  g_autofree char *partition = NULL;
  gint64 deadline;

  if (skip_without_services ())
    return;

  make_image (fixture, 16 * 1024 * 1024);
  cmd = g_strdup_printf ("sh -c 'echo \"start=2048, type=83\" | sfdisk -q %s'", fixture->image);
  out = run (cmd, &error);
  g_assert_no_error (error);

  monitor = new_monitor (TRUE);
  attach (fixture, "-P");
  partition = g_strconcat (fixture->loop, "p1", NULL);
  g_assert_cmpint (wait_for_presence (monitor, fixture->loop, TRUE), >=, 0);

  whole = cm_device_monitor_lookup (monitor, fixture->loop);
  g_assert_nonnull (whole);

  deadline = g_get_monotonic_time () + PARTSCAN_TIMEOUT_US;
  while (!g_file_test (partition, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    g_usleep (10000);
  if (!g_file_test (partition, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("this kernel does not read partition tables on loop devices");
      return;
    }

  /* The partition shows up in UDisks a moment after the disk. */
  deadline = g_get_monotonic_time () + EVENT_TIMEOUT_US;
  while ((from_partition = cm_device_monitor_lookup (monitor, partition)) == NULL &&
         g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_nonnull (from_partition);
  g_assert_cmpstr (cm_device_get_device (from_partition), ==, fixture->loop);
  g_assert_true (whole == from_partition);

  /* Partitions are never listed themselves. */
  g_assert_null (find (monitor, partition));

  g_assert_null (cm_device_monitor_lookup (monitor, "/dev/cardmark-no-such-device"));
}

static void
test_mounted (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(CmDeviceMonitor) monitor = NULL;
  g_autoptr(CmDevice) device = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *mkfs = NULL;
  g_autofree char *mount = NULL;
  g_autofree char *out = NULL;
  const char * const *points;

  if (skip_without_services ())
    return;

  make_image (fixture, 16 * 1024 * 1024);
  mkfs = g_strdup_printf ("mkfs.ext4 -q -F %s", fixture->image);
  out = run (mkfs, &error);
  g_assert_no_error (error);

  monitor = new_monitor (TRUE);
  attach (fixture, "");
  g_assert_cmpint (wait_for_presence (monitor, fixture->loop, TRUE), >=, 0);
  device = find (monitor, fixture->loop);
  g_assert_false (cm_device_get_mounted (device));

  fixture->mount_dir = g_build_filename (fixture->dir, "mnt", NULL);
  g_mkdir (fixture->mount_dir, 0700);
  mount = g_strdup_printf ("mount %s %s", fixture->loop, fixture->mount_dir);
  g_clear_pointer (&out, g_free);
  out = run (mount, &error);
  g_assert_no_error (error);

  g_assert_true (wait_for_property (device, cm_device_get_mounted, TRUE));
  points = cm_device_get_mount_points (device);
  g_assert_true (g_strv_contains (points, fixture->mount_dir));
  g_assert_false (cm_device_get_system (device));
}

static gboolean
wait_for_volume_label (CmDevice   *device,
                       const char *expected)
{
  gint64 deadline = g_get_monotonic_time () + EVENT_TIMEOUT_US;

  while (g_strcmp0 (cm_device_get_volume_label (device), expected) != 0)
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }

  return TRUE;
}

/* A file system on the whole card: its label is the card's. */
static void
test_volume_label (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(CmDeviceMonitor) monitor = NULL;
  g_autoptr(CmDevice) device = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *mkfs = NULL;
  g_autofree char *out = NULL;

  if (skip_without_services ())
    return;

  make_image (fixture, 16 * 1024 * 1024);
  mkfs = g_strdup_printf ("mkfs.ext4 -q -F -L CARD-A %s", fixture->image);
  out = run (mkfs, &error);
  g_assert_no_error (error);

  monitor = new_monitor (TRUE);
  attach (fixture, "");
  g_assert_cmpint (wait_for_presence (monitor, fixture->loop, TRUE), >=, 0);
  device = find (monitor, fixture->loop);
  g_assert_true (wait_for_volume_label (device, "CARD-A"));
}

/* A card as a Raspberry Pi image leaves it: two partitions, each with a
 * labelled file system, named in partition order. A card without any
 * label has none (not an empty string). */
static void
test_volume_label_partitions (Fixture       *fixture,
                              gconstpointer  data)
{
  /* MBR, 1 MiB in: 12 MiB, then the rest of 32 MiB (in 512-byte sectors). */
  const char *layout = "label: dos\nstart=2048, size=24576, type=83\nstart=26624, type=83\n";
  g_autoptr(CmDeviceMonitor) monitor = NULL;
  g_autoptr(CmDevice) device = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *commands = NULL;
  g_autofree char *old_loop = NULL;
  g_autofree char *partition = NULL;
  g_autofree char *out = NULL;
  gint64 deadline;

  if (skip_without_services ())
    return;

  make_image (fixture, 32 * 1024 * 1024);
  monitor = new_monitor (TRUE);
  attach (fixture, "");
  g_assert_cmpint (wait_for_presence (monitor, fixture->loop, TRUE), >=, 0);
  device = find (monitor, fixture->loop);
  g_assert_null (cm_device_get_volume_label (device));
  g_clear_object (&device);
  old_loop = g_strdup (fixture->loop);
  detach (fixture);
  g_assert_cmpint (wait_for_presence (monitor, old_loop, FALSE), >=, 0);

  commands = g_strdup_printf ("sh -c 'printf \"%s\" | sfdisk -q %s"
                              " && mkfs.ext4 -q -F -L BOOTFS -E offset=1048576 %s 12M"
                              " && mkfs.ext4 -q -F -L rootfs -E offset=13631488 %s 19M'",
                              layout, fixture->image, fixture->image, fixture->image);
  out = run (commands, &error);
  g_assert_no_error (error);

  attach (fixture, "-P");
  g_assert_cmpint (wait_for_presence (monitor, fixture->loop, TRUE), >=, 0);
  partition = g_strconcat (fixture->loop, "p2", NULL);
  deadline = g_get_monotonic_time () + PARTSCAN_TIMEOUT_US;
  while (!g_file_test (partition, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    g_usleep (10000);
  if (!g_file_test (partition, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("this kernel does not read partition tables on loop devices");
      return;
    }
  device = find (monitor, fixture->loop);
  g_assert_true (wait_for_volume_label (device, "BOOTFS, rootfs"));
}

static void
test_swap_is_system (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(CmDeviceMonitor) monitor = NULL;
  g_autoptr(CmDevice) device = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *mkswap = NULL;
  g_autofree char *swapon = NULL;
  g_autofree char *out = NULL;

  if (skip_without_services ())
    return;

  make_image (fixture, 16 * 1024 * 1024);
  mkswap = g_strdup_printf ("mkswap -q %s", fixture->image);
  out = run (mkswap, &error);
  g_assert_no_error (error);

  monitor = new_monitor (TRUE);
  attach (fixture, "");
  g_assert_cmpint (wait_for_presence (monitor, fixture->loop, TRUE), >=, 0);
  device = find (monitor, fixture->loop);
  g_assert_false (cm_device_get_system (device));

  swapon = g_strdup_printf ("swapon %s", fixture->loop);
  g_clear_pointer (&out, g_free);
  out = run (swapon, &error);
  if (error != NULL)
    {
      g_autofree char *reason = g_strdup_printf ("swapon is not allowed here: %s", error->message);

      g_test_skip (reason);
      return;
    }

  /* Swapping on is not an event UDisks reports; ask again. */
  cm_device_update (device);
  g_assert_true (cm_device_get_system (device));
}

static void
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

/* A sysfs tree as a USB card reader makes it: the block device under a
 * SCSI host under the USB interface under the USB device, whose speed
 * is what the reader negotiated. */
static void
test_usb_speed (void)
{
  const struct { const char *speed; guint mbps; } cases[] = {
    { "480\n", 480 }, { "5000\n", 5000 }, { "12\n", 12 }, { "10000\n", 10000 },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("cardmark-sysfs-XXXXXX", &error);
  g_autofree char *devices = g_build_filename (root, "devices", NULL);
  g_autofree char *hub = g_build_filename (devices, "pci0000:00", "usb2", NULL);
  g_autofree char *usb = g_build_filename (hub, "2-1", NULL);
  g_autofree char *block = g_build_filename (usb, "2-1:1.0", "host0", "target0:0:0", "0:0:0:0", "block", "sdb", NULL);
  g_autofree char *other = g_build_filename (devices, "virtual", "block", "loop0", NULL);
  g_autofree char *cleanup = g_strdup_printf ("rm -rf %s", root);
  guint mbps = 0;

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (block, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (other, 0700), ==, 0);
  /* The root hub has a speed too; the reader's own port is nearer. */
  write_file (hub, "busnum", "2\n");
  write_file (hub, "speed", "5000\n");
  write_file (usb, "busnum", "2\n");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      write_file (usb, "speed", cases[i].speed);
      g_assert_true (cm_device_find_usb_speed (block, devices, &mbps));
      g_assert_cmpuint (mbps, ==, cases[i].mbps);
    }

  g_assert_false (cm_device_find_usb_speed (other, devices, &mbps));

  g_spawn_command_line_sync (cleanup, NULL, NULL, NULL, NULL);
}

static void
test_errors (void)
{
  const struct { const char *name; int code; } cases[] = {
    { "org.freedesktop.UDisks2.Error.NotAuthorized", CM_DEVICE_ERROR_NOT_AUTHORIZED },
    { "org.freedesktop.UDisks2.Error.NotAuthorizedCanObtain", CM_DEVICE_ERROR_NOT_AUTHORIZED },
    { "org.freedesktop.UDisks2.Error.NotAuthorizedDismissed", CM_DEVICE_ERROR_NOT_AUTHORIZED },
    { "org.freedesktop.DBus.Error.UnknownObject", CM_DEVICE_ERROR_REMOVED },
    { "org.freedesktop.UDisks2.Error.DeviceBusy", CM_DEVICE_ERROR_BUSY },
    { "org.freedesktop.DBus.Error.ServiceUnknown", CM_DEVICE_ERROR_NO_SERVICE },
    { "org.freedesktop.UDisks2.Error.Failed", CM_DEVICE_ERROR_FAILED },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) remote = g_dbus_error_new_for_dbus_error (cases[i].name, "from udisksd");
      g_autoptr(GError) error = cm_device_error_from_dbus (remote);

      g_assert_error (error, CM_DEVICE_ERROR, cases[i].code);
      /* The D-Bus error name is for programs, not people. */
      g_assert_null (strstr (error->message, "org.freedesktop"));
    }

  {
    g_autoptr(GError) refused = g_dbus_error_new_for_dbus_error ("org.freedesktop.UDisks2.Error.NotAuthorizedCanObtain", "x");
    g_autoptr(GError) error = cm_device_error_from_dbus (refused);

    g_assert_cmpstr (error->message, ==, "Permission to open the card was refused.");
  }
}

typedef struct
{
  int     fd;
  GError *error;
  gboolean done;
} OpenResult;

static void
open_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  OpenResult *open_result = user_data;

  open_result->fd = cm_device_open_finish (CM_DEVICE (source), result, &open_result->error);
  open_result->done = TRUE;
}

static int
open_device (CmDevice *device,
             gboolean  writable,
             GError  **error)
{
  OpenResult result = { -1, NULL, FALSE };

  cm_device_open_async (device, writable, NULL, open_cb, &result);
  while (!result.done)
    g_main_context_iteration (NULL, TRUE);

  if (result.error != NULL)
    g_propagate_error (error, result.error);

  return result.fd;
}

static void
test_open (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(CmDeviceMonitor) monitor = NULL;
  g_autoptr(CmDevice) device = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  gsize length;
  guint8 *buffer;
  const gsize block = 4096;
  const off_t offset = 3 * 4096;
  int fd;
  int flags;

  if (skip_without_services ())
    return;

  make_image (fixture, 4 * 1024 * 1024);
  g_file_get_contents (fixture->image, &expected, &length, &error);
  g_assert_no_error (error);

  monitor = new_monitor (TRUE);
  attach (fixture, "");
  g_assert_cmpint (wait_for_presence (monitor, fixture->loop, TRUE), >=, 0);
  device = find (monitor, fixture->loop);

  fd = open_device (device, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fd, >=, 0);
  flags = fcntl (fd, F_GETFL);
  g_assert_true (flags & O_DIRECT);
  g_assert_cmpint (flags & O_ACCMODE, ==, O_RDONLY);

  /* O_DIRECT needs an aligned buffer. */
  buffer = g_aligned_alloc (1, block, block);
  g_assert_cmpint (pread (fd, buffer, block, offset), ==, (gssize) block);
  g_assert_cmpmem (buffer, block, expected + offset, block);
  close (fd);
  g_aligned_free (buffer);

  fd = open_device (device, TRUE, &error);
  g_assert_no_error (error);
  flags = fcntl (fd, F_GETFL);
  g_assert_true (flags & O_DIRECT);
  g_assert_cmpint (flags & O_ACCMODE, ==, O_RDWR);
  close (fd);

  /* A card pulled out: the device is gone and says so. */
  detach (fixture);
  g_assert_cmpint (wait_for_presence (monitor, cm_device_get_device (device), FALSE), >=, 0);
  fd = open_device (device, FALSE, &error);
  g_assert_cmpint (fd, ==, -1);
  g_assert_error (error, CM_DEVICE_ERROR, CM_DEVICE_ERROR_REMOVED);
}

static void
start_services (void)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "env", "services-up", NULL);
  const char *argv[] = { script, NULL };
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if (getuid () != 0)
    {
      services_skip_reason = g_strdup ("needs root to attach loop devices and start udisksd");
      return;
    }

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, &error))
    g_error ("could not run %s: %s", script, error->message);

  if (WIFEXITED (status) && WEXITSTATUS (status) == 77)
    services_skip_reason = g_strdup_printf ("services-up: %s", g_strstrip (err));
  else if (!g_spawn_check_wait_status (status, &error))
    g_error ("%s failed: %s", script, err);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  start_services ();

  g_test_add_func ("/cardmark/device-monitor/usb-speed", test_usb_speed);
  g_test_add_func ("/cardmark/device-monitor/errors", test_errors);
  g_test_add ("/cardmark/device-monitor/added-removed", Fixture, NULL, fixture_set_up, test_added_removed, fixture_tear_down);
  g_test_add ("/cardmark/device-monitor/read-only", Fixture, NULL, fixture_set_up, test_read_only, fixture_tear_down);
  g_test_add ("/cardmark/device-monitor/hidden-loop", Fixture, NULL, fixture_set_up, test_hidden_loop, fixture_tear_down);
  g_test_add ("/cardmark/device-monitor/lookup", Fixture, NULL, fixture_set_up, test_lookup, fixture_tear_down);
  g_test_add ("/cardmark/device-monitor/mounted", Fixture, NULL, fixture_set_up, test_mounted, fixture_tear_down);
  g_test_add ("/cardmark/device-monitor/volume-label", Fixture, NULL, fixture_set_up, test_volume_label, fixture_tear_down);
  g_test_add ("/cardmark/device-monitor/volume-label-partitions", Fixture, NULL, fixture_set_up, test_volume_label_partitions, fixture_tear_down);
  g_test_add ("/cardmark/device-monitor/swap-is-system", Fixture, NULL, fixture_set_up, test_swap_is_system, fixture_tear_down);
  g_test_add ("/cardmark/device-monitor/open", Fixture, NULL, fixture_set_up, test_open, fixture_tear_down);

  return g_test_run ();
}
