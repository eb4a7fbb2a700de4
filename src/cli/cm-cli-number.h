/* cm-cli-number.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean cm_cli_number_parse     (const char  *option_name,
                                  const char  *text,
                                  double      *value,
                                  GError     **error);
gboolean cm_cli_number_option_cb (const char  *option_name,
                                  const char  *text,
                                  gpointer     data,
                                  GError     **error);
gboolean cm_cli_number_get       (const char  *name,
                                  double      *value);
const char *cm_cli_number_name  (guint        i);

G_END_DECLS
