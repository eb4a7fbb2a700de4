/* cm-card-same.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one rule for "is this the card that document was of?": its CID
 * (serial, product name, maker and date) where the reader gives it;
 * else the card never left its reader since, which the kernel counts:
 * a disk's sequence number (/sys/class/block/NAME/diskseq) changes
 * whenever its medium does (a card pulled from a USB reader, another
 * file behind a loop device) and a slot's card comes back as a new
 * disk, so the same device with the same number in the same boot is
 * the same card; else they are not the same. A size, a row's last
 * result, Test Again and "tested before" are lent only on proof.
 */

#include "config.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cm-card-same.h"

/* A device that is no block device here, and how the tests say it is
 * seen (cm_card_set_sighting_for_testing()). */
static char *testing_device;
static char *testing_sighting;

const char *
cm_card_proof_to_string (CmCardProof proof)
{
  switch (proof)
    {
    case CM_CARD_PROOF_CID:    return "cid";
    case CM_CARD_PROOF_READER: return "never-left-reader";
    case CM_CARD_PROOF_NONE:   return "none";
    default:                   g_return_val_if_reached ("none");
    }
}

/**
 * cm_card_dup_sighting:
 * @device: the card's device now
 *
 * Where and when the card in @device is: this boot's id and the disk's
 * sequence number, "BOOT-ID/SEQ". Two sightings are equal only while
 * the same medium stays in the same device.
 *
 * Returns: (transfer full) (nullable): it, or %NULL where the kernel
 *   does not say (no diskseq before Linux 5.15, or no such device)
 */
char *
cm_card_dup_sighting (const char *device)
{
  g_autofree char *boot = NULL;
  g_autofree char *seq = NULL;
  g_autofree char *seq_path = NULL;
  struct stat st;

  if (device != NULL && g_strcmp0 (device, testing_device) == 0)
    return g_strdup (testing_sighting);
  if (device == NULL || stat (device, &st) != 0 || !S_ISBLK (st.st_mode))
    return NULL;
  seq_path = g_strdup_printf ("/sys/dev/block/%u:%u/diskseq", major (st.st_rdev), minor (st.st_rdev));
  if (!g_file_get_contents (seq_path, &seq, NULL, NULL) ||
      !g_file_get_contents ("/proc/sys/kernel/random/boot_id", &boot, NULL, NULL))
    return NULL;
  g_strstrip (seq);
  g_strstrip (boot);
  if (*seq == '\0' || *boot == '\0')
    return NULL;
  return g_strdup_printf ("%s/%s", boot, seq);
}

static gboolean
same_text (const char *a,
           const char *b)
{
  return a == NULL || b == NULL || g_str_equal (a, b);
}

/* The same CID: the serial, and the name, maker and date where both
 * documents tell them. */
static gboolean
same_cid (CmCardInfo *was,
          CmCardInfo *is)
{
  return g_str_equal (cm_card_info_get_serial (was), cm_card_info_get_serial (is)) &&
         same_text (cm_card_info_get_product_name (was), cm_card_info_get_product_name (is)) &&
         same_text (cm_card_info_get_manufacture_date (was), cm_card_info_get_manufacture_date (is)) &&
         (cm_card_info_get_manufacturer_id (was) < 0 || cm_card_info_get_manufacturer_id (is) < 0 ||
          cm_card_info_get_manufacturer_id (was) == cm_card_info_get_manufacturer_id (is));
}

static gboolean
has_serial (CmCardInfo *card)
{
  return card != NULL && cm_card_info_get_serial (card) != NULL && *cm_card_info_get_serial (card) != '\0';
}

/**
 * cm_card_same:
 * @was: a document of a card
 * @is: (nullable): the card's registers now, where the reader gives them
 * @device: (nullable): the card's device now
 *
 * Whether @was is of the card in @device now, and on what proof.
 *
 * Returns: the proof, or %CM_CARD_PROOF_NONE: not the same card
 */
CmCardProof
cm_card_same (CmResult   *was,
              CmCardInfo *is,
              const char *device)
{
  CmCardInfo *was_card;
  const char *was_device;
  g_autofree char *now = NULL;

  g_return_val_if_fail (CM_IS_RESULT (was), CM_CARD_PROOF_NONE);

  was_card = cm_result_get_card (was);
  if (has_serial (was_card) && has_serial (is))
    return same_cid (was_card, is) ? CM_CARD_PROOF_CID : CM_CARD_PROOF_NONE;

  /* Without UDisks a run knows its device only as the path it was given. */
  was_device = cm_result_get_device (was);
  if (was_device == NULL && g_str_has_prefix (cm_result_get_target_mode (was) != NULL ? cm_result_get_target_mode (was) : "", "raw-"))
    was_device = cm_result_get_target_path (was);
  if (device == NULL || cm_result_get_sighting (was) == NULL || g_strcmp0 (was_device, device) != 0)
    return CM_CARD_PROOF_NONE;
  now = cm_card_dup_sighting (device);
  return g_strcmp0 (now, cm_result_get_sighting (was)) == 0 ? CM_CARD_PROOF_READER : CM_CARD_PROOF_NONE;
}

/* For tests only: @device (a name that is no device here) is seen as
 * @sighting from now on; %NULL: not seen. */
void
cm_card_set_sighting_for_testing (const char *device,
                                  const char *sighting)
{
  g_free (testing_device);
  testing_device = g_strdup (device);
  g_free (testing_sighting);
  testing_sighting = g_strdup (sighting);
}
