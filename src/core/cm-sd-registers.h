/* cm-sd-registers.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CM_SD_REGISTERS_ERROR (cm_sd_registers_error_quark ())

typedef enum
{
  CM_SD_REGISTERS_ERROR_INVALID_HEX,
  CM_SD_REGISTERS_ERROR_WRONG_LENGTH,
  CM_SD_REGISTERS_ERROR_NOT_FOUND,
  CM_SD_REGISTERS_ERROR_NO_REGISTERS,
} CmSdRegistersError;

GQuark cm_sd_registers_error_quark (void);

/* The fields of an SD card's CID, CSD, SCR and SD Status ("SSR")
 * registers, decoded as the SD Physical Layer Simplified Specification
 * lays them out (see tests/data/reference/sd-cards.md).
 *
 * A value is unknown when its register was absent or the field is
 * reserved: strings are then NULL, manufacturer_id, write_protected and
 * performance_enhance -1, the sizes 0. A class field of the SD Status
 * that is zero decodes as "C0", "U0", "V0" or "A0" ("the card declares
 * none"), so that NULL keeps meaning "not known".
 *
 * The strings are owned by the struct: free them with
 * cm_sd_registers_clear(), or declare it `g_auto(CmSdRegisters) regs =
 * { 0, };`. */
typedef struct
{
  /* Which registers the dumps held. */
  gboolean  has_cid;
  gboolean  has_csd;
  gboolean  has_scr;
  gboolean  has_ssr;

  /* CID */
  int       manufacturer_id;
  char     *oem_id;
  char     *product_name;
  char     *revision;
  char     *serial;
  char     *manufacture_date;

  /* CSD: card_type is "SDSC", "SDHC", "SDXC" or "SDUC". */
  guint64   capacity_bytes;
  char     *card_type;
  int       write_protected;

  /* SCR: "1.0x", "1.10", "2.00", "3.0x", "4.x", "5.x", "6.x" … */
  char     *spec_version;

  /* SD Status */
  char     *speed_class;
  char     *uhs_grade;
  char     *video_class;
  char     *app_class;
  guint64   au_size_bytes;
  int       performance_enhance;
} CmSdRegisters;

void         cm_sd_registers_init       (CmSdRegisters  *regs);
void         cm_sd_registers_clear      (CmSdRegisters  *regs);
gboolean     cm_sd_registers_parse      (const char     *cid,
                                         const char     *csd,
                                         const char     *scr,
                                         const char     *ssr,
                                         CmSdRegisters  *regs,
                                         GError        **error);
gboolean     cm_sd_registers_read_sysfs (const char     *device_dir,
                                         CmSdRegisters  *regs,
                                         GError        **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CmSdRegisters, cm_sd_registers_clear)

/* "U3" → 3, for family 'U'; -1 when the string is not a class of that
 * family ('C', 'U', 'V' or 'A'). */
int          cm_sd_class_value          (const char     *klass,
                                         char            family);

/* A maker, by the manufacturer ID (MID) of its CID, from
 * tests/data/reference/sd-cards.md. A shared MID belongs to a controller
 * or OEM maker that sells to many brands. `brands` lists the brands that
 * sell its cards, '|'-separated; `oem_id` is the OEM ID its own cards
 * carry, or NULL when it varies. */
typedef struct
{
  guint8      mid;
  const char *name;
  const char *oem_id;
  gboolean    shared;
  const char *brands;
} CmSdMaker;

const CmSdMaker *cm_sd_maker_lookup (int    mid);
const CmSdMaker *cm_sd_makers       (gsize *n_makers);

G_END_DECLS
