/* cm-result-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "cm-chart.h"
#include "cm-result.h"

G_BEGIN_DECLS

#define CM_TYPE_RESULT_PAGE (cm_result_page_get_type ())

G_DECLARE_FINAL_TYPE (CmResultPage, cm_result_page, CM, RESULT_PAGE, GtkBox)

CmResultPage *cm_result_page_new            (CmResult     *result);
CmResult     *cm_result_page_get_result     (CmResultPage *self);
CmStatus      cm_result_page_get_status     (CmResultPage *self);
GPtrArray    *cm_result_page_dup_charts     (CmResultPage *self) G_GNUC_WARN_UNUSED_RESULT;
gboolean      cm_result_page_export_chart   (CmResultPage *self,
                                             CmChartKind   kind,
                                             GFile        *file,
                                             GError      **error);
void          cm_result_page_offer_again (CmResultPage *self);
gboolean      cm_result_page_get_offers_again (CmResultPage *self);
void          cm_result_page_set_again_reason (CmResultPage *self,
                                               const char   *why_not);
const char   *cm_result_page_get_again_reason (CmResultPage *self);

G_END_DECLS
