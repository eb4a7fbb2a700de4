/* cm-queue-host.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What is, for command queueing (CQE) to a card in a native slot: the
 * host, the sd_cqe setting in force on a Raspberry Pi 5, whether the
 * kernel queues for the card now and whether its card table knows the
 * card. Every path is read under a root folder, "/" for real, a fixture
 * tree in the tests.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "cm-queue-host.h"
#include "cm-sd-registers.h"

G_DEFINE_BOXED_TYPE (CmQueueHost, cm_queue_host, cm_queue_host_copy, cm_queue_host_free)

/* MMC_QUEUE_DEPTH of drivers/mmc/core/queue.h: the tags of a card that is
 * sent one command at a time. */
#define MMC_QUEUE_DEPTH 64

/* The most a queue can hold: the SD card's queue depth is 5 bits plus
 * one, and a CQHCI host has 32 slots. */
#define CQE_MAX_DEPTH 32

static GBytes *
read_bytes (const char *root,
            const char *path)
{
  g_autofree char *full = g_build_filename (root, path, NULL);
  g_autofree char *contents = NULL;
  gsize length;

  if (!g_file_get_contents (full, &contents, &length, NULL))
    return NULL;

  return g_bytes_new_take (g_steal_pointer (&contents), length);
}

static char *
read_text (const char *root,
           const char *path)
{
  g_autofree char *full = g_build_filename (root, path, NULL);
  g_autofree char *contents = NULL;

  if (!g_file_get_contents (full, &contents, NULL, NULL))
    return NULL;

  /* Device tree strings end in a NUL; sysfs values in a newline. */
  g_strstrip (contents);
  return contents[0] != '\0' ? g_steal_pointer (&contents) : NULL;
}

/* /proc/device-tree/compatible is a list of NUL-terminated strings; the
 * bytes g_file_get_contents() read end in one more NUL. */
static gboolean
compatible_has (GBytes     *compatible,
                const char *prefix)
{
  gsize length;
  const char *data = compatible != NULL ? g_bytes_get_data (compatible, &length) : NULL;

  for (gsize at = 0; data != NULL && at < length; at += strlen (data + at) + 1)
    if (g_str_has_prefix (data + at, prefix))
      return TRUE;

  return FALSE;
}

static CmQueueHostKind
read_kind (const char *root,
           const char *model)
{
  g_autoptr(GBytes) compatible = read_bytes (root, "proc/device-tree/compatible");

  if (compatible_has (compatible, "brcm,bcm2712"))
    return CM_QUEUE_HOST_PI5;
  if (compatible_has (compatible, "raspberrypi,") ||
      (model != NULL && g_str_has_prefix (model, "Raspberry Pi")))
    return CM_QUEUE_HOST_RASPBERRY_PI;

  return CM_QUEUE_HOST_OTHER;
}

/* dtparam=sd_cqe lands in the device tree through the override
 *   sd_cqe = <&sdio1>, "supports-cqe:0";
 * of arch/arm64/boot/dts/broadcom/bcm2712-rpi-5-b.dts (Raspberry Pi
 * Linux, 9ac6cb2577cadaeb509d49fa91a7af69191d21a6), which writes the
 * value as the one cell of the SD slot's "supports-cqe" property; the
 * .dts itself sets supports-cqe = <1>. The slot's node is the one alias
 * mmc0 names (bcm2712-rpi.dtsi: mmc0 = &sdio1). Kernels before January
 * 2025 had a boolean property, empty when set: that queued every A2 card
 * not known bad, which sd_cqe=2 does now. */
static int
read_sd_cqe (const char *root)
{
  g_autofree char *slot = read_text (root, "proc/device-tree/aliases/mmc0");
  g_autofree char *path = NULL;
  g_autoptr(GBytes) value = NULL;
  const guint8 *cell;
  gsize length;

  if (slot == NULL || slot[0] != '/')
    return -1;

  path = g_build_filename ("proc/device-tree", slot, "supports-cqe", NULL);
  value = read_bytes (root, path);
  if (value == NULL)
    return 0;

  cell = g_bytes_get_data (value, &length);
  if (length == 0)
    return 2;
  if (length != 4)
    return -1;

  return (int) ((guint32) cell[0] << 24 | (guint32) cell[1] << 16 | (guint32) cell[2] << 8 | cell[3]);
}

/* Whether the kernel queues for this card now, from the depth of the
 * card's block queue, /sys/block/mmcblkN/mq/0/nr_tags.
 *
 * mmc_init_queue() in drivers/mmc/core/queue.c sets the tag set's depth
 * once, when the card's block device is made: min(the card's queue
 * depth, host->cqe_qdepth) when host->cqe_enabled (the engine is on for
 * this card, and not the host's software queue), else MMC_QUEUE_DEPTH
 * (64). blk_mq_hw_sysfs_nr_tags_show() in block/blk-mq-sysfs.c shows that
 * depth to anyone. It is trusted over the kernel log ("Command Queue
 * Engine enabled", the "new ... card" line of drivers/mmc/core/bus.c,
 * mmc_add_card(), which names no queueing at all) because the log is
 * gone once the ring buffer wraps and root alone may read it, and over
 * /sys/block/.../queue/nr_requests because the I/O scheduler rewrites
 * that (blk_mq_init_sched(): twice the depth). */
static CmQueueing
read_now (const char *root,
          const char *block_name,
          guint      *depth)
{
  g_autofree char *path = g_build_filename ("sys/block", block_name, "mq/0/nr_tags", NULL);
  g_autofree char *text = read_text (root, path);
  char *end = NULL;
  guint64 tags;

  *depth = 0;
  if (text == NULL)
    return CM_QUEUEING_UNKNOWN;

  tags = g_ascii_strtoull (text, &end, 10);
  if (end == text || *end != '\0' || tags == 0 || tags > G_MAXUINT)
    return CM_QUEUEING_UNKNOWN;

  *depth = (guint) tags;
  if (tags == MMC_QUEUE_DEPTH)
    return CM_QUEUEING_NO;
  if (tags <= CQE_MAX_DEPTH)
    return CM_QUEUEING_YES;

  return CM_QUEUEING_UNKNOWN;
}

static void
read_listing (CmQueueHost *facts,
              const char  *root,
              const char  *block_name)
{
  g_autofree char *path = g_build_filename ("sys/block", block_name, "device/cid", NULL);
  g_autofree char *cid_hex = read_text (root, path);
  g_auto(CmSdRegisters) regs = { 0, };
  const CmCqeFixup *matched = NULL;
  CmCqeCid cid;

  facts->listing = CM_CQE_LISTING_UNKNOWN;
  if (cid_hex == NULL || !cm_sd_registers_parse (cid_hex, NULL, NULL, NULL, &regs, NULL) ||
      !cm_cqe_cid_from_registers (&regs, &cid))
    return;

  facts->listing = cm_cqe_quirks_lookup (&cid, &matched);
  facts->listed_by = matched != NULL ? g_strdup (matched->why) : NULL;
}

/**
 * cm_queue_host_read_from:
 * @root: the folder that stands for "/"
 * @block_name: (nullable): the card's block device, "mmcblk0"; without
 *   it only the host and its setting are read
 */
CmQueueHost *
cm_queue_host_read_from (const char *root,
                         const char *block_name)
{
  CmQueueHost *facts = g_new0 (CmQueueHost, 1);
  g_autofree char *card_dir = NULL;
  g_autoptr(CmHostFacts) host = NULL;

  g_return_val_if_fail (root != NULL, facts);

  facts->sd_cqe = -1;
  if (block_name != NULL)
    {
      g_autofree char *link = g_build_filename (root, "sys/block", block_name, "device", NULL);

      card_dir = realpath (link, NULL);
    }

  host = cm_host_facts_read_from (root, card_dir);
  facts->model = g_strdup (host->model);
  facts->slot = host->queueing;
  facts->kind = read_kind (root, facts->model);
  if (facts->kind == CM_QUEUE_HOST_PI5)
    facts->sd_cqe = read_sd_cqe (root);

  if (block_name != NULL)
    {
      facts->now = read_now (root, block_name, &facts->queue_depth);
      read_listing (facts, root, block_name);
    }

  return facts;
}

CmQueueHost *
cm_queue_host_read (const char *block_name)
{
  return cm_queue_host_read_from ("/", block_name);
}

CmQueueHost *
cm_queue_host_copy (const CmQueueHost *facts)
{
  CmQueueHost *copy;

  g_return_val_if_fail (facts != NULL, NULL);

  copy = g_memdup2 (facts, sizeof *facts);
  copy->model = g_strdup (facts->model);
  copy->listed_by = g_strdup (facts->listed_by);
  return copy;
}

void
cm_queue_host_free (CmQueueHost *facts)
{
  if (facts == NULL)
    return;

  g_free (facts->model);
  g_free (facts->listed_by);
  g_free (facts);
}

static const char *
describe_other_host (const CmQueueHost *facts)
{
  switch (facts->slot)
    {
    case CM_QUEUEING_YES:
      return _("This slot can queue commands, but not for this card");
    case CM_QUEUEING_NO:
      return _("This slot does not queue commands to SD cards");
    case CM_QUEUEING_UNKNOWN:
    default:
      return _("Whether queueing is on could not be read");
    }
}

/**
 * cm_queue_host_describe:
 *
 * One sentence for @facts, in the language of the moment it is called.
 */
char *
cm_queue_host_describe (const CmQueueHost *facts)
{
  g_return_val_if_fail (facts != NULL, NULL);

  if (facts->now == CM_QUEUEING_YES)
    return g_strdup (_("Queueing on for this card"));
  if (facts->kind != CM_QUEUE_HOST_PI5)
    return g_strdup (describe_other_host (facts));
  if (facts->listing == CM_CQE_LISTING_DENIED)
    return g_strdup (_("Known bad · the kernel keeps queueing off for it"));
  if (facts->sd_cqe == 0)
    return g_strdup (_("Queueing off · dtparam=sd_cqe=0 turns it off for every card"));
  if (facts->listing == CM_CQE_LISTING_NEITHER && facts->sd_cqe != 2)
    return g_strdup (_("Queueing off for this card · the kernel does not know it: to try it, dtparam=sd_cqe=2, restart, and check again"));
  if (facts->now == CM_QUEUEING_NO)
    return g_strdup (_("Queueing off for this card"));

  return g_strdup (_("Whether queueing is on could not be read"));
}
