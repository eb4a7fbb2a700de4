/* cm-state-file.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the checks that write and carry on later (the full verify,
 * cm-verify-state.c; the wear test, cm-wear-state.c) share about the
 * file they keep between runs: where it lives, the name of the card it
 * belongs to, its SHA-256 seal, and reading its numbers within bounds.
 * A state file is hostile until it proves otherwise.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The folder state files of @kind ("verify", "wear") live in. */
char     *cm_state_file_folder           (const char   *kind) G_GNUC_WARN_UNUSED_RESULT;
/* A name for the card that survives a remount or another reader: its
 * size and the by-id link that points at it (it holds the serial), or
 * else its device name. */
char     *cm_state_file_card_identity    (const char   *device,
                                          guint64       size) G_GNUC_WARN_UNUSED_RESULT;
/* Whether the card at @path (a device or a folder) went away: its node
 * gone, its size 0 (a reader whose card was pulled), or, for a loop
 * device, its backing file no longer there (a simulated card pulled). */
gboolean  cm_state_file_card_gone        (const char   *path);

/* @key_file's text followed by "[checksum]\nsha256=" and its SHA-256. */
char     *cm_state_file_seal             (GKeyFile     *key_file,
                                          gsize        *length) G_GNUC_WARN_UNUSED_RESULT;
/* The key file @data holds, when its seal matches; else NULL. */
GKeyFile *cm_state_file_unseal           (const char   *data,
                                          gsize         length,
                                          gsize         max_length) G_GNUC_WARN_UNUSED_RESULT;
/* A regular file of at most @max_length bytes, never through a link. */
gboolean  cm_state_file_read             (const char   *path,
                                          gsize         max_length,
                                          char        **data,
                                          gsize        *length);
/* Written whole or not at all, and synced, in a folder only we read. */
gboolean  cm_state_file_write            (const char   *path,
                                          const char   *data,
                                          gsize         length,
                                          GError      **error);

/* Reading values, each within a bound; any value that is missing, out of
 * bounds or holds an escape clears @ok, and the file is then damaged. */
typedef struct
{
  GKeyFile   *key_file;
  const char *group;
  gboolean    ok;
} CmStateReader;

guint64   cm_state_reader_u64            (CmStateReader *r,
                                          const char    *key,
                                          guint64        max);
double    cm_state_reader_double         (CmStateReader *r,
                                          const char    *key,
                                          double         max);
gboolean  cm_state_reader_bool           (CmStateReader *r,
                                          const char    *key);
char     *cm_state_reader_plain_string   (CmStateReader *r,
                                          const char    *key) G_GNUC_WARN_UNUSED_RESULT;
/* At most @max_values device paths (/dev/…, printable, no spaces); NULL
 * for none or a missing key, which older files did not have. */
GStrv     cm_state_reader_devices        (CmStateReader *r,
                                          const char    *key,
                                          gsize          max_values) G_GNUC_WARN_UNUSED_RESULT;
/* Appends to @array (of guint or guint64) at most @max_values values. */
void      cm_state_reader_u64_list       (CmStateReader *r,
                                          const char    *key,
                                          GArray        *array,
                                          gsize          max_values,
                                          guint64        max);
/* At most @max_values values, each finite and in [0, @max]; NULL for none. */
double   *cm_state_reader_double_list    (CmStateReader *r,
                                          const char    *key,
                                          gsize          max_values,
                                          double         max,
                                          gsize         *n) G_GNUC_WARN_UNUSED_RESULT;

/* Writing lists the reader takes back (an empty one as an empty value). */
void      cm_state_file_set_u64_list     (GKeyFile      *key_file,
                                          const char    *group,
                                          const char    *key,
                                          GArray        *array,
                                          guint          n_values);
void      cm_state_file_set_double_list  (GKeyFile      *key_file,
                                          const char    *group,
                                          const char    *key,
                                          const double  *values,
                                          gsize          n_values);

G_END_DECLS
