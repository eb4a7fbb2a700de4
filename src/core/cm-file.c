/* cm-file.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writing a file the user named (--output, --plot, an export) whole or
 * not at all, and, when it replaces one, as the file it replaces was:
 * same mode, same owner, and through a symbolic link rather than over it.
 */

#include "config.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cm-file.h"

/* Where the contents of @path really live: a symbolic link's target, so
 * the link is kept; @path itself when it does not exist yet. */
static char *
dup_real_path (const char *path)
{
  char *real = realpath (path, NULL);
  char *result;

  if (real == NULL)
    return g_strdup (path);

  /* realpath's string comes from malloc, not g_malloc. */
  result = g_strdup (real);
  free (real);
  return result;
}

gboolean
cm_file_set_contents (const char  *path,
                      const char  *data,
                      gssize       length,
                      GError     **error)
{
  g_autofree char *real = NULL;
  struct stat st;
  gboolean replacing;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  real = dup_real_path (path);
  replacing = stat (real, &st) == 0 && S_ISREG (st.st_mode);

  /* A temporary file renamed into place, so a failure or a full disk
   * keeps the file it was to replace. */
  if (!g_file_set_contents_full (real, data, length, G_FILE_SET_CONTENTS_CONSISTENT,
                                 replacing ? (int) (st.st_mode & 07777) : 0644, error))
    return FALSE;

  if (replacing)
    {
      /* The new file is ours and the umask trimmed its mode: give back
       * the owner (only root can) and then the mode, as chown may clear
       * set-id bits. */
      if (chown (real, st.st_uid, st.st_gid) != 0)
        g_debug ("Could not keep the owner of %s", real);
      if (chmod (real, st.st_mode & 07777) != 0)
        g_debug ("Could not keep the mode of %s", real);
    }

  return TRUE;
}
