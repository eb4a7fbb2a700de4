/* cm-text.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How many characters a line of text from outside keeps at most, when
 * its caller does not say: enough for a device and a job's name. */
#define CM_TEXT_LINE_MAX 200
/* …and a field of a document read back (a note, a summary, a name):
 * longer than any sentence CardMark writes. */
#define CM_TEXT_FIELD_MAX 2000

char *cm_text_dup_clean (const char *text,
                         gsize       max_chars) G_GNUC_WARN_UNUSED_RESULT;
char *cm_text_dup_unbroken_units (const char *text) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
