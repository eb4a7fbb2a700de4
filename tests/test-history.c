/* test-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

static gboolean
problem_names (GPtrArray  *problems,
               const char *name,
               const char *why)
{
  for (guint i = 0; i < problems->len; i++)
    {
      const char *problem = g_ptr_array_index (problems, i);

      if (strstr (problem, name) != NULL && strstr (problem, why) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* Anything named *.json that is not a regular file of a result's size is
 * skipped and reported, not read: a FIFO would block the reader forever
 * and a huge file fill the memory. */
static void
test_not_regular (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-history-XXXXXX", &error);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(CmResult) good = result_at (9, "Ultra");
  g_autoptr(GFile) saved = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autofree char *fifo = g_build_filename (dir, "fifo.json", NULL);
  g_autofree char *sub = g_build_filename (dir, "folder.json", NULL);
  g_autofree char *huge = g_build_filename (dir, "huge.json", NULL);
  int fd;

  saved = cm_history_save (history, good, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  fd = g_open (huge, O_WRONLY | O_CREAT, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, CM_HISTORY_MAX_FILE_BYTES + 1), ==, 0);
  close (fd);

  /* Before the fix the FIFO blocked here; the alarm makes that a failure. */
  alarm (20);
  results = cm_history_load (history, &problems, &error);
  alarm (0);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 1);
  g_assert_cmpuint (problems->len, ==, 3);
  g_assert_true (problem_names (problems, "fifo.json", "not a regular file"));
  g_assert_true (problem_names (problems, "folder.json", "not a regular file"));
  g_assert_true (problem_names (problems, "huge.json", "more than a result can be"));

  g_file_delete (saved, NULL, NULL);
  g_unlink (fifo);
  g_rmdir (sub);
  g_unlink (huge);
  g_rmdir (dir);
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* The same results and problems, read in a worker thread. */
static void
test_load_async (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-history-XXXXXX", NULL);
  g_autofree char *junk = g_build_filename (dir, "broken.json", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(CmResult) one = result_at (9, "Ultra");
  g_autoptr(GFile) saved = cm_history_save (history, one, &error);
  g_autoptr(GAsyncResult) async = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GPtrArray) problems = NULL;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (junk, "{", -1, NULL));

  cm_history_load_async (history, NULL, loaded_cb, &async);
  while (async == NULL)
    g_main_context_iteration (NULL, TRUE);
  results = cm_history_load_finish (history, async, &problems, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 1);
  g_assert_cmpstr (cm_result_get_name (g_ptr_array_index (results, 0)), ==, "Ultra");
  g_assert_cmpuint (problems->len, ==, 1);

  g_file_delete (saved, NULL, NULL);
  g_unlink (junk);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/history/save-load", test_save_load);
  g_test_add_func ("/cardmark/history/not-regular", test_not_regular);
  g_test_add_func ("/cardmark/history/load-async", test_load_async);

  return g_test_run ();
}
