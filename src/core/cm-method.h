/* cm-method.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How a run reaches the card: the one word for it in the bench, the
 * target, the app, the CLI and the result ("target"."mode"). */
typedef enum
{
  CM_METHOD_FILE,       /* a scratch file in a folder on the card */
  CM_METHOD_RAW_READ,   /* the whole device, read-only */
  CM_METHOD_RAW_WRITE,  /* the whole device, putting back its own bytes */
} CmMethod;

const char *cm_method_to_string   (CmMethod    method);
gboolean    cm_method_from_string (const char *str,
                                   CmMethod   *method);
const char *cm_method_get_label   (CmMethod    method);

G_END_DECLS
