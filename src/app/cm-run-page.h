/* cm-run-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "cm-chart-view.h"
#include "cm-job.h"

G_BEGIN_DECLS

#define CM_TYPE_RUN_PAGE (cm_run_page_get_type ())

G_DECLARE_FINAL_TYPE (CmRunPage, cm_run_page, CM, RUN_PAGE, GtkBox)

CmRunPage   *cm_run_page_new            (const char         *title,
                                         const char * const *claims);
void         cm_run_page_set_test       (CmRunPage  *self,
                                         guint       index,
                                         guint       n_tests,
                                         const char *name);
void         cm_run_page_set_progress   (CmRunPage  *self,
                                         double      fraction,
                                         double      seconds_left);
void         cm_run_page_add_sample     (CmRunPage  *self,
                                         const char *test,
                                         double      t,
                                         double      mb_per_s);
void         cm_run_page_set_cancelling (CmRunPage  *self);
void         cm_run_page_follow         (CmRunPage  *self,
                                         CmJob      *job);
CmChartView *cm_run_page_get_chart      (CmRunPage  *self);

G_END_DECLS
