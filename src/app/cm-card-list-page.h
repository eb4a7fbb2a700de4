/* cm-card-list-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CM_TYPE_CARD_LIST_PAGE (cm_card_list_page_get_type ())

G_DECLARE_FINAL_TYPE (CmCardListPage, cm_card_list_page, CM, CARD_LIST_PAGE, GtkBox)

GListModel *cm_card_list_page_get_model   (CmCardListPage *self);
void        cm_card_list_page_set_model   (CmCardListPage *self,
                                           GListModel     *model);
guint       cm_card_list_page_get_n_rows  (CmCardListPage *self);
void        cm_card_list_page_set_jobs    (CmCardListPage *self,
                                           GListModel     *jobs);
AdwActionRow *cm_card_list_page_get_row_for_device (CmCardListPage *self,
                                                    const char     *device);

gboolean    cm_card_list_page_row_just_moved (CmCardListPage *self,
                                              int             index);
void        cm_card_list_page_activate_row   (CmCardListPage *self,
                                              guint           index);

void        cm_card_list_page_show_running       (CmCardListPage *self,
                                                  GPtrArray      *items);
void        cm_card_list_page_set_selection_mode (CmCardListPage *self,
                                                  gboolean        selecting);
gboolean    cm_card_list_page_get_selection_mode (CmCardListPage *self);
guint       cm_card_list_page_get_n_selected     (CmCardListPage *self);
GtkWidget  *cm_card_list_page_get_test_button    (CmCardListPage *self);
GtkWidget  *cm_card_list_page_get_wear_button    (CmCardListPage *self);

G_END_DECLS
