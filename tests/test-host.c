/* test-host.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The host facts, read from a generated folder that stands for "/".
 */

#include "config.h"

#include <glib/gstdio.h>

#include "cm-host.h"

static void
write_file (const char *root,
            const char *path,
            const char *contents,
            gssize      length)
{
  g_autofree char *full = g_build_filename (root, path, NULL);
  g_autofree char *dir = g_path_get_dirname (full);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (full, contents, length, &error);
  g_assert_no_error (error);
}

static char *
make_root (void)
{
  g_autoptr(GError) error = NULL;
  char *root = g_dir_make_tmp ("cm-host-XXXXXX", &error);

  g_assert_no_error (error);
  return root;
}

static void
remove_root (const char *root)
{
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", root);

  g_assert_cmpint (system (command), ==, 0);
}

/* A Raspberry Pi 5 whose slot runs the card at SDR104 with a command
 * queue engine, as its debugfs says. */
static void
test_pi5_slot (void)
{
  g_autofree char *root = make_root ();
  g_autofree char *card = g_build_filename (root, "sys/devices/platform/axi/1000fff000.mmc/mmc_host/mmc0/mmc0:aaaa", NULL);
  g_autoptr(CmHostFacts) facts = NULL;
  /* The model string ends in a NUL, as the device tree's does. */
  static const char model[] = "Raspberry Pi 5 Model B Rev 1.0";

  write_file (root, "proc/device-tree/model", model, sizeof model);
  g_assert_cmpint (g_mkdir_with_parents (card, 0755), ==, 0);
  write_file (root, "sys/kernel/debug/mmc0/ios",
              "clock:\t\t200000000 Hz\nactual clock:\t200000000 Hz\nbus width:\t2 (4 bits)\n"
              "timing spec:\t6 (sd uhs SDR104)\nsignal voltage:\t1 (1.80 V)\n", -1);
  write_file (root, "sys/kernel/debug/mmc0/caps2", "0x01808000\n", -1);

  facts = cm_host_facts_read_from (root, card);
  g_assert_cmpstr (facts->model, ==, model);
  g_assert_true (cm_host_facts_is_raspberry_pi (facts));
  g_assert_cmpstr (facts->bus_timing, ==, "SDR104");
  g_assert_cmpint (facts->queueing, ==, CM_QUEUEING_YES);

  /* Without the engine's bit the slot sends one command at a time. */
  write_file (root, "sys/kernel/debug/mmc0/caps2", "0x00008000\n", -1);
  g_clear_pointer (&facts, cm_host_facts_free);
  facts = cm_host_facts_read_from (root, card);
  g_assert_cmpint (facts->queueing, ==, CM_QUEUEING_NO);

  remove_root (root);
}

/* Where debugfs can't be read (not root), timing and queueing stay
 * unknown rather than guessed; a PC has no device-tree model. */
static void
test_unreadable (void)
{
  g_autofree char *root = make_root ();
  g_autofree char *card = g_build_filename (root, "sys/devices/pci0000:00/mmc_host/mmc1/mmc1:0001", NULL);
  g_autoptr(CmHostFacts) facts = NULL;
  g_autoptr(CmHostFacts) no_card = NULL;

  g_assert_cmpint (g_mkdir_with_parents (card, 0755), ==, 0);
  write_file (root, "sys/kernel/debug/mmc1/ios", "timing spec:\t99 (something new)\n", -1);

  facts = cm_host_facts_read_from (root, card);
  g_assert_null (facts->model);
  g_assert_false (cm_host_facts_is_raspberry_pi (facts));
  g_assert_null (facts->bus_timing);
  g_assert_cmpint (facts->queueing, ==, CM_QUEUEING_UNKNOWN);

  no_card = cm_host_facts_read_from (root, NULL);
  g_assert_null (no_card->bus_timing);

  remove_root (root);
}

static void
test_ceilings (void)
{
  double low = 0, high = 0;

  g_assert_true (cm_bus_timing_get_ceiling ("DDR50", &low, &high));
  g_assert_cmpfloat (low, <, high);
  g_assert_cmpfloat (high, ==, 50);
  g_assert_true (cm_bus_timing_get_ceiling ("SDR104", &low, &high));
  g_assert_cmpfloat (high, ==, 104);
  g_assert_false (cm_bus_timing_get_ceiling ("HS400", &low, &high));
  g_assert_false (cm_bus_timing_get_ceiling (NULL, &low, &high));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/host/pi5-slot", test_pi5_slot);
  g_test_add_func ("/cardmark/host/unreadable", test_unreadable);
  g_test_add_func ("/cardmark/host/ceilings", test_ceilings);

  return g_test_run ();
}
