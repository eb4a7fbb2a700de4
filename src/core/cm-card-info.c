/* cm-card-info.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decodes an SD card's CID, CSD, SCR and SD Status (SSR) registers into
 * the card's identity and the classes it declares. Field positions follow
 * the SD Physical Layer Simplified Specification as summarised in
 * docs (sd-cards.md); bit 0 is the last bit of the last byte, which is the
 * order Linux prints the registers in sysfs.
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "cm-json.h"

#include "cm-card-info.h"

#define CID_BYTES 16
#define CSD_BYTES 16
#define SCR_BYTES 8
#define SSR_BYTES 64

struct _CmCardInfo
{
  GObject  parent_instance;

  gboolean registers_available;
  char    *unavailable_reason;
  char    *brand;

  int      manufacturer_id;
  char    *oem_id;
  char    *product_name;
  char    *revision;
  char    *serial;
  char    *manufacture_date;

  guint64  capacity_bytes;
  char    *card_type;
  int      write_protected;

  char    *spec_version;

  char    *speed_class;
  char    *uhs_grade;
  char    *video_class;
  char    *app_class;
  guint64  au_size_bytes;
  int      performance_enhance;
};

G_DEFINE_FINAL_TYPE (CmCardInfo, cm_card_info, G_TYPE_OBJECT)

G_DEFINE_QUARK (cm-card-info-error-quark, cm_card_info_error)

enum {
  PROP_0,
  PROP_BRAND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Makers by CID MID, from sd-cards.md. A shared MID belongs to a
 * controller or OEM maker that sells to many brands, so a brand that is
 * not listed is no warning sign there. Brands are '|'-separated. */
typedef struct
{
  guint8      mid;
  const char *name;
  const char *oem_id;
  gboolean    shared;
  const char *brands;
} Maker;

static const Maker makers[] = {
  { 0x01, "Panasonic", NULL, FALSE, "Panasonic" },
  { 0x02, "Toshiba / Kioxia", NULL, FALSE, "Toshiba|Kioxia|Kingston" },
  { 0x03, "SanDisk", "SD", FALSE, "SanDisk|Western Digital" },
  { 0x08, "Silicon Power", NULL, FALSE, "Silicon Power" },
  { 0x12, "Patriot / Gigastone", NULL, FALSE, "Patriot|Gigastone" },
  { 0x18, "Infineon", NULL, FALSE, "Infineon" },
  { 0x1b, "Samsung", "SM", FALSE, "Samsung" },
  { 0x1c, "Transcend", NULL, FALSE, "Transcend" },
  { 0x1d, "ADATA / Corsair", NULL, FALSE, "ADATA|Corsair" },
  { 0x1e, "Transcend", NULL, FALSE, "Transcend" },
  { 0x27, "Phison", NULL, TRUE, "Delkin|PNY|Kingston|Lexar" },
  { 0x28, "Lexar", NULL, FALSE, "Lexar" },
  { 0x31, "Silicon Power", NULL, FALSE, "Silicon Power" },
  { 0x41, "Kingston", NULL, FALSE, "Kingston" },
  { 0x6f, "STMicroelectronics / Longsys OEMs", NULL, TRUE, "" },
  { 0x74, "Transcend", NULL, FALSE, "Transcend" },
  { 0x76, "Patriot", NULL, FALSE, "Patriot" },
  { 0x82, "Sony", NULL, FALSE, "Sony" },
  { 0x9f, "Shared OEM (TI)", NULL, TRUE, "" },
  { 0xad, "Longsys", NULL, TRUE, "Lexar|Raspberry Pi" },
};

static const Maker *
find_maker (int mid)
{
  for (guint i = 0; i < G_N_ELEMENTS (makers); i++)
    if (makers[i].mid == mid)
      return &makers[i];
  return NULL;
}

static void
cm_card_info_finalize (GObject *object)
{
  CmCardInfo *self = CM_CARD_INFO (object);

  g_free (self->unavailable_reason);
  g_free (self->brand);
  g_free (self->oem_id);
  g_free (self->product_name);
  g_free (self->revision);
  g_free (self->serial);
  g_free (self->manufacture_date);
  g_free (self->card_type);
  g_free (self->spec_version);
  g_free (self->speed_class);
  g_free (self->uhs_grade);
  g_free (self->video_class);
  g_free (self->app_class);

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
  self->manufacturer_id = -1;
  self->write_protected = -1;
  self->performance_enhance = -1;
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

/* Register parsing */

static guint32
get_bits (const guint8 *reg,
          gsize         n_bytes,
          guint         hi,
          guint         lo)
{
  guint32 value = 0;

  g_assert (hi >= lo && hi - lo < 32 && hi < n_bytes * 8);

  for (guint bit = hi + 1; bit-- > lo;)
    {
      guint8 byte = reg[n_bytes - 1 - bit / 8];

      value = (value << 1) | ((byte >> (bit % 8)) & 1);
    }

  return value;
}

/* Reads a register dump as printed in sysfs: hexadecimal, any case, with
 * an optional leading 0x and any whitespace. An empty dump is an absent
 * register (*present is then FALSE). */
static gboolean
parse_register (const char  *name,
                const char  *text,
                guint8      *out,
                gsize        n_bytes,
                gboolean    *present,
                GError     **error)
{
  gsize n_digits = 0;
  const char *p;

  *present = FALSE;
  if (text == NULL)
    return TRUE;

  p = text;
  while (g_ascii_isspace (*p))
    p++;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    p += 2;

  memset (out, 0, n_bytes);

  for (; *p != '\0'; p++)
    {
      int digit;

      if (g_ascii_isspace (*p))
        continue;

      digit = g_ascii_xdigit_value (*p);
      if (digit < 0)
        {
          if (g_ascii_isprint (*p))
            g_set_error (error, CM_CARD_INFO_ERROR, CM_CARD_INFO_ERROR_INVALID_HEX,
                         _("The %s dump contains “%c”, which is not a hexadecimal digit. "
                           "Copy the register exactly as the card’s sysfs folder shows it."),
                         name, *p);
          else
            g_set_error (error, CM_CARD_INFO_ERROR, CM_CARD_INFO_ERROR_INVALID_HEX,
                         _("The %s dump contains a character that is not a hexadecimal digit. "
                           "Copy the register exactly as the card’s sysfs folder shows it."),
                         name);
          return FALSE;
        }

      if (n_digits < n_bytes * 2)
        out[n_digits / 2] |= digit << (n_digits % 2 == 0 ? 4 : 0);
      n_digits++;
    }

  if (n_digits == 0)
    return TRUE;

  if (n_digits != n_bytes * 2)
    {
      g_set_error (error, CM_CARD_INFO_ERROR, CM_CARD_INFO_ERROR_WRONG_LENGTH,
                   _("The %s dump has %lu hexadecimal digits, but the register "
                     "has %lu. Copy the whole register, without anything else."),
                   name, (unsigned long) n_digits, (unsigned long) (n_bytes * 2));
      return FALSE;
    }

  *present = TRUE;
  return TRUE;
}

/* CID text fields are ASCII. A NUL ends the text (some cards pad their
 * product name with one), trailing spaces are padding too, and anything
 * unprintable shows as '?'. */
static char *
cid_text (const guint8 *bytes,
          gsize         len)
{
  GString *text = g_string_new (NULL);

  for (gsize i = 0; i < len && bytes[i] != '\0'; i++)
    g_string_append_c (text, g_ascii_isprint (bytes[i]) ? (char) bytes[i] : '?');

  while (text->len > 0 && text->str[text->len - 1] == ' ')
    g_string_truncate (text, text->len - 1);

  return g_string_free (text, FALSE);
}

static void
decode_cid (CmCardInfo   *self,
            const guint8 *cid)
{
  guint year = get_bits (cid, CID_BYTES, 19, 12) + 2000;
  guint month = get_bits (cid, CID_BYTES, 11, 8);

  self->manufacturer_id = get_bits (cid, CID_BYTES, 127, 120);
  self->oem_id = cid_text (cid + 1, 2);
  self->product_name = cid_text (cid + 3, 5);
  self->revision = g_strdup_printf ("%u.%u",
                                    get_bits (cid, CID_BYTES, 63, 60),
                                    get_bits (cid, CID_BYTES, 59, 56));
  self->serial = g_strdup_printf ("0x%08x", get_bits (cid, CID_BYTES, 55, 24));

  if (month >= 1 && month <= 12)
    self->manufacture_date = g_strdup_printf ("%04u-%02u", year, month);
}

static void
decode_csd (CmCardInfo   *self,
            const guint8 *csd)
{
  guint structure = get_bits (csd, CSD_BYTES, 127, 126);
  guint64 c_size;

  switch (structure)
    {
    case 0:
      {
        guint mult = get_bits (csd, CSD_BYTES, 49, 47);
        guint read_bl_len = get_bits (csd, CSD_BYTES, 83, 80);

        c_size = get_bits (csd, CSD_BYTES, 73, 62);
        self->capacity_bytes = (c_size + 1) << (mult + 2 + read_bl_len);
        self->card_type = g_strdup ("SDSC");
      }
      break;

    case 1:
      c_size = get_bits (csd, CSD_BYTES, 69, 48);
      self->capacity_bytes = (c_size + 1) * 512 * 1024;
      self->card_type = g_strdup (c_size >= 0xffff ? "SDXC" : "SDHC");
      break;

    case 2:
      /* SDUC's layout is unverified; sd-cards.md gives a 28-bit C_SIZE. */
      c_size = get_bits (csd, CSD_BYTES, 75, 48);
      self->capacity_bytes = (c_size + 1) * 512 * 1024;
      self->card_type = g_strdup ("SDUC");
      break;

    default:
      break;
    }

  self->write_protected = get_bits (csd, CSD_BYTES, 13, 12) != 0;
}

static void
decode_scr (CmCardInfo   *self,
            const guint8 *scr)
{
  guint structure = get_bits (scr, SCR_BYTES, 63, 60);
  guint sd_spec = get_bits (scr, SCR_BYTES, 59, 56);
  guint spec3 = get_bits (scr, SCR_BYTES, 47, 47);
  guint spec4 = get_bits (scr, SCR_BYTES, 42, 42);
  guint specx = get_bits (scr, SCR_BYTES, 41, 38);

  if (structure != 0)
    return;

  /* The physical layer version table: SD_SPEC4 only matters while
   * SD_SPECX is 0, because versions from 5.00 on are told by SD_SPECX. */
  if (sd_spec == 0)
    self->spec_version = g_strdup ("1.0x");
  else if (sd_spec == 1)
    self->spec_version = g_strdup ("1.10");
  else if (sd_spec == 2 && !spec3)
    self->spec_version = g_strdup ("2.00");
  else if (sd_spec == 2 && specx == 0)
    self->spec_version = g_strdup (spec4 ? "4.x" : "3.0x");
  else if (sd_spec == 2)
    self->spec_version = g_strdup_printf ("%u.x", specx + 4);
}

static guint64
au_size_bytes (guint code)
{
  static const guint64 large_mib[] = { 8, 12, 16, 24, 32, 64 };

  if (code == 0)
    return 0;
  if (code <= 9)
    return (guint64) 16 * 1024 << (code - 1);
  return large_mib[code - 10] * 1024 * 1024;
}

static void
decode_ssr (CmCardInfo   *self,
            const guint8 *ssr)
{
  static const guint speed_classes[] = { 0, 2, 4, 6, 10 };
  guint speed = get_bits (ssr, SSR_BYTES, 447, 440);
  guint uhs = get_bits (ssr, SSR_BYTES, 399, 396);
  guint video = get_bits (ssr, SSR_BYTES, 391, 384);
  guint app = get_bits (ssr, SSR_BYTES, 339, 336);

  if (speed < G_N_ELEMENTS (speed_classes))
    self->speed_class = g_strdup_printf ("C%u", speed_classes[speed]);
  if (uhs == 0 || uhs == 1 || uhs == 3)
    self->uhs_grade = g_strdup_printf ("U%u", uhs);
  if (video == 0 || video == 6 || video == 10 || video == 30 || video == 60 || video == 90)
    self->video_class = g_strdup_printf ("V%u", video);
  if (app <= 2)
    self->app_class = g_strdup_printf ("A%u", app);

  self->au_size_bytes = au_size_bytes (get_bits (ssr, SSR_BYTES, 431, 428));
  self->performance_enhance = get_bits (ssr, SSR_BYTES, 335, 328);
}

CmCardInfo *
cm_card_info_new_from_registers (const char  *cid,
                                 const char  *csd,
                                 const char  *scr,
                                 const char  *ssr,
                                 GError     **error)
{
  guint8 cid_bytes[CID_BYTES], csd_bytes[CSD_BYTES], scr_bytes[SCR_BYTES], ssr_bytes[SSR_BYTES];
  gboolean has_cid, has_csd, has_scr, has_ssr;
  g_autoptr(CmCardInfo) self = NULL;

  if (!parse_register ("CID", cid, cid_bytes, CID_BYTES, &has_cid, error) ||
      !parse_register ("CSD", csd, csd_bytes, CSD_BYTES, &has_csd, error) ||
      !parse_register ("SCR", scr, scr_bytes, SCR_BYTES, &has_scr, error) ||
      !parse_register ("SSR", ssr, ssr_bytes, SSR_BYTES, &has_ssr, error))
    return NULL;

  self = cm_card_info_new ();
  self->registers_available = has_cid || has_csd || has_scr || has_ssr;

  if (has_cid)
    decode_cid (self, cid_bytes);
  if (has_csd)
    decode_csd (self, csd_bytes);
  if (has_scr)
    decode_scr (self, scr_bytes);
  if (has_ssr)
    decode_ssr (self, ssr_bytes);

  return g_steal_pointer (&self);
}

CmCardInfo *
cm_card_info_new_from_sysfs (const char  *device_dir,
                             GError     **error)
{
  static const char * const names[] = { "cid", "csd", "scr", "ssr" };
  char *contents[G_N_ELEMENTS (names)] = { NULL, };
  CmCardInfo *self = NULL;
  gboolean any = FALSE;
  guint i;

  g_return_val_if_fail (device_dir != NULL, NULL);

  if (!g_file_test (device_dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, CM_CARD_INFO_ERROR, CM_CARD_INFO_ERROR_NOT_FOUND,
                   _("The folder %s does not exist. Check that the card is still inserted."),
                   device_dir);
      return NULL;
    }

  for (i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (device_dir, names[i], NULL);
      g_autoptr(GError) local_error = NULL;

      if (g_file_get_contents (path, &contents[i], NULL, &local_error))
        {
          any = TRUE;
          continue;
        }

      if (!g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          goto out;
        }
    }

  if (!any)
    {
      g_set_error (error, CM_CARD_INFO_ERROR, CM_CARD_INFO_ERROR_NO_REGISTERS,
                   _("%s holds none of the card registers (cid, csd, scr, ssr). "
                     "Only cards in a native SD slot show them."),
                   device_dir);
      goto out;
    }

  self = cm_card_info_new_from_registers (contents[0], contents[1], contents[2], contents[3], error);
  if (self == NULL)
    g_prefix_error (error, _("Reading %s: "), device_dir);

out:
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    g_free (contents[i]);

  return self;
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
  if (self->manufacturer_id >= 0)
    json_builder_add_int_value (builder, self->manufacturer_id);
  else
    json_builder_add_null_value (builder);
  cm_json_add_string (builder, "manufacturer", cm_card_info_get_manufacturer (self));
  cm_json_add_string (builder, "oem_id", self->oem_id);
  cm_json_add_string (builder, "product_name", self->product_name);
  cm_json_add_string (builder, "revision", self->revision);
  cm_json_add_string (builder, "serial", self->serial);
  cm_json_add_string (builder, "manufacture_date", self->manufacture_date);

  cm_json_add_positive_int (builder, "capacity_bytes", self->capacity_bytes);
  json_builder_set_member_name (builder, "write_protected");
  if (self->write_protected >= 0)
    json_builder_add_boolean_value (builder, self->write_protected);
  else
    json_builder_add_null_value (builder);

  cm_json_add_string (builder, "spec_version", self->spec_version);

  cm_json_add_string (builder, "speed_class", self->speed_class);
  cm_json_add_string (builder, "uhs_grade", self->uhs_grade);
  cm_json_add_string (builder, "video_class", self->video_class);
  cm_json_add_string (builder, "app_class", self->app_class);
  cm_json_add_positive_int (builder, "au_size_bytes", self->au_size_bytes);
  cm_json_add_string (builder, "card_type", self->card_type);
  json_builder_set_member_name (builder, "performance_enhance");
  if (self->performance_enhance >= 0)
    json_builder_add_int_value (builder, self->performance_enhance);
  else
    json_builder_add_null_value (builder);

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
  *out = json_node_dup_string (node);
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
      !read_string (object, "oem_id", &self->oem_id, error) ||
      !read_string (object, "product_name", &self->product_name, error) ||
      !read_string (object, "revision", &self->revision, error) ||
      !read_string (object, "serial", &self->serial, error) ||
      !read_string (object, "manufacture_date", &self->manufacture_date, error) ||
      !read_int (object, "capacity_bytes", 0, G_MAXINT64, &capacity, error) ||
      !read_boolean (object, "write_protected", &self->write_protected, error) ||
      !read_string (object, "spec_version", &self->spec_version, error) ||
      !read_string (object, "speed_class", &self->speed_class, error) ||
      !read_string (object, "uhs_grade", &self->uhs_grade, error) ||
      !read_string (object, "video_class", &self->video_class, error) ||
      !read_string (object, "app_class", &self->app_class, error) ||
      !read_int (object, "au_size_bytes", 0, G_MAXINT64, &au, error) ||
      !read_string (object, "card_type", &self->card_type, error) ||
      !read_int (object, "performance_enhance", 0, 255, &performance, error))
    return NULL;

  self->registers_available = available;
  self->manufacturer_id = mid;
  self->capacity_bytes = capacity;
  self->au_size_bytes = au;
  self->performance_enhance = (int) performance;

  return g_steal_pointer (&self);
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
  return self->manufacturer_id;
}

const char *
cm_card_info_get_manufacturer (CmCardInfo *self)
{
  const Maker *maker;

  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);

  maker = find_maker (self->manufacturer_id);
  return maker != NULL ? maker->name : NULL;
}

const char *
cm_card_info_get_oem_id (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->oem_id;
}

const char *
cm_card_info_get_product_name (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->product_name;
}

const char *
cm_card_info_get_revision (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->revision;
}

const char *
cm_card_info_get_serial (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->serial;
}

const char *
cm_card_info_get_manufacture_date (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->manufacture_date;
}

guint64
cm_card_info_get_capacity_bytes (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), 0);
  return self->capacity_bytes;
}

const char *
cm_card_info_get_card_type (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->card_type;
}

gboolean
cm_card_info_get_write_protected (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), FALSE);
  return self->write_protected > 0;
}

gboolean
cm_card_info_get_write_protect_known (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), FALSE);
  return self->write_protected >= 0;
}

const char *
cm_card_info_get_spec_version (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->spec_version;
}

const char *
cm_card_info_get_speed_class (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->speed_class;
}

const char *
cm_card_info_get_uhs_grade (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->uhs_grade;
}

const char *
cm_card_info_get_video_class (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->video_class;
}

const char *
cm_card_info_get_app_class (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);
  return self->app_class;
}

guint64
cm_card_info_get_au_size_bytes (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), 0);
  return self->au_size_bytes;
}

int
cm_card_info_get_performance_enhance (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), -1);
  return self->performance_enhance;
}

guint
cm_card_info_get_command_queue_depth (CmCardInfo *self)
{
  guint queue;

  g_return_val_if_fail (CM_IS_CARD_INFO (self), 0);

  if (self->performance_enhance < 0)
    return 0;

  /* Unverified: 0 means no queue, n means a depth of n + 1. */
  queue = (self->performance_enhance >> 3) & 0x1f;
  return queue != 0 ? queue + 1 : 0;
}

gboolean
cm_card_info_get_cache_supported (CmCardInfo *self)
{
  g_return_val_if_fail (CM_IS_CARD_INFO (self), FALSE);
  return self->performance_enhance >= 0 && (self->performance_enhance & 0x04) != 0;
}

/* Classes */

/* "U3" → 3; -1 when the string is not a class of that family. */
static int
class_value (const char *klass,
             char        family)
{
  char *end;
  long value;

  if (klass == NULL || g_ascii_toupper (klass[0]) != family || !g_ascii_isdigit (klass[1]))
    return -1;

  value = strtol (klass + 1, &end, 10);
  if (*end != '\0' || value > 1000)
    return -1;

  return value;
}

static const char *
declared_for_family (CmCardInfo *self,
                     char        family)
{
  switch (family)
    {
    case 'C': return self->speed_class;
    case 'U': return self->uhs_grade;
    case 'V': return self->video_class;
    case 'A': return self->app_class;
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

      if (class_value (declared, families[i]) > 0)
        g_strv_builder_add (builder, declared);
    }

  return g_strv_builder_end (builder);
}

/* Counterfeit hints */

static gboolean
names_brand (const char *label,
             const char *brand)
{
  g_autofree char *haystack = g_ascii_strdown (label, -1);
  g_autofree char *needle = g_ascii_strdown (brand, -1);
  gsize len = strlen (needle);

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    {
      gboolean starts = p == haystack || !g_ascii_isalnum (p[-1]);
      gboolean ends = !g_ascii_isalnum (p[len]);

      if (starts && ends)
        return TRUE;
    }

  return FALSE;
}

/* The first brand from the maker table (or from one maker's entry) that
 * the label names, or NULL. */
static char *
brand_on_label (const char  *label,
                const Maker *only)
{
  for (guint i = 0; i < G_N_ELEMENTS (makers); i++)
    {
      g_auto(GStrv) brands = NULL;

      if (only != NULL && &makers[i] != only)
        continue;

      brands = g_strsplit (makers[i].brands, "|", -1);
      for (guint j = 0; brands[j] != NULL; j++)
        if (brands[j][0] != '\0' && names_brand (label, brands[j]))
          return g_strdup (brands[j]);
    }

  return NULL;
}

/* GStrvBuilder only copies before GLib 2.80. */
static void
take_hint (GStrvBuilder *hints,
           char         *hint)
{
  g_strv_builder_add (hints, hint);
  g_free (hint);
}

static void
check_brand (CmCardInfo   *self,
             GStrvBuilder *hints)
{
  const Maker *maker = find_maker (self->manufacturer_id);
  g_autofree char *brand = NULL;
  g_autofree char *own = NULL;

  if (self->brand == NULL || maker == NULL || maker->shared)
    return;

  brand = brand_on_label (self->brand, NULL);
  own = brand_on_label (self->brand, maker);
  if (brand == NULL || own != NULL)
    return;

  take_hint (hints,
                       g_strdup_printf (_("The label says %s, but the card’s registers name "
                                          "%s (manufacturer ID 0x%02x) as its maker."),
                                        brand, maker->name, self->manufacturer_id));
}

static void
check_oem_id (CmCardInfo   *self,
              GStrvBuilder *hints)
{
  const Maker *maker = find_maker (self->manufacturer_id);

  if (maker != NULL && maker->oem_id != NULL && self->oem_id != NULL &&
      !g_str_equal (maker->oem_id, self->oem_id))
    take_hint (hints,
                         g_strdup_printf (_("The card’s OEM ID is “%s”, but %s cards carry “%s”."),
                                          self->oem_id, maker->name, maker->oem_id));

  if ((self->manufacturer_id == 0x00 || self->manufacturer_id == 0xfe) &&
      g_strcmp0 (self->oem_id, "42") == 0)
    take_hint (hints,
                         g_strdup_printf (_("Manufacturer ID 0x%02x with OEM ID “42” turns up on "
                                            "cheap and counterfeit cards."),
                                          self->manufacturer_id));
}

static void
check_declared (CmCardInfo   *self,
                const char   *claim,
                GStrvBuilder *hints)
{
  char family = g_ascii_toupper (claim[0]);
  const char *declared = declared_for_family (self, family);
  int claimed = class_value (claim, family);
  int value = class_value (declared, family);

  if (claimed < 0 || value < 0 || value >= claimed)
    return;

  if (value == 0)
    take_hint (hints,
                         g_strdup_printf (_("The label claims %s, but the card’s SD Status "
                                            "declares no class of that kind."),
                                          claim));
  else
    take_hint (hints,
                         g_strdup_printf (_("The label claims %s, but the card’s SD Status "
                                            "declares only %s."),
                                          claim, declared));
}

/* The oldest physical layer version that defines a class: UHS speed
 * grades came with 3.01, video classes with 5.00, A1 with 5.10 and A2
 * with 6.00. The SCR tells major versions from 5 on apart, not 5.0 from
 * 5.1, so only the major version is compared. */
static const char *
required_spec (char  family,
               int   value,
               int  *major)
{
  *major = 0;
  if (value <= 0)
    return NULL;

  switch (family)
    {
    case 'U': *major = 3; return "3.01";
    case 'V': *major = 5; return "5.00";
    case 'A': *major = value >= 2 ? 6 : 5; return value >= 2 ? "6.00" : "5.10";
    default: return NULL;
    }
}

static void
check_spec (CmCardInfo   *self,
            const char   *klass,
            gboolean      claimed,
            GStrvBuilder *hints)
{
  char family = g_ascii_toupper (klass[0]);
  int major;
  const char *required = required_spec (family, class_value (klass, family), &major);

  if (self->spec_version == NULL || required == NULL || atoi (self->spec_version) >= major)
    return;

  if (claimed)
    take_hint (hints,
               g_strdup_printf (_("The label claims %s, but the card follows SD "
                                  "specification %s, older than %s, which defines %s."),
                                klass, self->spec_version, required, klass));
  else
    take_hint (hints,
               g_strdup_printf (_("The card declares %s, but it follows SD "
                                  "specification %s, older than %s, which defines %s."),
                                klass, self->spec_version, required, klass));
}

static void
check_performance_enhance (CmCardInfo   *self,
                           GStrvBuilder *hints)
{
  guint depth = cm_card_info_get_command_queue_depth (self);
  gboolean cache = cm_card_info_get_cache_supported (self);

  if (self->performance_enhance < 0 || (depth > 0 && cache))
    return;

  if (depth == 0 && !cache)
    g_strv_builder_add (hints,
                        _("The card claims A2, but its SD Status reports neither command "
                          "queueing nor a cache, which A2 needs (CardMark’s reading of this "
                          "field is unverified)."));
  else if (depth == 0)
    g_strv_builder_add (hints,
                        _("The card claims A2, but its SD Status reports no command "
                          "queueing, which A2 needs (CardMark’s reading of this field is "
                          "unverified)."));
  else
    g_strv_builder_add (hints,
                        _("The card claims A2, but its SD Status reports no cache, which A2 "
                          "needs (CardMark’s reading of this field is unverified)."));
}

GStrv
cm_card_info_dup_counterfeit_hints (CmCardInfo         *self,
                                    const char * const *claimed_classes)
{
  g_autoptr(GStrvBuilder) hints = g_strv_builder_new ();
  g_auto(GStrv) declared = NULL;
  gboolean a2 = FALSE;

  g_return_val_if_fail (CM_IS_CARD_INFO (self), NULL);

  check_brand (self, hints);
  check_oem_id (self, hints);

  for (guint i = 0; claimed_classes != NULL && claimed_classes[i] != NULL; i++)
    {
      if (claimed_classes[i][0] == '\0')
        continue;
      check_declared (self, claimed_classes[i], hints);
      check_spec (self, claimed_classes[i], TRUE, hints);
      a2 |= class_value (claimed_classes[i], 'A') >= 2;
    }

  declared = cm_card_info_dup_declared_classes (self);
  for (guint i = 0; declared[i] != NULL; i++)
    {
      if (claimed_classes != NULL && g_strv_contains (claimed_classes, declared[i]))
        continue;
      check_spec (self, declared[i], FALSE, hints);
      a2 |= class_value (declared[i], 'A') >= 2;
    }

  if (a2)
    check_performance_enhance (self, hints);

  return g_strv_builder_end (hints);
}
