/* test-sd-registers.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The register decoder without the card model: which fields each register
 * yields on the real dumps of sd-register-vectors.tsv, what a failed parse
 * leaves behind, the class names and the maker table. The decoded values
 * themselves are checked against their sources in test-card-info.c.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "cm-card-info.h"
#include "cm-sd-registers.h"
#include "cm-test-vectors.h"

static GPtrArray *rows;

/* A field is known exactly when the register holding it was there. */
static void
assert_fields_follow_registers (const CmSdRegisters *regs)
{
  g_assert_cmpint (regs->manufacturer_id >= 0, ==, regs->has_cid);
  g_assert_cmpint (regs->oem_id != NULL, ==, regs->has_cid);
  g_assert_cmpint (regs->product_name != NULL, ==, regs->has_cid);
  g_assert_cmpint (regs->revision != NULL, ==, regs->has_cid);
  g_assert_cmpint (regs->serial != NULL, ==, regs->has_cid);
  if (!regs->has_cid)
    g_assert_null (regs->manufacture_date);

  g_assert_cmpint (regs->write_protected >= 0, ==, regs->has_csd);
  g_assert_cmpint (regs->capacity_bytes > 0, ==, regs->has_csd);
  if (!regs->has_csd)
    g_assert_null (regs->card_type);

  if (!regs->has_scr)
    g_assert_null (regs->spec_version);

  g_assert_cmpint (regs->performance_enhance >= 0, ==, regs->has_ssr);
  if (!regs->has_ssr)
    {
      g_assert_null (regs->speed_class);
      g_assert_null (regs->uhs_grade);
      g_assert_null (regs->video_class);
      g_assert_null (regs->app_class);
      g_assert_cmpuint (regs->au_size_bytes, ==, 0);
    }
}

/* Every row parses, says which of its registers it held, and agrees
 * with the card model built from the same dumps. */
static void
test_all_rows (void)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const CmTestRow *row = g_ptr_array_index (rows, i);
      g_auto(CmSdRegisters) regs = { 0, };
      g_autoptr(GError) error = NULL;
      g_autoptr(CmCardInfo) info = NULL;

      g_test_message ("row %s", row->id);
      g_assert_true (cm_sd_registers_parse (row->cid, row->csd, row->scr, row->ssr, &regs, &error));
      g_assert_no_error (error);

      g_assert_cmpint (regs.has_cid, ==, row->cid[0] != '\0');
      g_assert_cmpint (regs.has_csd, ==, row->csd[0] != '\0');
      g_assert_cmpint (regs.has_scr, ==, row->scr[0] != '\0');
      g_assert_cmpint (regs.has_ssr, ==, row->ssr[0] != '\0');
      assert_fields_follow_registers (&regs);

      info = cm_card_info_new_from_registers (row->cid, row->csd, row->scr, row->ssr, NULL);
      g_assert_cmpint (cm_card_info_get_manufacturer_id (info), ==, regs.manufacturer_id);
      g_assert_cmpstr (cm_card_info_get_serial (info), ==, regs.serial);
      g_assert_cmpuint (cm_card_info_get_capacity_bytes (info), ==, regs.capacity_bytes);
      g_assert_cmpstr (cm_card_info_get_spec_version (info), ==, regs.spec_version);
      g_assert_cmpstr (cm_card_info_get_app_class (info), ==, regs.app_class);
      g_assert_cmpint (cm_card_info_get_performance_enhance (info), ==, regs.performance_enhance);
    }
}

/* A register that fails leaves nothing decoded from the ones before it,
 * and the struct can be parsed into again. */
static void
test_failed_parse (void)
{
  const CmTestRow *row = cm_test_vectors_find (rows, "bbb-sandisk-sc16g-2017");
  g_autofree char *bad_scr = g_strconcat (row->scr, "00", NULL);
  g_auto(CmSdRegisters) regs = { 0, };
  g_autoptr(GError) error = NULL;

  g_assert_false (cm_sd_registers_parse (row->cid, row->csd, bad_scr, NULL, &regs, &error));
  g_assert_error (error, CM_SD_REGISTERS_ERROR, CM_SD_REGISTERS_ERROR_WRONG_LENGTH);
  g_assert_nonnull (strstr (error->message, "SCR"));
  g_assert_false (regs.has_cid || regs.has_csd || regs.has_scr || regs.has_ssr);
  assert_fields_follow_registers (&regs);
  g_clear_error (&error);

  g_assert_false (cm_sd_registers_parse ("0x", NULL, NULL, "zz", &regs, &error));
  g_assert_error (error, CM_SD_REGISTERS_ERROR, CM_SD_REGISTERS_ERROR_INVALID_HEX);
  g_clear_error (&error);

  g_assert_true (cm_sd_registers_parse (row->cid, NULL, NULL, NULL, &regs, &error));
  g_assert_no_error (error);
  g_assert_true (regs.has_cid);
  assert_fields_follow_registers (&regs);

  /* Clearing twice is harmless, and leaves every value unknown. */
  cm_sd_registers_clear (&regs);
  cm_sd_registers_clear (&regs);
  g_assert_false (regs.has_cid);
  assert_fields_follow_registers (&regs);
}

static void
write_file (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

/* A folder with only some registers, then one without any, then none. */
static void
test_sysfs (void)
{
  const CmTestRow *row = cm_test_vectors_find (rows, "deskcat-samsung-evo-plus-eb1qt-32gb");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-sysfs-XXXXXX", &error);
  g_autofree char *ssr_path = NULL;
  g_auto(CmSdRegisters) regs = { 0, };

  g_assert_no_error (error);
  g_assert_cmpstr (row->ssr, !=, "");

  write_file (dir, "ssr", row->ssr);
  g_assert_true (cm_sd_registers_read_sysfs (dir, &regs, &error));
  g_assert_no_error (error);
  g_assert_false (regs.has_cid || regs.has_csd || regs.has_scr);
  g_assert_true (regs.has_ssr);
  assert_fields_follow_registers (&regs);
  cm_sd_registers_clear (&regs);

  ssr_path = g_build_filename (dir, "ssr", NULL);
  g_assert_cmpint (g_unlink (ssr_path), ==, 0);
  g_assert_false (cm_sd_registers_read_sysfs (dir, &regs, &error));
  g_assert_error (error, CM_SD_REGISTERS_ERROR, CM_SD_REGISTERS_ERROR_NO_REGISTERS);
  g_clear_error (&error);

  g_assert_cmpint (g_rmdir (dir), ==, 0);
  g_assert_false (cm_sd_registers_read_sysfs (dir, &regs, &error));
  g_assert_error (error, CM_SD_REGISTERS_ERROR, CM_SD_REGISTERS_ERROR_NOT_FOUND);
  assert_fields_follow_registers (&regs);
}

static void
test_class_value (void)
{
  g_assert_cmpint (cm_sd_class_value ("U3", 'U'), ==, 3);
  g_assert_cmpint (cm_sd_class_value ("c10", 'C'), ==, 10);
  g_assert_cmpint (cm_sd_class_value ("V0", 'V'), ==, 0);
  g_assert_cmpint (cm_sd_class_value ("A2", 'U'), ==, -1);
  g_assert_cmpint (cm_sd_class_value ("U", 'U'), ==, -1);
  g_assert_cmpint (cm_sd_class_value ("U3+", 'U'), ==, -1);
  g_assert_cmpint (cm_sd_class_value ("U-3", 'U'), ==, -1);
  g_assert_cmpint (cm_sd_class_value ("V1001", 'V'), ==, -1);
  g_assert_cmpint (cm_sd_class_value (NULL, 'C'), ==, -1);
}

/* One entry per MID, each with a name and brands to match labels
 * against, found again by its MID; IDs outside a byte find nothing. */
static void
test_makers (void)
{
  gsize n_makers = 0;
  const CmSdMaker *makers = cm_sd_makers (&n_makers);

  g_assert_cmpuint (n_makers, >, 0);
  for (gsize i = 0; i < n_makers; i++)
    {
      g_assert_true (cm_sd_maker_lookup (makers[i].mid) == &makers[i]);
      g_assert_nonnull (makers[i].name);
      g_assert_nonnull (makers[i].brands);
      /* Only a shared MID may sell under no brand of its own. */
      if (!makers[i].shared)
        g_assert_cmpstr (makers[i].brands, !=, "");
    }

  g_assert_null (cm_sd_maker_lookup (-1));
  g_assert_null (cm_sd_maker_lookup (256));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  rows = cm_test_vectors_load ();

  g_test_add_func ("/cardmark/sd-registers/all-rows", test_all_rows);
  g_test_add_func ("/cardmark/sd-registers/failed-parse", test_failed_parse);
  g_test_add_func ("/cardmark/sd-registers/sysfs", test_sysfs);
  g_test_add_func ("/cardmark/sd-registers/class-value", test_class_value);
  g_test_add_func ("/cardmark/sd-registers/makers", test_makers);

  status = g_test_run ();
  g_ptr_array_unref (rows);
  return status;
}
