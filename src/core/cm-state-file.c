/* cm-state-file.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The state files of the checks that write and carry on later: sealed
 * with a SHA-256 of everything before the seal, named after the card
 * they belong to, read back value by value within bounds. The full
 * verify (cm-verify-state.c) and the wear test (cm-wear-state.c) keep
 * their own keys; this is what both need to distrust a file.
 */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cm-state-file.h"

/* The last lines of a state file: "[checksum]\nsha256=" and 64 hex digits. */
#define TRAILER_HEAD "[checksum]\nsha256="
#define TRAILER_BYTES (sizeof TRAILER_HEAD - 1 + 64 + 1)

char *
cm_state_file_folder (const char *kind)
{
  g_return_val_if_fail (kind != NULL, NULL);

  return g_build_filename (g_get_user_data_dir (), DEVELOPMENT ? "cardmark-devel" : "cardmark", kind, NULL);
}

char *
cm_state_file_card_identity (const char *device,
                             guint64     size)
{
  g_autofree char *real = realpath (device, NULL);
  g_autoptr(GDir) dir = g_dir_open ("/dev/disk/by-id", 0, NULL);
  g_autofree char *best = NULL;
  const char *name;

  g_return_val_if_fail (device != NULL, NULL);

  while (dir != NULL && real != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *link = g_build_filename ("/dev/disk/by-id", name, NULL);
      g_autofree char *to = realpath (link, NULL);

      if (g_strcmp0 (to, real) == 0 && !g_str_has_prefix (name, "wwn-") &&
          (best == NULL || strcmp (name, best) < 0))
        {
          g_free (best);
          best = g_strdup (name);
        }
    }
  if (best == NULL)
    best = g_path_get_basename (real != NULL ? real : device);

  return g_strdup_printf ("device-%" G_GUINT64_FORMAT "-%s", size, g_strdelimit (best, "/ ", '_'));
}

gboolean
cm_state_file_card_gone (const char *path)
{
  g_autofree char *sys = NULL;
  g_autofree char *size = NULL;
  g_autofree char *backing = NULL;
  g_autofree char *size_path = NULL;
  g_autofree char *backing_path = NULL;
  struct stat st, backing_st;
  dev_t dev;

  if (path == NULL || stat (path, &st) != 0)
    return TRUE;
  dev = S_ISBLK (st.st_mode) ? st.st_rdev : st.st_dev;
  sys = g_strdup_printf ("/sys/dev/block/%u:%u", major (dev), minor (dev));
  size_path = g_build_filename (sys, "size", NULL);
  if (g_file_get_contents (size_path, &size, NULL, NULL) && g_ascii_strtoull (size, NULL, 10) == 0)
    return TRUE;
  /* A partition's loop device is its parent. */
  backing_path = g_build_filename (sys, "loop", "backing_file", NULL);
  if (!g_file_test (backing_path, G_FILE_TEST_EXISTS))
    {
      g_free (backing_path);
      backing_path = g_build_filename (sys, "..", "loop", "backing_file", NULL);
    }
  if (g_file_get_contents (backing_path, &backing, NULL, NULL))
    return stat (g_strchomp (backing), &backing_st) != 0;
  return FALSE;
}

char *
cm_state_file_seal (GKeyFile *key_file,
                    gsize    *length)
{
  gsize body_length = 0;
  g_autofree char *body = g_key_file_to_data (key_file, &body_length, NULL);
  g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) body, body_length);

  *length = body_length + TRAILER_BYTES;
  return g_strconcat (body, TRAILER_HEAD, sum, "\n", NULL);
}

GKeyFile *
cm_state_file_unseal (const char *data,
                      gsize       length,
                      gsize       max_length)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autofree char *sum = NULL;
  gsize body_length;

  if (data == NULL || length < TRAILER_BYTES || length > max_length)
    return NULL;
  body_length = length - TRAILER_BYTES;
  sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, body_length);
  if (memcmp (data + body_length, TRAILER_HEAD, strlen (TRAILER_HEAD)) != 0 ||
      memcmp (data + body_length + strlen (TRAILER_HEAD), sum, 64) != 0 || data[length - 1] != '\n' ||
      !g_key_file_load_from_data (key_file, data, body_length, G_KEY_FILE_NONE, NULL))
    return NULL;
  return g_steal_pointer (&key_file);
}

gboolean
cm_state_file_read (const char  *path,
                    gsize        max_length,
                    char       **data,
                    gsize       *length)
{
  GStatBuf st;

  /* A state file is small: anything large is not one of ours. */
  return g_lstat (path, &st) == 0 && S_ISREG (st.st_mode) && (gsize) st.st_size <= max_length &&
         g_file_get_contents (path, data, length, NULL);
}

gboolean
cm_state_file_write (const char  *path,
                     const char  *data,
                     gsize        length,
                     GError     **error)
{
  g_autofree char *folder = g_path_get_dirname (path);

  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "%s: %s", folder, g_strerror (errsv));
      return FALSE;
    }
  return g_file_set_contents_full (path, data, length,
                                   G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE, 0600, error);
}

/* A value as written, never through GLib 2.74's unescaping, which sets
 * one error over another at "\\x\\" ending a line: numbers, names and
 * times hold no escapes, so a backslash makes the file damaged. */
static char *
get_value (CmStateReader *r,
           const char    *key)
{
  g_autofree char *text = g_key_file_get_value (r->key_file, r->group, key, NULL);

  if (text == NULL || strchr (text, '\\') != NULL)
    {
      r->ok = FALSE;
      return NULL;
    }
  return g_steal_pointer (&text);
}

guint64
cm_state_reader_u64 (CmStateReader *r,
                     const char    *key,
                     guint64        max)
{
  g_autofree char *text = get_value (r, key);
  guint64 value = 0;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 0, max, &value, NULL))
    r->ok = FALSE;
  return value;
}

double
cm_state_reader_double (CmStateReader *r,
                        const char    *key,
                        double         max)
{
  g_autoptr(GError) error = NULL;
  double value = g_key_file_get_double (r->key_file, r->group, key, &error);

  if (error != NULL || !isfinite (value) || value < 0 || value > max)
    r->ok = FALSE;
  return value;
}

gboolean
cm_state_reader_bool (CmStateReader *r,
                      const char    *key)
{
  g_autoptr(GError) error = NULL;
  gboolean value = g_key_file_get_boolean (r->key_file, r->group, key, &error);

  if (error != NULL)
    r->ok = FALSE;
  return value;
}

char *
cm_state_reader_plain_string (CmStateReader *r,
                              const char    *key)
{
  return get_value (r, key);
}

/* The list's items as text; NULL for an empty list (saved as an empty
 * value), or with @ok cleared. */
static GStrv
get_list (CmStateReader *r,
          const char    *key,
          gsize          max_values)
{
  g_autofree char *text = get_value (r, key);
  g_auto(GStrv) strv = NULL;
  gsize n = 0;

  if (text == NULL || text[0] == '\0')
    return NULL;
  strv = g_key_file_get_string_list (r->key_file, r->group, key, &n, NULL);
  if (strv == NULL || n > max_values)
    {
      r->ok = FALSE;
      return NULL;
    }
  return g_steal_pointer (&strv);
}

GStrv
cm_state_reader_devices (CmStateReader *r,
                         const char    *key,
                         gsize          max_values)
{
  g_auto(GStrv) devices = NULL;

  if (!g_key_file_has_key (r->key_file, r->group, key, NULL))
    return NULL;
  devices = get_list (r, key, max_values);
  for (guint i = 0; devices != NULL && devices[i] != NULL; i++)
    {
      const char *d = devices[i];

      if (!g_str_has_prefix (d, "/dev/") || strlen (d) > PATH_MAX || strpbrk (d, " \t\n") != NULL ||
          !g_utf8_validate (d, -1, NULL))
        {
          r->ok = FALSE;
          return NULL;
        }
      for (const char *c = d; *c != '\0'; c++)
        if (g_ascii_iscntrl (*c))
          {
            r->ok = FALSE;
            return NULL;
          }
    }
  return g_steal_pointer (&devices);
}

void
cm_state_reader_u64_list (CmStateReader *r,
                          const char    *key,
                          GArray        *array,
                          gsize          max_values,
                          guint64        max)
{
  g_auto(GStrv) strv = get_list (r, key, max_values);

  for (gsize i = 0; strv != NULL && strv[i] != NULL; i++)
    {
      guint64 value = 0;

      if (!g_ascii_string_to_unsigned (strv[i], 10, 0, max, &value, NULL))
        {
          r->ok = FALSE;
          return;
        }
      if (g_array_get_element_size (array) == sizeof (guint))
        {
          guint small = (guint) value;
          g_array_append_val (array, small);
        }
      else
        g_array_append_val (array, value);
    }
}

double *
cm_state_reader_double_list (CmStateReader *r,
                             const char    *key,
                             gsize          max_values,
                             double         max,
                             gsize         *n)
{
  g_auto(GStrv) strv = get_list (r, key, max_values);
  g_autofree double *values = NULL;

  *n = 0;
  if (strv == NULL)
    return NULL;
  *n = g_strv_length (strv);
  values = g_new (double, *n);
  for (gsize i = 0; i < *n; i++)
    {
      char *end = NULL;

      values[i] = g_ascii_strtod (strv[i], &end);
      if (end == strv[i] || *end != '\0' || !isfinite (values[i]) || values[i] < 0 || values[i] > max)
        {
          r->ok = FALSE;
          *n = 0;
          return NULL;
        }
    }
  return g_steal_pointer (&values);
}

void
cm_state_file_set_u64_list (GKeyFile   *key_file,
                            const char *group,
                            const char *key,
                            GArray     *array,
                            guint       n_values)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) strv = NULL;

  for (guint i = 0; i < n_values; i++)
    {
      guint64 value = g_array_get_element_size (array) == sizeof (guint)
                      ? ((guint *) array->data)[i] : ((guint64 *) array->data)[i];
      char text[32];

      g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, value);
      g_strv_builder_add (builder, text);
    }
  strv = g_strv_builder_end (builder);
  g_key_file_set_string_list (key_file, group, key, (const char * const *) strv, g_strv_length (strv));
}

void
cm_state_file_set_double_list (GKeyFile     *key_file,
                               const char   *group,
                               const char   *key,
                               const double *values,
                               gsize         n_values)
{
  /* GLib wants a list of at least one: none is an empty value. */
  if (n_values == 0)
    g_key_file_set_value (key_file, group, key, "");
  else
    g_key_file_set_double_list (key_file, group, key, (double *) values, n_values);
}
