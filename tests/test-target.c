/* test-target.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/file.h>
#include <unistd.h>

#include "cm-target.h"

static guint
count_entries (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  guint n = 0;

  while (g_dir_read_name (dir) != NULL)
    n++;

  return n;
}

static void
test_missing (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CmTarget) target = cm_target_new_for_path ("/nonexistent/cardmark", FALSE, &error);

  g_assert_null (target);
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "/nonexistent/cardmark"));
}

static void
test_regular_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CmTarget) target = NULL;
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("cardmark-XXXXXX", &path, &error);

  g_assert_no_error (error);
  close (fd);

  target = cm_target_new_for_path (path, FALSE, &error);
  g_assert_null (target);
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED);
  g_unlink (path);
}

static void
test_folder_scratch (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-target-XXXXXX", &error);
  g_autofree char *keep = g_build_filename (dir, "photo.jpg", NULL);
  g_autoptr(CmTarget) target = NULL;
  g_autofree char *contents = NULL;

  g_assert_true (g_file_set_contents (keep, "precious", -1, &error));

  target = cm_target_new_for_path (dir, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cm_target_get_mode (target), ==, CM_METHOD_FILE);
  g_assert_true (cm_target_can_write (target));

  g_assert_true (cm_target_open_area (target, 1024 * 1024, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cm_target_get_fd (target), >=, 0);
  g_assert_cmpuint (cm_target_get_area_bytes (target), ==, 1024 * 1024);

  /* The scratch file never shows in the folder, and existing files are
   * untouched. */
  g_assert_cmpuint (count_entries (dir), ==, 1);
  cm_target_close (target);
  g_assert_cmpint (cm_target_get_fd (target), ==, -1);
  g_assert_true (g_file_get_contents (keep, &contents, NULL, &error));
  g_assert_cmpstr (contents, ==, "precious");

  g_unlink (keep);
  g_rmdir (dir);
}

static void
test_no_space (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-target-XXXXXX", &error);
  g_autoptr(CmTarget) target = cm_target_new_for_path (dir, FALSE, &error);
  guint64 free_bytes = cm_target_dup_free_bytes (target);

  g_assert_cmpuint (free_bytes, >, 0);
  g_assert_false (cm_target_open_area (target, free_bytes + 1, &error));
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NO_SPACE);
  g_assert_cmpuint (count_entries (dir), ==, 0);
  g_rmdir (dir);
}

static void
test_stale_scratch (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-target-XXXXXX", &error);
  g_autofree char *stale = g_build_filename (dir, ".cardmark-abc123", NULL);
  g_autofree char *busy = g_build_filename (dir, ".cardmark-xyz789", NULL);
  g_autofree char *other = g_build_filename (dir, ".cardmark-notes.txt", NULL);
  int busy_fd;

  g_assert_true (g_file_set_contents (stale, "x", -1, NULL));
  g_assert_true (g_file_set_contents (busy, "x", -1, NULL));
  g_assert_true (g_file_set_contents (other, "x", -1, NULL));

  /* A running CardMark holds the lock on its scratch file. */
  busy_fd = open (busy, O_RDONLY);
  g_assert_cmpint (flock (busy_fd, LOCK_EX), ==, 0);

  g_assert_cmpuint (cm_target_remove_stale_scratch (dir), ==, 1);
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (busy, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (other, G_FILE_TEST_EXISTS));

  close (busy_fd);
  g_unlink (busy);
  g_unlink (other);
  g_rmdir (dir);
}

static void
test_read_only_folder (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(CmTarget) target = NULL;

  if (geteuid () == 0)
    {
      g_test_skip ("root may write to any folder");
      return;
    }

  dir = g_dir_make_tmp ("cardmark-target-XXXXXX", &error);
  g_chmod (dir, 0555);
  target = cm_target_new_for_path (dir, FALSE, &error);
  g_assert_null (target);
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_PERMISSION);
  g_rmdir (dir);
}

static void
test_errno_messages (void)
{
  static const struct { int errsv; CmTargetError code; } cases[] = {
    { EROFS, CM_TARGET_ERROR_READ_ONLY },
    { ENOSPC, CM_TARGET_ERROR_NO_SPACE },
    { EIO, CM_TARGET_ERROR_IO },
    { ENODEV, CM_TARGET_ERROR_REMOVED },
    { EACCES, CM_TARGET_ERROR_PERMISSION },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = cm_target_error_from_errno (cases[i].errsv, "/dev/sdz");

      g_assert_error (error, CM_TARGET_ERROR, (int) cases[i].code);
      g_assert_cmpuint (strlen (error->message), >, 20);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/target/missing", test_missing);
  g_test_add_func ("/cardmark/target/regular-file", test_regular_file);
  g_test_add_func ("/cardmark/target/folder-scratch", test_folder_scratch);
  g_test_add_func ("/cardmark/target/no-space", test_no_space);
  g_test_add_func ("/cardmark/target/stale-scratch", test_stale_scratch);
  g_test_add_func ("/cardmark/target/read-only-folder", test_read_only_folder);
  g_test_add_func ("/cardmark/target/errno-messages", test_errno_messages);

  return g_test_run ();
}
