/* cm-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The few places where the app reaches into the core: the device list,
 * a card's job, the plan and the verdict. (Each job opens its target
 * itself, through cm_job_open_target_async().) Kept in one small file so
 * that the widgets stay independent of how the core grows.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-device-monitor.h"
#include "cm-verdict.h"

#include "cm-backend.h"

static const char *
reader_label (CmDevice *device)
{
  guint mbps = cm_device_get_usb_speed_mbps (device);

  switch (cm_device_get_reader_kind (device))
    {
    case CM_READER_SD_SLOT:
      return _("SD card slot");
    case CM_READER_USB:
      if (mbps == 0)
        return _("USB reader");
      return mbps < 5000 ? _("USB 2.0 reader") : _("USB 3 reader");
    case CM_READER_LOOP:
      return _("Loop device");
    case CM_READER_OTHER:
    default:
      return NULL;
    }
}

static CmCardItem *
item_new_for_device (CmDevice *device)
{
  const char * const *mounts = cm_device_get_mount_points (device);
  g_autoptr(CmCardItem) item = NULL;
  g_autoptr(CmCardInfo) info = NULL;

  item = cm_card_item_new_device (cm_device_get_device (device), cm_device_get_name (device),
                                  cm_device_get_size (device), reader_label (device),
                                  mounts != NULL ? mounts[0] : NULL);
  cm_card_item_set_is_system (item, cm_device_get_system (device));
  cm_card_item_set_usb_speed_mbps (item, cm_device_get_usb_speed_mbps (device));
  cm_card_item_set_volume_label (item, cm_device_get_volume_label (device));
  g_object_set_data_full (G_OBJECT (item), "cm-device", g_object_ref (device), g_object_unref);

  info = cm_card_info_new_for_device (device);
  if (info != NULL)
    cm_card_item_set_card_info (item, info);

  return g_steal_pointer (&item);
}

static void device_notify_cb (CmDevice   *device,
                              GParamSpec *pspec,
                              GListStore *store);

static void
watch_device (CmDevice   *device,
              GListStore *store)
{
  g_signal_connect_object (device, "notify", G_CALLBACK (device_notify_cb), store, 0);
}

/* A card inserted, removed or mounted in a reader that stays: the row is
 * rebuilt so that every widget sees the new state. */
static void
device_notify_cb (CmDevice   *device,
                  GParamSpec *pspec,
                  GListStore *store)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (store));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmCardItem) item = g_list_model_get_item (G_LIST_MODEL (store), i);
      g_autoptr(CmCardItem) fresh = NULL;

      if (g_object_get_data (G_OBJECT (item), "cm-device") != device)
        continue;

      if (!cm_device_get_has_media (device))
        {
          g_list_store_remove (store, i);
          return;
        }

      fresh = item_new_for_device (device);
      g_list_store_splice (store, i, 1, (gpointer *) &fresh, 1);
      return;
    }

  /* A reader that was empty got a card: its row in its place. */
  if (cm_device_get_has_media (device))
    {
      g_autoptr(CmCardItem) fresh = item_new_for_device (device);
      guint at = 0;

      for (; at < n; at++)
        {
          g_autoptr(CmCardItem) other = g_list_model_get_item (G_LIST_MODEL (store), at);

          if (cm_device_compare_paths (cm_card_item_get_device (other), cm_device_get_device (device)) > 0)
            break;
        }
      g_list_store_insert (store, at, fresh);
    }
}

static void
monitor_changed_cb (GListStore *store,
                    guint       position,
                    guint       removed,
                    guint       added,
                    GListModel *monitor)
{
  guint n = g_list_model_get_n_items (monitor);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  /* Readers without a card are not listed, so positions differ: the
   * store is rebuilt, in one change so that a card that stays is never
   * seen to go (which would end its run). */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmDevice) device = g_list_model_get_item (monitor, i);

      if (i >= position && i < position + added)
        watch_device (device, store);
      if (cm_device_get_has_media (device))
        g_ptr_array_add (items, item_new_for_device (device));
    }

  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)),
                       items->pdata, items->len);
}

GListModel *
cm_backend_dup_devices (gboolean   show_loop,
                        GError   **error)
{
  g_autoptr(CmDeviceMonitor) monitor = cm_device_monitor_new (error);
  GListStore *store;

  if (monitor == NULL)
    return NULL;

  cm_device_monitor_set_show_loop (monitor, show_loop);
  store = g_list_store_new (CM_TYPE_CARD_ITEM);
  g_object_set_data_full (G_OBJECT (store), "cm-monitor", g_object_ref (monitor), g_object_unref);
  g_signal_connect_object (monitor, "items-changed", G_CALLBACK (monitor_changed_cb), store, G_CONNECT_SWAPPED);
  monitor_changed_cb (store, 0, 0, g_list_model_get_n_items (G_LIST_MODEL (monitor)), G_LIST_MODEL (monitor));

  return G_LIST_MODEL (store);
}

void
cm_backend_set_show_loop (GListModel *devices,
                          gboolean    show_loop)
{
  CmDeviceMonitor *monitor = g_object_get_data (G_OBJECT (devices), "cm-monitor");

  if (monitor != NULL)
    cm_device_monitor_set_show_loop (monitor, show_loop);
}


/* Sets the kind's option @name where its options have one (a
 * benchmark's method): the other kinds take no method. */
static void
set_option (CmJob      *job,
            const char *name,
            guint       value)
{
  GObject *options = cm_job_get_options (job);

  /* A boolean or a uint: both are collected as an int. */
  if (options != NULL && g_object_class_find_property (G_OBJECT_GET_CLASS (options), name) != NULL)
    g_object_set (options, name, value, NULL);
}

/**
 * cm_backend_new_job:
 * @kind: the job's kind: &cm_job_kind_verify
 * @devices: the list from cm_backend_dup_devices(), whose monitor finds
 *   the device under a folder
 *
 * A card job for @item: a card from the list through its device, opened
 * by UDisks so that polkit decides; a folder as the CLI takes one. A
 * benchmark is made by @method.
 */

CmJob *
cm_backend_new_job (const CmJobKind *kind,
                    GListModel      *devices,
                    CmCardItem      *item,
                    CmMethod         method)
{
  CmDevice *device = g_object_get_data (G_OBJECT (item), "cm-device");
  CmJob *job;

  if (device != NULL)
    job = cm_job_new_of_kind_for_device (kind, device);
  else
    {
      job = cm_job_new_of_kind (kind, cm_card_item_get_file_folder (item) ?: cm_card_item_get_device (item));
      set_option (job, "raw", method != CM_METHOD_FILE);
      set_option (job, "allow-write", method == CM_METHOD_RAW_WRITE);
    }
  set_option (job, "method", method);
  if (devices != NULL)
    cm_job_set_monitor (job, g_object_get_data (G_OBJECT (devices), "cm-monitor"));
  cm_job_set_prefer_udisks (job, TRUE);
  return job;
}
