/* test-text.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Text shown in a label that wraps never breaks inside a unit.
 */

#include "config.h"

#include <string.h>

#include "cm-text.h"

/* "MB/s" is joined either side of its slash; a slash between figures or
 * spaces ("1/2", "a / b") is left as it is. */
static void
test_unbroken_units (void)
{
  g_autofree char *speed = cm_text_dup_unbroken_units ("Reads at 27.8 MB/s and writes at 9 MB/s.");
  g_autofree char *other = cm_text_dup_unbroken_units ("1/2 of a / b");
  g_autofree char *path = cm_text_dup_unbroken_units ("Waiting for the card in /dev/sdb/s1 and and/or c/sd");
  g_auto(GStrv) parts = g_strsplit (speed, "MB\u2060/\u2060s", -1);

  g_assert_cmpuint (g_strv_length (parts), ==, 3);
  g_assert_null (strstr (speed, "MB/s"));
  g_assert_cmpstr (other, ==, "1/2 of a / b");
  /* A path or a word pair is read and copied as it is. */
  g_assert_cmpstr (path, ==, "Waiting for the card in /dev/sdb/s1 and and/or c/sd");
  g_assert_null (cm_text_dup_unbroken_units (NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/text/unbroken-units", test_unbroken_units);

  return g_test_run ();
}
