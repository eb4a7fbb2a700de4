/* fuzz-common.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the fuzz targets share: the libFuzzer entry point, and splitting
 * one input into several strings (a register each, a file each).
 */

#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <stdint.h>

G_BEGIN_DECLS

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* Splits @data at NUL bytes into at most @max_parts strings, each
 * NUL-terminated; the last part takes the rest. Free with g_strfreev. */
static inline GStrv
fuzz_split (const uint8_t *data,
            size_t         size,
            guint          max_parts)
{
  GPtrArray *parts = g_ptr_array_new ();
  size_t start = 0;

  for (size_t i = 0; i <= size && parts->len + 1 < max_parts; i++)
    if (i == size || data[i] == '\0')
      {
        g_ptr_array_add (parts, g_strndup ((const char *) data + start, i - start));
        start = i + 1;
        if (i == size)
          break;
      }
  if (start < size && parts->len < max_parts)
    g_ptr_array_add (parts, g_strndup ((const char *) data + start, size - start));

  g_ptr_array_add (parts, NULL);
  return (GStrv) g_ptr_array_free (parts, FALSE);
}

/* A folder for one run of a target, removed with everything in it by
 * fuzz_remove_tree. */
static inline char *
fuzz_make_dir (void)
{
  char *dir = g_dir_make_tmp ("cardmark-fuzz-XXXXXX", NULL);

  g_assert (dir != NULL);
  return dir;
}

static inline void
fuzz_remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        fuzz_remove_tree (child);
      else
        g_remove (child);
      g_free (child);
    }
  if (dir != NULL)
    g_dir_close (dir);
  g_rmdir (path);
}

G_END_DECLS
