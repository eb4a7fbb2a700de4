/* cm-sd-registers.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decodes an SD card's CID, CSD, SCR and SD Status (SSR) register dumps
 * into plain fields. Field positions follow the SD Physical Layer
 * Simplified Specification as summarised in
 * tests/data/reference/sd-cards.md; bit 0 is the last bit of the last
 * byte, which is the order Linux prints the registers in sysfs.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "cm-sd-registers.h"

#define CID_BYTES 16
#define CSD_BYTES 16
#define SCR_BYTES 8
#define SSR_BYTES 64

G_DEFINE_QUARK (cm-sd-registers-error-quark, cm_sd_registers_error)

/* Makers by CID MID, from tests/data/reference/sd-cards.md. A brand not
 * listed for a shared MID is no warning sign. */
static const CmSdMaker makers[] = {
  { 0x01, "Panasonic", NULL, FALSE, "Panasonic" },
  { 0x02, "Toshiba / Kioxia", NULL, FALSE, "Toshiba|Kioxia|Kingston" },
  { 0x03, "SanDisk", "SD", FALSE, "SanDisk|Western Digital" },
  { 0x08, "Silicon Power", NULL, FALSE, "Silicon Power" },
  { 0x12, "Patriot / Gigastone", NULL, FALSE, "Patriot|Gigastone" },
  { 0x18, "Infineon", NULL, FALSE, "Infineon" },
  { 0x1b, "Samsung", "SM", FALSE, "Samsung" },
  { 0x1c, "Transcend", NULL, FALSE, "Transcend" },
  { 0x1d, "ADATA / Corsair", NULL, FALSE, "ADATA|Corsair" },
  { 0x1e, "Transcend", NULL, FALSE, "Transcend" },
  { 0x27, "Phison", NULL, TRUE, "Delkin|PNY|Kingston|Lexar" },
  { 0x28, "Lexar", NULL, FALSE, "Lexar" },
  { 0x31, "Silicon Power", NULL, FALSE, "Silicon Power" },
  { 0x41, "Kingston", NULL, FALSE, "Kingston" },
  { 0x6f, "STMicroelectronics / Longsys OEMs", NULL, TRUE, "" },
  { 0x74, "Transcend", NULL, FALSE, "Transcend" },
  { 0x76, "Patriot", NULL, FALSE, "Patriot" },
  { 0x82, "Sony", NULL, FALSE, "Sony" },
  { 0x9f, "Shared OEM (TI)", NULL, TRUE, "" },
  { 0xad, "Longsys", NULL, TRUE, "Lexar|Raspberry Pi" },
};

const CmSdMaker *
cm_sd_maker_lookup (int mid)
{
  for (guint i = 0; i < G_N_ELEMENTS (makers); i++)
    if (makers[i].mid == mid)
      return &makers[i];
  return NULL;
}

const CmSdMaker *
cm_sd_makers (gsize *n_makers)
{
  g_return_val_if_fail (n_makers != NULL, NULL);

  *n_makers = G_N_ELEMENTS (makers);
  return makers;
}

int
cm_sd_class_value (const char *klass,
                   char        family)
{
  char *end;
  long value;

  if (klass == NULL || g_ascii_toupper (klass[0]) != family || !g_ascii_isdigit (klass[1]))
    return -1;

  value = strtol (klass + 1, &end, 10);
  if (*end != '\0' || value > 1000)
    return -1;

  return value;
}

void
cm_sd_registers_init (CmSdRegisters *regs)
{
  g_return_if_fail (regs != NULL);

  memset (regs, 0, sizeof *regs);
  regs->manufacturer_id = -1;
  regs->write_protected = -1;
  regs->performance_enhance = -1;
}

void
cm_sd_registers_clear (CmSdRegisters *regs)
{
  g_return_if_fail (regs != NULL);

  g_free (regs->oem_id);
  g_free (regs->product_name);
  g_free (regs->revision);
  g_free (regs->serial);
  g_free (regs->manufacture_date);
  g_free (regs->card_type);
  g_free (regs->spec_version);
  g_free (regs->speed_class);
  g_free (regs->uhs_grade);
  g_free (regs->video_class);
  g_free (regs->app_class);
  cm_sd_registers_init (regs);
}

static guint32
get_bits (const guint8 *reg,
          gsize         n_bytes,
          guint         hi,
          guint         lo)
{
  guint32 value = 0;

  g_assert (hi >= lo && hi - lo < 32 && hi < n_bytes * 8);

  for (guint bit = hi + 1; bit-- > lo;)
    {
      guint8 byte = reg[n_bytes - 1 - bit / 8];

      value = (value << 1) | ((byte >> (bit % 8)) & 1);
    }

  return value;
}

/* Reads a register dump as printed in sysfs: hexadecimal, any case, with
 * an optional leading 0x and any whitespace. An empty dump is an absent
 * register (*present is then FALSE). */
static gboolean
parse_register (const char  *name,
                const char  *text,
                guint8      *out,
                gsize        n_bytes,
                gboolean    *present,
                GError     **error)
{
  gsize n_digits = 0;
  const char *p;

  *present = FALSE;
  if (text == NULL)
    return TRUE;

  p = text;
  while (g_ascii_isspace (*p))
    p++;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    p += 2;

  memset (out, 0, n_bytes);

  for (; *p != '\0'; p++)
    {
      int digit;

      if (g_ascii_isspace (*p))
        continue;

      digit = g_ascii_xdigit_value (*p);
      if (digit < 0)
        {
          if (g_ascii_isprint (*p))
            g_set_error (error, CM_SD_REGISTERS_ERROR, CM_SD_REGISTERS_ERROR_INVALID_HEX,
                         _("The %s dump contains “%c”, which is not a hexadecimal digit. "
                           "Copy the register exactly as the card’s sysfs folder shows it."),
                         name, *p);
          else
            g_set_error (error, CM_SD_REGISTERS_ERROR, CM_SD_REGISTERS_ERROR_INVALID_HEX,
                         _("The %s dump contains a character that is not a hexadecimal digit. "
                           "Copy the register exactly as the card’s sysfs folder shows it."),
                         name);
          return FALSE;
        }

      if (n_digits < n_bytes * 2)
        out[n_digits / 2] |= digit << (n_digits % 2 == 0 ? 4 : 0);
      n_digits++;
    }

  if (n_digits == 0)
    return TRUE;

  if (n_digits != n_bytes * 2)
    {
      g_set_error (error, CM_SD_REGISTERS_ERROR, CM_SD_REGISTERS_ERROR_WRONG_LENGTH,
                   _("The %s dump has %lu hexadecimal digits, but the register "
                     "has %lu. Copy the whole register, without anything else."),
                   name, (unsigned long) n_digits, (unsigned long) (n_bytes * 2));
      return FALSE;
    }

  *present = TRUE;
  return TRUE;
}

/* CID text fields are ASCII. A NUL ends the text (some cards pad their
 * product name with one), trailing spaces are padding too, and anything
 * unprintable shows as '?'. */
static char *
cid_text (const guint8 *bytes,
          gsize         len)
{
  GString *text = g_string_new (NULL);

  for (gsize i = 0; i < len && bytes[i] != '\0'; i++)
    g_string_append_c (text, g_ascii_isprint (bytes[i]) ? (char) bytes[i] : '?');

  while (text->len > 0 && text->str[text->len - 1] == ' ')
    g_string_truncate (text, text->len - 1);

  return g_string_free (text, FALSE);
}

static void
decode_cid (CmSdRegisters *regs,
            const guint8  *cid)
{
  guint year = get_bits (cid, CID_BYTES, 19, 12) + 2000;
  guint month = get_bits (cid, CID_BYTES, 11, 8);

  regs->manufacturer_id = get_bits (cid, CID_BYTES, 127, 120);
  regs->oem_id = cid_text (cid + 1, 2);
  regs->product_name = cid_text (cid + 3, 5);
  regs->revision = g_strdup_printf ("%u.%u",
                                    get_bits (cid, CID_BYTES, 63, 60),
                                    get_bits (cid, CID_BYTES, 59, 56));
  regs->serial = g_strdup_printf ("0x%08x", get_bits (cid, CID_BYTES, 55, 24));

  if (month >= 1 && month <= 12)
    regs->manufacture_date = g_strdup_printf ("%04u-%02u", year, month);
}

static void
decode_csd (CmSdRegisters *regs,
            const guint8  *csd)
{
  guint structure = get_bits (csd, CSD_BYTES, 127, 126);
  guint64 c_size;

  switch (structure)
    {
    case 0:
      {
        guint mult = get_bits (csd, CSD_BYTES, 49, 47);
        guint read_bl_len = get_bits (csd, CSD_BYTES, 83, 80);

        c_size = get_bits (csd, CSD_BYTES, 73, 62);
        regs->capacity_bytes = (c_size + 1) << (mult + 2 + read_bl_len);
        regs->card_type = g_strdup ("SDSC");
      }
      break;

    case 1:
      c_size = get_bits (csd, CSD_BYTES, 69, 48);
      regs->capacity_bytes = (c_size + 1) * 512 * 1024;
      regs->card_type = g_strdup (c_size >= 0xffff ? "SDXC" : "SDHC");
      break;

    case 2:
      /* SDUC's layout is unverified; tests/data/reference/sd-cards.md
       * gives a 28-bit C_SIZE. */
      c_size = get_bits (csd, CSD_BYTES, 75, 48);
      regs->capacity_bytes = (c_size + 1) * 512 * 1024;
      regs->card_type = g_strdup ("SDUC");
      break;

    default:
      break;
    }

  regs->write_protected = get_bits (csd, CSD_BYTES, 13, 12) != 0;
}

static void
decode_scr (CmSdRegisters *regs,
            const guint8  *scr)
{
  guint structure = get_bits (scr, SCR_BYTES, 63, 60);
  guint sd_spec = get_bits (scr, SCR_BYTES, 59, 56);
  guint spec3 = get_bits (scr, SCR_BYTES, 47, 47);
  guint spec4 = get_bits (scr, SCR_BYTES, 42, 42);
  guint specx = get_bits (scr, SCR_BYTES, 41, 38);

  if (structure != 0)
    return;

  /* The physical layer version table: SD_SPEC4 only matters while
   * SD_SPECX is 0, because versions from 5.00 on are told by SD_SPECX. */
  if (sd_spec == 0)
    regs->spec_version = g_strdup ("1.0x");
  else if (sd_spec == 1)
    regs->spec_version = g_strdup ("1.10");
  else if (sd_spec == 2 && !spec3)
    regs->spec_version = g_strdup ("2.00");
  else if (sd_spec == 2 && specx == 0)
    regs->spec_version = g_strdup (spec4 ? "4.x" : "3.0x");
  else if (sd_spec == 2)
    regs->spec_version = g_strdup_printf ("%u.x", specx + 4);
}

static guint64
au_size_bytes (guint code)
{
  static const guint64 large_mib[] = { 8, 12, 16, 24, 32, 64 };

  if (code == 0)
    return 0;
  if (code <= 9)
    return (guint64) 16 * 1024 << (code - 1);
  return large_mib[code - 10] * 1024 * 1024;
}

static void
decode_ssr (CmSdRegisters *regs,
            const guint8  *ssr)
{
  static const guint speed_classes[] = { 0, 2, 4, 6, 10 };
  guint speed = get_bits (ssr, SSR_BYTES, 447, 440);
  guint uhs = get_bits (ssr, SSR_BYTES, 399, 396);
  guint video = get_bits (ssr, SSR_BYTES, 391, 384);
  guint app = get_bits (ssr, SSR_BYTES, 339, 336);

  if (speed < G_N_ELEMENTS (speed_classes))
    regs->speed_class = g_strdup_printf ("C%u", speed_classes[speed]);
  if (uhs == 0 || uhs == 1 || uhs == 3)
    regs->uhs_grade = g_strdup_printf ("U%u", uhs);
  if (video == 0 || video == 6 || video == 10 || video == 30 || video == 60 || video == 90)
    regs->video_class = g_strdup_printf ("V%u", video);
  if (app <= 2)
    regs->app_class = g_strdup_printf ("A%u", app);

  regs->au_size_bytes = au_size_bytes (get_bits (ssr, SSR_BYTES, 431, 428));
  regs->performance_enhance = get_bits (ssr, SSR_BYTES, 335, 328);
}

/* Overwrites *regs (which must hold no strings, or be cleared first).
 * NULL or empty dumps are absent registers; when every dump is absent
 * *regs holds no values and the has_ flags are all FALSE. On error *regs
 * is left empty. */
gboolean
cm_sd_registers_parse (const char     *cid,
                       const char     *csd,
                       const char     *scr,
                       const char     *ssr,
                       CmSdRegisters  *regs,
                       GError        **error)
{
  guint8 cid_bytes[CID_BYTES], csd_bytes[CSD_BYTES], scr_bytes[SCR_BYTES], ssr_bytes[SSR_BYTES];

  g_return_val_if_fail (regs != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  cm_sd_registers_init (regs);

  if (!parse_register ("CID", cid, cid_bytes, CID_BYTES, &regs->has_cid, error) ||
      !parse_register ("CSD", csd, csd_bytes, CSD_BYTES, &regs->has_csd, error) ||
      !parse_register ("SCR", scr, scr_bytes, SCR_BYTES, &regs->has_scr, error) ||
      !parse_register ("SSR", ssr, ssr_bytes, SSR_BYTES, &regs->has_ssr, error))
    {
      cm_sd_registers_init (regs);
      return FALSE;
    }

  if (regs->has_cid)
    decode_cid (regs, cid_bytes);
  if (regs->has_csd)
    decode_csd (regs, csd_bytes);
  if (regs->has_scr)
    decode_scr (regs, scr_bytes);
  if (regs->has_ssr)
    decode_ssr (regs, ssr_bytes);

  return TRUE;
}

/* Reads the cid, csd, scr and ssr files of a card's sysfs folder
 * (/sys/bus/mmc/devices/mmcN:RRRR); any of them may be missing, not all. */
gboolean
cm_sd_registers_read_sysfs (const char     *device_dir,
                            CmSdRegisters  *regs,
                            GError        **error)
{
  static const char * const names[] = { "cid", "csd", "scr", "ssr" };
  char *contents[G_N_ELEMENTS (names)] = { NULL, };
  gboolean any = FALSE;
  gboolean ok = FALSE;
  guint i;

  g_return_val_if_fail (device_dir != NULL, FALSE);
  g_return_val_if_fail (regs != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  cm_sd_registers_init (regs);

  if (!g_file_test (device_dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, CM_SD_REGISTERS_ERROR, CM_SD_REGISTERS_ERROR_NOT_FOUND,
                   _("The folder %s does not exist. Check that the card is still inserted."),
                   device_dir);
      return FALSE;
    }

  for (i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (device_dir, names[i], NULL);
      g_autoptr(GError) local_error = NULL;

      if (g_file_get_contents (path, &contents[i], NULL, &local_error))
        {
          any = TRUE;
          continue;
        }

      if (!g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          goto out;
        }
    }

  if (!any)
    {
      g_set_error (error, CM_SD_REGISTERS_ERROR, CM_SD_REGISTERS_ERROR_NO_REGISTERS,
                   _("%s holds none of the card registers (cid, csd, scr, ssr). "
                     "Only cards in a native SD slot show them."),
                   device_dir);
      goto out;
    }

  ok = cm_sd_registers_parse (contents[0], contents[1], contents[2], contents[3], regs, error);
  if (!ok)
    g_prefix_error (error, _("Reading %s: "), device_dir);

out:
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    g_free (contents[i]);

  return ok;
}
