/* test-device.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Devices are listed in the order people count them.
 */

#include "config.h"

#include "cm-device.h"

/* loop2 before loop10, as a person counts; the names sorted as bytes
 * (loop1, loop10, loop2) are not. */
static void
test_natural_order (void)
{
  const char *paths[] = { "/dev/loop10", "/dev/loop2", "/dev/loop1", "/dev/sdb", "/dev/mmcblk0", "/dev/loop9" };
  const char *counted[] = { "/dev/loop1", "/dev/loop2", "/dev/loop9", "/dev/loop10", "/dev/mmcblk0", "/dev/sdb" };
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      guint at = 0;

      while (at < sorted->len && cm_device_compare_paths (g_ptr_array_index (sorted, at), paths[i]) <= 0)
        at++;
      g_ptr_array_insert (sorted, at, (gpointer) paths[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (counted); i++)
    g_assert_cmpstr (g_ptr_array_index (sorted, i), ==, counted[i]);
  g_assert_cmpint (cm_device_compare_paths ("/dev/loop2", "/dev/loop2"), ==, 0);
  g_assert_cmpint (cm_device_compare_paths (NULL, "/dev/loop2"), <, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/device/natural-order", test_natural_order);

  return g_test_run ();
}
