/* cm-json.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Small helpers for writing JSON members with json-glib's builder, and
 * the one way JSON from outside (a result file, the history folder) is
 * read: bounded in size and depth before json-glib sees it.
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define CM_JSON_ERROR (cm_json_error_quark ())

typedef enum
{
  CM_JSON_ERROR_TOO_LARGE,
  CM_JSON_ERROR_TOO_DEEP,
  CM_JSON_ERROR_NOT_REGULAR,
  CM_JSON_ERROR_TOO_MANY,
} CmJsonError;

/* A result is a few megabytes at most (a full run's samples); nothing
 * CardMark writes nests deeper than a handful of levels. A parsed
 * document takes some forty times its size in memory, so the bound is
 * what one may cost: 8 MiB, a few hundred MB and a second or two. */
#define CM_JSON_MAX_BYTES (8 * 1024 * 1024)
#define CM_JSON_MAX_DEPTH 64
/* json-glib builds the whole tree: a value costs some 85 bytes, an array
 * twice, an object four times (measured: 8 MiB of "0," took 356 MB, of
 * "[]," 345 MB, of "{}," 847 MB). Counted so, a document may hold this
 * many, some 90 MB at most; a full benchmark with its samples holds
 * 22 000, a wear test's round 24. */
#define CM_JSON_MAX_NODES 1000000
#define CM_JSON_OBJECT_NODES 4
#define CM_JSON_ARRAY_NODES 2

GQuark      cm_json_error_quark        (void);

char       *cm_json_read_file_bounded  (GFile       *file,
                                        gsize       *length,
                                        GError     **error) G_GNUC_WARN_UNUSED_RESULT;
JsonParser *cm_json_parse_data_bounded (const char  *data,
                                        gssize       length,
                                        GError     **error) G_GNUC_WARN_UNUSED_RESULT;

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
