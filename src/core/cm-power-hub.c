/* cm-power-hub.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * sysfs names a USB device by its path from the root hub: bus 1, port 1,
 * then port 3 of the hub there is "1-1.3"; the block device's own path
 * (/sys/class/block/sdb, a link into /sys/devices) passes through it.
 * The reader is the last such name on the path; its hub is the name
 * before the last dot ("1-1"), or the root hub of its bus ("1") when
 * it has none, and its port the number after. Which hubs gang their
 * ports is not in sysfs (it is in the hub descriptor, which only a
 * control request reads): the hubs known to do it are listed.
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "cm-power-hub.h"

/* idVendor:idProduct of hubs that switch every port together. */
static const char * const ganged_hubs[] = {
  "2109:3431",   /* VIA VL805's hub: a Raspberry Pi 4's USB 2.0 ports */
};

void
cm_power_hub_free (CmPowerHub *hub)
{
  if (hub == NULL)
    return;
  g_free (hub->location);
  g_free (hub->hub_id);
  g_free (hub);
}

/* "1-1.3" and its like: a bus, a dash, ports joined by dots. */
static gboolean
is_usb_device_name (const char *name)
{
  gboolean dash = FALSE, digit = FALSE;

  for (const char *p = name; *p != '\0'; p++)
    {
      if (g_ascii_isdigit (*p))
        digit = TRUE;
      else if (*p == '-' && !dash && digit)
        dash = TRUE, digit = FALSE;
      else if (*p == '.' && dash && digit)
        digit = FALSE;
      else
        return FALSE;
    }
  return dash && digit;
}

static char *
read_id (const char *dir,
         const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return g_strndup (g_strstrip (text), 4);
}

CmPowerHub *
cm_power_hub_find (const char  *sysfs,
                   const char  *device,
                   GError     **error)
{
  g_autofree char *name = g_path_get_basename (device);
  g_autofree char *link = g_build_filename (sysfs, "class", "block", name, NULL);
  g_autofree char *real = realpath (link, NULL);
  g_auto(GStrv) parts = NULL;
  g_autofree char *hub_dir = NULL;
  g_autofree char *vendor = NULL;
  g_autofree char *product = NULL;
  g_autoptr(CmPowerHub) hub = NULL;
  const char *reader = NULL, *dot;
  gint last = -1;

  if (real != NULL)
    parts = g_strsplit (real, "/", -1);
  for (gint i = 0; parts != NULL && parts[i] != NULL; i++)
    if (is_usb_device_name (parts[i]))
      last = i;
  if (last < 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("%s is not in a USB reader, so no USB hub can switch its power. Use --switch-off and "
                     "--switch-on, or --by-hand."), device);
      return NULL;
    }
  reader = parts[last];
  hub = g_new0 (CmPowerHub, 1);
  dot = strrchr (reader, '.');
  if (dot != NULL)
    {
      hub->location = g_strndup (reader, dot - reader);
      hub->port = atoi (dot + 1);
    }
  else
    {
      hub->location = g_strndup (reader, strchr (reader, '-') - reader);
      hub->port = atoi (strchr (reader, '-') + 1);
    }
  /* The hub is the reader's parent: the path up to the reader. */
  parts[last] = NULL;
  hub_dir = g_strjoinv ("/", parts);
  parts[last] = (char *) reader;
  vendor = read_id (hub_dir, "idVendor");
  product = read_id (hub_dir, "idProduct");
  if (vendor != NULL && product != NULL)
    hub->hub_id = g_strdup_printf ("%s:%s", vendor, product);
  for (guint i = 0; hub->hub_id != NULL && i < G_N_ELEMENTS (ganged_hubs); i++)
    hub->ganged = hub->ganged || g_ascii_strcasecmp (hub->hub_id, ganged_hubs[i]) == 0;
  return g_steal_pointer (&hub);
}

char *
cm_power_hub_dup_command (const CmPowerHub *hub,
                          gboolean          on)
{
  g_autofree char *location = g_shell_quote (hub->location);

  return g_strdup_printf ("uhubctl -l %s -p %u -a %s", location, hub->port, on ? "on" : "off");
}
