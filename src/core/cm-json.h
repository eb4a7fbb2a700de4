/* cm-json.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Small helpers for writing JSON members with json-glib's builder.
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

void cm_json_add_string       (JsonBuilder *builder,
                               const char  *key,
                               const char  *value);
void cm_json_add_double       (JsonBuilder *builder,
                               const char  *key,
                               double       value);
void cm_json_add_int          (JsonBuilder *builder,
                               const char  *key,
                               gint64       value);
void cm_json_add_positive_int (JsonBuilder *builder,
                               const char  *key,
                               gint64       value);
void cm_json_add_boolean      (JsonBuilder *builder,
                               const char  *key,
                               gboolean     value);

G_END_DECLS
