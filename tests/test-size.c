/* test-size.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cm_size_parse: the one syntax of every size option.
 */

#include "config.h"

#include <string.h>

#include "cm-size.h"

#define KiB G_GUINT64_CONSTANT (1024)
#define MiB (KiB * KiB)
#define GiB (MiB * KiB)

static guint64
parse_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  guint64 bytes = 0;

  g_assert_true (cm_size_parse (text, "--size", 1, &bytes, &error));
  g_assert_no_error (error);
  return bytes;
}

static void
parse_fails (const char  *text,
             guint64      min_bytes,
             int          code)
{
  g_autoptr(GError) error = NULL;
  guint64 bytes = 12345;

  g_assert_false (cm_size_parse (text, "--size", min_bytes, &bytes, &error));
  g_assert_error (error, CM_SIZE_ERROR, code);
  /* Every message names the option it is about. */
  g_assert_nonnull (strstr (error->message, "--size"));
  g_assert_cmpuint (bytes, ==, 12345);
}

static void
test_units (void)
{
  g_assert_cmpuint (parse_ok ("4096"), ==, 4096);
  g_assert_cmpuint (parse_ok ("4096B"), ==, 4096);
  g_assert_cmpuint (parse_ok ("512M"), ==, 512 * MiB);
  g_assert_cmpuint (parse_ok ("512MiB"), ==, 512 * MiB);
  g_assert_cmpuint (parse_ok ("512MB"), ==, 512000000);
  g_assert_cmpuint (parse_ok ("5G"), ==, 5 * GiB);
  g_assert_cmpuint (parse_ok ("5GB"), ==, 5000000000);
  g_assert_cmpuint (parse_ok ("2T"), ==, 2 * GiB * KiB);
  g_assert_cmpuint (parse_ok ("2TB"), ==, 2000000000000);
  g_assert_cmpuint (parse_ok ("16k"), ==, 16 * KiB);
  g_assert_cmpuint (parse_ok ("1gib"), ==, GiB);
}

/* "5 G" was taken by --sustained-limit and refused by --cache-up-to. */
static void
test_spaces (void)
{
  g_assert_cmpuint (parse_ok ("5 G"), ==, 5 * GiB);
  g_assert_cmpuint (parse_ok (" 500 MB "), ==, 500000000);
  g_assert_cmpuint (parse_ok ("\t1G\n"), ==, GiB);
}

static void
test_fractions (void)
{
  g_assert_cmpuint (parse_ok ("1.5GiB"), ==, 3 * GiB / 2);
  g_assert_cmpuint (parse_ok ("0.5K"), ==, 512);
  g_assert_cmpuint (parse_ok (".5K"), ==, 512);
  /* Parts of a byte are dropped. */
  g_assert_cmpuint (parse_ok ("1.5"), ==, 1);
}

static void
test_not_sizes (void)
{
  const char *bad[] = {
    "", " ", "lots", "G", "-1G", "+1G", "1e9", "0x10", "inf", "nan", "1.", ".", ".G",
    "1,5G", "4 parsecs", "5 G B", "1GiBB", "1 2G", "5\xff",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *shown = g_strescape (bad[i], NULL);

      g_test_message ("“%s”", shown);
      parse_fails (bad[i], 1, CM_SIZE_ERROR_INVALID);
    }
  parse_fails (NULL, 1, CM_SIZE_ERROR_INVALID);
}

static void
test_bounds (void)
{
  g_autoptr(GError) error = NULL;
  guint64 bytes = 0;

  parse_fails ("0", 1, CM_SIZE_ERROR_TOO_SMALL);
  parse_fails ("0.1", 1, CM_SIZE_ERROR_TOO_SMALL);
  parse_fails ("1", 64 * MiB, CM_SIZE_ERROR_TOO_SMALL);
  parse_fails ("63M", 64 * MiB, CM_SIZE_ERROR_TOO_SMALL);
  parse_fails ("2000000T", 1, CM_SIZE_ERROR_TOO_LARGE);
  parse_fails ("99999999999999999999999999", 1, CM_SIZE_ERROR_TOO_LARGE);

  g_assert_true (cm_size_parse ("64M", "--size", 64 * MiB, &bytes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (bytes, ==, 64 * MiB);
  g_assert_true (cm_size_parse ("1048576T", "--size", 1, &bytes, &error));
  g_assert_cmpuint (bytes, ==, GiB * GiB);
}

/* Without an option the message still says what is wrong. */
static void
test_no_option (void)
{
  g_autoptr(GError) error = NULL;
  guint64 bytes;

  g_assert_false (cm_size_parse ("lots", NULL, 1, &bytes, &error));
  g_assert_error (error, CM_SIZE_ERROR, CM_SIZE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "lots"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/size/units", test_units);
  g_test_add_func ("/cardmark/size/spaces", test_spaces);
  g_test_add_func ("/cardmark/size/fractions", test_fractions);
  g_test_add_func ("/cardmark/size/not-sizes", test_not_sizes);
  g_test_add_func ("/cardmark/size/bounds", test_bounds);
  g_test_add_func ("/cardmark/size/no-option", test_no_option);

  return g_test_run ();
}
