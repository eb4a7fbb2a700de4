/* cm-host.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The computer's side of a card slot: which Raspberry Pi it is, the bus
 * timing the slot negotiated with the card, and whether the slot queues
 * commands. The timing and the queueing are only in debugfs, which root
 * alone can read; where it can't be read they stay unknown and the
 * verdicts fall back on what the model is known to do
 * (docs/methodology.md § Host ceilings).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cm-host.h"

/* MMC_CAP2_CQE in include/linux/mmc/host.h: the host has a command
 * queue engine and the driver may use it. */
#define MMC_CAP2_CQE (1u << 23)

static char *
read_trimmed (const char *path)
{
  g_autofree char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;

  /* The device tree string ends in a NUL, sometimes a newline too. */
  g_strstrip (contents);
  if (contents[0] == '\0')
    return NULL;

  return g_steal_pointer (&contents);
}

/* The "timing spec" line of debugfs' ios, "timing spec:\t6 (sd uhs SDR104)",
 * as the mode's short name. */
static char *
parse_timing (const char *ios)
{
  static const struct { const char *kernel; const char *name; } timings[] = {
    { "legacy", "DS" },
    { "sd high-speed", "HS" },
    { "sd uhs SDR12", "SDR12" },
    { "sd uhs SDR25", "SDR25" },
    { "sd uhs SDR50", "SDR50" },
    { "sd uhs SDR104", "SDR104" },
    { "sd uhs DDR50", "DDR50" },
    { "mmc high-speed", "HS" },
    { "mmc DDR52", "DDR52" },
    { "mmc HS200", "HS200" },
    { "mmc HS400", "HS400" },
  };
  g_auto(GStrv) lines = g_strsplit (ios, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *open, *close;

      if (!g_str_has_prefix (lines[i], "timing spec:"))
        continue;
      open = strchr (lines[i], '(');
      close = open != NULL ? strchr (open, ')') : NULL;
      if (close == NULL)
        return NULL;
      for (guint j = 0; j < G_N_ELEMENTS (timings); j++)
        if (strncmp (open + 1, timings[j].kernel, close - open - 1) == 0 &&
            strlen (timings[j].kernel) == (gsize) (close - open - 1))
          return g_strdup (timings[j].name);
      return NULL;
    }

  return NULL;
}

/* The mmc host above a card's sysfs folder: …/mmc_host/mmc0/mmc0:aaaa → "mmc0". */
static char *
host_name (const char *sysfs_device_dir)
{
  g_autofree char *real = realpath (sysfs_device_dir, NULL);
  g_autofree char *parent = NULL;
  g_autofree char *grandparent = NULL;

  if (real == NULL)
    return NULL;

  parent = g_path_get_dirname (real);
  grandparent = g_path_get_dirname (parent);
  if (!g_str_has_suffix (grandparent, "/mmc_host"))
    return NULL;

  return g_path_get_basename (parent);
}

static void
read_debugfs (CmHostFacts *facts,
              const char  *root,
              const char  *host)
{
  g_autofree char *ios_path = g_build_filename (root, "sys/kernel/debug", host, "ios", NULL);
  g_autofree char *caps_path = g_build_filename (root, "sys/kernel/debug", host, "caps2", NULL);
  g_autofree char *ios = read_trimmed (ios_path);
  g_autofree char *caps2 = read_trimmed (caps_path);

  if (ios != NULL)
    facts->bus_timing = parse_timing (ios);

  if (caps2 != NULL)
    {
      char *end = NULL;
      guint64 bits = g_ascii_strtoull (caps2, &end, 0);

      if (end != caps2)
        facts->queueing = (bits & MMC_CAP2_CQE) ? CM_QUEUEING_YES : CM_QUEUEING_NO;
    }
}

/**
 * cm_host_facts_read_from:
 * @root: the folder that stands for "/" (a generated one in the tests)
 * @sysfs_device_dir: (nullable): the card's folder in sysfs, for a card
 *   in a native slot; the slot's timing and queueing are read for it
 */
CmHostFacts *
cm_host_facts_read_from (const char *root,
                         const char *sysfs_device_dir)
{
  g_autofree char *model_path = g_build_filename (root, "proc/device-tree/model", NULL);
  CmHostFacts *facts = g_new0 (CmHostFacts, 1);

  g_return_val_if_fail (root != NULL, facts);

  facts->model = read_trimmed (model_path);

  if (sysfs_device_dir != NULL)
    {
      g_autofree char *host = host_name (sysfs_device_dir);

      if (host != NULL)
        read_debugfs (facts, root, host);
    }

  return facts;
}

CmHostFacts *
cm_host_facts_read (const char *sysfs_device_dir)
{
  return cm_host_facts_read_from ("/", sysfs_device_dir);
}

CmHostFacts *
cm_host_facts_copy (const CmHostFacts *facts)
{
  CmHostFacts *copy;

  g_return_val_if_fail (facts != NULL, NULL);

  copy = g_new0 (CmHostFacts, 1);
  copy->model = g_strdup (facts->model);
  copy->bus_timing = g_strdup (facts->bus_timing);
  copy->queueing = facts->queueing;
  return copy;
}

void
cm_host_facts_free (CmHostFacts *facts)
{
  if (facts == NULL)
    return;

  g_free (facts->model);
  g_free (facts->bus_timing);
  g_free (facts);
}

gboolean
cm_host_facts_is_raspberry_pi (const CmHostFacts *facts)
{
  return facts != NULL && facts->model != NULL && g_str_has_prefix (facts->model, "Raspberry Pi");
}

const char *
cm_queueing_to_string (CmQueueing queueing)
{
  switch (queueing)
    {
    case CM_QUEUEING_YES:
      return "yes";
    case CM_QUEUEING_NO:
      return "no";
    case CM_QUEUEING_UNKNOWN:
    default:
      return NULL;
    }
}

gboolean
cm_queueing_from_string (const char *str,
                         CmQueueing *queueing)
{
  if (str == NULL)
    *queueing = CM_QUEUEING_UNKNOWN;
  else if (g_str_equal (str, "yes"))
    *queueing = CM_QUEUEING_YES;
  else if (g_str_equal (str, "no"))
    *queueing = CM_QUEUEING_NO;
  else
    return FALSE;

  return TRUE;
}

/**
 * cm_bus_timing_get_ceiling:
 *
 * What a slot running at @timing carries, in MB/s: the bus's own limit
 * (@high_mb_s) and what slots deliver in practice (@low_mb_s), from
 * tests/data/reference/sd-cards.md § Host ceilings.
 *
 * Returns: FALSE for a timing this table does not know.
 */
gboolean
cm_bus_timing_get_ceiling (const char *timing,
                           double     *low_mb_s,
                           double     *high_mb_s)
{
  static const struct { const char *name; double low, high; } ceilings[] = {
    { "DS", 10, 12.5 },
    { "SDR12", 10, 12.5 },
    { "HS", 20, 25 },
    { "SDR25", 20, 25 },
    { "SDR50", 45, 50 },
    { "DDR50", 45, 50 },
    { "SDR104", 85, 104 },
  };

  for (guint i = 0; timing != NULL && i < G_N_ELEMENTS (ceilings); i++)
    if (g_str_equal (timing, ceilings[i].name))
      {
        *low_mb_s = ceilings[i].low;
        *high_mb_s = ceilings[i].high;
        return TRUE;
      }

  return FALSE;
}
