/* fuzz-registers.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The SD register decoders: CID, CSD, SCR and SSR as sysfs prints them
 * (the input, split at NUL bytes), every field read back, the classes
 * and counterfeit hints derived, and the JSON form round-tripped.
 */

#include "config.h"

#include <glib/gstdio.h>

#include "cm-card-info.h"
#include "cm-counterfeit.h"

#include "fuzz-common.h"

static void
read_everything (CmCardInfo *info)
{
  static const char * const claimed[] = { "C10", "U3", "V30", "A2", NULL };
  g_auto(GStrv) classes = cm_card_info_dup_declared_classes (info);
  g_auto(GStrv) hints = cm_counterfeit_dup_hints (info, claimed);
  g_autoptr(JsonNode) json = cm_card_info_to_json (info);
  g_autoptr(CmCardInfo) again = cm_card_info_new_from_json (json, NULL);

  (void) cm_card_info_get_manufacturer_id (info);
  (void) cm_card_info_get_manufacturer (info);
  (void) cm_card_info_get_manufacture_date (info);
  (void) cm_card_info_get_capacity_bytes (info);
  (void) cm_card_info_get_card_type (info);
  (void) cm_card_info_get_au_size_bytes (info);
  (void) cm_card_info_get_command_queue_depth (info);
  (void) cm_card_info_get_cache_supported (info);

  /* What was written must read back. */
  g_assert (again != NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_auto(GStrv) parts = fuzz_split (data, size, 4);
  const char *regs[4] = { NULL, };
  g_autoptr(CmCardInfo) info = NULL;

  for (guint i = 0; i < 4 && parts[i] != NULL; i++)
    regs[i] = parts[i][0] != '\0' ? parts[i] : NULL;

  info = cm_card_info_new_from_registers (regs[0], regs[1], regs[2], regs[3], NULL);
  if (info != NULL)
    read_everything (info);

  return 0;
}
