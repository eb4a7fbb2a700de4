/* test-power.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The power-cut test's parts that need no card: a self-checking sector
 * tells a whole one from a torn one and from one that belongs elsewhere;
 * its document part is read back only when every value is in range; its
 * state on the host is refused with one byte flipped; and its outcome
 * never calls a card that lost a confirmed write, or damaged data it was
 * not writing, a pass, nor a stopped test one.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>
#include <unistd.h>

#include "cm-outcome.h"
#include "cm-power-hub.h"
#include "cm-power-records.h"
#include "cm-power-report.h"
#include "cm-power-state.h"
#include "cm-verify.h"

static void
test_sectors (void)
{
  guint8 record[CM_POWER_RECORD];
  guint8 blank[CM_POWER_SECTOR] = { 0 };
  guint64 pass = 0;

  cm_power_record_fill (record, sizeof record, 42, 8192, 7);
  for (guint k = 0; k < CM_POWER_RECORD; k += CM_POWER_SECTOR)
    {
      g_assert_cmpint (cm_power_sector_check (record + k, 42, 8192 + k, &pass), ==, CM_POWER_SECTOR_VALID);
      g_assert_cmpuint (pass, ==, 7);
    }
  /* Another run's, or a sector in the wrong place, is not ours. */
  g_assert_cmpint (cm_power_sector_check (record, 43, 8192, NULL), ==, CM_POWER_SECTOR_FOREIGN);
  g_assert_cmpint (cm_power_sector_check (record + CM_POWER_SECTOR, 42, 8192, NULL), ==, CM_POWER_SECTOR_FOREIGN);
  /* A sector never written is not torn. */
  g_assert_cmpint (cm_power_sector_check (blank, 42, 0, NULL), ==, CM_POWER_SECTOR_FOREIGN);
  /* One flipped bit anywhere is damage. */
  for (guint at = 0; at < CM_POWER_SECTOR; at += 37)
    {
      record[at] ^= 0x10;
      g_assert_cmpint (cm_power_sector_check (record, 42, 8192, NULL), ==, CM_POWER_SECTOR_DAMAGED);
      record[at] ^= 0x10;
    }
  /* Passes and slots come from the seed alone, within the area. */
  g_assert_cmpuint (cm_power_write_pass (0, 0), !=, 0);
  g_assert_cmpuint (cm_power_write_pass (1, 0), !=, cm_power_write_pass (0, 0));
  for (guint64 i = 0; i < 1000; i++)
    {
      g_assert_cmpuint (cm_power_write_slot (42, 3, i, 128), <, 128);
      g_assert_cmpuint (cm_power_write_slot (42, 3, i, 128), ==, cm_power_write_slot (42, 3, i, 128));
    }
}

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_report (void)
{
  static const char *hostile[] = {
    "{\"cuts_planned\":2,\"area_bytes\":1048576,\"cuts\":[{\"kept\":-1,\"lost\":0,\"new\":0,\"old\":0,\"torn\":0,\"collateral_sectors\":0,\"back_seconds\":1}]}",
    "{\"cuts_planned\":2,\"area_bytes\":1048576,\"cuts\":[{\"kept\":1.5,\"lost\":0,\"new\":0,\"old\":0,\"torn\":0,\"collateral_sectors\":0,\"back_seconds\":1}]}",
    "{\"cuts_planned\":2,\"area_bytes\":1048576,\"cuts\":[{\"kept\":\"1\",\"lost\":0,\"new\":0,\"old\":0,\"torn\":0,\"collateral_sectors\":0,\"back_seconds\":1}]}",
    "{\"cuts_planned\":2,\"area_bytes\":1048576,\"cuts\":[{\"kept\":1,\"lost\":0,\"new\":0,\"old\":0,\"torn\":0,\"collateral_sectors\":1,\"back_seconds\":1}]}",
    "{\"cuts_planned\":2,\"area_bytes\":1048576,\"cuts\":{}}",
    "{\"cuts_planned\":2,\"area_bytes\":1048576,\"cuts\":[{\"kept\":1,\"lost\":0,\"new\":0,\"old\":0,\"torn\":0,\"collateral_sectors\":0,\"back_seconds\":1e300}]}",
    "[]",
  };
  g_autoptr(CmPowerReport) report = cm_power_report_new ();
  g_autoptr(CmPowerReport) back = NULL;
  g_autoptr(JsonNode) node = NULL;
  CmPowerCut cut = { .kept = 40, .lost = 2, .fresh = 1, .old = 2, .torn = 1, .collateral = 3,
                     .collateral_first = 12288, .back_seconds = 1.5 };
  guint cuts;
  guint64 first;

  report->cuts_planned = 3;
  report->area = 1 << 20;
  report->method = g_strdup ("commands");
  report->stopped = TRUE;
  g_array_append_val (report->cuts, cut);
  node = cm_power_report_to_json (report);
  back = cm_power_report_from_json (node);
  g_assert_nonnull (back);
  g_assert_cmpuint (back->cuts->len, ==, 1);
  g_assert_true (back->stopped);
  g_assert_cmpmem (back->cuts->data, sizeof cut, &cut, sizeof cut);
  g_assert_cmpuint (cm_power_report_lost (back, &cuts), ==, 2);
  g_assert_cmpuint (cm_power_report_collateral (back, &cuts, &first), ==, 3);
  g_assert_cmpuint (first, ==, 12288);

  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      g_autoptr(JsonNode) bad = parse (hostile[i]);
      g_autoptr(CmPowerReport) refused = cm_power_report_from_json (bad);

      g_assert_null (refused);
    }
}

static void
test_state (void)
{
  g_autofree char *folder = g_dir_make_tmp ("cardmark-power-XXXXXX", NULL);
  g_autoptr(CmPowerState) state = cm_power_state_new ("/dev/null", 1 << 24, folder);
  g_autoptr(CmPowerState) again = cm_power_state_new ("/dev/null", 1 << 24, folder);
  g_autoptr(CmPowerState) flipped = cm_power_state_new ("/dev/null", 1 << 24, folder);
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  CmPowerCut cut = { .kept = 9, .lost = 1, .old = 3, .collateral = 2, .collateral_first = 4096, .back_seconds = 0.25 };
  gsize length;
  char *at;

  state->run = 0x1234567890abcdefULL;
  state->area = 1 << 20;
  state->cuts_planned = 4;
  state->started = 1700000000;
  state->phase = CM_POWER_PHASE_OFF;
  state->confirmed = 28;
  state->reference_sha256 = g_strdup ("ab12");
  g_array_append_val (state->cuts, cut);
  g_assert_true (cm_power_state_save (state, &error));
  g_assert_no_error (error);

  g_assert_true (cm_power_state_load (again, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (again->run, ==, state->run);
  g_assert_cmpuint (again->confirmed, ==, 28);
  g_assert_cmpint (again->phase, ==, CM_POWER_PHASE_OFF);
  g_assert_cmpuint (again->cuts->len, ==, 1);
  g_assert_cmpmem (again->cuts->data, sizeof cut, &cut, sizeof cut);

  /* One byte flipped: refused as damaged, never believed. */
  g_assert_true (g_file_get_contents (state->path, &data, &length, NULL));
  at = strstr (data, "confirmed=");
  g_assert_nonnull (at);
  at[strlen ("confirmed=")] ^= 0x01;
  g_assert_true (g_file_set_contents (state->path, data, length, NULL));
  g_assert_false (cm_power_state_load (flipped, &error));
  g_assert_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_DAMAGED);

  cm_power_state_remove (state);
  g_assert_false (cm_power_state_exists (state));
  g_rmdir (folder);
}

/* A fixture sysfs: /sys/class/block/NAME links to a device path. */
static void
plant (const char *sysfs,
       const char *name,
       const char *devpath)
{
  g_autofree char *dir = g_build_filename (sysfs, devpath, NULL);
  g_autofree char *classdir = g_build_filename (sysfs, "class", "block", NULL);
  g_autofree char *link = g_build_filename (classdir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (classdir, 0755), ==, 0);
  g_assert_cmpint (symlink (dir, link), ==, 0);
}

static void
write_id (const char *sysfs,
          const char *hubpath,
          const char *vendor,
          const char *product)
{
  g_autofree char *v = g_build_filename (sysfs, hubpath, "idVendor", NULL);
  g_autofree char *p = g_build_filename (sysfs, hubpath, "idProduct", NULL);

  g_assert_true (g_file_set_contents (v, vendor, -1, NULL));
  g_assert_true (g_file_set_contents (p, product, -1, NULL));
}

static void
test_hub (void)
{
  g_autofree char *sysfs = g_dir_make_tmp ("cardmark-sysfs-XXXXXX", NULL);
  g_autoptr(CmPowerHub) behind = NULL;
  g_autoptr(CmPowerHub) pi = NULL;
  g_autoptr(CmPowerHub) root = NULL;
  g_autoptr(CmPowerHub) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *off = NULL;
  g_autofree char *cleanup = NULL;

  /* A reader on port 3 of a hub on port 1 of bus 1. */
  plant (sysfs, "sdb", "devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1.3/1-1.3:1.0/host0/target0:0:0/0:0:0:0/block/sdb");
  write_id (sysfs, "devices/pci0000:00/0000:00:14.0/usb1/1-1", "05e3\n", "0610\n");
  /* A Raspberry Pi 4's own port: its VL805 hub gangs them. */
  plant (sysfs, "sdc", "devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb1/1-1/1-1.4/1-1.4:1.0/host1/target1:0:0/1:0:0:0/block/sdc");
  write_id (sysfs, "devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb1/1-1", "2109\n", "3431\n");
  /* A reader on the root hub's port 2 of bus 2. */
  plant (sysfs, "sdd", "devices/pci0000:00/0000:00:14.0/usb2/2-2/2-2:1.0/host2/target2:0:0/2:0:0:0/block/sdd");
  /* No USB at all. */
  plant (sysfs, "loop3", "devices/virtual/block/loop3");

  behind = cm_power_hub_find (sysfs, "/dev/sdb", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (behind->location, ==, "1-1");
  g_assert_cmpuint (behind->port, ==, 3);
  g_assert_false (behind->ganged);
  g_assert_cmpstr (behind->hub_id, ==, "05e3:0610");
  off = cm_power_hub_dup_command (behind, FALSE);
  g_assert_cmpstr (off, ==, "uhubctl -l '1-1' -p 3 -a off");

  pi = cm_power_hub_find (sysfs, "sdc", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (pi->location, ==, "1-1");
  g_assert_cmpuint (pi->port, ==, 4);
  g_assert_true (pi->ganged);

  root = cm_power_hub_find (sysfs, "/dev/sdd", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (root->location, ==, "2");
  g_assert_cmpuint (root->port, ==, 2);

  loop = cm_power_hub_find (sysfs, "/dev/loop3", &error);
  g_assert_null (loop);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);

  cleanup = g_strdup_printf ("rm -rf '%s'", sysfs);
  g_assert_true (g_spawn_command_line_sync (cleanup, NULL, NULL, NULL, NULL));
}

static CmOutcome *
outcome_of (CmPowerCut cut,
            gboolean   stopped)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(CmPowerReport) report = cm_power_report_new ();

  report->cuts_planned = 2;
  report->area = 1 << 20;
  report->method = g_strdup ("commands");
  report->stopped = stopped;
  g_array_append_val (report->cuts, cut);
  if (!stopped)
    g_array_append_val (report->cuts, (CmPowerCut) { .kept = 5 });
  cm_result_set_kind (result, "power");
  {
    g_autoptr(JsonNode) part = cm_power_report_to_json (report);

    cm_result_set_part (result, part);
  }
  return cm_result_dup_outcome (result);
}

static void
test_outcome (void)
{
  g_autoptr(CmOutcome) kept = outcome_of ((CmPowerCut) { .kept = 5, .old = 2 }, FALSE);
  g_autoptr(CmOutcome) lost = outcome_of ((CmPowerCut) { .kept = 5, .lost = 3 }, FALSE);
  g_autoptr(CmOutcome) hit = outcome_of ((CmPowerCut) { .kept = 5, .collateral = 4, .collateral_first = 12800 }, FALSE);
  g_autoptr(CmOutcome) stopped = outcome_of ((CmPowerCut) { .kept = 5 }, TRUE);
  g_autoptr(CmOutcome) stopped_lost = outcome_of ((CmPowerCut) { .kept = 5, .lost = 1 }, TRUE);

  g_assert_cmpint (kept->status, ==, CM_OUTCOME_PASS);
  g_assert_cmpint (kept->exit_status, ==, 0);
  g_assert_cmpstr (kept->answer, ==, "Kept all it confirmed · 2 of 2 cuts");
  g_assert_cmpint (lost->status, ==, CM_OUTCOME_FAIL);
  g_assert_cmpint (lost->exit_status, ==, 4);
  g_assert_cmpstr (lost->answer, ==, "Lost confirmed writes in 1 of 2 cuts · 3 records");
  g_assert_cmpint (hit->status, ==, CM_OUTCOME_FAIL);
  g_assert_cmpint (hit->exit_status, ==, 4);
  g_assert_nonnull (strstr (hit->answer, "12800"));
  g_assert_cmpint (stopped->status, ==, CM_OUTCOME_STOPPED);
  g_assert_cmpint (stopped->exit_status, ==, CM_OUTCOME_EXIT_STOPPED);
  g_assert_cmpint (stopped_lost->status, ==, CM_OUTCOME_FAIL);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cardmark/power/sectors", test_sectors);
  g_test_add_func ("/cardmark/power/report", test_report);
  g_test_add_func ("/cardmark/power/state", test_state);
  g_test_add_func ("/cardmark/power/outcome", test_outcome);
  g_test_add_func ("/cardmark/power/hub", test_hub);
  return g_test_run ();
}
