/* cm-queue-quirks.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "cm-sd-registers.h"

G_BEGIN_DECLS

/* What the Raspberry Pi kernel's card table says about queueing for a card. */
typedef enum
{
  CM_CQE_LISTING_UNKNOWN,   /* no CID to match */
  CM_CQE_LISTING_NEITHER,   /* on neither list */
  CM_CQE_LISTING_ALLOWED,   /* MMC_QUIRK_WORKING_SD_CQ: queued at sd_cqe=1 */
  CM_CQE_LISTING_DENIED,    /* a quirk that keeps queueing off at any sd_cqe */
} CmCqeListing;

/* The CID fields the kernel's mmc_fixup_device() matches, as struct
 * mmc_cid holds them (drivers/mmc/core/sd.c, mmc_decode_cid()). */
typedef struct
{
  guint   manfid;
  guint16 oemid;
  char    prod_name[8];
  guint8  hwrev;
  guint8  fwrev;
  guint16 year;
  guint8  month;
} CmCqeCid;

/* The kernel's wildcards (drivers/mmc/core/card.h). */
#define CM_CID_MANFID_ANY ((guint) -1)
#define CM_CID_OEMID_ANY  ((guint16) -1)
#define CM_CID_YEAR_ANY   ((guint16) -1)
#define CM_CID_MONTH_ANY  ((guint8) -1)

/* One entry of mmc_sd_fixups[], with its name NULL for CID_NAME_ANY. */
typedef struct
{
  const char   *name;
  guint         manfid;
  guint16       oemid;
  guint16       year;
  guint8        month;
  guint64       rev_start;
  guint64       rev_end;
  CmCqeListing  listing;
  const char   *why;
} CmCqeFixup;

/* cid_rev() of drivers/mmc/core/card.h. */
#define CM_CID_REV(hwrev, fwrev, year, month) \
  (((guint64) (hwrev)) << 40 | ((guint64) (fwrev)) << 32 | \
   ((guint64) (year)) << 16 | ((guint64) (month)))

const char        *cm_cqe_quirks_kernel    (void);
const CmCqeFixup  *cm_cqe_quirks_table     (guint             *n_fixups);
gboolean           cm_cqe_fixup_matches    (const CmCqeFixup  *fixup,
                                            const CmCqeCid    *cid);
CmCqeListing       cm_cqe_quirks_lookup    (const CmCqeCid    *cid,
                                            const CmCqeFixup **matched);
gboolean           cm_cqe_cid_from_registers (const CmSdRegisters *regs,
                                              CmCqeCid            *cid);

G_END_DECLS
