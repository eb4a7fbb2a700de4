/* cm-card-info.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The card model: the fields decoded from its registers (cm-sd-registers.c
 * does the decoding), the brand on its label, and its JSON form in a
 * result (docs/result-format.md).
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-json.h"
#include "cm-sd-registers.h"

#include "cm-health.h"
#include "cm-card-info.h"
#include "cm-text.h"

struct _CmCardInfo
{
  GObject        parent_instance;

  gboolean       registers_available;
  char          *unavailable_reason;
  char          *brand;

  /* The decoded fields. A card read back from JSON has the fields but
   * none of the has_ flags: registers_available is what JSON keeps. */
  CmSdRegisters  regs;

  /* What the card says of its own wear (CMD56), NULL when not asked. */
  CmHealth      *health;
};

G_DEFINE_FINAL_TYPE (CmCardInfo, cm_card_info, G_TYPE_OBJECT)

G_DEFINE_QUARK (cm-card-info-error-quark, cm_card_info_error)

/* The decoding errors keep their codes under the card's error domain. */
G_STATIC_ASSERT ((int) CM_CARD_INFO_ERROR_INVALID_HEX == (int) CM_SD_REGISTERS_ERROR_INVALID_HEX);
G_STATIC_ASSERT ((int) CM_CARD_INFO_ERROR_WRONG_LENGTH == (int) CM_SD_REGISTERS_ERROR_WRONG_LENGTH);
G_STATIC_ASSERT ((int) CM_CARD_INFO_ERROR_NOT_FOUND == (int) CM_SD_REGISTERS_ERROR_NOT_FOUND);
G_STATIC_ASSERT ((int) CM_CARD_INFO_ERROR_NO_REGISTERS == (int) CM_SD_REGISTERS_ERROR_NO_REGISTERS);

enum {
  PROP_0,
  PROP_BRAND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
cm_card_info_finalize (GObject *object)
{
  CmCardInfo *self = CM_CARD_INFO (object);

  g_free (self->unavailable_reason);
  g_free (self->health);
  g_free (self->brand);
  cm_sd_registers_clear (&self->regs);

  G_OBJECT_CLASS (cm_card_info_parent_class)->finalize (object);
}

static void
cm_card_info_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  CmCardInfo *self = CM_CARD_INFO (object);

  switch (prop_id)
    {
    case PROP_BRAND:
      g_value_set_string (value, self->brand);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_card_info_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  CmCardInfo *self = CM_CARD_INFO (object);

  switch (prop_id)
    {
    case PROP_BRAND:
      cm_card_info_set_brand (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_card_info_class_init (CmCardInfoClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = cm_card_info_finalize;
  object_class->get_property = cm_card_info_get_property;
  object_class->set_property = cm_card_info_set_property;

  properties[PROP_BRAND] =
    g_param_spec_string ("brand", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cm_card_info_init (CmCardInfo *self)
{
  cm_sd_registers_init (&self->regs);
}

CmCardInfo *
cm_card_info_new (void)
{
  return g_object_new (CM_TYPE_CARD_INFO, NULL);
}

CmCardInfo *
cm_card_info_new_unavailable (const char *reason)
{
  CmCardInfo *self = cm_card_info_new ();

  self->unavailable_reason = g_strdup (reason);
  return self;
}

/* Register decoding */

static void
to_card_info_error (GError **error)
{
  if (error != NULL && *error != NULL && (*error)->domain == CM_SD_REGISTERS_ERROR)
    (*error)->domain = CM_CARD_INFO_ERROR;
}

static CmCardInfo *
new_from_decoded (CmSdRegisters *regs)
{
  CmCardInfo *self = cm_card_info_new ();

  self->registers_available = regs->has_cid || regs->has_csd || regs->has_scr || regs->has_ssr;
  self->regs = *regs;
  cm_sd_registers_init (regs);

  return self;
}

CmCardInfo *
cm_card_info_new_from_registers (const char  *cid,
                                 const char  *csd,
                                 const char  *scr,
                                 const char  *ssr,
                                 GError     **error)
{
  g_auto(CmSdRegisters) regs = { 0, };

  if (!cm_sd_registers_parse (cid, csd, scr, ssr, &regs, error))
    {
      to_card_info_error (error);
      return NULL;
    }

  return new_from_decoded (&regs);
}

CmCardInfo *
cm_card_info_new_from_sysfs (const char  *device_dir,
                             GError     **error)
{
  g_auto(CmSdRegisters) regs = { 0, };

  g_return_val_if_fail (device_dir != NULL, NULL);

  if (!cm_sd_registers_read_sysfs (device_dir, &regs, error))
    {
      to_card_info_error (error);
      return NULL;
    }

  return new_from_decoded (&regs);
}

/* JSON */

JsonNode *
cm_card_info_to_json (CmCardInfo *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);

  json_builder_begin_object (builder);

  json_builder_set_member_name (builder, "registers_available");
  json_builder_add_boolean_value (builder, self->registers_available);
  cm_json_add_string (builder, "unavailable_reason", self->unavailable_reason);
  cm_json_add_string (builder, "brand", self->brand);

  json_builder_set_member_name (builder, "manufacturer_id");
  if (self->regs.manufacturer_id >= 0)
    json_builder_add_int_value (builder, self->regs.manufacturer_id);
  else
    json_builder_add_null_value (builder);
  cm_json_add_string (builder, "manufacturer", cm_card_info_get_manufacturer (self));
  cm_json_add_string (builder, "oem_id", self->regs.oem_id);
  cm_json_add_string (builder, "product_name", self->regs.product_name);
  cm_json_add_string (builder, "revision", self->regs.revision);
  cm_json_add_string (builder, "serial", self->regs.serial);
  cm_json_add_string (builder, "manufacture_date", self->regs.manufacture_date);

  cm_json_add_positive_int (builder, "capacity_bytes", self->regs.capacity_bytes);
  json_builder_set_member_name (builder, "write_protected");
  if (self->regs.write_protected >= 0)
    json_builder_add_boolean_value (builder, self->regs.write_protected);
  else
    json_builder_add_null_value (builder);

  cm_json_add_string (builder, "spec_version", self->regs.spec_version);

  cm_json_add_string (builder, "speed_class", self->regs.speed_class);
  cm_json_add_string (builder, "uhs_grade", self->regs.uhs_grade);
  cm_json_add_string (builder, "video_class", self->regs.video_class);
  cm_json_add_string (builder, "app_class", self->regs.app_class);
  cm_json_add_positive_int (builder, "au_size_bytes", self->regs.au_size_bytes);
  cm_json_add_string (builder, "card_type", self->regs.card_type);
  json_builder_set_member_name (builder, "performance_enhance");
  if (self->regs.performance_enhance >= 0)
    json_builder_add_int_value (builder, self->regs.performance_enhance);
  else
    json_builder_add_null_value (builder);
  if (self->health != NULL)
    {
      json_builder_set_member_name (builder, "health");
      json_builder_add_value (builder, cm_health_to_json (self->health));
    }

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static gboolean
invalid_member (GError     **error,
                const char  *key)
{
  g_set_error (error, CM_CARD_INFO_ERROR, CM_CARD_INFO_ERROR_INVALID_JSON,
               _("The card’s “%s” in the result file has the wrong type. "
                 "The file may be damaged or written by another program."),
               key);
  return FALSE;
}

/* Absent and null members leave *out untouched. */
static gboolean
read_string (JsonObject  *object,
             const char  *key,
             char       **out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (json_node_get_value_type (node) != G_TYPE_STRING)
    return invalid_member (error, key);

  g_free (*out);
  *out = cm_text_dup_clean (json_node_get_string (node), CM_TEXT_FIELD_MAX);
  return TRUE;
}

static gboolean
read_int (JsonObject  *object,
          const char  *key,
          gint64       min,
          gint64       max,
          gint64      *out,
          GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);
  gint64 value;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (json_node_get_value_type (node) != G_TYPE_INT64)
    return invalid_member (error, key);

  value = json_node_get_int (node);
  if (value < min || value > max)
    return invalid_member (error, key);

  *out = value;
  return TRUE;
}

static gboolean
read_boolean (JsonObject  *object,
              const char  *key,
              int         *out,
              GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return invalid_member (error, key);

  *out = json_node_get_boolean (node);
  return TRUE;
}

CmCardInfo *
cm_card_info_new_from_json (JsonNode  *node,
                            GError   **error)
{
  g_autoptr(CmCardInfo) self = cm_card_info_new ();
  JsonObject *object;
  gint64 mid = -1, capacity = 0, au = 0, performance = -1;
  int available = FALSE;

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, CM_CARD_INFO_ERROR, CM_CARD_INFO_ERROR_INVALID_JSON,
                   _("The card in the result file is not a JSON object. "
                     "The file may be damaged or written by another program."));
      return NULL;
    }

  object = json_node_get_object (node);

  if (!read_boolean (object, "registers_available", &available, error) ||
      !read_string (object, "unavailable_reason", &self->unavailable_reason, error) ||
      !read_string (object, "brand", &self->brand, error) ||
      !read_int (object, "manufacturer_id", 0, 255, &mid, error) ||
      !read_string (object, "oem_id", &self->regs.oem_id, error) ||
      !read_string (object, "product_name", &self->regs.product_name, error) ||
      !read_string (object, "revision", &self->regs.revision, error) ||
      !read_string (object, "serial", &self->regs.serial, error) ||
      !read_string (object, "manufacture_date", &self->regs.manufacture_date, error) ||
      !read_int (object, "capacity_bytes", 0, G_MAXINT64, &capacity, error) ||
      !read_boolean (object, "write_protected", &self->regs.write_protected, error) ||
      !read_string (object, "spec_version", &self->regs.spec_version, error) ||
      !read_string (object, "speed_class", &self->regs.speed_class, error) ||
      !read_string (object, "uhs_grade", &self->regs.uhs_grade, error) ||
      !read_string (object, "video_class", &self->regs.video_class, error) ||
      !read_string (object, "app_class", &self->regs.app_class, error) ||
      !read_int (object, "au_size_bytes", 0, G_MAXINT64, &au, error) ||
      !read_string (object, "card_type", &self->regs.card_type, error) ||
      !read_int (object, "performance_enhance", 0, 255, &performance, error))
    return NULL;
  if (json_object_has_member (object, "health") &&
      !JSON_NODE_HOLDS_NULL (json_object_get_member (object, "health")))
    {
      CmHealth health;

      if (!cm_health_from_json (json_object_get_member (object, "health"), &health, error))
        return NULL;
      cm_card_info_set_health (self, &health);
    }

  self->registers_available = available;
  self->regs.manufacturer_id = mid;
  self->regs.capacity_bytes = capacity;
  self->regs.au_size_bytes = au;
  self->regs.performance_enhance = (int) performance;

  return g_steal_pointer (&self);
}

/**
 * cm_card_info_get_health:
 *
 * What the card says of its own wear, or %NULL when it was not asked.
 */
const CmHealth *
cm_card_info_get_health (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);

  return self->health;
}

void
cm_card_info_set_health (CmCardInfo     *self,
                         const CmHealth *health)
{
  g_return_if_fail (CM_IS_CARD_INFO (self));

  g_clear_pointer (&self->health, g_free);
  if (health != NULL)
    self->health = g_memdup2 (health, sizeof *health);
}

/* Getters */

gboolean
cm_card_info_get_registers_available (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), FALSE);
  return self->registers_available;
}

const char *
cm_card_info_get_unavailable_reason (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->unavailable_reason;
}

const char *
cm_card_info_get_brand (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->brand;
}

void
cm_card_info_set_brand (CmCardInfo *self,
                        const char *brand)
{
  g_return_if_fail (CM_IS_CARD_INFO (self));

  if (g_strcmp0 (self->brand, brand) == 0)
    return;

  g_free (self->brand);
  self->brand = g_strdup (brand);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BRAND]);
}

int
cm_card_info_get_manufacturer_id (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), -1);
  return self->regs.manufacturer_id;
}

const char *
cm_card_info_get_manufacturer (CmCardInfo *self)
{
  const CmSdMaker *maker;

  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);

  maker = cm_sd_maker_lookup (self->regs.manufacturer_id);
  return maker != NULL ? maker->name : NULL;
}

const char *
cm_card_info_get_oem_id (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->regs.oem_id;
}

const char *
cm_card_info_get_product_name (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->regs.product_name;
}

const char *
cm_card_info_get_revision (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->regs.revision;
}

const char *
cm_card_info_get_serial (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->regs.serial;
}

const char *
cm_card_info_get_manufacture_date (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->regs.manufacture_date;
}

guint64
cm_card_info_get_capacity_bytes (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), 0);
  return self->regs.capacity_bytes;
}

const char *
cm_card_info_get_card_type (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->regs.card_type;
}

gboolean
cm_card_info_get_write_protected (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), FALSE);
  return self->regs.write_protected > 0;
}

gboolean
cm_card_info_get_write_protect_known (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), FALSE);
  return self->regs.write_protected >= 0;
}

const char *
cm_card_info_get_spec_version (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->regs.spec_version;
}

const char *
cm_card_info_get_speed_class (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->regs.speed_class;
}

const char *
cm_card_info_get_uhs_grade (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->regs.uhs_grade;
}

const char *
cm_card_info_get_video_class (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->regs.video_class;
}

const char *
cm_card_info_get_app_class (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->regs.app_class;
}

guint64
cm_card_info_get_au_size_bytes (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), 0);
  return self->regs.au_size_bytes;
}

int
cm_card_info_get_performance_enhance (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), -1);
  return self->regs.performance_enhance;
}

guint
cm_card_info_get_command_queue_depth (CmCardInfo *self)
{
  guint queue;

  g_return_val_if_fail (CM_IS_CARD_INFO (self), 0);

  if (self->regs.performance_enhance < 0)
    return 0;

  /* Unverified: 0 means no queue, n means a depth of n + 1. */
  queue = (self->regs.performance_enhance >> 3) & 0x1f;
  return queue != 0 ? queue + 1 : 0;
}

gboolean
cm_card_info_get_cache_supported (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), FALSE);
  return self->regs.performance_enhance >= 0 && (self->regs.performance_enhance & 0x04) != 0;
}

/* Classes */

static const char *
declared_for_family (CmCardInfo *self,
                     char        family)
{
  switch (family)
    {
    case 'C': return self->regs.speed_class;
    case 'U': return self->regs.uhs_grade;
    case 'V': return self->regs.video_class;
    case 'A': return self->regs.app_class;
    default: return NULL;
    }
}

GStrv
cm_card_info_dup_declared_classes (CmCardInfo *self)
{
  static const char families[] = "CUVA";
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);

  for (guint i = 0; families[i] != '\0'; i++)
    {
      const char *declared = declared_for_family (self, families[i]);

      if (cm_sd_class_value (declared, families[i]) > 0)
        g_strv_builder_add (builder, declared);
    }

  return g_strv_builder_end (builder);
}

/**
 * cm_card_info_new_for_device:
 *
 * The card's identity from its registers where the reader shows them, a
 * card with the reason they can't be read through a USB reader, or NULL
 * for a device that is no card reader at all. How every kind of job, and
 * the app's card list, read the card in a reader.
 */
CmCardInfo *
cm_card_info_new_for_device (CmDevice *device)
{
  const char *sysfs = cm_device_get_sysfs_device_dir (device);
  g_autoptr(GError) error = NULL;
  CmCardInfo *card;

  g_return_val_if_fail (CM_IS_DEVICE (device), NULL);

  switch (cm_device_get_reader_kind (device))
    {
    case CM_READER_SD_SLOT:
      if (sysfs != NULL && (card = cm_card_info_new_from_sysfs (sysfs, &error)) != NULL)
        return card;
      return cm_card_info_new_unavailable (error ? error->message : _("The card's registers could not be read."));
    case CM_READER_USB:
      return cm_card_info_new_unavailable (_("The card's registers can't be read through this USB reader."));
    case CM_READER_LOOP:
    case CM_READER_OTHER:
    default:
      return NULL;
    }
}
