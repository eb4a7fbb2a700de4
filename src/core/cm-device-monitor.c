/* cm-device-monitor.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/stat.h>

#include "cm-device-private.h"
#include "cm-device-monitor.h"

struct _CmDeviceMonitor
{
  GObject       parent_instance;

  UDisksClient *client;
  GPtrArray    *devices;
  guint         resync_id;
  gboolean      show_loop;
};

static void cm_device_monitor_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (CmDeviceMonitor, cm_device_monitor, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, cm_device_monitor_list_model_init))

enum {
  PROP_0,
  PROP_SHOW_LOOP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GType
cm_device_monitor_get_item_type (GListModel *model)
{
  return CM_TYPE_DEVICE;
}

static guint
cm_device_monitor_get_n_items (GListModel *model)
{
  return CM_DEVICE_MONITOR (model)->devices->len;
}

static gpointer
cm_device_monitor_get_item (GListModel *model,
                            guint       position)
{
  CmDeviceMonitor *self = CM_DEVICE_MONITOR (model);

  if (position >= self->devices->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->devices, position));
}

static void
cm_device_monitor_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = cm_device_monitor_get_item_type;
  iface->get_n_items = cm_device_monitor_get_n_items;
  iface->get_item = cm_device_monitor_get_item;
}

/* An eMMC chip soldered to the board (a Compute Module's) is an mmcblk
 * device too, with boot and RPMB areas; none of it is a card. */
static gboolean
is_sd_card_slot (const char *block_name)
{
  g_autofree char *type_path = NULL;
  g_autofree char *type = NULL;

  if (strstr (block_name, "boot") != NULL || strstr (block_name, "rpmb") != NULL)
    return FALSE;

  type_path = g_build_filename ("/sys/block", block_name, "device", "type", NULL);
  if (g_file_get_contents (type_path, &type, NULL, NULL))
    return !g_str_has_prefix (type, "MMC");

  return TRUE;
}

static gboolean
has_flash_prefix (const char * const *media)
{
  for (guint i = 0; media != NULL && media[i] != NULL; i++)
    if (g_str_has_prefix (media[i], "flash"))
      return TRUE;

  return FALSE;
}

static gboolean
is_candidate (CmDeviceMonitor *self,
              UDisksObject    *object)
{
  UDisksBlock *block = udisks_object_peek_block (object);
  g_autoptr(UDisksDrive) drive = NULL;
  g_autofree char *block_name = NULL;
  const char *media;

  if (block == NULL || udisks_object_peek_partition (object) != NULL)
    return FALSE;

  block_name = g_path_get_basename (udisks_block_get_device (block));

  /* Unattached loop devices exist too, with size zero. */
  if (g_str_has_prefix (block_name, "loop"))
    return self->show_loop && udisks_block_get_size (block) > 0;

  if (g_str_has_prefix (block_name, "mmcblk"))
    return is_sd_card_slot (block_name);

  drive = udisks_client_get_drive_for_block (self->client, block);
  if (drive == NULL)
    return FALSE;

  media = udisks_drive_get_media (drive);

  return udisks_drive_get_media_removable (drive) ||
         has_flash_prefix (udisks_drive_get_media_compatibility (drive)) ||
         (media != NULL && g_str_has_prefix (media, "flash"));
}

static int
compare_devices (gconstpointer a,
                 gconstpointer b)
{
  CmDevice *da = *(CmDevice **) a;
  CmDevice *db = *(CmDevice **) b;

  return cm_device_compare_paths (cm_device_get_device (da), cm_device_get_device (db));
}

static CmDevice *
find_device (CmDeviceMonitor *self,
             const char      *object_path,
             guint           *out_position)
{
  for (guint i = 0; i < self->devices->len; i++)
    {
      CmDevice *device = g_ptr_array_index (self->devices, i);

      if (g_str_equal (cm_device_get_object_path (device), object_path))
        {
          if (out_position != NULL)
            *out_position = i;
          return device;
        }
    }

  return NULL;
}

/* Brings the list in line with what UDisks has now: removes what left,
 * updates what stayed, appends what came. */
static void
resync (CmDeviceMonitor *self)
{
  GDBusObjectManager *manager = udisks_client_get_object_manager (self->client);
  GList *objects = g_dbus_object_manager_get_objects (manager);
  g_autoptr(GHashTable) wanted = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) added = g_ptr_array_new_with_free_func (g_object_unref);

  for (GList *l = objects; l != NULL; l = l->next)
    if (is_candidate (self, UDISKS_OBJECT (l->data)))
      g_hash_table_add (wanted, (gpointer) g_dbus_object_get_object_path (l->data));

  for (guint i = self->devices->len; i > 0; i--)
    {
      CmDevice *device = g_ptr_array_index (self->devices, i - 1);

      if (!g_hash_table_contains (wanted, cm_device_get_object_path (device)))
        {
          /* Whoever still holds it sees it as it is now: gone or empty. */
          cm_device_update (device);
          g_ptr_array_remove_index (self->devices, i - 1);
          g_list_model_items_changed (G_LIST_MODEL (self), i - 1, 1, 0);
        }
    }

  for (guint i = 0; i < self->devices->len; i++)
    cm_device_update (g_ptr_array_index (self->devices, i));

  for (GList *l = objects; l != NULL; l = l->next)
    {
      const char *path = g_dbus_object_get_object_path (l->data);

      if (g_hash_table_contains (wanted, path) && find_device (self, path, NULL) == NULL)
        g_ptr_array_add (added, cm_device_new (self->client, UDISKS_OBJECT (l->data)));
    }

  /* Each new device in its place among those listed: loop2 before
   * loop10, whenever either came. */
  for (guint i = 0; i < added->len; i++)
    {
      CmDevice *device = g_ptr_array_index (added, i);
      guint at = 0;

      while (at < self->devices->len && compare_devices (&g_ptr_array_index (self->devices, at), &device) <= 0)
        at++;
      g_ptr_array_insert (self->devices, at, g_object_ref (device));
      g_list_model_items_changed (G_LIST_MODEL (self), at, 0, 1);
    }

  g_list_free_full (objects, g_object_unref);
}

static gboolean
resync_cb (gpointer user_data)
{
  CmDeviceMonitor *self = user_data;

  self->resync_id = 0;
  resync (self);

  return G_SOURCE_REMOVE;
}

/* UDisks sends a burst of signals for one event (a block, its drive,
 * its partitions); one resync after the burst is enough. */
static void
queue_resync (CmDeviceMonitor *self)
{
  if (self->resync_id == 0)
    self->resync_id = g_idle_add_full (G_PRIORITY_DEFAULT, resync_cb, self, NULL);
}

static void
object_changed_cb (CmDeviceMonitor *self)
{
  queue_resync (self);
}

static void
cm_device_monitor_dispose (GObject *object)
{
  CmDeviceMonitor *self = (CmDeviceMonitor *) object;

  g_clear_handle_id (&self->resync_id, g_source_remove);
  if (self->client != NULL)
    g_signal_handlers_disconnect_by_data (udisks_client_get_object_manager (self->client), self);
  g_clear_object (&self->client);
  g_clear_pointer (&self->devices, g_ptr_array_unref);

  G_OBJECT_CLASS (cm_device_monitor_parent_class)->dispose (object);
}

static void
cm_device_monitor_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  CmDeviceMonitor *self = CM_DEVICE_MONITOR (object);

  switch (prop_id)
    {
    case PROP_SHOW_LOOP:
      g_value_set_boolean (value, self->show_loop);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_device_monitor_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  CmDeviceMonitor *self = CM_DEVICE_MONITOR (object);

  switch (prop_id)
    {
    case PROP_SHOW_LOOP:
      cm_device_monitor_set_show_loop (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_device_monitor_class_init (CmDeviceMonitorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cm_device_monitor_dispose;
  object_class->get_property = cm_device_monitor_get_property;
  object_class->set_property = cm_device_monitor_set_property;

  properties[PROP_SHOW_LOOP] =
    g_param_spec_boolean ("show-loop", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cm_device_monitor_init (CmDeviceMonitor *self)
{
  self->devices = g_ptr_array_new_with_free_func (g_object_unref);
}

static CmDeviceMonitor *
monitor_new_for_client (UDisksClient  *client,
                        GError       **error)
{
  GDBusObjectManager *manager = udisks_client_get_object_manager (client);
  g_autofree char *owner = NULL;
  CmDeviceMonitor *self;

  owner = g_dbus_object_manager_client_get_name_owner (G_DBUS_OBJECT_MANAGER_CLIENT (manager));
  if (owner == NULL)
    {
      g_propagate_error (error, cm_device_error_no_service ());
      return NULL;
    }

  self = g_object_new (CM_TYPE_DEVICE_MONITOR, NULL);
  self->client = g_object_ref (client);

  g_signal_connect_swapped (manager, "object-added", G_CALLBACK (object_changed_cb), self);
  g_signal_connect_swapped (manager, "object-removed", G_CALLBACK (object_changed_cb), self);
  g_signal_connect_swapped (manager, "interface-added", G_CALLBACK (object_changed_cb), self);
  g_signal_connect_swapped (manager, "interface-removed", G_CALLBACK (object_changed_cb), self);
  g_signal_connect_swapped (manager, "interface-proxy-properties-changed", G_CALLBACK (object_changed_cb), self);
  g_signal_connect_swapped (manager, "notify::name-owner", G_CALLBACK (object_changed_cb), self);

  resync (self);

  return self;
}

CmDeviceMonitor *
cm_device_monitor_new (GError **error)
{
  g_autoptr(UDisksClient) client = NULL;
  g_autoptr(GError) local_error = NULL;

  client = udisks_client_new_sync (NULL, &local_error);
  if (client == NULL)
    {
      g_debug ("Could not reach udisks2: %s", local_error->message);
      g_propagate_error (error, cm_device_error_no_service ());
      return NULL;
    }

  return monitor_new_for_client (client, error);
}

void
cm_device_monitor_set_show_loop (CmDeviceMonitor *self,
                                 gboolean         show_loop)
{
  g_return_if_fail (CM_IS_DEVICE_MONITOR (self));

  show_loop = !!show_loop;
  if (self->show_loop == show_loop)
    return;

  self->show_loop = show_loop;
  if (self->client != NULL)
    resync (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_LOOP]);
}

CmDevice *
cm_device_monitor_lookup (CmDeviceMonitor *self,
                          const char      *path)
{
  g_autoptr(UDisksBlock) block = NULL;
  g_autoptr(UDisksObject) object = NULL;
  UDisksPartition *partition;
  CmDevice *device;
  struct stat st;

  g_return_val_if_fail (CM_IS_DEVICE_MONITOR (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  if (stat (path, &st) != 0)
    return NULL;

  block = udisks_client_get_block_for_dev (self->client, S_ISBLK (st.st_mode) ? st.st_rdev : st.st_dev);
  if (block == NULL)
    return NULL;

  object = UDISKS_OBJECT (g_dbus_interface_dup_object (G_DBUS_INTERFACE (block)));
  if (object == NULL)
    return NULL;

  partition = udisks_object_peek_partition (object);
  if (partition != NULL)
    {
      g_autoptr(UDisksPartitionTable) table = udisks_client_get_partition_table (self->client, partition);

      if (table == NULL)
        return NULL;
      g_clear_object (&object);
      object = (UDisksObject *) g_dbus_interface_dup_object (G_DBUS_INTERFACE (table));
      if (object == NULL || udisks_object_peek_block (object) == NULL)
        return NULL;
    }

  device = find_device (self, g_dbus_object_get_object_path (G_DBUS_OBJECT (object)), NULL);
  if (device != NULL)
    return g_object_ref (device);

  return cm_device_new (self->client, object);
}
