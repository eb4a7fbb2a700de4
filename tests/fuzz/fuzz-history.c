/* fuzz-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The history folder reader: the input, split at NUL bytes, becomes the
 * files of a history folder (a part starting with "/" a folder of that
 * name, one starting with "@" a symbolic link to the name after it);
 * the folder is then read as `cardmark-cli history` and the app read it.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <unistd.h>

#include "cm-history.h"

#include "fuzz-common.h"

static void
make_entry (const char *folder,
            guint       index,
            const char *part)
{
  g_autofree char *name = g_strdup_printf ("%02u.json", index);
  g_autofree char *path = g_build_filename (folder, name, NULL);

  if (part[0] == '/')
    g_mkdir (path, 0700);
  else if (part[0] == '@')
    (void) symlink (part + 1, path);
  else
    g_file_set_contents (path, part, -1, NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_auto(GStrv) parts = fuzz_split (data, size, 8);
  g_autofree char *folder = fuzz_make_dir ();
  g_autoptr(GFile) file = g_file_new_for_path (folder);
  g_autoptr(CmHistory) history = cm_history_new (file);
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GPtrArray) problems = NULL;

  for (guint i = 0; parts[i] != NULL; i++)
    make_entry (folder, i, parts[i]);

  results = cm_history_load (history, &problems, NULL);
  g_assert (results != NULL);
  /* Every entry is either a result or a problem, never lost. */
  g_assert (results->len + problems->len <= g_strv_length (parts));

  fuzz_remove_tree (folder);
  return 0;
}
