/* cm-result-part.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A kind's own part of a document's page (cm-result-page.c): its chart
 * and its facts, put there by the kind's app file, which the page's
 * table names, one line a kind.
 */

#pragma once

#include <adwaita.h>

#include "cm-chart-view.h"
#include "cm-result.h"

G_BEGIN_DECLS

typedef struct
{
  AdwPreferencesGroup *chart_group;
  AdwPreferencesGroup *facts_group;
  CmChartView         *chart;       /* set by cm_result_part_add_chart() */
} CmResultPart;

/* Fills @part with what a document of the kind found. */
typedef void (*CmResultPartFill) (CmResultPart *part,
                                  CmResult     *result);

CmChartView *cm_result_part_add_chart (CmResultPart *part,
                                       CmChartKind   kind,
                                       const char   *title,
                                       const char   *description);
GtkWidget   *cm_result_part_add_fact  (CmResultPart *part,
                                       const char   *title,
                                       const char   *value);
void         cm_result_part_add_count (CmResultPart *part,
                                       const char   *title,
                                       guint64       count);
void         cm_result_part_add_size  (CmResultPart *part,
                                       const char   *title,
                                       guint64       bytes);

G_END_DECLS
