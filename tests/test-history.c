/* test-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "cm-history.h"

static CmResult *
result_at (int         hour,
           const char *name)
{
  CmResult *result = cm_result_new ();
  g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 12, 2, hour, 0, 0);

  cm_result_set_started (result, when);
  cm_result_set_name (result, name);
  cm_result_set_target (result, "/media/card", "file", NULL, NULL);

  return result;
}

static void
test_save_load (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-history-XXXXXX", &error);
  g_autofree char *sub = g_build_filename (dir, "deep", "history", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (sub);
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(CmResult) late = result_at (15, "Extreme");
  g_autoptr(CmResult) early = result_at (9, "Ultra");
  g_autoptr(GFile) f1 = NULL;
  g_autoptr(GFile) f2 = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autofree char *junk = g_build_filename (sub, "broken.json", NULL);
  g_autofree char *junk_contents = NULL;

  /* An empty history is not an error. */
  results = cm_history_load (history, &problems, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 0);
  g_clear_pointer (&results, g_ptr_array_unref);
  g_clear_pointer (&problems, g_ptr_array_unref);

  f1 = cm_history_save (history, late, &error);
  g_assert_no_error (error);
  f2 = cm_history_save (history, early, &error);
  g_assert_no_error (error);
  g_assert_false (g_file_equal (f1, f2));
  g_assert_true (g_file_set_contents (junk, "{ truncated", -1, NULL));

  results = cm_history_load (history, &problems, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 2);
  /* Oldest first, whatever order they were saved in. */
  g_assert_cmpstr (cm_result_get_name (g_ptr_array_index (results, 0)), ==, "Ultra");
  g_assert_cmpstr (cm_result_get_name (g_ptr_array_index (results, 1)), ==, "Extreme");

  /* The corrupt file is reported and left alone. */
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (problems, 0), "broken.json"));
  g_assert_true (g_file_get_contents (junk, &junk_contents, NULL, NULL));
  g_assert_cmpstr (junk_contents, ==, "{ truncated");

  g_file_delete (f1, NULL, NULL);
  g_file_delete (f2, NULL, NULL);
  g_unlink (junk);
  g_rmdir (sub);
  g_free (sub);
  sub = g_build_filename (dir, "deep", NULL);
  g_rmdir (sub);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/history/save-load", test_save_load);

  return g_test_run ();
}
