/* test-queue-host.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What is, for command queueing, read from the fixture trees of
 * tests/fixtures/queue-host (make-fixtures.py), and the card table
 * matched by the kernel's rules on the kernel's own entries.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cm-queue-host.h"
#include "cm-queue-quirks.h"

static CmQueueHost *
read_fixture (const char *name)
{
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "fixtures", "queue-host", name, NULL);

  g_assert_true (g_file_test (root, G_FILE_TEST_IS_DIR));
  return cm_queue_host_read_from (root, "mmcblk0");
}

static void
assert_words (const CmQueueHost *facts,
              const char        *expected)
{
  g_autofree char *words = cm_queue_host_describe (facts);

  g_assert_cmpstr (words, ==, expected);
}

static void
test_pi5_good (void)
{
  g_autoptr(CmQueueHost) facts = read_fixture ("pi5-good");

  g_assert_cmpint (facts->kind, ==, CM_QUEUE_HOST_PI5);
  g_assert_cmpstr (facts->model, ==, "Raspberry Pi 5 Model B Rev 1.0");
  g_assert_cmpint (facts->sd_cqe, ==, 1);
  g_assert_cmpint (facts->slot, ==, CM_QUEUEING_YES);
  g_assert_cmpint (facts->now, ==, CM_QUEUEING_YES);
  g_assert_cmpuint (facts->queue_depth, ==, 31);
  g_assert_cmpint (facts->listing, ==, CM_CQE_LISTING_ALLOWED);
  g_assert_cmpstr (facts->listed_by, ==, "MMC_QUIRK_WORKING_SD_CQ");
  assert_words (facts, "Queueing on for this card");
}

static void
test_pi5_bad (void)
{
  g_autoptr(CmQueueHost) facts = read_fixture ("pi5-bad");

  g_assert_cmpint (facts->kind, ==, CM_QUEUE_HOST_PI5);
  g_assert_cmpint (facts->sd_cqe, ==, 2);
  g_assert_cmpint (facts->now, ==, CM_QUEUEING_NO);
  g_assert_cmpuint (facts->queue_depth, ==, 64);
  g_assert_cmpint (facts->listing, ==, CM_CQE_LISTING_DENIED);
  g_assert_cmpstr (facts->listed_by, ==, "MMC_QUIRK_BROKEN_SD_CACHE");
  assert_words (facts, "Known bad · the kernel keeps queueing off for it");
}

static void
test_pi5_unknown (void)
{
  g_autoptr(CmQueueHost) off = read_fixture ("pi5-unknown-cqe1");
  g_autoptr(CmQueueHost) on = read_fixture ("pi5-unknown-cqe2");

  g_assert_cmpint (off->sd_cqe, ==, 1);
  g_assert_cmpint (off->now, ==, CM_QUEUEING_NO);
  g_assert_cmpint (off->listing, ==, CM_CQE_LISTING_NEITHER);
  g_assert_null (off->listed_by);
  assert_words (off, "Queueing off for this card · the kernel does not know it: "
                     "to try it, dtparam=sd_cqe=2, restart, and check again");

  /* The same card after dtparam=sd_cqe=2 and a restart. */
  g_assert_cmpint (on->sd_cqe, ==, 2);
  g_assert_cmpint (on->now, ==, CM_QUEUEING_YES);
  g_assert_cmpint (on->listing, ==, CM_CQE_LISTING_NEITHER);
  assert_words (on, "Queueing on for this card");
}

/* A CM5 with dtparam=sd_cqe=0 and no debugfs (not root): a known-good
 * card, not queued. */
static void
test_cm5_cqe0 (void)
{
  g_autoptr(CmQueueHost) facts = read_fixture ("cm5-good-cqe0");
  g_autoptr(CmQueueHost) copy = NULL;

  g_assert_cmpint (facts->kind, ==, CM_QUEUE_HOST_PI5);
  g_assert_cmpint (facts->sd_cqe, ==, 0);
  g_assert_cmpint (facts->slot, ==, CM_QUEUEING_UNKNOWN);
  g_assert_cmpint (facts->now, ==, CM_QUEUEING_NO);
  g_assert_cmpint (facts->listing, ==, CM_CQE_LISTING_ALLOWED);
  assert_words (facts, "Queueing off · dtparam=sd_cqe=0 turns it off for every card");

  copy = g_boxed_copy (CM_TYPE_QUEUE_HOST, facts);
  g_assert_cmpstr (copy->model, ==, facts->model);
  g_assert_cmpstr (copy->listed_by, ==, facts->listed_by);
  g_assert_cmpint (copy->sd_cqe, ==, facts->sd_cqe);
}

static void
test_pi4 (void)
{
  g_autoptr(CmQueueHost) facts = read_fixture ("pi4");

  g_assert_cmpint (facts->kind, ==, CM_QUEUE_HOST_RASPBERRY_PI);
  g_assert_cmpint (facts->sd_cqe, ==, -1);
  g_assert_cmpint (facts->slot, ==, CM_QUEUEING_NO);
  g_assert_cmpint (facts->now, ==, CM_QUEUEING_NO);
  assert_words (facts, "This slot does not queue commands to SD cards");
}

static void
test_laptop (void)
{
  g_autoptr(CmQueueHost) facts = read_fixture ("laptop");

  g_assert_cmpint (facts->kind, ==, CM_QUEUE_HOST_OTHER);
  g_assert_null (facts->model);
  g_assert_cmpint (facts->sd_cqe, ==, -1);
  g_assert_cmpint (facts->slot, ==, CM_QUEUEING_NO);
  g_assert_cmpint (facts->now, ==, CM_QUEUEING_NO);
  /* The table is the Pi kernel's; it is still matched, the words don't
   * use it on a host that cannot queue. */
  g_assert_cmpint (facts->listing, ==, CM_CQE_LISTING_DENIED);
  assert_words (facts, "This slot does not queue commands to SD cards");
}

/* Without a card only the host is read. */
static void
test_no_card (void)
{
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "fixtures", "queue-host", "pi5-good", NULL);
  g_autoptr(CmQueueHost) facts = cm_queue_host_read_from (root, NULL);

  g_assert_cmpint (facts->kind, ==, CM_QUEUE_HOST_PI5);
  g_assert_cmpint (facts->sd_cqe, ==, 1);
  g_assert_cmpint (facts->now, ==, CM_QUEUEING_UNKNOWN);
  g_assert_cmpint (facts->listing, ==, CM_CQE_LISTING_UNKNOWN);
  assert_words (facts, "Whether queueing is on could not be read");
}

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

static int
sd_cqe_of (const char *root)
{
  g_autoptr(CmQueueHost) facts = cm_queue_host_read_from (root, NULL);

  return facts->sd_cqe;
}

/* The slot's supports-cqe as the device tree may hold it: one cell (the
 * kernels since January 2025), an empty boolean (before: every A2 card
 * not known bad was queued, as sd_cqe=2 does now), absent (no engine),
 * or a cell of another size, which is not read. */
static void
test_sd_cqe_forms (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("cm-queue-host-XXXXXX", &error);
  g_autofree char *command = NULL;
  static const char compatible[] = "raspberrypi,5-model-b\0brcm,bcm2712";
  static const char alias[] = "/axi/mmc@1000fff000";
  static const char cell[] = { 0, 0, 0, 2 };
  const char *property = "proc/device-tree/axi/mmc@1000fff000/supports-cqe";

  g_assert_no_error (error);
  write_file (root, "proc/device-tree/compatible", compatible, sizeof compatible);
  g_assert_cmpint (sd_cqe_of (root), ==, -1);

  write_file (root, "proc/device-tree/aliases/mmc0", alias, sizeof alias);
  g_assert_cmpint (sd_cqe_of (root), ==, 0);
  write_file (root, property, cell, sizeof cell);
  g_assert_cmpint (sd_cqe_of (root), ==, 2);
  write_file (root, property, "", 0);
  g_assert_cmpint (sd_cqe_of (root), ==, 2);
  write_file (root, property, cell, 2);
  g_assert_cmpint (sd_cqe_of (root), ==, -1);

  command = g_strdup_printf ("rm -rf '%s'", root);
  g_assert_cmpint (system (command), ==, 0);
}

static CmCqeCid
make_cid (guint       manfid,
          guint16     oemid,
          const char *name,
          guint8      hwrev,
          guint8      fwrev,
          guint16     year,
          guint8      month)
{
  CmCqeCid cid = { .manfid = manfid, .oemid = oemid, .hwrev = hwrev, .fwrev = fwrev,
                   .year = year, .month = month };

  g_strlcpy (cid.prod_name, name, sizeof cid.prod_name);
  return cid;
}

static CmCqeListing
lookup (CmCqeCid cid)
{
  return cm_cqe_quirks_lookup (&cid, NULL);
}

/* Each entry of the kernel's table matches a card made from it: its
 * fields, a wildcard's field set to something no entry names, the
 * revision at its lower bound. */
static void
test_table_entries (void)
{
  guint n_fixups;
  const CmCqeFixup *fixups = cm_cqe_quirks_table (&n_fixups);

  g_assert_cmpuint (n_fixups, >, 0);
  g_assert_nonnull (strstr (cm_cqe_quirks_kernel (), "df08c95cdb113b3087de5b940a8c8998f5e81db1"));

  for (guint i = 0; i < n_fixups; i++)
    {
      const CmCqeFixup *f = &fixups[i];
      guint8 hwrev = (f->rev_start >> 40) & 0xff;
      guint8 fwrev = (f->rev_start >> 32) & 0xff;
      guint16 year = f->year != CM_CID_YEAR_ANY ? f->year : MAX ((f->rev_start >> 16) & 0xffff, 2031);
      guint8 month = f->month != CM_CID_MONTH_ANY ? f->month : 11;
      CmCqeCid cid = make_cid (f->manfid, f->oemid, f->name != NULL ? f->name : "ZZ99Z",
                               hwrev, fwrev, year, month);
      const CmCqeFixup *matched = NULL;

      g_assert_true (cm_cqe_fixup_matches (f, &cid));
      g_assert_cmpint (cm_cqe_quirks_lookup (&cid, &matched), ==, f->listing);
      g_assert_cmpstr (matched->why, ==, f->why);
    }
}

/* The kernel's wildcards: CID_NAME_ANY, CID_MONTH_ANY, CID_YEAR_ANY
 * match whatever the card says. A matcher taking a wildcard as a value
 * to compare fails here. */
static void
test_table_wildcards (void)
{
  /* Kingston Canvas Go! Plus, name and month any: 2021 in any month. */
  g_assert_cmpint (lookup (make_cid (0x9f, 0x5449, "SD64G", 1, 0, 2021, 1)), ==, CM_CQE_LISTING_DENIED);
  g_assert_cmpint (lookup (make_cid (0x9f, 0x5449, "SD128", 2, 1, 2021, 12)), ==, CM_CQE_LISTING_DENIED);
  /* Raspberry Pi cards, year and month any from hardware revision 1. */
  g_assert_cmpint (lookup (make_cid (0xad, 0x4c53, "SD32G", 1, 0, 2024, 3)), ==, CM_CQE_LISTING_ALLOWED);
  g_assert_cmpint (lookup (make_cid (0xad, 0x4c53, "SD128", 1, 0, 2030, 9)), ==, CM_CQE_LISTING_ALLOWED);
}

/* The fields and bounds: year and month exact, the revision range over
 * cid_rev(hwrev, fwrev, year, month). A matcher that ignored a bound or
 * a field fails here. */
static void
test_table_bounds (void)
{
  /* Kingston: the years 2019 to 2022 only; other makers and OEMs not. */
  g_assert_cmpint (lookup (make_cid (0x9f, 0x5449, "SD64G", 1, 0, 2019, 6)), ==, CM_CQE_LISTING_DENIED);
  g_assert_cmpint (lookup (make_cid (0x9f, 0x5449, "SD64G", 1, 0, 2023, 6)), ==, CM_CQE_LISTING_NEITHER);
  g_assert_cmpint (lookup (make_cid (0x9f, 0x5450, "SD64G", 1, 0, 2021, 6)), ==, CM_CQE_LISTING_NEITHER);
  g_assert_cmpint (lookup (make_cid (0x9e, 0x5449, "SD64G", 1, 0, 2021, 6)), ==, CM_CQE_LISTING_NEITHER);
  /* Gigastone "ASTC" of 02/2022: the name and the month count. */
  g_assert_cmpint (lookup (make_cid (0x12, 0x3456, "ASTC", 1, 0, 2022, 2)), ==, CM_CQE_LISTING_DENIED);
  g_assert_cmpint (lookup (make_cid (0x12, 0x3456, "ASTC", 1, 0, 2022, 3)), ==, CM_CQE_LISTING_NEITHER);
  g_assert_cmpint (lookup (make_cid (0x12, 0x3456, "ASTD", 1, 0, 2022, 2)), ==, CM_CQE_LISTING_NEITHER);
  /* Samsung of 2023 only. */
  g_assert_cmpint (lookup (make_cid (0x1b, 0x534d, "EB1QT", 3, 0, 2023, 10)), ==, CM_CQE_LISTING_DENIED);
  g_assert_cmpint (lookup (make_cid (0x1b, 0x534d, "EB1QT", 3, 0, 2024, 10)), ==, CM_CQE_LISTING_NEITHER);
  /* Raspberry Pi cards from cid_rev(1, 0, 0, 0): hardware revision 0 is
   * below it whatever its firmware and date. */
  g_assert_cmpint (lookup (make_cid (0xad, 0x4c53, "SD64G", 0, 15, 2099, 12)), ==, CM_CQE_LISTING_NEITHER);
  /* Transcend from cid_rev(2, 0, 2026, 4): the date bound under the same
   * revisions, and a later revision that outranks any date. */
  g_assert_cmpint (lookup (make_cid (0x74, 0x4a60, "USD00", 2, 0, 2026, 4)), ==, CM_CQE_LISTING_ALLOWED);
  g_assert_cmpint (lookup (make_cid (0x74, 0x4a60, "USD00", 2, 0, 2026, 3)), ==, CM_CQE_LISTING_NEITHER);
  g_assert_cmpint (lookup (make_cid (0x74, 0x4a60, "USD00", 2, 0, 2025, 12)), ==, CM_CQE_LISTING_NEITHER);
  g_assert_cmpint (lookup (make_cid (0x74, 0x4a60, "USD00", 2, 1, 2020, 1)), ==, CM_CQE_LISTING_ALLOWED);
  g_assert_cmpint (lookup (make_cid (0x74, 0x4a60, "USD00", 1, 15, 2030, 1)), ==, CM_CQE_LISTING_NEITHER);
}

/* The CID fields through the project's decoder: a SanDisk CID with the
 * kernel's field values (manfid 0x03, oemid 0x5344, hwrev 8, fwrev 6,
 * 05/2020). */
static void
test_cid_from_registers (void)
{
  g_auto(CmSdRegisters) regs = { 0, };
  g_autoptr(GError) error = NULL;
  CmCqeCid cid;

  cm_sd_registers_parse ("035344534e36344786123456780145ef", NULL, NULL, NULL, &regs, &error);
  g_assert_no_error (error);
  g_assert_true (cm_cqe_cid_from_registers (&regs, &cid));
  g_assert_cmpuint (cid.manfid, ==, 0x03);
  g_assert_cmphex (cid.oemid, ==, 0x5344);
  g_assert_cmpstr (cid.prod_name, ==, "SN64G");
  g_assert_cmpuint (cid.hwrev, ==, 8);
  g_assert_cmpuint (cid.fwrev, ==, 6);
  g_assert_cmpuint (cid.year, ==, 2020);
  g_assert_cmpuint (cid.month, ==, 5);
  g_assert_cmpint (cm_cqe_quirks_lookup (&cid, NULL), ==, CM_CQE_LISTING_DENIED);

  cm_sd_registers_clear (&regs);
  cm_sd_registers_init (&regs);
  g_assert_false (cm_cqe_cid_from_registers (&regs, &cid));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/queue-host/pi5-good", test_pi5_good);
  g_test_add_func ("/cardmark/queue-host/pi5-bad", test_pi5_bad);
  g_test_add_func ("/cardmark/queue-host/pi5-unknown", test_pi5_unknown);
  g_test_add_func ("/cardmark/queue-host/cm5-cqe0", test_cm5_cqe0);
  g_test_add_func ("/cardmark/queue-host/pi4", test_pi4);
  g_test_add_func ("/cardmark/queue-host/laptop", test_laptop);
  g_test_add_func ("/cardmark/queue-host/no-card", test_no_card);
  g_test_add_func ("/cardmark/queue-host/sd-cqe-forms", test_sd_cqe_forms);
  g_test_add_func ("/cardmark/queue-host/table-entries", test_table_entries);
  g_test_add_func ("/cardmark/queue-host/table-wildcards", test_table_wildcards);
  g_test_add_func ("/cardmark/queue-host/table-bounds", test_table_bounds);
  g_test_add_func ("/cardmark/queue-host/cid-from-registers", test_cid_from_registers);

  return g_test_run ();
}
