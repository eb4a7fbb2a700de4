/* cm-journal-watch.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CM_TYPE_JOURNAL_WATCH (cm_journal_watch_get_type ())

G_DECLARE_FINAL_TYPE (CmJournalWatch, cm_journal_watch, CM, JOURNAL_WATCH, GObject)

CmJournalWatch *cm_journal_watch_new          (GtkWindow      *window,
                                               GtkWidget      *toast_target,
                                               GListModel     *devices) G_GNUC_WARN_UNUSED_RESULT;
void            cm_journal_watch_set_devices  (CmJournalWatch *self,
                                               GListModel     *devices);
/* The device whose restore is being offered or run, or NULL. */
const char     *cm_journal_watch_get_offered  (CmJournalWatch *self);

G_END_DECLS
