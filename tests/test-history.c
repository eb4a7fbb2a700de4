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

static CmResult *
wear_at (int         hour,
         const char *device,
         const char *name)
{
  CmResult *result = result_at (hour, name);

  cm_result_set_kind (result, "wear");
  cm_result_set_target (result, device, "raw-write", device, NULL);
  return result;
}

static guint
count_named (GPtrArray  *results,
             const char *name)
{
  guint n = 0;

  for (guint i = 0; i < results->len; i++)
    n += g_strcmp0 (cm_result_get_name (g_ptr_array_index (results, i)), name) == 0;
  return n;
}

/* A wear test carried on keeps its start: its document takes the place
 * of the one its stop saved, and of nothing else. */
static void
test_carried_on (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-history-XXXXXX", &error);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(CmResult) stopped = wear_at (10, "/dev/sdz", "stopped");
  g_autoptr(CmResult) other_card = wear_at (10, "/dev/sdy", "other card");
  g_autoptr(CmResult) bench = result_at (10, "bench");
  g_autoptr(CmResult) later = wear_at (11, "/dev/sdz", "later");
  g_autoptr(CmResult) carried_on = wear_at (10, "/dev/sdz", "carried on");
  g_autoptr(GFile) outside = NULL;
  g_autoptr(GFile) saved = NULL;
  g_autoptr(GFile) stopped_file = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autofree char *outside_dir = g_dir_make_tmp ("cardmark-outside-XXXXXX", NULL);
  g_autofree char *outside_path = g_build_filename (outside_dir, "doc.json", NULL);
  g_autofree char *link = NULL;
  g_autofree char *stamp = NULL;

  cm_result_set_target (bench, "/dev/sdz", "raw-read", "/dev/sdz", NULL);
  stopped_file = cm_history_save (history, stopped, &error);
  g_assert_no_error (error);
  /* The stamp of files started then, from the name of one. */
  {
    g_autofree char *base = g_file_get_basename (stopped_file);

    stamp = g_strndup (base, strlen ("20261202-100000-"));
  }
  for (CmResult **r = (CmResult *[]) { other_card, bench, later, NULL }; *r != NULL; r++)
    {
      g_clear_object (&saved);
      saved = cm_history_save (history, *r, &error);
      g_assert_no_error (error);
    }
  /* A link named as a document of that start, to the same test outside
   * the history: never followed, never deleted. */
  outside = g_file_new_for_path (outside_path);
  g_assert_true (cm_result_save (stopped, outside, NULL));
  link = g_strdup_printf ("%s/%sffffff.json", dir, stamp);
  g_assert_cmpint (symlink (outside_path, link), ==, 0);

  g_clear_object (&saved);
  saved = cm_history_save (history, carried_on, &error);
  g_assert_no_error (error);

  results = cm_history_load (history, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_file_query_exists (stopped_file, NULL));
  /* (the link still shows the test outside, as history reads links) */
  g_assert_cmpuint (count_named (results, "stopped"), ==, 1);
  g_assert_cmpuint (count_named (results, "carried on"), ==, 1);
  g_assert_cmpuint (count_named (results, "other card"), ==, 1);
  g_assert_cmpuint (count_named (results, "bench"), ==, 1);
  g_assert_cmpuint (count_named (results, "later"), ==, 1);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_test (outside_path, G_FILE_TEST_IS_REGULAR));

  for (guint i = 0; i < results->len; i++)
    g_file_delete (cm_history_get_file (g_ptr_array_index (results, i)), NULL, NULL);
  g_unlink (link);
  g_unlink (outside_path);
  g_rmdir (outside_dir);
  g_rmdir (dir);
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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/history/save-load", test_save_load);
  g_test_add_func ("/cardmark/history/carried-on", test_carried_on);
  g_test_add_func ("/cardmark/history/not-regular", test_not_regular);

  return g_test_run ();
}
