/* cm-card-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "cm-backend.h"
#include "cm-chart-view.h"
#include "cm-card-item.h"

G_BEGIN_DECLS

#define CM_TYPE_CARD_PAGE (cm_card_page_get_type ())

G_DECLARE_FINAL_TYPE (CmCardPage, cm_card_page, CM, CARD_PAGE, GtkBox)

CmCardPage *cm_card_page_new         (CmCardItem  *item);
void        cm_card_page_update_item (CmCardPage  *self,
                                      CmCardItem  *item);
CmCardItem *cm_card_page_get_item    (CmCardPage  *self);
GStrv       cm_card_page_dup_claims  (CmCardPage  *self) G_GNUC_WARN_UNUSED_RESULT;
void        cm_card_page_set_claims  (CmCardPage  *self,
                                      const char * const *claims);
const char *cm_card_page_get_brand   (CmCardPage  *self);
gboolean    cm_card_page_set_brand   (CmCardPage  *self,
                                      const char  *brand);
CmProfile   cm_card_page_get_profile (CmCardPage  *self);
void        cm_card_page_set_profile (CmCardPage  *self,
                                      CmProfile    profile);
CmMethod    cm_card_page_get_method  (CmCardPage  *self);
gboolean    cm_card_page_set_method  (CmCardPage  *self,
                                      CmMethod     method);
void        cm_card_page_check_capacity        (CmCardPage *self);
CmChartView *cm_card_page_get_capacity_map     (CmCardPage *self);
gboolean    cm_card_page_get_checking_capacity (CmCardPage *self);
const char *cm_card_page_get_capacity_outcome  (CmCardPage *self,
                                                gboolean   *fake);
GtkWidget  *cm_card_page_get_verify_row        (CmCardPage *self);
gboolean    cm_card_page_can_test_again        (const char *kind);
gboolean    cm_card_page_test_again            (CmCardPage *self,
                                               CmResult   *result);
GtkWidget  *cm_card_page_get_format_row    (CmCardPage *self);
gboolean    cm_card_page_erase_and_format  (CmCardPage *self);
GtkWidget  *cm_card_page_get_health_row        (CmCardPage *self);
GtkWidget  *cm_card_page_get_power_row         (CmCardPage *self);
GtkWidget  *cm_card_page_get_bench_row         (CmCardPage *self);
CmJob      *cm_card_page_get_job               (CmCardPage *self);
const char *cm_card_page_get_job_bar_text     (CmCardPage *self);
const char *cm_card_page_get_outside_job_text (CmCardPage *self);
GtkWidget  *cm_card_page_get_wear_row         (CmCardPage *self);
const char *cm_card_page_get_capacity_subtitle (CmCardPage *self);
void        cm_card_page_follow_job            (CmCardPage *self,
                                                CmJob      *job);

const char   *cm_card_page_get_method_warning (CmCardPage *self);
gboolean      cm_card_page_accept_method_fix  (CmCardPage *self);

G_END_DECLS
