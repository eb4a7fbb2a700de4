/* test-card-use.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Is this card in use", on sysfs trees and mount tables made here: this
 * machine's kernel has no device-mapper, so a volume stacked on a card's
 * partition exists only in the tree the test builds.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cm-card-use.h"
#include "cm-target.h"
#include "cm-verify.h"

#define SWAPS_HEADER "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"

typedef struct
{
  char *root;    /* the temp folder */
  char *sysfs;   /* root/sys */
  char *device;  /* root/dev/sdcm, a block device node when we may make one */
  gboolean have_node;
} Fixture;

static void
write_file (const char *path,
            const char *contents)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static void
add_block (Fixture    *f,
           const char *rel,
           const char *dev,
           gboolean    partition)
{
  g_autofree char *dev_file = g_build_filename (f->sysfs, "class", "block", rel, "dev", NULL);

  write_file (dev_file, dev);
  if (partition)
    {
      g_autofree char *marker = g_build_filename (f->sysfs, "class", "block", rel, "partition", NULL);

      write_file (marker, "1\n");
    }
}

/* A card sdcm (8:224) with partitions sdcm1 (8:225) and sdcm2 (8:226);
 * sdcm1 holds dm-0 (253:0), a mapped volume, as LUKS or LVM make them. */
static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *holders = NULL;
  g_autofree char *link = NULL;
  g_autofree char *dev_dir = NULL;

  f->root = g_dir_make_tmp ("cardmark-card-use-XXXXXX", &error);
  g_assert_no_error (error);
  f->sysfs = g_build_filename (f->root, "sys", NULL);

  add_block (f, "sdcm", "8:224\n", FALSE);
  add_block (f, "sdcm/sdcm1", "8:225\n", TRUE);
  add_block (f, "sdcm/sdcm2", "8:226\n", TRUE);
  add_block (f, "dm-0", "253:0\n", FALSE);

  holders = g_build_filename (f->sysfs, "class", "block", "sdcm", "sdcm1", "holders", NULL);
  g_assert_cmpint (g_mkdir_with_parents (holders, 0755), ==, 0);
  link = g_build_filename (holders, "dm-0", NULL);
  g_assert_cmpint (symlink ("../../../dm-0", link), ==, 0);

  /* The callers stat the device and want a block device; making one
   * needs root and a filesystem that allows it, and it is never opened. */
  dev_dir = g_build_filename (f->root, "dev", NULL);
  g_assert_cmpint (g_mkdir (dev_dir, 0755), ==, 0);
  f->device = g_build_filename (dev_dir, "sdcm", NULL);
  f->have_node = mknod (f->device, S_IFBLK | 0600, makedev (8, 224)) == 0;
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", f->root);

  cm_card_use_set_roots_for_testing (NULL, NULL, NULL);
  g_assert_cmpint (system (command), ==, 0);
  g_free (f->root);
  g_free (f->sysfs);
  g_free (f->device);
}

/* Points cm_card_use_new() and every caller at the made tree. */
static void
use_tables (Fixture    *f,
            const char *mountinfo,
            const char *swaps)
{
  g_autofree char *mountinfo_path = g_build_filename (f->root, "mountinfo", NULL);
  g_autofree char *swaps_path = g_build_filename (f->root, "swaps", NULL);

  write_file (mountinfo_path, mountinfo);
  write_file (swaps_path, swaps);
  cm_card_use_set_roots_for_testing (f->sysfs, mountinfo_path, swaps_path);
}

static void
verify_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GError **error = user_data;
  g_autoptr(CmResult) verified = cm_verify_run_finish (CM_VERIFY (object), result, error);

  g_assert_null (verified);
  g_assert_nonnull (*error);
}

/* Raw write, capacity check and destructive verify all refuse. */
static void
assert_all_refuse (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CmTarget) target = NULL;
  g_autoptr(CmVerify) verify = NULL;

  g_assert_false (cm_card_check_not_in_use (f->device, CM_CARD_USE_CAPACITY_CHECK, &error));
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_MOUNTED);
  g_clear_error (&error);

  if (!f->have_node)
    {
      g_test_skip ("cannot make a block device node here (needs root, and a filesystem without nodev)");
      return;
    }

  target = cm_target_new_for_path (f->device, TRUE, &error);
  g_assert_null (target);
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_MOUNTED);
  g_clear_error (&error);

  verify = cm_verify_new (f->device, CM_VERIFY_FLAGS_DESTROY_DATA);
  cm_verify_run_async (verify, NULL, verify_done_cb, &error);
  while (error == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_REFUSED);
}

static void
test_mapped_volume (Fixture       *f,
                    gconstpointer  data)
{
  const char *mountinfo =
    "26 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n"
    "40 26 253:0 / /media/pi/secret rw,relatime - ext4 /dev/mapper/secret rw\n";
  g_autoptr(CmCardUse) use = cm_card_use_new_at (f->device, f->sysfs, mountinfo, SWAPS_HEADER);
  const char * const *points = cm_card_use_get_mount_points (use);
  g_autofree char *why = NULL;

  g_assert_true (cm_card_use_get_in_use (use));
  g_assert_false (cm_card_use_get_system (use));
  g_assert_cmpuint (g_strv_length ((GStrv) points), ==, 1);
  g_assert_cmpstr (points[0], ==, "/media/pi/secret");
  /* The sentence names the partition, the volume on it and where it is. */
  g_assert_nonnull (strstr (cm_card_use_get_why (use), "/dev/sdcm1"));
  g_assert_nonnull (strstr (cm_card_use_get_why (use), "/dev/dm-0"));
  g_assert_nonnull (strstr (cm_card_use_get_why (use), "/media/pi/secret"));

  g_assert_true (cm_card_in_use (f->device, f->sysfs, mountinfo, SWAPS_HEADER, &why));
  g_assert_cmpstr (why, ==, cm_card_use_get_why (use));

  use_tables (f, mountinfo, SWAPS_HEADER);
  assert_all_refuse (f);
}

static void
test_not_in_use (Fixture       *f,
                 gconstpointer  data)
{
  /* Another disk is mounted, and one with the card's partition's
   * number under another major. */
  const char *mountinfo =
    "26 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n"
    "41 26 179:225 / /media/x rw - vfat /dev/nonexistent rw\n";
  g_autoptr(CmCardUse) use = cm_card_use_new_at (f->device, f->sysfs, mountinfo, SWAPS_HEADER "/dev/sda2 partition 1024 0 -2\n");
  g_autoptr(GError) error = NULL;
  g_autofree char *why = NULL;

  g_assert_false (cm_card_use_get_in_use (use));
  g_assert_false (cm_card_use_get_system (use));
  g_assert_null (cm_card_use_get_mount_points (use)[0]);
  g_assert_null (cm_card_use_get_why (use));
  g_assert_false (cm_card_in_use (f->device, f->sysfs, mountinfo, NULL, &why));
  g_assert_null (why);

  use_tables (f, mountinfo, SWAPS_HEADER);
  g_assert_true (cm_card_check_not_in_use (f->device, CM_CARD_USE_RAW_WRITE, &error));
  g_assert_no_error (error);
}

static void
test_swap (Fixture       *f,
           gconstpointer  data)
{
  const char *swaps = SWAPS_HEADER "/dev/sdcm2                              partition\t1048572\t\t0\t\t-2\n";
  g_autoptr(CmCardUse) use = cm_card_use_new_at (f->device, f->sysfs, "", swaps);

  g_assert_true (cm_card_use_get_in_use (use));
  g_assert_true (cm_card_use_get_system (use));
  g_assert_null (cm_card_use_get_mount_points (use)[0]);
  g_assert_nonnull (strstr (cm_card_use_get_why (use), "/dev/sdcm2"));

  use_tables (f, "", swaps);
  assert_all_refuse (f);
}

static void
test_system_root (Fixture       *f,
                  gconstpointer  data)
{
  /* The card's first mount is an ordinary one; the system sentence
   * still wins the why. */
  const char *mountinfo =
    "27 1 8:226 / /media/pi/my\\040card rw,relatime - vfat /dev/sdcm2 rw\n"
    "26 1 8:225 / / rw,relatime - ext4 /dev/sdcm1 rw\n"
    "28 26 8:226 / /media/pi/my\\040card rw,relatime shared:1 - vfat /dev/sdcm2 rw\n";
  g_autoptr(CmCardUse) use = cm_card_use_new_at (f->device, f->sysfs, mountinfo, NULL);
  const char * const *points = cm_card_use_get_mount_points (use);

  g_assert_true (cm_card_use_get_in_use (use));
  g_assert_true (cm_card_use_get_system (use));
  g_assert_cmpuint (g_strv_length ((GStrv) points), ==, 2);
  g_assert_cmpstr (points[0], ==, "/media/pi/my card");
  g_assert_cmpstr (points[1], ==, "/");
  g_assert_nonnull (strstr (cm_card_use_get_why (use), "/dev/sdcm1 is mounted at /."));

  use_tables (f, mountinfo, SWAPS_HEADER);
  assert_all_refuse (f);
}

/* A partition asked for by itself is found, and a card named by its
 * number when its node has another name. */
static void
test_partition_alone (Fixture       *f,
                      gconstpointer  data)
{
  const char *mountinfo = "40 26 253:0 / /srv rw - ext4 /dev/mapper/x rw\n";
  g_autofree char *partition = g_build_filename (f->sysfs, "class", "block", "sdcm", "sdcm1", NULL);
  g_autofree char *link = g_build_filename (f->sysfs, "class", "block", "sdcm1", NULL);
  g_autoptr(CmCardUse) use = NULL;

  g_assert_cmpint (symlink (partition, link), ==, 0);
  use = cm_card_use_new_at ("/dev/sdcm1", f->sysfs, mountinfo, NULL);
  g_assert_true (cm_card_use_get_in_use (use));
  g_clear_pointer (&use, cm_card_use_free);

  use = cm_card_use_new_at ("/dev/sdcm2", f->sysfs, mountinfo, NULL);
  g_assert_false (cm_card_use_get_in_use (use));
}

/* The one rule for whole cards: a partition is none, and neither is a
 * volume stacked on a disk something on it is mounted from. */
static void
test_whole_card (Fixture       *f,
                 gconstpointer  data)
{
  const char *mountinfo = "27 1 8:226 / /boot rw,relatime - vfat /dev/sdcm2 rw\n";
  g_autofree char *partition = g_build_filename (f->sysfs, "class", "block", "sdcm", "sdcm1", NULL);
  g_autofree char *link = g_build_filename (f->sysfs, "class", "block", "sdcm1", NULL);
  g_autofree char *slaves = g_build_filename (f->sysfs, "class", "block", "dm-0", "slaves", NULL);
  g_autofree char *slave = g_build_filename (slaves, "sdcm1", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (symlink (partition, link), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (slaves, 0755), ==, 0);
  g_assert_cmpint (symlink ("../../sdcm/sdcm1", slave), ==, 0);

  use_tables (f, "", SWAPS_HEADER);
  g_assert_false (cm_card_check_whole_card ("/dev/sdcm1", CM_CARD_USE_FORMAT, &error));
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_WHOLE);
  g_assert_nonnull (strstr (error->message, "partition of /dev/sdcm"));
  g_clear_error (&error);
  g_assert_true (cm_card_check_whole_card ("/dev/dm-0", CM_CARD_USE_FORMAT, &error));
  g_assert_no_error (error);

  use_tables (f, mountinfo, SWAPS_HEADER);
  g_assert_false (cm_card_check_whole_card ("/dev/dm-0", CM_CARD_USE_WEAR_TEST, &error));
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_WHOLE);
  g_assert_nonnull (strstr (error->message, "/dev/dm-0 is on /dev/sdcm,"));
  g_assert_nonnull (strstr (error->message, "/boot"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/cardmark/card-use/mapped-volume", Fixture, NULL, fixture_set_up, test_mapped_volume, fixture_tear_down);
  g_test_add ("/cardmark/card-use/not-in-use", Fixture, NULL, fixture_set_up, test_not_in_use, fixture_tear_down);
  g_test_add ("/cardmark/card-use/swap", Fixture, NULL, fixture_set_up, test_swap, fixture_tear_down);
  g_test_add ("/cardmark/card-use/system-root", Fixture, NULL, fixture_set_up, test_system_root, fixture_tear_down);
  g_test_add ("/cardmark/card-use/partition-alone", Fixture, NULL, fixture_set_up, test_partition_alone, fixture_tear_down);
  g_test_add ("/cardmark/card-use/whole-card", Fixture, NULL, fixture_set_up, test_whole_card, fixture_tear_down);

  return g_test_run ();
}
