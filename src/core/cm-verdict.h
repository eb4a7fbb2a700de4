/* cm-verdict.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Judging a result against the classes on a card's label
 * (docs/methodology.md).
 */

#pragma once

#include <gio/gio.h>

#include "cm-result.h"

G_BEGIN_DECLS

#define CM_VERDICT_ERROR (cm_verdict_error_quark ())

typedef enum
{
  CM_VERDICT_ERROR_UNKNOWN_CLASS,
} CmVerdictError;

GQuark      cm_verdict_error_quark    (void);

/* Every class CardMark knows, slowest first: C2 … V90, A1, A2. */
const char * const *cm_verdict_get_classes (void);
/* The ones a class picker offers, in the same order: C10 … V90, A1, A2. */
const char * const *cm_verdict_get_offered_classes (void);
gboolean    cm_verdict_is_class       (const char          *klass);
gboolean    cm_verdict_get_minimums   (const char          *klass,
                                       double              *write_mb_s,
                                       double              *read_iops,
                                       double              *write_iops);

GStrv       cm_verdict_parse_classes  (const char          *csv,
                                       GError             **error) G_GNUC_WARN_UNUSED_RESULT;

void        cm_verdict_judge          (CmResult            *result,
                                       const char * const  *claims,
                                       const char          *claims_source);

char       *cm_verdict_dup_summary    (CmResult            *result) G_GNUC_WARN_UNUSED_RESULT;
CmStatus    cm_verdict_worst          (CmResult            *result);
gboolean    cm_verdict_any_below      (CmResult            *result);

/* How bad a status is, for ranking: meets < marginal < not-judged < below. */
guint       cm_verdict_status_rank    (CmStatus             status);

G_END_DECLS
