/* cm-device.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <gio/gunixfdlist.h>
#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cm-card-use.h"
#include "cm-device-private.h"
#include "cm-device.h"
#include "cm-text.h"

struct _CmDevice
{
  GObject       parent_instance;

  UDisksClient *client;
  UDisksObject *object;
  char         *object_path;

  char         *device;
  char         *name;
  char         *name_detail;
  char         *vendor;
  char         *model;
  guint64       size;
  GStrv         mount_points;
  CmReaderKind  reader_kind;
  guint         usb_speed_mbps;
  char         *sysfs_device_dir;
  char         *volume_label;
  guint         read_only : 1;
  guint         system : 1;
};

G_DEFINE_FINAL_TYPE (CmDevice, cm_device, G_TYPE_OBJECT)

G_DEFINE_QUARK (cm-device-error-quark, cm_device_error)

G_DEFINE_ENUM_TYPE (CmReaderKind, cm_reader_kind,
  G_DEFINE_ENUM_VALUE (CM_READER_OTHER, "other"),
  G_DEFINE_ENUM_VALUE (CM_READER_SD_SLOT, "sd-slot"),
  G_DEFINE_ENUM_VALUE (CM_READER_USB, "usb"),
  G_DEFINE_ENUM_VALUE (CM_READER_LOOP, "loop"))

enum {
  PROP_0,
  PROP_OBJECT_PATH,
  PROP_DEVICE,
  PROP_NAME,
  PROP_VENDOR,
  PROP_MODEL,
  PROP_SIZE,
  PROP_READ_ONLY,
  PROP_MOUNTED,
  PROP_MOUNT_POINTS,
  PROP_SYSTEM,
  PROP_READER_KIND,
  PROP_USB_SPEED_MBPS,
  PROP_HAS_MEDIA,
  PROP_SYSFS_DEVICE_DIR,
  PROP_VOLUME_LABEL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *
cm_reader_kind_to_string (CmReaderKind kind)
{
  switch (kind)
    {
    case CM_READER_SD_SLOT:
      return "sd-slot";
    case CM_READER_USB:
      return "usb";
    case CM_READER_LOOP:
      return "loop";
    case CM_READER_OTHER:
    default:
      return "other";
    }
}

gboolean
cm_reader_kind_from_string (const char   *str,
                            CmReaderKind *kind)
{
  static const CmReaderKind kinds[] = { CM_READER_OTHER, CM_READER_SD_SLOT, CM_READER_USB, CM_READER_LOOP };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_strcmp0 (str, cm_reader_kind_to_string (kinds[i])) == 0)
      {
        *kind = kinds[i];
        return TRUE;
      }
  return FALSE;
}

static char *
read_sysfs_string (const char *dir,
                   const char *file)
{
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autofree char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;

  return g_strdup (g_strstrip (contents));
}

/* Walks up from DIR, a block device's sysfs folder, to the USB device
 * that carries it, if any, and reads its negotiated speed. Stops at
 * STOP_AT ("/sys/devices"). */
gboolean
cm_device_find_usb_speed (const char *dir,
                          const char *stop_at,
                          guint      *out_mbps)
{
  g_autofree char *here = g_strdup (dir);

  while (g_str_has_prefix (here, stop_at) && strlen (here) > strlen (stop_at))
    {
      g_autofree char *busnum = g_build_filename (here, "busnum", NULL);
      g_autofree char *speed = NULL;
      char *parent;

      if (g_file_test (busnum, G_FILE_TEST_EXISTS) &&
          (speed = read_sysfs_string (here, "speed")) != NULL)
        {
          /* "1.5", "12", "480", "5000", "10000", "20000"; anything else
           * (no USB runs at a terabit) is not a speed to trust. */
          double mbps = g_ascii_strtod (speed, NULL);

          if (!(mbps > 0 && mbps <= 1e6))
            return FALSE;
          *out_mbps = (guint) (mbps + 0.5);
          return TRUE;
        }

      parent = g_path_get_dirname (here);
      g_free (here);
      here = parent;
    }

  return FALSE;
}

static gboolean
find_usb_speed (const char *block_name,
                guint      *out_mbps)
{
  g_autofree char *link = g_build_filename ("/sys/class/block", block_name, NULL);
  g_autofree char *dir = realpath (link, NULL);

  return dir != NULL && cm_device_find_usb_speed (dir, "/sys/devices", out_mbps);
}

static char *
join_nonempty (const char *a,
               const char *b)
{
  gboolean has_a = a != NULL && a[0] != '\0';
  gboolean has_b = b != NULL && b[0] != '\0';

  if (has_a && has_b)
    return g_strdup_printf ("%s %s", a, b);
  if (has_a || has_b)
    return g_strdup (has_a ? a : b);

  return NULL;
}

static void
notify_if (CmDevice *self,
           gboolean  changed,
           guint     prop)
{
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static gboolean
set_string (char       **slot,
            const char  *value)
{
  if (g_strcmp0 (*slot, value) == 0)
    return FALSE;

  g_free (*slot);
  *slot = g_strdup (value);
  return TRUE;
}

/* Text from the card and the reader, through UDisks (a model, a volume
 * label, a backing file's name): cleaned for every label and line. */
static gboolean
set_clean_string (char       **slot,
                  const char  *value)
{
  g_autofree char *clean = value != NULL ? cm_text_dup_clean (value, CM_TEXT_LINE_MAX) : NULL;

  return set_string (slot, clean);
}

/* What tells the device apart in its name: a loop device's backing
 * file, the product name of a built-in slot's card, a reader's vendor
 * and model; NULL when nothing does. */
static char *
make_name_detail (CmDevice   *self,
                  UDisksLoop *loop)
{
  if (self->reader_kind == CM_READER_LOOP)
    {
      const char *backing = loop != NULL ? udisks_loop_get_backing_file (loop) : NULL;

      return backing != NULL && backing[0] != '\0' ? g_path_get_basename (backing) : NULL;
    }

  if (self->reader_kind == CM_READER_SD_SLOT)
    {
      /* The product name from the card's CID register. */
      g_autofree char *product = self->sysfs_device_dir != NULL ? read_sysfs_string (self->sysfs_device_dir, "name") : NULL;

      return product != NULL && product[0] != '\0' ? g_steal_pointer (&product) : NULL;
    }

  return join_nonempty (self->vendor, self->model);
}

/**
 * cm_device_phrase_name:
 * @kind: how the device is attached
 * @detail: (nullable): what tells it apart (cm_device_get_name_detail())
 *
 * A device's name in the reader's language, made when it is shown:
 * "Loop device on card.img", "SD card SD32G in the built-in slot", a
 * reader's vendor and model.
 */
char *
cm_device_phrase_name (CmReaderKind  kind,
                       const char   *detail)
{
  switch (kind)
    {
    case CM_READER_LOOP:
      if (detail != NULL)
        return g_strdup_printf (_("Loop device on %s"), detail);
      return g_strdup (_("Loop device"));
    case CM_READER_SD_SLOT:
      if (detail != NULL)
        return g_strdup_printf (_("SD card %s in the built-in slot"), detail);
      return g_strdup (_("SD card in the built-in slot"));
    case CM_READER_USB:
      return g_strdup (detail != NULL ? detail : _("USB drive"));
    case CM_READER_OTHER:
    default:
      return g_strdup (detail != NULL ? detail : _("Drive"));
    }
}

static int
compare_partition_number (gconstpointer a,
                          gconstpointer b)
{
  guint na = udisks_partition_get_number ((UDisksPartition *) a);
  guint nb = udisks_partition_get_number ((UDisksPartition *) b);

  return (na > nb) - (na < nb);
}

/* The names the card's file systems were given ("BOOTFS", "NO NAME"):
 * the whole card's, else its partitions' in partition order, joined. What
 * tells two cards of the same make apart at a glance. */
static char *
find_volume_label (CmDevice    *self,
                   UDisksBlock *block)
{
  const char *label = udisks_block_get_id_label (block);
  UDisksPartitionTable *table;
  g_autoptr(GPtrArray) labels = NULL;
  GList *partitions;
  char *joined;

  if (label != NULL && label[0] != '\0')
    return g_strdup (label);

  table = udisks_object_peek_partition_table (self->object);
  if (table == NULL)
    return NULL;

  labels = g_ptr_array_new ();
  partitions = g_list_sort (udisks_client_get_partitions (self->client, table), compare_partition_number);
  for (GList *l = partitions; l != NULL; l = l->next)
    {
      GDBusObject *object = g_dbus_interface_get_object (G_DBUS_INTERFACE (l->data));
      UDisksBlock *part = object != NULL ? udisks_object_peek_block (UDISKS_OBJECT (object)) : NULL;
      const char *part_label = part != NULL ? udisks_block_get_id_label (part) : NULL;

      if (part_label != NULL && part_label[0] != '\0')
        g_ptr_array_add (labels, (gpointer) part_label);
    }
  g_ptr_array_add (labels, NULL);
  joined = labels->len > 1 ? g_strjoinv (", ", (char **) labels->pdata) : NULL;
  g_list_free_full (partitions, g_object_unref);

  return joined;
}

static void
update_identity (CmDevice    *self,
                 UDisksBlock *block,
                 UDisksDrive *drive,
                 UDisksLoop  *loop)
{
  g_autofree char *block_name = g_path_get_basename (udisks_block_get_device (block));
  g_autofree char *sysfs_dir = NULL;
  g_autofree char *volume_label = NULL;
  g_autofree char *name = NULL;
  g_autofree char *detail = NULL;
  CmReaderKind kind = CM_READER_OTHER;
  guint mbps = 0;

  if (g_str_has_prefix (block_name, "loop"))
    kind = CM_READER_LOOP;
  else if (find_usb_speed (block_name, &mbps))
    kind = CM_READER_USB;
  else if (g_str_has_prefix (block_name, "mmcblk"))
    {
      kind = CM_READER_SD_SLOT;
      sysfs_dir = g_build_filename ("/sys/block", block_name, "device", NULL);
      if (!g_file_test (sysfs_dir, G_FILE_TEST_IS_DIR))
        g_clear_pointer (&sysfs_dir, g_free);
    }

  notify_if (self, set_string (&self->device, udisks_block_get_device (block)), PROP_DEVICE);
  notify_if (self, set_clean_string (&self->vendor, drive != NULL ? udisks_drive_get_vendor (drive) : NULL), PROP_VENDOR);
  notify_if (self, set_clean_string (&self->model, drive != NULL ? udisks_drive_get_model (drive) : NULL), PROP_MODEL);
  notify_if (self, set_string (&self->sysfs_device_dir, sysfs_dir), PROP_SYSFS_DEVICE_DIR);
  volume_label = find_volume_label (self, block);
  notify_if (self, set_clean_string (&self->volume_label, volume_label), PROP_VOLUME_LABEL);

  if (self->reader_kind != kind)
    {
      self->reader_kind = kind;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READER_KIND]);
    }

  if (self->usb_speed_mbps != mbps)
    {
      self->usb_speed_mbps = mbps;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_USB_SPEED_MBPS]);
    }

  detail = make_name_detail (self, loop);
  set_clean_string (&self->name_detail, detail);
  name = cm_device_phrase_name (self->reader_kind, self->name_detail);
  notify_if (self, set_clean_string (&self->name, name), PROP_NAME);
}

static void
update_mounts (CmDevice *self)
{
  g_autoptr(CmCardUse) use = cm_card_use_new (self->device);
  const char * const *points = cm_card_use_get_mount_points (use);
  gboolean system = cm_card_use_get_system (use);
  gboolean was_mounted = cm_device_get_mounted (self);

  if (!g_strv_equal ((const char * const *) self->mount_points, points))
    {
      g_strfreev (self->mount_points);
      self->mount_points = g_strdupv ((GStrv) points);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MOUNT_POINTS]);
      notify_if (self, was_mounted != cm_device_get_mounted (self), PROP_MOUNTED);
    }

  if (self->system != system)
    {
      self->system = system;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SYSTEM]);
    }
}

void
cm_device_update (CmDevice *self)
{
  g_autoptr(UDisksBlock) block = NULL;
  g_autoptr(UDisksDrive) drive = NULL;
  g_autoptr(UDisksLoop) loop = NULL;
  gboolean had_media;
  guint64 size;
  gboolean read_only;

  g_return_if_fail (CM_IS_DEVICE (self));

  block = udisks_object_get_block (self->object);
  if (block == NULL)
    return;

  g_object_freeze_notify (G_OBJECT (self));

  drive = udisks_client_get_drive_for_block (self->client, block);
  loop = udisks_object_get_loop (self->object);
  update_identity (self, block, drive, loop);

  had_media = cm_device_get_has_media (self);
  size = udisks_block_get_size (block);
  if (self->size != size)
    {
      self->size = size;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIZE]);
      notify_if (self, had_media != cm_device_get_has_media (self), PROP_HAS_MEDIA);
    }

  read_only = udisks_block_get_read_only (block);
  if (self->read_only != read_only)
    {
      self->read_only = read_only;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READ_ONLY]);
    }

  update_mounts (self);

  g_object_thaw_notify (G_OBJECT (self));
}

static void
cm_device_dispose (GObject *object)
{
  CmDevice *self = (CmDevice *) object;

  g_clear_object (&self->object);
  g_clear_object (&self->client);

  G_OBJECT_CLASS (cm_device_parent_class)->dispose (object);
}

static void
cm_device_finalize (GObject *object)
{
  CmDevice *self = (CmDevice *) object;

  g_free (self->object_path);
  g_free (self->device);
  g_free (self->name);
  g_free (self->name_detail);
  g_free (self->vendor);
  g_free (self->model);
  g_strfreev (self->mount_points);
  g_free (self->sysfs_device_dir);
  g_free (self->volume_label);

  G_OBJECT_CLASS (cm_device_parent_class)->finalize (object);
}

static void
cm_device_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  CmDevice *self = CM_DEVICE (object);

  switch (prop_id)
    {
    case PROP_OBJECT_PATH:
      g_value_set_string (value, self->object_path);
      break;
    case PROP_DEVICE:
      g_value_set_string (value, self->device);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_VENDOR:
      g_value_set_string (value, self->vendor);
      break;
    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;
    case PROP_SIZE:
      g_value_set_uint64 (value, self->size);
      break;
    case PROP_READ_ONLY:
      g_value_set_boolean (value, self->read_only);
      break;
    case PROP_MOUNTED:
      g_value_set_boolean (value, cm_device_get_mounted (self));
      break;
    case PROP_MOUNT_POINTS:
      g_value_set_boxed (value, self->mount_points);
      break;
    case PROP_SYSTEM:
      g_value_set_boolean (value, self->system);
      break;
    case PROP_READER_KIND:
      g_value_set_enum (value, self->reader_kind);
      break;
    case PROP_USB_SPEED_MBPS:
      g_value_set_uint (value, self->usb_speed_mbps);
      break;
    case PROP_HAS_MEDIA:
      g_value_set_boolean (value, cm_device_get_has_media (self));
      break;
    case PROP_SYSFS_DEVICE_DIR:
      g_value_set_string (value, self->sysfs_device_dir);
      break;

    case PROP_VOLUME_LABEL:
      g_value_set_string (value, self->volume_label);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_device_class_init (CmDeviceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->dispose = cm_device_dispose;
  object_class->finalize = cm_device_finalize;
  object_class->get_property = cm_device_get_property;

  properties[PROP_OBJECT_PATH] = g_param_spec_string ("object-path", NULL, NULL, NULL, flags);
  properties[PROP_DEVICE] = g_param_spec_string ("device", NULL, NULL, NULL, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_VENDOR] = g_param_spec_string ("vendor", NULL, NULL, NULL, flags);
  properties[PROP_MODEL] = g_param_spec_string ("model", NULL, NULL, NULL, flags);
  properties[PROP_SIZE] = g_param_spec_uint64 ("size", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_READ_ONLY] = g_param_spec_boolean ("read-only", NULL, NULL, FALSE, flags);
  properties[PROP_MOUNTED] = g_param_spec_boolean ("mounted", NULL, NULL, FALSE, flags);
  properties[PROP_MOUNT_POINTS] = g_param_spec_boxed ("mount-points", NULL, NULL, G_TYPE_STRV, flags);
  properties[PROP_SYSTEM] = g_param_spec_boolean ("system", NULL, NULL, FALSE, flags);
  properties[PROP_READER_KIND] = g_param_spec_enum ("reader-kind", NULL, NULL,
                                                    CM_TYPE_READER_KIND, CM_READER_OTHER, flags);
  properties[PROP_USB_SPEED_MBPS] = g_param_spec_uint ("usb-speed-mbps", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_HAS_MEDIA] = g_param_spec_boolean ("has-media", NULL, NULL, FALSE, flags);
  properties[PROP_SYSFS_DEVICE_DIR] = g_param_spec_string ("sysfs-device-dir", NULL, NULL, NULL, flags);
  properties[PROP_VOLUME_LABEL] = g_param_spec_string ("volume-label", NULL, NULL, NULL, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cm_device_init (CmDevice *self)
{
  self->mount_points = g_new0 (char *, 1);
}

CmDevice *
cm_device_new (UDisksClient *client,
               UDisksObject *object)
{
  CmDevice *self;

  g_return_val_if_fail (UDISKS_IS_CLIENT (client), NULL);
  g_return_val_if_fail (UDISKS_IS_OBJECT (object), NULL);

  self = g_object_new (CM_TYPE_DEVICE, NULL);
  self->client = g_object_ref (client);
  self->object = g_object_ref (object);
  self->object_path = g_strdup (g_dbus_object_get_object_path (G_DBUS_OBJECT (object)));
  cm_device_update (self);

  return self;
}

UDisksObject *
cm_device_get_object (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), NULL);
  return self->object;
}

const char *
cm_device_get_object_path (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), NULL);
  return self->object_path;
}

const char *
cm_device_get_device (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), NULL);
  return self->device;
}

/* What tells the device apart in its name (cm_device_phrase_name()),
 * cleaned; NULL when nothing does. */
const char *
cm_device_get_name_detail (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), NULL);
  return self->name_detail;
}

const char *
cm_device_get_name (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), NULL);
  return self->name;
}

guint64
cm_device_get_size (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), 0);
  return self->size;
}

gboolean
cm_device_get_read_only (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), FALSE);
  return self->read_only;
}

gboolean
cm_device_get_mounted (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), FALSE);
  return self->mount_points != NULL && self->mount_points[0] != NULL;
}

const char * const *
cm_device_get_mount_points (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), NULL);
  return (const char * const *) self->mount_points;
}

gboolean
cm_device_get_system (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), FALSE);
  return self->system;
}

CmReaderKind
cm_device_get_reader_kind (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), CM_READER_OTHER);
  return self->reader_kind;
}

guint
cm_device_get_usb_speed_mbps (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), 0);
  return self->usb_speed_mbps;
}

gboolean
cm_device_get_has_media (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), FALSE);

  /* An empty card reader is a block device of size zero. */
  return self->size > 0;
}

const char *
cm_device_get_sysfs_device_dir (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), NULL);
  return self->sysfs_device_dir;
}

/* The name of the card's file system(s), or NULL when none has one. */
const char *
cm_device_get_volume_label (CmDevice *self)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), NULL);
  return self->volume_label;
}

/* Devices in the order people count them: /dev/loop2 before
 * /dev/loop10, /dev/sdb before /dev/sdc. */
int
cm_device_compare_paths (const char *a,
                         const char *b)
{
  g_autofree char *key_a = NULL;
  g_autofree char *key_b = NULL;

  if (a == NULL || b == NULL)
    return (a != NULL) - (b != NULL);
  key_a = g_utf8_collate_key_for_filename (a, -1);
  key_b = g_utf8_collate_key_for_filename (b, -1);
  return strcmp (key_a, key_b);
}
