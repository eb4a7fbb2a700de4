/* cm-bus.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Cards that share a bus share its bandwidth: a speed measured while a
 * neighbour moves data is the neighbour's too. A benchmark takes its
 * card's bus for its measuring phase (cm-runner.c), and one on the same
 * bus waits until it is free; bulk jobs (verify, wear, capacity) never
 * take it and are never held back.
 *
 * The bus is the USB host controller above the device in sysfs
 * (/sys/class/block/X/device, up to usbN); anything else (an SD slot, a
 * loop device) is its own. A test build groups loop devices onto one bus
 * with CARDMARK_TEST_BUS_GROUP.
 */

#include "config.h"

#include <stdlib.h>

#include "cm-bus.h"
#include "cm-test-hooks.h"

/* How often a waiting benchmark looks whether it was cancelled. */
#define WAIT_STEP_US (G_USEC_PER_SEC / 5)

static GMutex lock;
static GCond freed;
static GHashTable *holders;  /* key → the device measuring on it */

static gboolean
is_usb_root (const char *name)
{
  if (!g_str_has_prefix (name, "usb") || name[3] == '\0')
    return FALSE;
  for (const char *c = name + 3; *c != '\0'; c++)
    if (!g_ascii_isdigit (*c))
      return FALSE;
  return TRUE;
}

/**
 * cm_bus_key_for_device:
 * @device: a block device, such as /dev/sdb or /dev/sdb1
 *
 * Returns: a key that is the same for every card on one bus, or %NULL
 * when @device is no block device.
 */
char *
cm_bus_key_for_device (const char *device)
{
  g_autofree char *real = NULL;
  g_autofree char *name = NULL;
  g_autofree char *link = NULL;
  g_autofree char *dir = NULL;
  const char *group;

  if (device == NULL || (real = realpath (device, NULL)) == NULL || !g_str_has_prefix (real, "/dev/"))
    return NULL;
  name = g_path_get_basename (real);

  group = cm_test_hook ("CARDMARK_TEST_BUS_GROUP");
  if (group != NULL && group[0] != '\0' && g_str_has_prefix (name, "loop"))
    return g_strconcat ("test:", group, NULL);

  /* A partition has no device link of its own: its disk's is one up. */
  link = g_strdup_printf ("/sys/class/block/%s/device", name);
  if (!g_file_test (link, G_FILE_TEST_EXISTS))
    {
      g_autofree char *part = g_strdup_printf ("/sys/class/block/%s/..", name);
      g_autofree char *disk = realpath (part, NULL);

      if (disk != NULL)
        {
          g_free (link);
          link = g_build_filename (disk, "device", NULL);
        }
    }
  dir = realpath (link, NULL);
  while (dir != NULL && g_str_has_prefix (dir, "/sys/devices/"))
    {
      g_autofree char *base = g_path_get_basename (dir);
      char *parent;

      if (is_usb_root (base))
        return g_strconcat ("usb:", dir, NULL);
      parent = g_path_get_dirname (dir);
      g_free (dir);
      dir = parent;
    }

  /* An SD slot, a loop device, anything not on USB: a bus of its own. */
  return g_strconcat ("dev:", name, NULL);
}

/**
 * cm_bus_measure_begin:
 * @key: (nullable): the bus, from cm_bus_key_for_device()
 * @device: the card that will measure, named to those that wait
 * @cancellable: (nullable): stops the wait
 * @waiting: (nullable): called once, in this thread, if the bus is busy
 * @user_data: for @waiting
 *
 * Blocks (call it in a worker thread) until no other card measures on
 * @key, then takes it. Returns %FALSE, holding nothing, when cancelled.
 */
gboolean
cm_bus_measure_begin (const char       *key,
                      const char       *device,
                      GCancellable     *cancellable,
                      CmBusWaitingFunc  waiting,
                      gpointer          user_data)
{
  gboolean told = FALSE;

  if (key == NULL)
    return TRUE;

  g_mutex_lock (&lock);
  if (holders == NULL)
    holders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  while (g_hash_table_contains (holders, key))
    {
      if (g_cancellable_is_cancelled (cancellable))
        {
          g_mutex_unlock (&lock);
          return FALSE;
        }
      if (!told && waiting != NULL)
        {
          g_autofree char *holder = g_strdup (g_hash_table_lookup (holders, key));

          told = TRUE;
          g_mutex_unlock (&lock);
          waiting (holder, user_data);
          g_mutex_lock (&lock);
          continue;
        }
      g_cond_wait_until (&freed, &lock, g_get_monotonic_time () + WAIT_STEP_US);
    }
  g_hash_table_insert (holders, g_strdup (key), g_strdup (device));
  g_mutex_unlock (&lock);
  return TRUE;
}

/* Gives @key back to those that wait. */
void
cm_bus_measure_end (const char *key)
{
  if (key == NULL)
    return;

  g_mutex_lock (&lock);
  if (holders != NULL)
    g_hash_table_remove (holders, key);
  g_cond_broadcast (&freed);
  g_mutex_unlock (&lock);
}
