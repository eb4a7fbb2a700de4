/* cm-size.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one way a size is written on CardMark's command lines.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CM_SIZE_ERROR (cm_size_error_quark ())

typedef enum
{
  CM_SIZE_ERROR_INVALID,
  CM_SIZE_ERROR_TOO_SMALL,
  CM_SIZE_ERROR_TOO_LARGE,
} CmSizeError;

GQuark      cm_size_error_quark    (void);

gboolean    cm_size_parse          (const char  *text,
                                    const char  *option,
                                    guint64      min_bytes,
                                    guint64     *bytes,
                                    GError     **error);
const char *cm_size_describe_syntax (void);

G_END_DECLS
