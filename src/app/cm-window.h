/* cm-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "cm-journal-watch.h"
#include "cm-result.h"

G_BEGIN_DECLS

#define CM_TYPE_WINDOW (cm_window_get_type ())

G_DECLARE_FINAL_TYPE (CmWindow, cm_window, CM, WINDOW, AdwApplicationWindow)

CmWindow   *cm_window_new               (GtkApplication *application);
void        cm_window_set_devices       (CmWindow       *self,
                                         GListModel     *devices);
gboolean    cm_window_open_path         (CmWindow       *self,
                                         const char     *path);
void        cm_window_start_test        (CmWindow       *self);
void        cm_window_cancel_test       (CmWindow       *self);
gboolean    cm_window_get_running       (CmWindow       *self);
const char *cm_window_get_page_name     (CmWindow       *self);
GtkWidget  *cm_window_get_page          (CmWindow       *self,
                                         const char     *name);
CmResult   *cm_window_get_last_result   (CmWindow       *self);
CmJournalWatch *cm_window_get_journal_watch (CmWindow   *self);

G_END_DECLS
