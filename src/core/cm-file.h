/* cm-file.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean cm_file_check_writable (const char  *path,
                                 GError     **error);
int      cm_file_open_append    (const char  *path,
                                 gboolean    *created,
                                 GError     **error);
gboolean cm_file_set_contents   (const char  *path,
                                 const char  *data,
                                 gssize       length,
                                 GError     **error);

G_END_DECLS
