/* replay.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A main() for the fuzz targets in builds without libFuzzer (gcc, the
 * sanitizer build): runs the target once on every file named, and on
 * every file in every folder named, as libFuzzer would replay them. The
 * seed corpora and the saved crash inputs become ordinary tests.
 */

#include "config.h"

#include <glib.h>
#include <stdio.h>

#include "fuzz-common.h"

static guint
replay_path (const char *path)
{
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;
      guint n = 0;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        g_ptr_array_add (names, g_build_filename (path, name, NULL));
      for (guint i = 0; i < names->len; i++)
        n += replay_path (g_ptr_array_index (names, i));
      return n;
    }

  if (!g_file_get_contents (path, &data, &length, &error))
    g_error ("%s", error->message);

  printf ("# %s\n", path);
  fflush (stdout);
  LLVMFuzzerTestOneInput ((const uint8_t *) data, length);
  return 1;
}

int
main (int    argc,
      char **argv)
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    if (g_file_test (argv[i], G_FILE_TEST_EXISTS))
      n += replay_path (argv[i]);

  printf ("1..1\nok 1 - replayed %u inputs\n", n);
  return 0;
}
