/* cm-queue-quirks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Whether the Raspberry Pi kernel knows a card for command queueing:
 * its allow-list and the quirks that keep queueing off, copied as data
 * from the kernel's card table with the matching rules of that kernel.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cm-queue-quirks.h"

/* Read from drivers/mmc/core/quirks.h, mmc_sd_fixups[], of the Raspberry
 * Pi kernel (rpi-6.18.y, as the fork github.com/greearb/rpi5-6.18-ct
 * holds it at commit df08c95cdb113b3087de5b940a8c8998f5e81db1), with the
 * macros of drivers/mmc/core/card.h (cid_rev(), the *_ANY wildcards).
 *
 * That table has no MMC_QUIRK_BROKEN_SD_CQE: its allow-list is
 * MMC_QUIRK_WORKING_SD_CQ ("SD A2 allow-list - only trust CQ on these
 * cards"), and what keeps queueing off for a card is
 * MMC_QUIRK_BROKEN_SD_CACHE (and _BROKEN_SD_POWEROFF_NOTIFY): SD command
 * queueing needs the card's cache and power-off notification, so a card
 * whose cache the kernel leaves off is never queued. The table's other
 * SD quirks (discard, DDR50 tuning) are not about queueing and are left
 * out.
 *
 * The manufacturer ids the kernel names CID_MANFID_LONGSYS_SD and
 * CID_MANFID_TRANSCEND_SD are Raspberry Pi additions to card.h that no
 * stored copy of that file shows; 0xad and 0x74 are the ids
 * cm-sd-registers.c knows for Longsys and Transcend, and the OEM ids the
 * kernel pairs with them ("LS", "J`") are those makers' own. */
#define KERNEL_SOURCE "Raspberry Pi Linux rpi-6.18.y, drivers/mmc/core/quirks.h at df08c95cdb113b3087de5b940a8c8998f5e81db1"

#define CID_MANFID_SANDISK_SD  0x03
#define CID_MANFID_GIGASTONE   0x12
#define CID_MANFID_SAMSUNG_SD  0x1b
#define CID_MANFID_TRANSCEND_SD 0x74
#define CID_MANFID_KINGSTON_SD 0x9f
#define CID_MANFID_LONGSYS_SD  0xad

#define ANY_REV 0, G_MAXUINT64

static const CmCqeFixup fixups[] = {
  /* Kingston Canvas Go! Plus: the cache flush never finishes. */
  { NULL, CID_MANFID_KINGSTON_SD, 0x5449, 2019, CM_CID_MONTH_ANY, ANY_REV, CM_CQE_LISTING_DENIED, "MMC_QUIRK_BROKEN_SD_CACHE" },
  { NULL, CID_MANFID_KINGSTON_SD, 0x5449, 2020, CM_CID_MONTH_ANY, ANY_REV, CM_CQE_LISTING_DENIED, "MMC_QUIRK_BROKEN_SD_CACHE" },
  { NULL, CID_MANFID_KINGSTON_SD, 0x5449, 2021, CM_CID_MONTH_ANY, ANY_REV, CM_CQE_LISTING_DENIED, "MMC_QUIRK_BROKEN_SD_CACHE" },
  { NULL, CID_MANFID_KINGSTON_SD, 0x5449, 2022, CM_CID_MONTH_ANY, ANY_REV, CM_CQE_LISTING_DENIED, "MMC_QUIRK_BROKEN_SD_CACHE" },
  /* Gigastone Gaming Plus of 02/2022. */
  { "ASTC", CID_MANFID_GIGASTONE, 0x3456, 2022, 2, ANY_REV, CM_CQE_LISTING_DENIED,
    "MMC_QUIRK_BROKEN_SD_CACHE | MMC_QUIRK_BROKEN_SD_POWEROFF_NOTIFY" },
  /* Samsung Pro Plus / EVO Plus / Pro Ultimate of 2023. */
  { NULL, CID_MANFID_SAMSUNG_SD, 0x534d, 2023, CM_CID_MONTH_ANY, ANY_REV, CM_CQE_LISTING_DENIED, "MMC_QUIRK_BROKEN_SD_CACHE" },
  /* Early SanDisk Extreme and Extreme Pro A2. */
  { NULL, CID_MANFID_SANDISK_SD, 0x5344, 2019, CM_CID_MONTH_ANY, ANY_REV, CM_CQE_LISTING_DENIED, "MMC_QUIRK_BROKEN_SD_CACHE" },
  { NULL, CID_MANFID_SANDISK_SD, 0x5344, 2020, CM_CID_MONTH_ANY, ANY_REV, CM_CQE_LISTING_DENIED, "MMC_QUIRK_BROKEN_SD_CACHE" },
  /* The allow-list: Raspberry Pi A2 cards, and Transcend's. */
  { NULL, CID_MANFID_LONGSYS_SD, 0x4c53, CM_CID_YEAR_ANY, CM_CID_MONTH_ANY,
    CM_CID_REV (1, 0, 0, 0), G_MAXUINT64, CM_CQE_LISTING_ALLOWED, "MMC_QUIRK_WORKING_SD_CQ" },
  { NULL, CID_MANFID_TRANSCEND_SD, 0x4a60, CM_CID_YEAR_ANY, CM_CID_MONTH_ANY,
    CM_CID_REV (2, 0, 2026, 4), G_MAXUINT64, CM_CQE_LISTING_ALLOWED, "MMC_QUIRK_WORKING_SD_CQ" },
};

const char *
cm_cqe_quirks_kernel (void)
{
  return KERNEL_SOURCE;
}

const CmCqeFixup *
cm_cqe_quirks_table (guint *n_fixups)
{
  *n_fixups = G_N_ELEMENTS (fixups);
  return fixups;
}

/**
 * cm_cqe_fixup_matches:
 *
 * The test of mmc_fixup_device() in drivers/mmc/core/quirks.h, field by
 * field and in its order: manufacturer, OEM, name (strncmp over the 8
 * bytes of prod_name), revision range over cid_rev(), year, month.
 */
gboolean
cm_cqe_fixup_matches (const CmCqeFixup *fixup,
                      const CmCqeCid   *cid)
{
  guint64 rev = CM_CID_REV (cid->hwrev, cid->fwrev, cid->year, cid->month);

  if (fixup->manfid != CM_CID_MANFID_ANY && fixup->manfid != cid->manfid)
    return FALSE;
  if (fixup->oemid != CM_CID_OEMID_ANY && fixup->oemid != cid->oemid)
    return FALSE;
  if (fixup->name != NULL && strncmp (fixup->name, cid->prod_name, sizeof cid->prod_name) != 0)
    return FALSE;
  if (rev < fixup->rev_start || rev > fixup->rev_end)
    return FALSE;
  if (fixup->year != CM_CID_YEAR_ANY && fixup->year != cid->year)
    return FALSE;
  if (fixup->month != CM_CID_MONTH_ANY && fixup->month != cid->month)
    return FALSE;

  return TRUE;
}

/**
 * cm_cqe_quirks_lookup:
 * @matched: (out) (optional): the entry that decided
 *
 * The kernel applies every entry that matches; a quirk that keeps the
 * cache off keeps queueing off even for a card the allow-list names.
 */
CmCqeListing
cm_cqe_quirks_lookup (const CmCqeCid    *cid,
                      const CmCqeFixup **matched)
{
  CmCqeListing listing = CM_CQE_LISTING_NEITHER;
  const CmCqeFixup *decided = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (fixups); i++)
    {
      if (!cm_cqe_fixup_matches (&fixups[i], cid))
        continue;
      if (fixups[i].listing == CM_CQE_LISTING_DENIED || listing == CM_CQE_LISTING_NEITHER)
        {
          listing = fixups[i].listing;
          decided = &fixups[i];
        }
      if (listing == CM_CQE_LISTING_DENIED)
        break;
    }

  if (matched != NULL)
    *matched = decided;
  return listing;
}

/* "SD" → 0x5344; FALSE for an id the decoder could not spell. */
static gboolean
parse_oemid (const char *text,
             guint16    *oemid)
{
  if (text == NULL || strlen (text) != 2 || strchr (text, '?') != NULL)
    return FALSE;

  *oemid = (guint16) ((guint8) text[0] << 8 | (guint8) text[1]);
  return TRUE;
}

static gboolean
parse_revision (const char *text,
                CmCqeCid   *cid)
{
  guint hw, fw;

  if (text == NULL || sscanf (text, "%u.%u", &hw, &fw) != 2 || hw > 15 || fw > 15)
    return FALSE;

  cid->hwrev = hw;
  cid->fwrev = fw;
  return TRUE;
}

static gboolean
parse_date (const char *text,
            CmCqeCid   *cid)
{
  guint year, month;

  if (text == NULL || sscanf (text, "%u-%u", &year, &month) != 2)
    return FALSE;

  cid->year = year;
  cid->month = month;
  return TRUE;
}

/**
 * cm_cqe_cid_from_registers:
 *
 * The kernel's CID fields from the project's CID decoder. Its product
 * name has the trailing spaces trimmed, which the kernel keeps; the
 * table's names ("ASTC") have none, so a name with spaces matches
 * neither way. An OEM id with a byte the decoder could not spell stays
 * 0, which no entry names.
 *
 * Returns: FALSE when @regs has no CID.
 */
gboolean
cm_cqe_cid_from_registers (const CmSdRegisters *regs,
                           CmCqeCid            *cid)
{
  g_return_val_if_fail (regs != NULL && cid != NULL, FALSE);

  memset (cid, 0, sizeof *cid);
  if (!regs->has_cid || regs->manufacturer_id < 0)
    return FALSE;

  cid->manfid = regs->manufacturer_id;
  if (!parse_oemid (regs->oem_id, &cid->oemid))
    cid->oemid = 0;
  g_strlcpy (cid->prod_name, regs->product_name != NULL ? regs->product_name : "", sizeof cid->prod_name);
  parse_revision (regs->revision, cid);
  parse_date (regs->manufacture_date, cid);
  return TRUE;
}
