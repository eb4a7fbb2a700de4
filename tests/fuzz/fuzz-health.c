/* fuzz-health.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The CMD56 reply decoders: the input's first byte picks the argument
 * the reply answers (one of the layouts', or not known), the rest is
 * the reply, of any length. What decodes must keep its figures in
 * range and read back from its `health` object as it was written.
 */

#include "config.h"

#include "cm-health.h"

#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const guint32 *arguments = cm_health_arguments ();
  guint n_arguments = 0;
  guint32 argument = CM_HEALTH_ARG_UNKNOWN;
  CmHealth health;
  CmHealth back;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *said = NULL;

  if (size == 0)
    return 0;
  while (arguments[n_arguments] != 0)
    n_arguments++;
  if (data[0] < n_arguments)
    argument = arguments[data[0]];

  if (cm_health_decode (data + 1, size - 1, argument, &health))
    {
      g_assert (health.layout != CM_HEALTH_LAYOUT_NONE);
      g_assert (health.life_used_percent < 0 || health.life_used_percent <= 255);
      g_assert (health.erase_min < 0 || health.erase_max < 0 || health.erase_min <= health.erase_max);
    }
  else
    g_assert (health.layout == CM_HEALTH_LAYOUT_NONE && health.life_used_percent < 0);

  said = cm_health_describe (&health);
  node = cm_health_to_json (&health);
  g_assert (cm_health_from_json (node, &back, NULL));
  g_assert (back.layout == health.layout && back.state == health.state);
  g_assert (back.life_used_percent == health.life_used_percent);
  g_assert (back.bad_blocks == health.bad_blocks && back.spare_blocks == health.spare_blocks);
  g_assert (back.erase_min == health.erase_min && back.erase_avg == health.erase_avg &&
            back.erase_max == health.erase_max);
  g_assert (back.power_cycles == health.power_cycles &&
            back.flash_bytes_written == health.flash_bytes_written);
  return 0;
}
