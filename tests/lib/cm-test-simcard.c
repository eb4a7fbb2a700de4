/* cm-test-simcard.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The system bus, udev and udisksd for the app tests that need them,
 * and simulated cards (tests/simcard) attached for them: each held by a
 * guard process that takes it down when the test ends, however it ends.
 */

#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cm-test-simcard.h"

/**
 * cm_test_services_up:
 *
 * Starts the services the simulated cards need (tests/env/services-up).
 *
 * Returns: %NULL when they run, or why a test that needs them skips
 *   (not root, nothing to start them with).
 */
char *
cm_test_services_up (void)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "env", "services-up", NULL);
  const char *argv[] = { script, NULL };
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if (getuid () != 0)
    return g_strdup ("needs root to start udisksd and attach a simulated card");
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, &error))
    g_error ("could not run %s: %s", script, error->message);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 77)
    return g_strdup_printf ("services-up: %s", g_strstrip (err));
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("%s failed: %s", script, err);
  return NULL;
}

/* The guard holds the read end of a pipe whose write end only this
 * process has: when the test ends, however it ends (an assertion aborts,
 * a crash), the guard reads EOF and takes the card down. */
static void
spawn_guard (const char *dir,
             GPid       *guard_pid,
             int        *guard_fd)
{
  g_autofree char *down = g_test_build_filename (G_TEST_DIST, "simcard", "simcard-down", NULL);
  const char *argv[] = { "/bin/sh", "-c", "read _ignored; exec \"$0\" \"$1\" >/dev/null 2>&1", down, dir, NULL };
  g_autoptr(GError) error = NULL;

  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                           NULL, NULL, guard_pid, guard_fd, NULL, NULL, &error));
  g_assert_no_error (error);
}

/**
 * cm_test_simcard_up:
 * @args: simcard-up's arguments: a profile, then its options
 * @values: where the card's SIMCARD_* lines go (key → value)
 * @guard_pid: (out): its guard, for cm_test_simcard_down()
 * @guard_fd: (out): the guard's pipe
 *
 * Returns: %FALSE, after g_test_skip(), when this machine cannot host a
 *   card; a failure to attach one it can host fails the test.
 */
gboolean
cm_test_simcard_up (const char * const *args,
                    GHashTable         *values,
                    GPid               *guard_pid,
                    int                *guard_fd)
{
  g_autofree char *up = g_test_build_filename (G_TEST_DIST, "simcard", "simcard-up", NULL);
  g_autofree char *bin = g_test_build_filename (G_TEST_BUILT, "simcard", "cm-simcard", NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "CARDMARK_SIMCARD", bin, TRUE);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  const char *dir;
  int status;

  g_ptr_array_add (argv, up);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 77)
    {
      g_autofree char *reason = g_strdup_printf ("simcard-up: %s", g_strstrip (err));

      g_test_skip (reason);
      return FALSE;
    }
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("simcard-up %s failed: %s", args[0], err);

  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *eq = strchr (lines[i], '=');

      if (eq != NULL)
        g_hash_table_insert (values, g_strndup (lines[i], eq - lines[i]), g_strdup (eq + 1));
    }
  dir = g_hash_table_lookup (values, "SIMCARD_DIR");
  g_assert_nonnull (dir);
  spawn_guard (dir, guard_pid, guard_fd);
  return TRUE;
}

/**
 * cm_test_simcard_down:
 * @dir: the card's SIMCARD_DIR
 *
 * Takes the card down (through its guard) and checks it is gone; does
 * nothing when *@guard_pid is 0.
 */
void
cm_test_simcard_down (const char *dir,
                      GPid       *guard_pid,
                      int         guard_fd)
{
  int status;

  if (*guard_pid == 0)
    return;
  close (guard_fd);
  g_assert_cmpint (waitpid (*guard_pid, &status, 0), ==, *guard_pid);
  g_spawn_close_pid (*guard_pid);
  *guard_pid = 0;
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
}
