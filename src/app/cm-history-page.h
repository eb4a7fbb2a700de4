/* cm-history-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "cm-chart-view.h"
#include "cm-history.h"

G_BEGIN_DECLS

#define CM_TYPE_HISTORY_PAGE (cm_history_page_get_type ())

G_DECLARE_FINAL_TYPE (CmHistoryPage, cm_history_page, CM, HISTORY_PAGE, GtkBox)

CmHistoryPage *cm_history_page_new          (CmHistory     *history);
void           cm_history_page_reload       (CmHistoryPage *self);
gboolean       cm_history_page_get_loading  (CmHistoryPage *self);
guint          cm_history_page_get_n_results (CmHistoryPage *self);
const char    *cm_history_page_get_count_text (CmHistoryPage *self);
GtkWidget     *cm_history_page_get_search_entry (CmHistoryPage *self);
GPtrArray     *cm_history_page_get_problems (CmHistoryPage *self);
gboolean       cm_history_page_set_picked   (CmHistoryPage *self,
                                             guint          index,
                                             gboolean       picked);
gboolean       cm_history_page_compare      (CmHistoryPage *self);
GPtrArray     *cm_history_page_get_batch    (CmHistoryPage *self);
gboolean       cm_history_page_export_csv   (CmHistoryPage *self,
                                             GFile         *file,
                                             GError       **error);
gboolean       cm_history_page_go_back      (CmHistoryPage *self);
const char    *cm_history_page_get_view     (CmHistoryPage *self);
CmChartView   *cm_history_page_get_chart    (CmHistoryPage *self,
                                             CmChartKind    kind);

gboolean       cm_history_page_delete        (CmHistoryPage  *self,
                                              guint           index,
                                              GError        **error);
void           cm_history_page_open          (CmHistoryPage  *self,
                                              guint           index);
GtkWidget     *cm_history_page_get_row       (CmHistoryPage  *self,
                                              guint           index);
void           cm_history_page_scroll_to     (CmHistoryPage  *self,
                                              guint           index);
guint          cm_history_page_count_row_widgets (CmHistoryPage *self);

G_END_DECLS
