/* cm-card-item.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One thing the user can test, as the card list shows it: a card UDisks
 * sees, this computer's own storage, or a folder the user chose. The
 * device monitor's objects are mapped onto these so that the widgets do
 * not depend on where the list comes from (and tests can feed a
 * GListStore).
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-card-item.h"

struct _CmCardItem
{
  GObject     parent_instance;

  CmCardKind  kind;
  char       *name;
  char       *device;
  char       *mount_point;
  char       *reader;
  char       *volume_label;
  guint64     size;
  guint       usb_speed_mbps;
  gboolean    is_system;
  CmCardInfo *card_info;
};

G_DEFINE_FINAL_TYPE (CmCardItem, cm_card_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_MOUNT_POINT,
  PROP_MOUNTED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
cm_card_item_finalize (GObject *object)
{
  CmCardItem *self = CM_CARD_ITEM (object);

  g_free (self->name);
  g_free (self->device);
  g_free (self->mount_point);
  g_free (self->reader);
  g_free (self->volume_label);
  g_clear_object (&self->card_info);

  G_OBJECT_CLASS (cm_card_item_parent_class)->finalize (object);
}

static void
cm_card_item_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  CmCardItem *self = CM_CARD_ITEM (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_MOUNT_POINT:
      g_value_set_string (value, self->mount_point);
      break;
    case PROP_MOUNTED:
      g_value_set_boolean (value, cm_card_item_get_mounted (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_card_item_class_init (CmCardItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = cm_card_item_finalize;
  object_class->get_property = cm_card_item_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_MOUNT_POINT] =
    g_param_spec_string ("mount-point", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MOUNTED] =
    g_param_spec_boolean ("mounted", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cm_card_item_init (CmCardItem *self)
{
}

CmCardItem *
cm_card_item_new_device (const char *device,
                         const char *name,
                         guint64     size,
                         const char *reader,
                         const char *mount_point)
{
  CmCardItem *self;

  g_return_val_if_fail (device != NULL, NULL);

  self = g_object_new (CM_TYPE_CARD_ITEM, NULL);
  self->kind = CM_CARD_KIND_DEVICE;
  self->device = g_strdup (device);
  self->name = g_strdup (name != NULL && *name != '\0' ? name : device);
  self->size = size;
  self->reader = g_strdup (reader);
  self->mount_point = g_strdup (mount_point);

  return self;
}

CmCardItem *
cm_card_item_new_folder (const char *folder)
{
  CmCardItem *self;
  g_autofree char *base = NULL;

  g_return_val_if_fail (folder != NULL, NULL);

  base = g_path_get_basename (folder);
  self = g_object_new (CM_TYPE_CARD_ITEM, NULL);
  self->kind = CM_CARD_KIND_FOLDER;
  self->name = g_strdup_printf (_("Folder “%s”"), base);
  self->mount_point = g_strdup (folder);

  return self;
}

CmCardItem *
cm_card_item_new_home (void)
{
  CmCardItem *self = g_object_new (CM_TYPE_CARD_ITEM, NULL);

  self->kind = CM_CARD_KIND_HOME;
  self->name = g_strdup (_("This computer’s storage"));
  /* The data folder sits on the same filesystem as the home folder, and
   * inside Flatpak it is the one place on it the app may write. */
  self->mount_point = g_strdup (g_get_user_data_dir ());
  g_mkdir_with_parents (self->mount_point, 0700);
  self->is_system = TRUE;

  return self;
}

CmCardKind
cm_card_item_get_kind (CmCardItem *self)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), CM_CARD_KIND_DEVICE);
  return self->kind;
}

const char *
cm_card_item_get_name (CmCardItem *self)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), NULL);
  return self->name;
}

const char *
cm_card_item_get_device (CmCardItem *self)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), NULL);
  return self->device;
}

const char *
cm_card_item_get_mount_point (CmCardItem *self)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), NULL);
  return self->mount_point;
}

const char *
cm_card_item_get_reader (CmCardItem *self)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), NULL);
  return self->reader;
}

guint64
cm_card_item_get_size (CmCardItem *self)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), 0);
  return self->size;
}

gboolean
cm_card_item_get_mounted (CmCardItem *self)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), FALSE);
  return self->mount_point != NULL;
}

gboolean
cm_card_item_get_is_system (CmCardItem *self)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), FALSE);
  return self->is_system;
}

void
cm_card_item_set_is_system (CmCardItem *self,
                            gboolean    is_system)
{
  g_return_if_fail (CM_IS_CARD_ITEM (self));
  self->is_system = !!is_system;
}

guint
cm_card_item_get_usb_speed_mbps (CmCardItem *self)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), 0);
  return self->usb_speed_mbps;
}

void
cm_card_item_set_usb_speed_mbps (CmCardItem *self,
                                 guint       mbps)
{
  g_return_if_fail (CM_IS_CARD_ITEM (self));
  self->usb_speed_mbps = mbps;
}

CmCardInfo *
cm_card_item_get_card_info (CmCardItem *self)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), NULL);
  return self->card_info;
}

void
cm_card_item_set_card_info (CmCardItem *self,
                            CmCardInfo *info)
{
  g_return_if_fail (CM_IS_CARD_ITEM (self));
  g_set_object (&self->card_info, info);
}

/* The folder a safe test puts its scratch file in, or NULL when the
 * item has none (an unmounted card). */
const char *
cm_card_item_get_file_folder (CmCardItem *self)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), NULL);
  return self->mount_point;
}

/**
 * cm_card_item_get_verify_path:
 * @device: (out): whether the path is the whole device, which a verify
 *   erases, rather than a folder whose free space it fills
 * @why_not: (out): when it returns NULL, why, in a sentence
 *
 * Where a full verify of the item goes: a folder (a mounted card's, or
 * one the user picked), or the whole device; NULL where it may not.
 */
const char *
cm_card_item_get_verify_path (CmCardItem  *self,
                              gboolean    *device,
                              const char **why_not)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), NULL);

  *device = FALSE;
  if (cm_card_item_get_is_system (self) || cm_card_item_get_kind (self) == CM_CARD_KIND_HOME)
    {
      *why_not = _("This disk holds the running system: filling it would stop the computer working.");
      return NULL;
    }
  if (cm_card_item_get_file_folder (self) != NULL)
    return cm_card_item_get_file_folder (self);
  if (cm_card_item_get_kind (self) == CM_CARD_KIND_DEVICE && cm_card_item_get_device (self) != NULL)
    {
      *device = TRUE;
      return cm_card_item_get_device (self);
    }
  *why_not = _("There is nothing to verify here.");
  return NULL;
}

/**
 * cm_card_item_get_wear_device:
 * @why_not: (out): when it returns NULL, why, in a sentence
 *
 * The device a wear test of the item erases and wears: only a whole card
 * that nothing uses; NULL where it may not.
 */
const char *
cm_card_item_get_wear_device (CmCardItem  *self,
                              const char **why_not)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), NULL);

  if (cm_card_item_get_is_system (self) || cm_card_item_get_kind (self) == CM_CARD_KIND_HOME)
    {
      *why_not = _("This disk holds the running system: a wear test would destroy it.");
      return NULL;
    }
  if (cm_card_item_get_kind (self) != CM_CARD_KIND_DEVICE || cm_card_item_get_device (self) == NULL)
    {
      *why_not = _("A wear test needs a whole card.");
      return NULL;
    }
  if (cm_card_item_get_file_folder (self) != NULL)
    {
      *why_not = _("The card is mounted. Unmount it in Files to wear-test it; the test erases it.");
      return NULL;
    }
  return cm_card_item_get_device (self);
}

/* The name of the card's file system(s) ("BOOTFS"), shown first in the
 * subtitle: what tells two cards of the same make apart. */
void
cm_card_item_set_volume_label (CmCardItem *self,
                               const char *label)
{
  g_return_if_fail (CM_IS_CARD_ITEM (self));
  g_free (self->volume_label);
  self->volume_label = label != NULL && label[0] != '\0' ? g_strdup (label) : NULL;
}

const char *
cm_card_item_get_volume_label (CmCardItem *self)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (self), NULL);
  return self->volume_label;
}

char *
cm_card_item_dup_subtitle (CmCardItem *self)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (CM_IS_CARD_ITEM (self), NULL);

  switch (self->kind)
    {
    case CM_CARD_KIND_HOME:
      g_ptr_array_add (parts, g_strdup_printf (_("Safe test in %s"), self->mount_point));
      break;
    case CM_CARD_KIND_FOLDER:
      g_ptr_array_add (parts, g_strdup (self->mount_point));
      break;
    case CM_CARD_KIND_DEVICE:
    default:
      /* The volume label and the device tell two cards of the same make apart. */
      if (self->volume_label != NULL)
        /* Translators: a card's volume label, e.g. “BOOTFS”, in a list of its facts */
        g_ptr_array_add (parts, g_strdup_printf (_("“%s”"), self->volume_label));
      if (self->device != NULL)
        g_ptr_array_add (parts, g_strdup (self->device));
      if (self->size > 0)
        g_ptr_array_add (parts, g_format_size (self->size));
      if (self->reader != NULL)
        g_ptr_array_add (parts, g_strdup (self->reader));
      g_ptr_array_add (parts, self->mount_point != NULL
                              ? g_strdup_printf (_("mounted at %s"), self->mount_point)
                              : g_strdup (_("not mounted")));
      break;
    }

  g_ptr_array_add (parts, NULL);
  return g_strjoinv (" · ", (char **) parts->pdata);
}
