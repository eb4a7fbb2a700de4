/* cm-outcome.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A document's one outcome: pass, fail, not judged or stopped, in its
 * kind's own words. Each kind says it once (its row's `outcome`, see
 * cm-job-kinds.h); the app's banner, list and History badges, the batch
 * report, the CLI's summary and its exit status all read it here.
 */

#pragma once

#include <glib.h>

#include "cm-result.h"

G_BEGIN_DECLS

typedef enum
{
  CM_OUTCOME_PASS,        /* the card did what it should: Meets, Genuine, Intact */
  CM_OUTCOME_FAIL,        /* it did not: Below, Fake, Data lost */
  CM_OUTCOME_NOT_JUDGED,  /* nothing to judge, or this reader cannot */
  CM_OUTCOME_STOPPED,     /* stopped before the end: never a pass */
} CmOutcomeStatus;

typedef struct
{
  CmOutcomeStatus status;
  CmStatus        tone;    /* its colour: meets, marginal, below, not judged */
  char           *badge;   /* a word or two: "Genuine", "Data lost", "Stopped" */
  char           *answer;  /* the sentence: "Fake capacity · holds 2.0 GB, not
                            * 32.0 GB"; NULL when the badge says all */
  int             exit_status; /* the CLI's: 0, 3, 4 or 5 (DESIGN, "CLI") */
} CmOutcome;

/* The CLI's exit status for a stopped job (DESIGN, "CLI"). */
#define CM_OUTCOME_EXIT_STOPPED 5

CmOutcome  *cm_outcome_new            (CmOutcomeStatus  status,
                                       CmStatus         tone,
                                       const char      *badge,
                                       const char      *answer) G_GNUC_WARN_UNUSED_RESULT;
void        cm_outcome_free           (CmOutcome       *outcome);
const char *cm_outcome_status_to_string (CmOutcomeStatus status);
gboolean    cm_outcome_status_from_string (const char  *str,
                                       CmOutcomeStatus *status);

CmOutcome  *cm_result_dup_outcome     (CmResult        *result) G_GNUC_WARN_UNUSED_RESULT;
/* A job stopped before it had anything to keep: the words any kind uses. */
CmOutcome  *cm_outcome_new_stopped    (const char      *kind) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmOutcome, cm_outcome_free)

G_END_DECLS
