/* cm-summary.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "cm-result.h"
#include "cm-test-table.h"

G_BEGIN_DECLS

/* One of the figures people compare cards by, ready to show. */
typedef struct
{
  const char  *test;      /* the test it reads */
  CmDirection  direction; /* read or write: its column in a strip */
  gboolean     latency;   /* the median latency rather than the speed */
  char        *label;     /* "Sequential read" */
  char        *value;     /* "45.1 MB/s", or "—" when not measured */
  gboolean     measured;
} CmHeadlineFigure;

void        cm_headline_figure_free       (CmHeadlineFigure *figure);
void        cm_summary_add_figure         (GPtrArray   *figures,
                                           const char  *test,
                                           CmDirection  direction,
                                           const char  *label,
                                           char        *value);

GPtrArray  *cm_summary_dup_headline       (CmResult   *result) G_GNUC_WARN_UNUSED_RESULT;
char       *cm_summary_format_rate        (double      value,
                                           const char *unit) G_GNUC_WARN_UNUSED_RESULT;
char       *cm_summary_format_latency     (double      us) G_GNUC_WARN_UNUSED_RESULT;

const char *cm_summary_criterion_label    (const char *criterion);
const char *cm_summary_method_label       (const char *target_mode);
const char *cm_summary_status_label       (CmStatus    status);
char       *cm_summary_dup_criterion_text (const CmCriterion *criterion) G_GNUC_WARN_UNUSED_RESULT;

char       *cm_summary_dup_banner         (CmResult   *result,
                                           CmStatus   *status) G_GNUC_WARN_UNUSED_RESULT;
char       *cm_summary_dup_answer         (CmResult   *result,
                                           CmStatus   *status) G_GNUC_WARN_UNUSED_RESULT;
char       *cm_summary_dup_card_title     (CmResult   *result) G_GNUC_WARN_UNUSED_RESULT;
char       *cm_summary_dup_date           (CmResult   *result) G_GNUC_WARN_UNUSED_RESULT;
char       *cm_summary_format_date        (GDateTime  *when) G_GNUC_WARN_UNUSED_RESULT;
char       *cm_summary_dup_name           (CmResult   *result) G_GNUC_WARN_UNUSED_RESULT;
char       *cm_summary_dup_list_figures   (CmResult   *result) G_GNUC_WARN_UNUSED_RESULT;
char       *cm_summary_dup_text           (CmResult   *result) G_GNUC_WARN_UNUSED_RESULT;
char       *cm_summary_dup_method_warning (const char         *target_mode,
                                           const char * const *claims) G_GNUC_WARN_UNUSED_RESULT;
char       *cm_summary_dup_class_promise  (const char *klass) G_GNUC_WARN_UNUSED_RESULT;

/* A result as a whole: its worst status and its text for the clipboard. */
char       *cm_result_dup_text_summary    (CmResult   *result) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
