/* cm-method.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The methods of a run, with the one name a result records and the one
 * label people read, for the card page, the history and the summary.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-method.h"

static const struct
{
  CmMethod    method;
  const char *name;
  const char *label;
} methods[] = {
  { CM_METHOD_FILE, "file", N_("Safe test in a scratch file") },
  { CM_METHOD_RAW_READ, "raw-read", N_("Read-only raw test") },
  { CM_METHOD_RAW_WRITE, "raw-write", N_("Raw test with writes") },
};

const char *
cm_method_to_string (CmMethod method)
{
  g_return_val_if_fail ((guint) method < G_N_ELEMENTS (methods), "file");
  return methods[method].name;
}

gboolean
cm_method_from_string (const char *str,
                       CmMethod   *method)
{
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    if (g_strcmp0 (str, methods[i].name) == 0)
      {
        *method = methods[i].method;
        return TRUE;
      }

  return FALSE;
}

const char *
cm_method_get_label (CmMethod method)
{
  g_return_val_if_fail ((guint) method < G_N_ELEMENTS (methods), NULL);
  return _(methods[method].label);
}
