/* cm-power-report.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The power-cut test's part of the document (its member "power"): facts
 * only, made into words when shown. Read back as hostile: every value
 * bounded, anything else refused.
 */

#pragma once

#include <json-glib/json-glib.h>

#include "cm-power-state.h"

G_BEGIN_DECLS

typedef struct
{
  guint    cuts_planned;
  guint64  area;
  char    *method;        /* "commands", "by-hand" */
  gboolean stopped;       /* stopped before its last cut */
  GArray  *cuts;          /* CmPowerCut */
} CmPowerReport;

CmPowerReport *cm_power_report_new       (void) G_GNUC_WARN_UNUSED_RESULT;
void           cm_power_report_free      (CmPowerReport  *report);
JsonNode      *cm_power_report_to_json   (const CmPowerReport *report) G_GNUC_WARN_UNUSED_RESULT;
CmPowerReport *cm_power_report_from_json (JsonNode       *node) G_GNUC_WARN_UNUSED_RESULT;

/* Sums over the cuts, and how many cuts had any. */
guint64        cm_power_report_lost       (const CmPowerReport *report,
                                           guint               *cuts);
guint64        cm_power_report_collateral (const CmPowerReport *report,
                                           guint               *cuts,
                                           guint64             *first);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmPowerReport, cm_power_report_free)

G_END_DECLS
