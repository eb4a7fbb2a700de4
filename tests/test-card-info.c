/* test-card-info.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decodes the real register dumps of sd-register-vectors.tsv and checks the
 * values their sources state (where the SD specification agrees), then the
 * edge cases: malformed input, sysfs folders, JSON. The counterfeit hints
 * have their own test, test-counterfeit.c.
 */

#include "config.h"

#include <glib/gstdio.h>

#include "cm-card-info.h"
#include "cm-counterfeit.h"
#include "cm-test-vectors.h"

#define GIB (G_GUINT64_CONSTANT (1) << 30)

typedef CmTestRow Row;

static GPtrArray *rows;

static const Row *
find_row (const char *id)
{
  return cm_test_vectors_find (rows, id);
}

static CmCardInfo *
decode_row (const Row *row)
{
  g_autoptr(GError) error = NULL;
  CmCardInfo *info = cm_card_info_new_from_registers (row->cid, row->csd, row->scr, row->ssr, &error);

  g_assert_no_error (error);
  g_assert_nonnull (info);
  return info;
}

/* Every row decodes, and every register present yields its fields. */
static void
test_all_rows (void)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *row = g_ptr_array_index (rows, i);
      g_autoptr(CmCardInfo) info = NULL;

      g_test_message ("row %s", row->id);
      info = decode_row (row);

      g_assert_true (cm_card_info_get_registers_available (info));
      if (row->cid[0] != '\0')
        {
          g_assert_cmpint (cm_card_info_get_manufacturer_id (info), >=, 0);
          g_assert_nonnull (cm_card_info_get_product_name (info));
          g_assert_nonnull (cm_card_info_get_serial (info));
        }
      else
        g_assert_cmpint (cm_card_info_get_manufacturer_id (info), ==, -1);

      if (row->csd[0] != '\0')
        g_assert_cmpuint (cm_card_info_get_capacity_bytes (info), >, 0);
      if (row->scr[0] != '\0')
        g_assert_nonnull (cm_card_info_get_spec_version (info));

      if (row->ssr[0] != '\0')
        {
          g_assert_nonnull (cm_card_info_get_speed_class (info));
          g_assert_nonnull (cm_card_info_get_uhs_grade (info));
        }
      else
        {
          g_assert_null (cm_card_info_get_speed_class (info));
          g_assert_cmpint (cm_card_info_get_performance_enhance (info), ==, -1);
        }
    }
}

/* What the sources state, as quoted in each row's notes (cite: row id).
 * NULL and 0 mean "not stated" (MID () shifts manufacturer IDs by one so
 * that 0x00 can be stated). `gib` is the whole GiB figure the
 * source prints ("SDHC 29GB"), `bytes` an exact figure. Where a source's
 * SCR reading disagrees with the specification, the note's spec-table
 * reading is used, as the note says. */
#define MID(x) ((x) + 1)

typedef struct
{
  const char *id;
  int         mid;
  const char *oid;
  const char *pnm;
  const char *rev;
  const char *serial;
  guint64     serial_decimal;
  const char *date;
  guint       gib;
  guint64     bytes;
  const char *spec;
  const char *speed;
  const char *uhs;
  const char *video;
  guint64     au;
  const char *type;
} Expected;

static const Expected expected[] = {
  { .id = "p2-gigastone-00000-32gb", .mid = MID (0x74), .pnm = "00000", .rev = "0.0", .serial = "0x000001c9",
    .date = "2023-07", .gib = 29, .spec = "6.x", .type = "SDHC" },
  { .id = "p2-gigastone-00000-8gb", .mid = MID (0x9f), .oid = "TI", .pnm = "00000", .rev = "0.0",
    .serial = "0x0001b9d5", .date = "2021-09", .gib = 7, .spec = "5.x", .type = "SDHC" },
  /* "PNM ASTC (4 chars + NUL)". */
  { .id = "p2-gigastone-astc-64gb", .mid = MID (0x12), .oid = "4V", .pnm = "ASTC", .rev = "2.0",
    .serial = "0x00000f14", .date = "2023-06", .gib = 58, .spec = "6.x", .type = "SDXC" },
  { .id = "p2-gigastone-sd16g-16gb", .mid = MID (0x00), .oid = "42", .pnm = "SD16G", .rev = "2.0",
    .serial = "0x000003fb", .date = "2025-02", .gib = 14, .spec = "5.x", .type = "SDHC" },
  { .id = "p2-kingston-sd8gb-8gb", .mid = MID (0x41), .oid = "42", .pnm = "SD8GB", .rev = "3.0",
    .serial = "0x43f65dc9", .date = "2015-04", .gib = 7, .spec = "3.0x" },
  { .id = "p2-lexar-mssd0-128gb", .mid = MID (0xc9), .oid = "M`", .pnm = "MSSD0", .rev = "6.1",
    .serial = "0x34490f1e", .date = "2025-04", .gib = 117, .spec = "6.x", .type = "SDXC" },
  { .id = "p2-pny-sd16g-16gb", .mid = MID (0x27), .oid = "PH", .pnm = "SD16G", .rev = "3.0",
    .serial = "0x01cd5cf5", .date = "2018-08", .gib = 14, .spec = "3.0x" },
  { .id = "p2-unbranded-card2-samsung-00000-8gb", .mid = MID (0x1b), .oid = "SM", .pnm = "00000", .rev = "1.0",
    .serial = "0xd9fb539c", .date = "2014-08", .gib = 7, .spec = "3.0x",
    .speed = "C6", .uhs = "U0", .video = "V0" },
  { .id = "p2-samsung-pro-endurance-jd1y7-128gb", .mid = MID (0x1b), .oid = "SM", .pnm = "JD1Y7", .rev = "3.0",
    .serial = "0xd27654a6", .date = "2025-12", .gib = 119, .spec = "6.x" },
  { .id = "p2-sandisk-extreme-pro-aggce-64gb", .mid = MID (0x03), .oid = "SD", .pnm = "AGGCE", .rev = "8.0",
    .serial = "0xdd1c1144", .date = "2017-03", .gib = 59, .spec = "5.x" },
  { .id = "p2-sandisk-extreme-pro-aggcf-128gb", .mid = MID (0x03), .oid = "SD", .pnm = "AGGCF", .rev = "8.0",
    .serial = "0xe05c352b", .date = "2017-07", .gib = 119, .spec = "5.x" },
  { .id = "p2-sandisk-industrial-sa16g-16gb", .mid = MID (0x03), .oid = "SD", .pnm = "SA16G", .rev = "8.0",
    .serial = "0x93e9c0a1", .date = "2025-11", .gib = 14, .spec = "5.x" },
  { .id = "p2-sandisk-max-endurance-sh32g-32gb", .mid = MID (0x03), .oid = "SD", .pnm = "SH32G", .rev = "8.0",
    .serial = "0x5bfeccd8", .date = "2025-08", .gib = 29, .spec = "6.x" },
  { .id = "p2-sandisk-nintendo-switch-sn128-128gb", .mid = MID (0x03), .oid = "SD", .pnm = "SN128", .rev = "8.0",
    .serial = "0xf79e34f6", .date = "2019-12", .gib = 119, .spec = "6.x" },
  { .id = "p2-sandisk-ss08g-taiwan-8gb", .mid = MID (0x03), .oid = "PT", .pnm = "SS08G", .rev = "3.0",
    .serial = "0xdaaee8ad", .date = "2015-09", .gib = 7, .spec = "3.0x" },
  { .id = "p2-unbranded-card1-sandisk-su08g-8gb", .mid = MID (0x03), .oid = "SD", .pnm = "SU08G", .rev = "8.0",
    .serial = "0x0aa81f11", .date = "2010-10", .gib = 7, .spec = "3.0x" },
  /* PNM 'SPCC ': the decoder drops the trailing space padding. */
  { .id = "p2-silicon-power-elite-spcc-64gb", .mid = MID (0x9f), .oid = "TI", .pnm = "SPCC", .rev = "0.7",
    .serial = "0x00940105", .date = "2025-07", .gib = 57, .spec = "6.x" },
  { .id = "p2-wd-purple-qd101-wx64g-64gb", .mid = MID (0x03), .oid = "SD", .pnm = "WX64G", .rev = "8.0",
    .serial = "0xeebad6c0", .date = "2024-03", .gib = 59, .spec = "6.x" },
  /* 1,966,080 sectors of 512 bytes; "SD 1.10". */
  { .id = "p2-lerdisk-asdfg-1gb-counterfeit", .mid = MID (0x05), .pnm = "asdfg", .rev = "2.2",
    .serial = "0x000001f4", .date = "2025-12", .bytes = G_GUINT64_CONSTANT (1966080) * 512,
    .spec = "1.10", .type = "SDSC" },
  /* sysfs: manfid 0x00009f oemid 0x5449 name SD64G hwrev 0x6 fwrev 0x1 serial 0x36980065
   * date 11/2019; kernel: 58.0 GiB. */
  { .id = "lkml-kingston-canvas-go-plus-sd64g-2019-stm32mp135f", .mid = MID (0x9f), .oid = "TI", .pnm = "SD64G",
    .rev = "6.1", .serial = "0x36980065", .date = "2019-11", .bytes = 58 * GIB },
  { .id = "lkml-kingston-canvas-go-plus-sd64g-2019-other-host", .serial = "0x36980065" },
  { .id = "lkml-kingston-canvas-go-plus-sd64g-2023-04", .serial = "0x4b1004af", .date = "2023-04" },
  /* name SC16G manfid 0x000003 oemid 0x5344 hwrev 0x8 fwrev 0x0 serial 0xecf4c851 date 11/2017;
   * 31116288 sectors. */
  { .id = "bbb-sandisk-sc16g-2017", .mid = MID (0x03), .oid = "SD", .pnm = "SC16G", .rev = "8.0",
    .serial = "0xecf4c851", .date = "2017-11", .bytes = G_GUINT64_CONSTANT (31116288) * 512 },
  { .id = "pcengines-sandisk-sc16g", .mid = MID (0x03), .oid = "SD", .pnm = "SC16G", .rev = "8.0",
    .serial = "0x6cb1100a" },
  /* 29.80 GiB -> SDHC; Physical Layer 3.0X; byte8 04h = Class 10; U1; AU 4MB (4194304). */
  { .id = "deskcat-samsung-evo-plus-eb1qt-32gb", .gib = 29, .spec = "3.0x", .speed = "C10", .uhs = "U1",
    .au = 4194304, .type = "SDHC" },
  { .id = "deskcat-sandisk-su16g-2010", .speed = "C2", .uhs = "U0" },
  /* mid 1, oem PA, name Y08AG, rev 19 (0x13), serial 3668033524, 2018-05, 7744782336 bytes,
   * speed_class 2 (Class 4), AU 9, SCR V3. */
  { .id = "sdiohost-panasonic-y08ag-8gb-c4", .mid = MID (0x01), .oid = "PA", .pnm = "Y08AG", .rev = "1.3",
    .serial_decimal = 3668033524u, .date = "2018-05", .bytes = G_GUINT64_CONSTANT (7744782336),
    .spec = "3.0x", .speed = "C4", .au = 4 * 1024 * 1024 },
  /* mid 3, oem SD, name SU08G, rev 128, serial 508307843, 2013-02, 7948206080 bytes,
   * speed_class 2 (Class 4), AU 9, V3. */
  { .id = "sdiohost-sandisk-su08g-8gb-c4", .mid = MID (0x03), .oid = "SD", .pnm = "SU08G", .rev = "8.0",
    .serial_decimal = 508307843u, .date = "2013-02", .bytes = G_GUINT64_CONSTANT (7948206080),
    .spec = "3.0x", .speed = "C4", .au = 4 * 1024 * 1024 },
  { .id = "libmaple-unlabeled-1gb", .mid = MID (0x03), .oid = "SD", .pnm = "SU01G" },
  { .id = "libmaple-atp-2gb", .mid = MID (0x09), .oid = "AP" },
  { .id = "libmaple-sandisk-2gb", .pnm = "SU02G" },
  { .id = "libmaple-transcend-4gb", .mid = MID (0x03), .pnm = "SU04G" },
  { .id = "libmaple-sandisk-8gb", .pnm = "SU08G" },
  { .id = "smc-sandisk-sn512", .mid = MID (0x03), .oid = "SD", .pnm = "SN512", .date = "2021-07" },
  { .id = "usbsdmux-toshiba-sa04g", .mid = MID (0x02), .oid = "TM", .pnm = "SA04G" },
  { .id = "usbsdmux-samsung-gf8s5", .mid = MID (0x1b), .oid = "SM", .pnm = "GF8S5" },
  /* PNM "USD  " (padding dropped), rev 1.0, PSN 1099086791, CSD v1.0. */
  { .id = "usbsdmux-transcend-usd-sdsc", .mid = MID (0x74), .oid = "J`", .pnm = "USD", .rev = "1.0",
    .serial_decimal = 1099086791u, .type = "SDSC" },
  { .id = "usbsdmux-9f-ti-00000", .mid = MID (0x9f), .oid = "TI", .pnm = "00000", .serial = "0xa1114bb5" },
};

static void
test_stated_values (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const Expected *e = &expected[i];
      g_autoptr(CmCardInfo) info = decode_row (find_row (e->id));

      g_test_message ("row %s", e->id);

      if (e->mid != 0)
        g_assert_cmpint (cm_card_info_get_manufacturer_id (info), ==, e->mid - 1);
      if (e->oid != NULL)
        g_assert_cmpstr (cm_card_info_get_oem_id (info), ==, e->oid);
      if (e->pnm != NULL)
        g_assert_cmpstr (cm_card_info_get_product_name (info), ==, e->pnm);
      if (e->rev != NULL)
        g_assert_cmpstr (cm_card_info_get_revision (info), ==, e->rev);
      if (e->serial != NULL)
        g_assert_cmpstr (cm_card_info_get_serial (info), ==, e->serial);
      if (e->serial_decimal != 0)
        {
          g_autofree char *serial = g_strdup_printf ("0x%08" G_GINT64_MODIFIER "x", e->serial_decimal);

          g_assert_cmpstr (cm_card_info_get_serial (info), ==, serial);
        }
      if (e->date != NULL)
        g_assert_cmpstr (cm_card_info_get_manufacture_date (info), ==, e->date);
      if (e->gib != 0)
        g_assert_cmpuint (cm_card_info_get_capacity_bytes (info) / GIB, ==, e->gib);
      if (e->bytes != 0)
        g_assert_cmpuint (cm_card_info_get_capacity_bytes (info), ==, e->bytes);
      if (e->spec != NULL)
        g_assert_cmpstr (cm_card_info_get_spec_version (info), ==, e->spec);
      if (e->speed != NULL)
        g_assert_cmpstr (cm_card_info_get_speed_class (info), ==, e->speed);
      if (e->uhs != NULL)
        g_assert_cmpstr (cm_card_info_get_uhs_grade (info), ==, e->uhs);
      if (e->video != NULL)
        g_assert_cmpstr (cm_card_info_get_video_class (info), ==, e->video);
      if (e->au != 0)
        g_assert_cmpuint (cm_card_info_get_au_size_bytes (info), ==, e->au);
      if (e->type != NULL)
        g_assert_cmpstr (cm_card_info_get_card_type (info), ==, e->type);
    }
}

/* The same card on two hosts: one keeps the CRC byte, one shows 00. */
static void
test_crc_ignored (void)
{
  g_autoptr(CmCardInfo) a = decode_row (find_row ("lkml-kingston-canvas-go-plus-sd64g-2019-stm32mp135f"));
  g_autoptr(CmCardInfo) b = decode_row (find_row ("lkml-kingston-canvas-go-plus-sd64g-2019-other-host"));
  g_autoptr(JsonNode) ja = cm_card_info_to_json (a);
  g_autoptr(JsonNode) jb = cm_card_info_to_json (b);

  g_assert_cmpstr (find_row ("lkml-kingston-canvas-go-plus-sd64g-2019-stm32mp135f")->cid, !=,
                   find_row ("lkml-kingston-canvas-go-plus-sd64g-2019-other-host")->cid);
  g_assert_true (json_node_equal (ja, jb));
}

/* "SSR 6th word 0002ff00 -> cache supported (SSR bit 330)". */
static void
test_performance_enhance (void)
{
  g_autoptr(CmCardInfo) info = decode_row (find_row ("lkml-kingston-canvas-go-plus-sd64g-2019-stm32mp135f"));
  g_autoptr(CmCardInfo) old = decode_row (find_row ("deskcat-sandisk-su16g-2010"));
  g_auto(GStrv) classes = cm_card_info_dup_declared_classes (info);

  g_assert_cmpint (cm_card_info_get_performance_enhance (info), ==, 0xff);
  g_assert_true (cm_card_info_get_cache_supported (info));
  g_assert_cmpuint (cm_card_info_get_command_queue_depth (info), ==, 32);
  g_assert_true (g_strv_contains ((const char * const *) classes, "A2"));

  g_assert_cmpint (cm_card_info_get_performance_enhance (old), ==, 0);
  g_assert_false (cm_card_info_get_cache_supported (old));
  g_assert_cmpuint (cm_card_info_get_command_queue_depth (old), ==, 0);
}

/* A sysfs SSR starts 00000000, one read after the 4-bit switch 80000000. */
static void
test_ssr_bus_width_word (void)
{
  const Row *row = find_row ("sdiohost-panasonic-y08ag-8gb-c4");
  g_autofree char *sysfs_ssr = g_strconcat ("00000000", row->ssr + 8, NULL);
  g_autoptr(CmCardInfo) a = decode_row (row);
  g_autoptr(CmCardInfo) b = cm_card_info_new_from_registers (NULL, NULL, NULL, sysfs_ssr, NULL);
  g_auto(GStrv) ca = cm_card_info_dup_declared_classes (a);
  g_auto(GStrv) cb = cm_card_info_dup_declared_classes (b);

  g_assert_true (g_str_has_prefix (row->ssr, "80000000"));
  g_assert_nonnull (b);
  g_assert_true (g_strv_equal ((const char * const *) ca, (const char * const *) cb));
  g_assert_cmpuint (cm_card_info_get_au_size_bytes (a), ==, cm_card_info_get_au_size_bytes (b));
}

static void
test_declared_classes (void)
{
  g_autoptr(CmCardInfo) samsung = decode_row (find_row ("deskcat-samsung-evo-plus-eb1qt-32gb"));
  g_autoptr(CmCardInfo) old = decode_row (find_row ("deskcat-sandisk-su16g-2010"));
  g_autoptr(CmCardInfo) none = decode_row (find_row ("p2-pny-sd16g-16gb"));
  g_auto(GStrv) a = cm_card_info_dup_declared_classes (samsung);
  g_auto(GStrv) b = cm_card_info_dup_declared_classes (old);
  g_auto(GStrv) c = cm_card_info_dup_declared_classes (none);
  const char * const samsung_classes[] = { "C10", "U1", NULL };
  const char * const old_classes[] = { "C2", NULL };

  g_assert_true (g_strv_equal ((const char * const *) a, samsung_classes));
  g_assert_true (g_strv_equal ((const char * const *) b, old_classes));
  g_assert_cmpuint (g_strv_length (c), ==, 0);
}

static void
assert_error (const char *cid,
              const char *csd,
              const char *scr,
              const char *ssr,
              int         code,
              const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CmCardInfo) info = cm_card_info_new_from_registers (cid, csd, scr, ssr, &error);

  g_assert_null (info);
  g_assert_error (error, CM_CARD_INFO_ERROR, code);
  g_assert_nonnull (strstr (error->message, name));
}

static void
test_malformed (void)
{
  const Row *row = find_row ("bbb-sandisk-sc16g-2017");
  g_autofree char *short_cid = g_strndup (row->cid, 30);
  g_autofree char *long_scr = g_strconcat (row->scr, "00", NULL);
  g_autofree char *bad_csd = g_strdup (row->csd);

  bad_csd[5] = 'g';

  assert_error (short_cid, NULL, NULL, NULL, CM_CARD_INFO_ERROR_WRONG_LENGTH, "CID");
  assert_error (row->cid, bad_csd, NULL, NULL, CM_CARD_INFO_ERROR_INVALID_HEX, "CSD");
  assert_error (NULL, NULL, long_scr, NULL, CM_CARD_INFO_ERROR_WRONG_LENGTH, "SCR");
  assert_error (NULL, NULL, NULL, "00", CM_CARD_INFO_ERROR_WRONG_LENGTH, "SSR");
  assert_error (NULL, NULL, NULL, "zz", CM_CARD_INFO_ERROR_INVALID_HEX, "SSR");
  assert_error ("0x", NULL, "0xx", NULL, CM_CARD_INFO_ERROR_INVALID_HEX, "SCR");
  assert_error ("0x0x035344534331364780ecf4c851011b85", NULL, NULL, NULL,
                CM_CARD_INFO_ERROR_INVALID_HEX, "CID");
  assert_error ("é", NULL, NULL, NULL, CM_CARD_INFO_ERROR_INVALID_HEX, "CID");
}

/* Upper case, a 0x prefix and whitespace are the same register. */
static void
test_tolerant_hex (void)
{
  const Row *row = find_row ("bbb-sandisk-sc16g-2017");
  g_autofree char *upper = g_ascii_strup (row->cid, -1);
  g_autofree char *cid = g_strdup_printf (" 0x%.8s %.8s\n%.8s\t%s\n", upper, upper + 8, upper + 16, upper + 24);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmCardInfo) plain = decode_row (row);
  g_autoptr(CmCardInfo) loose = cm_card_info_new_from_registers (cid, row->csd, row->scr, row->ssr, &error);
  g_autoptr(JsonNode) a = NULL;
  g_autoptr(JsonNode) b = NULL;
  g_autoptr(CmCardInfo) empty = NULL;

  g_assert_no_error (error);
  a = cm_card_info_to_json (plain);
  b = cm_card_info_to_json (loose);
  g_assert_true (json_node_equal (a, b));

  empty = cm_card_info_new_from_registers ("", " \n", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (cm_card_info_get_registers_available (empty));
  g_assert_cmpint (cm_card_info_get_manufacturer_id (empty), ==, -1);
}

static void
write_file (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *line = g_strconcat (text, "\n", NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, line, -1, &error);
  g_assert_no_error (error);
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_assert_cmpint (g_unlink (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_sysfs (void)
{
  const Row *row = find_row ("lkml-kingston-canvas-go-plus-sd64g-2023-04");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-sysfs-XXXXXX", &error);
  g_autofree char *missing = NULL;
  g_autoptr(CmCardInfo) expected_info = decode_row (row);
  g_autoptr(CmCardInfo) info = NULL;
  g_autoptr(CmCardInfo) partial = NULL;
  g_autoptr(CmCardInfo) nothing = NULL;
  g_autoptr(JsonNode) a = NULL;
  g_autoptr(JsonNode) b = NULL;

  g_assert_no_error (error);

  nothing = cm_card_info_new_from_sysfs (dir, &error);
  g_assert_error (error, CM_CARD_INFO_ERROR, CM_CARD_INFO_ERROR_NO_REGISTERS);
  g_assert_null (nothing);
  g_clear_error (&error);

  write_file (dir, "cid", row->cid);
  write_file (dir, "csd", row->csd);
  write_file (dir, "name", "SD64G");

  partial = cm_card_info_new_from_sysfs (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cm_card_info_get_serial (partial), ==, "0x4b1004af");
  g_assert_null (cm_card_info_get_spec_version (partial));
  g_assert_null (cm_card_info_get_speed_class (partial));

  write_file (dir, "scr", row->scr);
  write_file (dir, "ssr", row->ssr);
  info = cm_card_info_new_from_sysfs (dir, &error);
  g_assert_no_error (error);
  a = cm_card_info_to_json (expected_info);
  b = cm_card_info_to_json (info);
  g_assert_true (json_node_equal (a, b));
  g_assert_cmpstr (cm_card_info_get_app_class (info), ==, "A2");

  write_file (dir, "scr", "0235xx");
  g_clear_object (&info);
  info = cm_card_info_new_from_sysfs (dir, &error);
  g_assert_error (error, CM_CARD_INFO_ERROR, CM_CARD_INFO_ERROR_INVALID_HEX);
  g_assert_null (info);
  g_clear_error (&error);

  remove_dir (dir);
  missing = g_build_filename (dir, "device", NULL);
  info = cm_card_info_new_from_sysfs (missing, &error);
  g_assert_error (error, CM_CARD_INFO_ERROR, CM_CARD_INFO_ERROR_NOT_FOUND);
  g_assert_null (info);
}

static const char * const json_keys[] = {
  "registers_available", "unavailable_reason", "brand",
  "manufacturer_id", "manufacturer", "oem_id", "product_name", "revision", "serial",
  "manufacture_date", "capacity_bytes", "write_protected", "spec_version",
  "speed_class", "uhs_grade", "video_class", "app_class", "au_size_bytes",
  "card_type", "performance_enhance",
};

static void
assert_keys (JsonNode *node)
{
  JsonObject *object = json_node_get_object (node);

  g_assert_cmpuint (json_object_get_size (object), ==, G_N_ELEMENTS (json_keys));
  for (guint i = 0; i < G_N_ELEMENTS (json_keys); i++)
    g_assert_true (json_object_has_member (object, json_keys[i]));
}

static void
test_json_round_trip (void)
{
  const char * const a2[] = { "A2", NULL };
  guint n_a2_hints = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      const Row *row = g_ptr_array_index (rows, i);
      g_autoptr(CmCardInfo) info = decode_row (row);
      g_autoptr(CmCardInfo) back = NULL;
      g_autoptr(JsonNode) first = NULL;
      g_autoptr(JsonNode) second = NULL;
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) classes = NULL;
      g_auto(GStrv) classes_back = NULL;
      g_auto(GStrv) hints = NULL;
      g_auto(GStrv) hints_back = NULL;

      cm_card_info_set_brand (info, row->brand[0] != '\0' ? row->brand : NULL);
      first = cm_card_info_to_json (info);
      assert_keys (first);

      back = cm_card_info_new_from_json (first, &error);
      g_assert_no_error (error);
      second = cm_card_info_to_json (back);
      g_assert_true (json_node_equal (first, second));

      classes = cm_card_info_dup_declared_classes (info);
      classes_back = cm_card_info_dup_declared_classes (back);
      g_assert_true (g_strv_equal ((const char * const *) classes, (const char * const *) classes_back));
      g_assert_cmpuint (cm_card_info_get_au_size_bytes (info), ==, cm_card_info_get_au_size_bytes (back));
      g_assert_cmpstr (cm_card_info_get_card_type (info), ==, cm_card_info_get_card_type (back));
      g_assert_cmpint (cm_card_info_get_performance_enhance (info), ==,
                       cm_card_info_get_performance_enhance (back));

      /* A saved result gives the same warnings as the card itself,
       * the A2 ones from PERFORMANCE_ENHANCE included. */
      hints = cm_counterfeit_dup_hints (info, a2);
      hints_back = cm_counterfeit_dup_hints (back, a2);
      g_assert_true (g_strv_equal ((const char * const *) hints, (const char * const *) hints_back));
      n_a2_hints += g_strv_length (hints);
    }

  /* Some of the vectors' cards do draw a warning for an A2 claim. */
  g_assert_cmpuint (n_a2_hints, >, 0);
}

static void
test_json_values (void)
{
  g_autoptr(CmCardInfo) info = decode_row (find_row ("sdiohost-panasonic-y08ag-8gb-c4"));
  g_autoptr(JsonNode) node = cm_card_info_to_json (info);
  JsonObject *object = json_node_get_object (node);

  g_assert_cmpint (json_object_get_int_member (object, "manufacturer_id"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (object, "manufacturer"), ==, "Panasonic");
  g_assert_cmpint (json_object_get_int_member (object, "capacity_bytes"), ==, G_GINT64_CONSTANT (7744782336));
  g_assert_false (json_object_get_boolean_member (object, "write_protected"));
  g_assert_true (json_object_get_boolean_member (object, "registers_available"));
  g_assert_true (json_object_get_null_member (object, "unavailable_reason"));
  g_assert_true (json_object_get_null_member (object, "brand"));
}

static void
test_json_invalid (void)
{
  const char *bad[] = {
    "[1, 2]",
    "{\"manufacturer_id\": \"three\"}",
    "{\"manufacturer_id\": 300}",
    "{\"capacity_bytes\": -5}",
    "{\"write_protected\": 1}",
    "{\"speed_class\": 10}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonNode) node = json_from_string (bad[i], NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(CmCardInfo) info = cm_card_info_new_from_json (node, &error);

      g_assert_null (info);
      g_assert_error (error, CM_CARD_INFO_ERROR, CM_CARD_INFO_ERROR_INVALID_JSON);
    }
}

static void
test_unavailable (void)
{
  const char *reason = "The card's registers can't be read through this USB reader.";
  g_autoptr(CmCardInfo) info = cm_card_info_new_unavailable (reason);
  g_autoptr(JsonNode) node = cm_card_info_to_json (info);
  g_autoptr(CmCardInfo) back = cm_card_info_new_from_json (node, NULL);
  g_auto(GStrv) classes = cm_card_info_dup_declared_classes (info);
  g_auto(GStrv) hints = cm_counterfeit_dup_hints (info, (const char * const[]) { "A2", NULL });

  assert_keys (node);
  g_assert_false (cm_card_info_get_registers_available (info));
  g_assert_cmpstr (cm_card_info_get_unavailable_reason (info), ==, reason);
  g_assert_cmpstr (cm_card_info_get_unavailable_reason (back), ==, reason);
  g_assert_false (cm_card_info_get_registers_available (back));
  g_assert_true (json_object_get_null_member (json_node_get_object (node), "manufacturer_id"));
  g_assert_cmpuint (g_strv_length (classes), ==, 0);
  g_assert_cmpuint (g_strv_length (hints), ==, 0);
  g_assert_cmpuint (cm_card_info_get_au_size_bytes (info), ==, 0);
}

static void
notify_cb (GObject    *object,
           GParamSpec *pspec,
           guint      *count)
{
  (*count)++;
}

static void
test_brand (void)
{
  g_autoptr(CmCardInfo) info = cm_card_info_new ();
  guint count = 0;

  g_signal_connect (info, "notify::brand", G_CALLBACK (notify_cb), &count);
  cm_card_info_set_brand (info, "SanDisk");
  cm_card_info_set_brand (info, "SanDisk");
  g_assert_cmpstr (cm_card_info_get_brand (info), ==, "SanDisk");
  g_assert_cmpuint (count, ==, 1);
  cm_card_info_set_brand (info, NULL);
  g_assert_null (cm_card_info_get_brand (info));
  g_assert_cmpuint (count, ==, 2);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  rows = cm_test_vectors_load ();

  g_test_add_func ("/cardmark/card-info/all-rows", test_all_rows);
  g_test_add_func ("/cardmark/card-info/stated-values", test_stated_values);
  g_test_add_func ("/cardmark/card-info/crc-ignored", test_crc_ignored);
  g_test_add_func ("/cardmark/card-info/performance-enhance", test_performance_enhance);
  g_test_add_func ("/cardmark/card-info/ssr-bus-width-word", test_ssr_bus_width_word);
  g_test_add_func ("/cardmark/card-info/declared-classes", test_declared_classes);
  g_test_add_func ("/cardmark/card-info/malformed", test_malformed);
  g_test_add_func ("/cardmark/card-info/tolerant-hex", test_tolerant_hex);
  g_test_add_func ("/cardmark/card-info/sysfs", test_sysfs);
  g_test_add_func ("/cardmark/card-info/json-round-trip", test_json_round_trip);
  g_test_add_func ("/cardmark/card-info/json-values", test_json_values);
  g_test_add_func ("/cardmark/card-info/json-invalid", test_json_invalid);
  g_test_add_func ("/cardmark/card-info/unavailable", test_unavailable);
  g_test_add_func ("/cardmark/card-info/brand", test_brand);

  status = g_test_run ();
  g_ptr_array_unref (rows);
  return status;
}
