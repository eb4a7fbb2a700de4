/* cm-cli-decode.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli decode: explains register dumps copied from a card's sysfs
 * folder (or from another machine), without touching any device.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cm-card-info.h"
#include "cm-counterfeit.h"

#include "cm-cli.h"
#include "cm-cli-decode.h"

typedef struct
{
  const char *label;  /* NULL: the row is left out */
  const char *value;  /* NULL: unknown */
} Row;

/* The values start in one column, after the widest label of the user's
 * language. */
static void
print_rows (const Row *rows,
            guint      n_rows)
{
  g_autoptr(GString) line = g_string_new (NULL);
  int width = 22;

  for (guint i = 0; i < n_rows; i++)
    if (rows[i].label != NULL)
      width = MAX (width, cm_cli_text_width (rows[i].label));

  for (guint i = 0; i < n_rows; i++)
    {
      if (rows[i].label == NULL)
        continue;
      g_string_truncate (line, 0);
      cm_cli_pad (line, rows[i].label, width, FALSE);
      printf ("%s %s\n", line->str, rows[i].value != NULL ? rows[i].value : _("unknown"));
    }
}

static char *
format_manufacturer (CmCardInfo *info)
{
  int mid = cm_card_info_get_manufacturer_id (info);
  const char *name = cm_card_info_get_manufacturer (info);

  if (mid < 0)
    return NULL;
  if (name == NULL)
    return g_strdup_printf (_("0x%02x (not in CardMark’s table)"), mid);
  return g_strdup_printf ("0x%02x %s", mid, name);
}

static char *
format_capacity (CmCardInfo *info)
{
  guint64 bytes = cm_card_info_get_capacity_bytes (info);
  const char *type = cm_card_info_get_card_type (info);

  if (bytes == 0)
    return NULL;
  /* GB as the SD Association counts: 10^9 bytes. */
  if (type != NULL)
    return g_strdup_printf (_("%.2f GB (%llu bytes), %s"), bytes / 1e9, (unsigned long long) bytes, type);
  return g_strdup_printf (_("%.2f GB (%llu bytes)"), bytes / 1e9, (unsigned long long) bytes);
}

static char *
format_au (CmCardInfo *info)
{
  guint64 bytes = cm_card_info_get_au_size_bytes (info);

  if (bytes == 0)
    return NULL;
  if (bytes < 1024 * 1024)
    return g_strdup_printf (_("%llu KiB"), (unsigned long long) (bytes / 1024));
  return g_strdup_printf (_("%llu MiB"), (unsigned long long) (bytes / (1024 * 1024)));
}

static char *
format_performance_enhance (CmCardInfo *info)
{
  int value = cm_card_info_get_performance_enhance (info);
  guint depth = cm_card_info_get_command_queue_depth (info);
  g_autofree char *queue = NULL;

  if (value < 0)
    return NULL;

  if (depth > 0)
    queue = g_strdup_printf (_("command queue depth %u"), depth);
  else
    queue = g_strdup (_("no command queue"));

  return g_strdup_printf (_("0x%02x: %s, %s (unverified reading)"),
                          value, queue,
                          cm_card_info_get_cache_supported (info) ? _("cache") : _("no cache"));
}

static const char *
write_protected_label (CmCardInfo *info)
{
  if (!cm_card_info_get_write_protect_known (info))
    return NULL;
  return cm_card_info_get_write_protected (info) ? _("yes") : _("no");
}

static void
print_table (CmCardInfo         *info,
             const char * const *claims)
{
  g_autofree char *manufacturer = format_manufacturer (info);
  g_autofree char *capacity = format_capacity (info);
  g_autofree char *au = format_au (info);
  g_autofree char *enhance = format_performance_enhance (info);
  g_auto(GStrv) declared = cm_card_info_dup_declared_classes (info);
  g_auto(GStrv) hints = cm_counterfeit_dup_hints (info, claims);
  g_autofree char *declared_text = g_strjoinv (" ", declared);
  const char *brand = cm_card_info_get_brand (info);
  const Row rows[] = {
    { brand != NULL ? _("Brand on the label") : NULL, brand },
    { _("Manufacturer"), manufacturer },
    { _("OEM ID"), cm_card_info_get_oem_id (info) },
    { _("Product name"), cm_card_info_get_product_name (info) },
    { _("Revision"), cm_card_info_get_revision (info) },
    { _("Serial number"), cm_card_info_get_serial (info) },
    { _("Manufactured"), cm_card_info_get_manufacture_date (info) },
    { _("Capacity"), capacity },
    { _("Write-protected"), write_protected_label (info) },
    { _("SD specification"), cm_card_info_get_spec_version (info) },
    { _("Speed class"), cm_card_info_get_speed_class (info) },
    { _("UHS speed grade"), cm_card_info_get_uhs_grade (info) },
    { _("Video speed class"), cm_card_info_get_video_class (info) },
    { _("App performance class"), cm_card_info_get_app_class (info) },
    { _("Allocation unit"), au },
    { _("Performance enhance"), enhance },
    { _("Declared classes"), declared[0] != NULL ? declared_text : _("none") },
  };

  print_rows (rows, G_N_ELEMENTS (rows));

  if (hints[0] == NULL)
    return;

  printf ("\n%s\n", _("Warning signs:"));
  for (guint i = 0; hints[i] != NULL; i++)
    printf ("  • %s\n", hints[i]);
}

/* The card as the result document has it, and the warning signs the
 * table prints: sentences for people, like the result's notes. */
static void
print_json (CmCardInfo         *info,
            const char * const *claims)
{
  g_autoptr(JsonNode) node = cm_card_info_to_json (info);
  g_auto(GStrv) hints = cm_counterfeit_dup_hints (info, claims);
  JsonArray *warnings = json_array_new ();

  for (guint i = 0; hints[i] != NULL; i++)
    json_array_add_string_element (warnings, hints[i]);
  json_object_set_array_member (json_node_get_object (node), "warnings", warnings);

  cm_cli_print_json (node);
}

/* "C10,U3" or "C10 U3", upper-cased. */
static GStrv
split_claims (const char *text)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) parts = NULL;

  if (text == NULL)
    return NULL;

  parts = g_strsplit_set (text, ", ", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] != '\0')
      {
        g_autofree char *upper = g_ascii_strup (parts[i], -1);

        g_strv_builder_add (builder, upper);
      }

  return g_strv_builder_end (builder);
}

int
cm_cli_decode (int    argc,
               char **argv)
{
  g_autofree char *cid = NULL;
  g_autofree char *csd = NULL;
  g_autofree char *scr = NULL;
  g_autofree char *ssr = NULL;
  g_autofree char *brand_arg = NULL;
  g_autofree char *brand = NULL;
  g_autofree char *claim = NULL;
  g_autofree char *gen_cmd = NULL;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "cid", 0, 0, G_OPTION_ARG_STRING, &cid, N_("The CID register (32 hex digits)"), N_("HEX") },
    { "csd", 0, 0, G_OPTION_ARG_STRING, &csd, N_("The CSD register (32 hex digits)"), N_("HEX") },
    { "scr", 0, 0, G_OPTION_ARG_STRING, &scr, N_("The SCR register (16 hex digits)"), N_("HEX") },
    { "ssr", 0, 0, G_OPTION_ARG_STRING, &ssr, N_("The SD Status register (128 hex digits)"), N_("HEX") },
    { "brand", 0, 0, G_OPTION_ARG_FILENAME, &brand_arg, N_("The brand printed on the card"), N_("NAME") },
    { "claim", 0, 0, G_OPTION_ARG_STRING, &claim, N_("Classes printed on the card, e.g. C10,U3,A2"), N_("CLASS[,CLASS…]") },
    { "gen-cmd", 0, 0, G_OPTION_ARG_FILENAME, &gen_cmd, N_("A saved 512-byte reply of the card's health command (CMD56)"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the decoded card as JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmCardInfo) info = NULL;
  g_auto(GStrv) claims = NULL;

  g_option_context_set_summary (context,
                                _("Decodes SD card registers, as shown in "
                                  "/sys/block/mmcblk0/device/{cid,csd,scr,ssr}."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);

  if (!cm_cli_parse_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if (argc > 1)
    return cm_cli_usage_error (context, _("decode takes no arguments, only options."));
  if (!cm_cli_option_text ("--brand", brand_arg, &brand, &error))
    return cm_cli_usage_error (context, error->message);
  if (gen_cmd != NULL && (csd != NULL || scr != NULL || ssr != NULL || brand != NULL || claim != NULL))
    return cm_cli_usage_error (context, _("--gen-cmd takes only --cid and --json besides."));
  if (gen_cmd != NULL)
    {
      if (cid != NULL && (info = cm_card_info_new_from_registers (cid, NULL, NULL, NULL, &error)) == NULL)
        return cm_cli_usage_error (context, error->message);
      return cm_cli_decode_gen_cmd (gen_cmd, info != NULL ? cm_card_info_get_manufacturer_id (info) : -1, json);
    }
  if (cid == NULL && csd == NULL && scr == NULL && ssr == NULL)
    return cm_cli_usage_error (context, _("decode needs at least one of --cid, --csd, --scr, --ssr and --gen-cmd."));

  info = cm_card_info_new_from_registers (cid, csd, scr, ssr, &error);
  if (info == NULL)
    {
      cm_cli_print_error (error);
      return CM_EXIT_USAGE;
    }
  if (!cm_card_info_get_registers_available (info))
    return cm_cli_usage_error (context, _("Every register given is empty."));

  cm_card_info_set_brand (info, brand);
  claims = split_claims (claim);

  if (json)
    print_json (info, (const char * const *) claims);
  else
    print_table (info, (const char * const *) claims);

  return CM_EXIT_OK;
}
