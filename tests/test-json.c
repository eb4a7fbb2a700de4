/* test-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * JSON from outside is bounded before json-glib parses it: in depth (its
 * parser recurses, and 100 000 "[" ended the program), in size (a
 * reader of /dev/zero grew to gigabytes) and in values (json-glib builds
 * the whole tree: 8 MiB of "{}," took 848 MB).
 */

#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "cm-json.h"

static char *
nested (guint       depth,
        const char *open,
        const char *inner,
        const char *close)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < depth; i++)
    g_string_append (text, open);
  g_string_append (text, inner);
  for (guint i = 0; i < depth; i++)
    g_string_append (text, close);
  return g_string_free (text, FALSE);
}

static void
test_depth (void)
{
  g_autofree char *deepest = nested (CM_JSON_MAX_DEPTH, "[", "1", "]");
  g_autofree char *deeper = nested (CM_JSON_MAX_DEPTH + 1, "[", "1", "]");
  g_autofree char *objects = nested (CM_JSON_MAX_DEPTH + 1, "{\"a\":", "1", "}");
  g_autofree char *attack = nested (100000, "[", "", "");
  g_autoptr(JsonParser) ok = NULL;
  g_autoptr(GError) error = NULL;

  ok = cm_json_parse_data_bounded (deepest, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ok);

  g_assert_null (cm_json_parse_data_bounded (deeper, -1, &error));
  g_assert_error (error, CM_JSON_ERROR, CM_JSON_ERROR_TOO_DEEP);
  g_clear_error (&error);
  g_assert_null (cm_json_parse_data_bounded (objects, -1, &error));
  g_assert_error (error, CM_JSON_ERROR, CM_JSON_ERROR_TOO_DEEP);
  g_clear_error (&error);
  g_assert_null (cm_json_parse_data_bounded (attack, -1, &error));
  g_assert_error (error, CM_JSON_ERROR, CM_JSON_ERROR_TOO_DEEP);
}

/* Brackets in strings are text, and an escaped quote does not end one. */
static void
test_strings (void)
{
  g_autofree char *many = nested (200, "[", "", "{");
  g_autofree char *brackets = g_strdup_printf ("{\"name\": \"%s\", \"quote\": \"\\\"[[[\", \"slash\": \"\\\\\"}", many);
  g_autofree char *escaped = nested (CM_JSON_MAX_DEPTH + 1, "[", "\"\\\"]\"", "]");
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;

  parser = cm_json_parse_data_bounded (brackets, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (parser);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (json_parser_get_root (parser)), "slash"), ==, "\\");

  /* The "]" inside the escaped string must not lower the count. */
  g_assert_null (cm_json_parse_data_bounded (escaped, -1, &error));
  g_assert_error (error, CM_JSON_ERROR, CM_JSON_ERROR_TOO_DEEP);
}

/* "[" UNIT "," UNIT … "]", @count units. */
static char *
listed (guint       count,
        const char *open,
        const char *unit,
        const char *close)
{
  GString *text = g_string_new (open);

  for (guint i = 0; i < count; i++)
    {
      if (i > 0)
        g_string_append_c (text, ',');
      g_string_append (text, unit);
    }
  g_string_append (text, close);
  return g_string_free (text, FALSE);
}

static void
assert_parses (const char *data)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;

  parser = cm_json_parse_data_bounded (data, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (parser);
}

static void
assert_too_many (const char *data)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (cm_json_parse_data_bounded (data, -1, &error));
  g_assert_error (error, CM_JSON_ERROR, CM_JSON_ERROR_TOO_MANY);
}

/* Values are counted as json-glib spends on them: at the limit a
 * document parses, one value past it is refused, whatever the values
 * are (numbers, objects, arrays, member names), and so is 8 MiB of "{}". */
static void
test_values (void)
{
  guint scalars = CM_JSON_MAX_NODES - CM_JSON_ARRAY_NODES;
  guint objects = (CM_JSON_MAX_NODES - CM_JSON_ARRAY_NODES) / CM_JSON_OBJECT_NODES;
  guint arrays = (CM_JSON_MAX_NODES - CM_JSON_ARRAY_NODES) / CM_JSON_ARRAY_NODES;
  /* A member is a name and a value. */
  guint members = (CM_JSON_MAX_NODES - CM_JSON_OBJECT_NODES) / 2;
  g_autofree char *numbers = listed (scalars, "[", " 0", "]");
  g_autofree char *more_numbers = listed (scalars + 1, "[", "0", "]");
  g_autofree char *empty_objects = listed (objects, "[", "{}", "]");
  g_autofree char *more_objects = listed (objects + 1, "[", "{}", "]");
  g_autofree char *empty_arrays = listed (arrays, "[", "[ ]", "]");
  g_autofree char *more_arrays = listed (arrays + 1, "[", "[]", "]");
  g_autofree char *named = listed (members, "{", "\"a\" :\n1", "}");
  g_autofree char *more_named = listed (members + 1, "{", "\"a\":1", "}");
  g_autofree char *attack = listed ((CM_JSON_MAX_BYTES - 2) / 3, "[", "{}", "]");

  assert_parses (numbers);
  assert_too_many (more_numbers);
  assert_parses (empty_objects);
  assert_too_many (more_objects);
  assert_parses (empty_arrays);
  assert_too_many (more_arrays);
  assert_parses (named);
  assert_too_many (more_named);
  g_assert_cmpuint (strlen (attack), <=, CM_JSON_MAX_BYTES);
  assert_too_many (attack);
}

/* A real full benchmark, with every test's samples, is far inside. */
static void
test_real_document (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "batch", "good-bench.json", NULL);
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &data, NULL, &error));
  assert_parses (data);
}

static void
test_not_json (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (cm_json_parse_data_bounded ("{ broken", -1, &error));
  g_assert_nonnull (error);
  g_assert_true (error->domain == JSON_PARSER_ERROR);
}

static void
test_not_regular (void)
{
  g_autoptr(GFile) zero = g_file_new_for_path ("/dev/zero");
  g_autoptr(GError) error = NULL;
  gsize length;

  g_assert_null (cm_json_read_file_bounded (zero, &length, &error));
  g_assert_error (error, CM_JSON_ERROR, CM_JSON_ERROR_NOT_REGULAR);
}

/* A file over the limit is refused, and only the limit is ever read. */
static void
test_too_large (void)
{
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;
  int fd = g_file_open_tmp ("cardmark-json-XXXXXX", &path, &error);

  g_assert_no_error (error);
  g_assert_cmpint (ftruncate (fd, CM_JSON_MAX_BYTES + 1), ==, 0);
  close (fd);
  file = g_file_new_for_path (path);

  g_assert_null (cm_json_read_file_bounded (file, &length, &error));
  g_assert_error (error, CM_JSON_ERROR, CM_JSON_ERROR_TOO_LARGE);
  g_clear_error (&error);

  /* At the limit it is read whole. */
  fd = open (path, O_WRONLY | O_CLOEXEC);
  g_assert_cmpint (ftruncate (fd, CM_JSON_MAX_BYTES), ==, 0);
  close (fd);
  data = cm_json_read_file_bounded (file, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, ==, CM_JSON_MAX_BYTES);
  g_assert_cmpint (data[length], ==, '\0');

  g_unlink (path);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/json/depth", test_depth);
  g_test_add_func ("/cardmark/json/strings", test_strings);
  g_test_add_func ("/cardmark/json/values", test_values);
  g_test_add_func ("/cardmark/json/real-document", test_real_document);
  g_test_add_func ("/cardmark/json/not-json", test_not_json);
  g_test_add_func ("/cardmark/json/not-regular", test_not_regular);
  g_test_add_func ("/cardmark/json/too-large", test_too_large);

  return g_test_run ();
}
