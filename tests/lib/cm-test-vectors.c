/* cm-test-vectors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "cm-test-vectors.h"

static void
row_free (CmTestRow *row)
{
  g_free (row->id);
  g_free (row->brand);
  g_free (row->capacity);
  g_free (row->logos);
  g_free (row->cid);
  g_free (row->csd);
  g_free (row->scr);
  g_free (row->ssr);
  g_free (row->notes);
  g_free (row);
}

/* The TSV quotes a field holding quotes the CSV way: "…""…". */
static char *
unquote (const char *field)
{
  gsize len = strlen (field);
  g_autofree char *inner = NULL;
  g_auto(GStrv) parts = NULL;

  if (len < 2 || field[0] != '"' || field[len - 1] != '"')
    return g_strdup (field);

  inner = g_strndup (field + 1, len - 2);
  parts = g_strsplit (inner, "\"\"", -1);
  return g_strjoinv ("\"", parts);
}

static int
column (GStrv        header,
        const char  *name)
{
  for (guint i = 0; header[i] != NULL; i++)
    if (g_str_equal (header[i], name))
      return i;

  g_error ("The vectors have no “%s” column", name);
  return -1;
}

GPtrArray *
cm_test_vectors_load (void)
{
  const char *shared = g_getenv ("CARDMARK_SHARED");
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) header = NULL;
  GPtrArray *rows;

  g_assert_nonnull (shared);
  path = g_build_filename (shared, "reference", "sd-register-vectors.tsv", NULL);
  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  lines = g_strsplit (contents, "\n", -1);
  header = g_strsplit (lines[0], "\t", -1);

  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = NULL;
      CmTestRow *row;

      if (lines[i][0] == '\0')
        continue;

      fields = g_strsplit (lines[i], "\t", -1);
      g_assert_cmpuint (g_strv_length (fields), ==, g_strv_length (header));

      row = g_new0 (CmTestRow, 1);
      row->id = unquote (fields[column (header, "id")]);
      row->brand = unquote (fields[column (header, "brand_label")]);
      row->capacity = unquote (fields[column (header, "capacity_label")]);
      row->logos = unquote (fields[column (header, "class_logos_label")]);
      row->cid = unquote (fields[column (header, "cid")]);
      row->csd = unquote (fields[column (header, "csd")]);
      row->scr = unquote (fields[column (header, "scr")]);
      row->ssr = unquote (fields[column (header, "ssr")]);
      row->notes = unquote (fields[column (header, "notes")]);
      g_ptr_array_add (rows, row);
    }

  /* The file held 38 cards when this test was written; fewer means the
   * parser lost some. */
  g_assert_cmpuint (rows->len, >=, 38);

  return rows;
}

const CmTestRow *
cm_test_vectors_find (GPtrArray  *rows,
                      const char *id)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const CmTestRow *row = g_ptr_array_index (rows, i);

      if (g_str_equal (row->id, id))
        return row;
    }

  g_error ("No row “%s” in the vectors", id);
  return NULL;
}
