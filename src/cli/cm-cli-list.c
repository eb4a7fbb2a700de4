/* cm-cli-list.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `cardmark-cli list` and `cardmark-cli info`: what is connected, and
 * what is known about one device and its card.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "cm-card-info.h"
#include "cm-cli.h"
#include "cm-device-monitor.h"
#include "cm-host.h"
#include "cm-json.h"
#include "cm-cli-list.h"

static void
add_device_members (JsonBuilder *builder,
                    CmDevice    *device)
{
  const char * const *mount_points = cm_device_get_mount_points (device);

  json_builder_set_member_name (builder, "device");
  json_builder_add_string_value (builder, cm_device_get_device (device));
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, cm_device_get_name (device));
  json_builder_set_member_name (builder, "size_bytes");
  json_builder_add_int_value (builder, (gint64) cm_device_get_size (device));
  json_builder_set_member_name (builder, "read_only");
  json_builder_add_boolean_value (builder, cm_device_get_read_only (device));
  json_builder_set_member_name (builder, "mounted");
  json_builder_add_boolean_value (builder, cm_device_get_mounted (device));
  json_builder_set_member_name (builder, "mount_points");
  json_builder_begin_array (builder);
  for (guint i = 0; mount_points[i] != NULL; i++)
    json_builder_add_string_value (builder, mount_points[i]);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "system");
  json_builder_add_boolean_value (builder, cm_device_get_system (device));
  json_builder_set_member_name (builder, "reader");
  json_builder_add_string_value (builder, cm_reader_kind_to_string (cm_device_get_reader_kind (device)));
  json_builder_set_member_name (builder, "usb_speed_mbps");
  if (cm_device_get_usb_speed_mbps (device) > 0)
    json_builder_add_int_value (builder, cm_device_get_usb_speed_mbps (device));
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "has_media");
  json_builder_add_boolean_value (builder, cm_device_get_has_media (device));
  json_builder_set_member_name (builder, "volume_label");
  if (cm_device_get_volume_label (device) != NULL)
    json_builder_add_string_value (builder, cm_device_get_volume_label (device));
  else
    json_builder_add_null_value (builder);
}

/* The name, the volume label that tells two cards of the same make apart,
 * and the state: Loop device on card.img “BOOTFS” (mounted). */
static char *
describe_name (CmDevice   *device,
               const char *state)
{
  g_autoptr(GString) name = g_string_new (cm_device_get_name (device));

  if (cm_device_get_volume_label (device) != NULL)
    {
      g_string_append_c (name, ' ');
      /* Translators: a card's volume label, e.g. “BOOTFS”, in a list of its facts */
      g_string_append_printf (name, _("“%s”"), cm_device_get_volume_label (device));
    }
  if (state[0] != '\0')
    g_string_append_printf (name, " (%s)", state);

  return g_string_free (g_steal_pointer (&name), FALSE);
}

static char *
describe_reader (CmDevice *device)
{
  guint mbps = cm_device_get_usb_speed_mbps (device);

  switch (cm_device_get_reader_kind (device))
    {
    case CM_READER_SD_SLOT:
      return g_strdup (_("built-in SD slot"));
    case CM_READER_LOOP:
      return g_strdup (_("loop device"));
    case CM_READER_USB:
      if (mbps >= 5000)
        return g_strdup_printf (_("USB 3 (%u Mbit/s)"), mbps);
      if (mbps > 0)
        return g_strdup_printf (_("USB 2.0 or slower (%u Mbit/s)"), mbps);
      return g_strdup (_("USB"));
    case CM_READER_OTHER:
    default:
      return g_strdup (_("other"));
    }
}

/* "no card", "read-only", "mounted", "system" — what to know before
 * testing it. */
static char *
describe_state (CmDevice *device)
{
  g_autoptr(GPtrArray) notes = g_ptr_array_new ();

  if (!cm_device_get_has_media (device))
    g_ptr_array_add (notes, (gpointer) _("no card"));
  if (cm_device_get_system (device))
    g_ptr_array_add (notes, (gpointer) _("system disk"));
  else if (cm_device_get_mounted (device))
    g_ptr_array_add (notes, (gpointer) _("mounted"));
  if (cm_device_get_read_only (device))
    g_ptr_array_add (notes, (gpointer) _("read-only"));
  g_ptr_array_add (notes, NULL);

  return g_strjoinv (", ", (char **) notes->pdata);
}

static CmDeviceMonitor *
open_monitor (gboolean show_loop)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CmDeviceMonitor) monitor = cm_device_monitor_new (&error);

  if (monitor == NULL)
    {
      cm_cli_print_error (error);
      return NULL;
    }

  cm_device_monitor_set_show_loop (monitor, show_loop);
  return g_steal_pointer (&monitor);
}

int
cm_cli_list (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(CmDeviceMonitor) monitor = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  int widths[3] = { 1, 1, 1 };
  gboolean json = FALSE;
  gboolean show_loop = FALSE;
  guint n_items;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the list as JSON"), NULL },
    { "show-loop", 0, 0, G_OPTION_ARG_NONE, &show_loop, N_("Also list loop devices"), NULL },
    { NULL }
  };

  g_option_context_set_summary (context, _("List the cards and card readers connected."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!cm_cli_parse_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if (argc != 1)
    return cm_cli_usage_error (context, _("list takes no arguments."));

  monitor = open_monitor (show_loop);
  if (monitor == NULL)
    return CM_EXIT_FAILED;

  n_items = g_list_model_get_n_items (G_LIST_MODEL (monitor));

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_array (builder);
      for (guint i = 0; i < n_items; i++)
        {
          g_autoptr(CmDevice) device = g_list_model_get_item (G_LIST_MODEL (monitor), i);

          json_builder_begin_object (builder);
          add_device_members (builder, device);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      root = json_builder_get_root (builder);
      cm_cli_print_json (root);
      return CM_EXIT_OK;
    }

  if (n_items == 0)
    {
      printf ("%s\n", _("No cards or card readers found. Insert a card, or test a folder with “cardmark-cli bench FOLDER”."));
      return CM_EXIT_OK;
    }

  /* Translators: column headings of `cardmark-cli list`. */
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_ptr_array_add (rows, g_strdupv ((char *[]) { _("DEVICE"), _("SIZE"), _("READER"), _("NAME"), NULL }));
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(CmDevice) device = g_list_model_get_item (G_LIST_MODEL (monitor), i);
      g_autofree char *size = cm_device_get_has_media (device) ? g_format_size (cm_device_get_size (device))
                                                              : g_strdup ("—");
      g_autofree char *reader = describe_reader (device);
      g_autofree char *state = describe_state (device);
      g_autofree char *name = describe_name (device, state);

      g_ptr_array_add (rows, g_strdupv ((char *[]) { (char *) cm_device_get_device (device), size, reader, name, NULL }));
    }

  /* Columns as wide as their widest cell, measured on screen. */
  for (guint r = 0; r < rows->len; r++)
    for (guint c = 0; c < 3; c++)
      widths[c] = MAX (widths[c], cm_cli_text_width (((char **) g_ptr_array_index (rows, r))[c]));

  for (guint r = 0; r < rows->len; r++)
    {
      char **cells = g_ptr_array_index (rows, r);
      g_autoptr(GString) line = g_string_new (NULL);

      cm_cli_pad (line, cells[0], widths[0], FALSE);
      g_string_append (line, "  ");
      cm_cli_pad (line, cells[1], widths[1], TRUE);
      g_string_append (line, "  ");
      cm_cli_pad (line, cells[2], widths[2], FALSE);
      g_string_append_printf (line, "  %s", cells[3]);
      printf ("%s\n", line->str);
    }

  return CM_EXIT_OK;
}

/* The card's own registers, which only a native slot shows. */
static CmCardInfo *
read_card_info (CmDevice *device)
{
  const char *dir = cm_device_get_sysfs_device_dir (device);
  g_autoptr(GError) error = NULL;
  CmCardInfo *info;

  if (dir == NULL)
    return cm_card_info_new_unavailable (_("The card's registers can be read only in a built-in SD slot; this reader does not pass them on."));

  info = cm_card_info_new_from_sysfs (dir, &error);
  if (info == NULL)
    return cm_card_info_new_unavailable (error->message);

  return info;
}

/* The "Label:   value" lines of `info`, kept until all are known so that
 * the values line up on screen whatever the language of the labels. */
static void
add_field (GPtrArray  *fields,
           const char *label,
           const char *value)
{
  g_ptr_array_add (fields, g_strdup (label));
  g_ptr_array_add (fields, g_strdup (value != NULL ? value : ""));
}

static void
print_fields (GPtrArray *fields)
{
  int width = 13;

  for (guint i = 0; i < fields->len; i += 2)
    width = MAX (width, cm_cli_text_width (g_ptr_array_index (fields, i)));

  for (guint i = 0; i < fields->len; i += 2)
    {
      g_autoptr(GString) line = g_string_new (NULL);

      cm_cli_pad (line, g_ptr_array_index (fields, i), width, FALSE);
      g_string_append_printf (line, " %s", (char *) g_ptr_array_index (fields, i + 1));
      printf ("%s\n", line->str);
    }
}

static void
add_card_info (GPtrArray  *fields,
               CmCardInfo *info)
{
  g_auto(GStrv) classes = NULL;
  g_autofree char *joined = NULL;
  g_autofree char *maker_product = NULL;

  if (!cm_card_info_get_registers_available (info))
    {
      add_field (fields, _("Card:"), cm_card_info_get_unavailable_reason (info));
      return;
    }

  classes = cm_card_info_dup_declared_classes (info);
  joined = g_strjoinv (" ", classes);
  maker_product = g_strdup_printf ("%s %s",
                                   cm_card_info_get_manufacturer (info) != NULL ? cm_card_info_get_manufacturer (info) : "",
                                   cm_card_info_get_product_name (info) != NULL ? cm_card_info_get_product_name (info) : "");
  add_field (fields, _("Card:"), maker_product);
  if (cm_card_info_get_card_type (info) != NULL)
    add_field (fields, _("Type:"), cm_card_info_get_card_type (info));
  if (cm_card_info_get_manufacture_date (info) != NULL)
    add_field (fields, _("Made:"), cm_card_info_get_manufacture_date (info));
  if (joined[0] != '\0')
    add_field (fields, _("Declares:"), joined);
}

/* The slot's timing and command queueing are in debugfs, which only
 * root can read: say so rather than leave the line out. */
static void
add_slot_facts (GPtrArray         *fields,
                const CmHostFacts *host)
{
  const char *unknown = _("unknown (run with sudo to read it)");

  add_field (fields, _("Bus mode:"), host->bus_timing != NULL ? host->bus_timing : unknown);
  switch (host->queueing)
    {
    case CM_QUEUEING_YES:
      add_field (fields, _("Queues commands:"), _("yes — A2 cards can reach their figures here"));
      break;
    case CM_QUEUEING_NO:
      add_field (fields, _("Queues commands:"), _("no — A2 cards are judged against A1 here"));
      break;
    case CM_QUEUEING_UNKNOWN:
    default:
      add_field (fields, _("Queues commands:"), unknown);
      break;
    }
}

static void
print_info (CmDevice          *device,
            CmCardInfo        *card,
            const CmHostFacts *host)
{
  g_autofree char *size = g_format_size_full (cm_device_get_size (device), G_FORMAT_SIZE_LONG_FORMAT);
  g_autofree char *reader = describe_reader (device);
  g_autofree char *mounts = g_strjoinv (", ", (char **) cm_device_get_mount_points (device));
  g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);

  add_field (fields, _("Device:"), cm_device_get_device (device));
  add_field (fields, _("Name:"), cm_device_get_name (device));
  if (cm_device_get_volume_label (device) != NULL)
    add_field (fields, _("Volume label:"), cm_device_get_volume_label (device));
  add_field (fields, _("Size:"), cm_device_get_has_media (device) ? size : _("no card in the reader"));
  add_field (fields, _("Reader:"), reader);
  add_field (fields, _("Read-only:"), cm_device_get_read_only (device) ? _("yes") : _("no"));
  add_field (fields, _("Mounted:"), mounts[0] != '\0' ? mounts : _("no"));
  add_field (fields, _("System disk:"), cm_device_get_system (device)
          ? _("yes — the computer runs from it; only a folder test is possible")
          : _("no"));
  if (host->model != NULL)
    add_field (fields, _("Host:"), host->model);
  if (cm_device_get_reader_kind (device) == CM_READER_SD_SLOT)
    add_slot_facts (fields, host);
  if (card != NULL)
    add_card_info (fields, card);
  print_fields (fields);
}

int
cm_cli_info (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("TARGET"));
  g_autoptr(CmDeviceMonitor) monitor = NULL;
  g_autoptr(CmDevice) device = NULL;
  g_autoptr(CmCardInfo) card = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CmHostFacts) host = NULL;
  gboolean json = FALSE;
  int status;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the information as JSON"), NULL },
    { NULL }
  };

  g_option_context_set_summary (context, _("Show what is known about a card or drive: its reader, size, mounts and, in a built-in slot, the card's registers."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!cm_cli_parse_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if ((status = cm_cli_check_operands (context, argc, argv, 1, 1, _("info needs exactly one TARGET, such as /dev/sdb."))) != CM_EXIT_OK)
    return status;

  monitor = open_monitor (TRUE);
  if (monitor == NULL)
    return CM_EXIT_FAILED;

  device = cm_device_monitor_lookup (monitor, argv[1]);
  if (device == NULL)
    {
      fprintf (stderr, "cardmark-cli: ");
      fprintf (stderr, _("No card or drive at %s. Run 'cardmark-cli list' to see what is connected."), argv[1]);
      fprintf (stderr, "\n");
      return CM_EXIT_FAILED;
    }

  host = cm_host_facts_read (cm_device_get_reader_kind (device) == CM_READER_SD_SLOT
                             ? cm_device_get_sysfs_device_dir (device) : NULL);
  /* A hook for every reader: the card info says why it is unavailable
   * where the registers cannot be read. */
  if (cm_device_get_has_media (device))
    card = read_card_info (device);

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (builder);
      add_device_members (builder, device);
      cm_json_add_string (builder, "host_model", host->model);
      cm_json_add_string (builder, "bus_timing", host->bus_timing);
      cm_json_add_string (builder, "host_queueing", cm_queueing_to_string (host->queueing));
      json_builder_set_member_name (builder, "card");
      if (card != NULL)
        json_builder_add_value (builder, cm_card_info_to_json (card));
      else
        json_builder_add_null_value (builder);
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      cm_cli_print_json (root);
      return CM_EXIT_OK;
    }

  print_info (device, card, host);
  return CM_EXIT_OK;
}
