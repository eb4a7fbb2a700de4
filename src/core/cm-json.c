/* cm-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The result document and the CLI's JSON write unknown values as null,
 * never by leaving the member out, so readers always find every key.
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-json.h"

/* A string member; NULL is written as null. */
void
cm_json_add_string (JsonBuilder *builder,
                    const char  *key,
                    const char  *value)
{
  json_builder_set_member_name (builder, key);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
cm_json_add_double (JsonBuilder *builder,
                    const char  *key,
                    double       value)
{
  json_builder_set_member_name (builder, key);
  json_builder_add_double_value (builder, value);
}

void
cm_json_add_int (JsonBuilder *builder,
                 const char  *key,
                 gint64       value)
{
  json_builder_set_member_name (builder, key);
  json_builder_add_int_value (builder, value);
}

/* A count or size that is unknown when 0: written as null then. */
void
cm_json_add_positive_int (JsonBuilder *builder,
                          const char  *key,
                          gint64       value)
{
  json_builder_set_member_name (builder, key);
  if (value > 0)
    json_builder_add_int_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
cm_json_add_boolean (JsonBuilder *builder,
                     const char  *key,
                     gboolean     value)
{
  json_builder_set_member_name (builder, key);
  json_builder_add_boolean_value (builder, value);
}

/* Reading JSON from outside. json-glib parses nesting by recursion, so a
 * file of 100 000 "[" would end the program on its stack; a reader that
 * loads a whole file before looking grows without end on /dev/zero; and
 * json-glib builds the whole tree, some hundreds of bytes a node, so 8
 * MiB of "{}," took 848 MB. All are refused here, with a sentence,
 * before json-glib parses. */

G_DEFINE_QUARK (cm-json-error-quark, cm_json_error)

static gboolean
too_large (GError **error)
{
  g_autofree char *limit = g_format_size (CM_JSON_MAX_BYTES);

  g_set_error (error, CM_JSON_ERROR, CM_JSON_ERROR_TOO_LARGE,
               _("It is larger than %s, more than a result can be."), limit);
  return FALSE;
}

static gboolean
too_deep (GError **error)
{
  g_set_error (error, CM_JSON_ERROR, CM_JSON_ERROR_TOO_DEEP,
               _("Its arrays and objects nest more than %d levels deep, more than a result can."),
               CM_JSON_MAX_DEPTH);
  return FALSE;
}

static gboolean
too_many (GError **error)
{
  g_set_error_literal (error, CM_JSON_ERROR, CM_JSON_ERROR_TOO_MANY,
                       _("It holds more values than a result can."));
  return FALSE;
}

/* What a value starting with @c costs json-glib, in values. */
static guint
node_cost (char c)
{
  return c == '{' ? CM_JSON_OBJECT_NODES : c == '[' ? CM_JSON_ARRAY_NODES : 1;
}

/* Whether @data's shape is one json-glib can hold cheaply: no array or
 * object opens deeper than CM_JSON_MAX_DEPTH, and its values and member
 * names cost at most CM_JSON_MAX_NODES (node_cost()). One pass, nothing
 * allocated: a value (or a name) starts at the first character after
 * "[", "{", ",", ":" or the start that is not blank. Brackets inside
 * strings do not count, nor do escaped quotes end a string. */
static gboolean
check_shape (const char  *data,
             gsize        length,
             GError     **error)
{
  gboolean in_string = FALSE;
  gboolean expect_value = TRUE;
  guint depth = 0;
  gsize nodes = 0;

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
        continue;
      if (expect_value && c != ']' && c != '}' && (nodes += node_cost (c)) > CM_JSON_MAX_NODES)
        return too_many (error);
      expect_value = FALSE;

      switch (c)
        {
        case '"':
          in_string = TRUE;
          break;
        case '[':
        case '{':
          if (++depth > CM_JSON_MAX_DEPTH)
            return too_deep (error);
          expect_value = TRUE;
          break;
        case ',':
        case ':':
          expect_value = TRUE;
          break;
        case ']':
        case '}':
          if (depth > 0)
            depth--;
          break;
        default:
          break;
        }
    }

  return TRUE;
}

/**
 * cm_json_parse_data_bounded:
 * @data: JSON from outside
 * @length: its length, or -1 when NUL-terminated
 *
 * Returns: (transfer full): a parser holding @data's document, or %NULL
 *   when @data is larger than %CM_JSON_MAX_BYTES, nests deeper than
 *   %CM_JSON_MAX_DEPTH, holds more than %CM_JSON_MAX_NODES values and
 *   names, or is not JSON.
 */
JsonParser *
cm_json_parse_data_bounded (const char  *data,
                            gssize       length,
                            GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  gsize size;

  g_return_val_if_fail (data != NULL, NULL);

  size = length < 0 ? strlen (data) : (gsize) length;
  if (size > CM_JSON_MAX_BYTES)
    return too_large (error), NULL;
  if (!check_shape (data, size, error))
    return NULL;

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, data, size, error))
    return NULL;

  return g_steal_pointer (&parser);
}

/**
 * cm_json_read_file_bounded:
 * @file: a JSON file from outside
 * @length: (out): the length of what was read
 *
 * Reads @file when it is a regular file of at most %CM_JSON_MAX_BYTES,
 * never holding more than that in memory however long it turns out to be
 * (it may grow while it is read).
 *
 * Returns: (transfer full): the file's bytes, NUL-terminated, or %NULL.
 */
char *
cm_json_read_file_bounded (GFile   *file,
                           gsize   *length,
                           GError **error)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GByteArray) bytes = NULL;
  guint8 chunk[65536];
  gssize n;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (length != NULL, NULL);

  /* A device or a pipe may never end, or never start. */
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE, NULL, error);
  if (info == NULL)
    return NULL;
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_set_error (error, CM_JSON_ERROR, CM_JSON_ERROR_NOT_REGULAR,
                   _("It is not a regular file, so it holds no result."));
      return NULL;
    }

  if ((stream = g_file_read (file, NULL, error)) == NULL)
    return NULL;

  bytes = g_byte_array_new ();
  while ((n = g_input_stream_read (G_INPUT_STREAM (stream), chunk, sizeof chunk, NULL, error)) > 0)
    {
      if (bytes->len + (gsize) n > CM_JSON_MAX_BYTES)
        return too_large (error), NULL;
      g_byte_array_append (bytes, chunk, n);
    }
  if (n < 0)
    return NULL;

  *length = bytes->len;
  g_byte_array_append (bytes, (const guint8 *) "", 1);
  return (char *) g_byte_array_free (g_steal_pointer (&bytes), FALSE);
}
