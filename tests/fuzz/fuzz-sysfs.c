/* fuzz-sysfs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sysfs readers pointed at a generated folder: the input, split at
 * NUL bytes, gives the files cid, csd, scr and ssr of a card's device
 * folder, and the speed of the USB device above it, as a card reader
 * would show them under /sys/devices.
 */

#include "config.h"

#include <glib/gstdio.h>

#include "cm-card-info.h"
#include "cm-counterfeit.h"
#include "cm-device-private.h"

#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char * const names[] = { "cid", "csd", "scr", "ssr", "speed" };
  g_auto(GStrv) parts = fuzz_split (data, size, G_N_ELEMENTS (names));
  g_autofree char *root = fuzz_make_dir ();
  g_autofree char *usb = g_build_filename (root, "usb1", "1-1", NULL);
  g_autofree char *card = g_build_filename (usb, "host0", "mmc0:0001", NULL);
  g_autofree char *busnum = g_build_filename (usb, "busnum", NULL);
  g_autoptr(CmCardInfo) info = NULL;
  guint mbps = 0;

  g_mkdir_with_parents (card, 0700);
  g_file_set_contents (busnum, "1\n", -1, NULL);

  /* An empty part is a file that is not there. */
  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] != '\0')
      {
        g_autofree char *path = g_build_filename (i < 4 ? card : usb, names[i], NULL);

        g_file_set_contents (path, parts[i], -1, NULL);
      }

  info = cm_card_info_new_from_sysfs (card, NULL);
  if (info != NULL)
    {
      g_auto(GStrv) classes = cm_card_info_dup_declared_classes (info);
      g_auto(GStrv) hints = cm_counterfeit_dup_hints (info, NULL);
    }
  (void) cm_device_find_usb_speed (card, root, &mbps);

  fuzz_remove_tree (root);
  return 0;
}
