/* cm-outcome.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-job-kinds.h"
#include "cm-outcome.h"

static const char * const status_names[] = {
  [CM_OUTCOME_PASS] = "pass",
  [CM_OUTCOME_FAIL] = "fail",
  [CM_OUTCOME_NOT_JUDGED] = "not-judged",
  [CM_OUTCOME_STOPPED] = "stopped",
};

const char *
cm_outcome_status_to_string (CmOutcomeStatus status)
{
  g_return_val_if_fail (status <= CM_OUTCOME_STOPPED, NULL);

  return status_names[status];
}

gboolean
cm_outcome_status_from_string (const char      *str,
                               CmOutcomeStatus *status)
{
  for (guint i = 0; i < G_N_ELEMENTS (status_names); i++)
    if (g_strcmp0 (str, status_names[i]) == 0)
      {
        *status = i;
        return TRUE;
      }
  return FALSE;
}

/**
 * cm_outcome_new:
 * @tone: the colour it is shown in; a stopped outcome is never
 *   %CM_STATUS_MEETS, whatever is asked
 * @answer: (nullable): the sentence, or %NULL when the badge says all
 *
 * The exit status is the DESIGN's: 0 for a pass or nothing judged, 5
 * for a stop; a kind whose fail is not a benchmark's 3 sets its own.
 */
CmOutcome *
cm_outcome_new (CmOutcomeStatus  status,
                CmStatus         tone,
                const char      *badge,
                const char      *answer)
{
  CmOutcome *outcome = g_new0 (CmOutcome, 1);

  g_return_val_if_fail (badge != NULL, outcome);

  outcome->status = status;
  outcome->tone = status == CM_OUTCOME_STOPPED && tone == CM_STATUS_MEETS ? CM_STATUS_NOT_JUDGED : tone;
  outcome->badge = g_strdup (badge);
  outcome->answer = g_strdup (answer);
  switch (status)
    {
    case CM_OUTCOME_FAIL:
      outcome->exit_status = 3;
      break;
    case CM_OUTCOME_STOPPED:
      outcome->exit_status = CM_OUTCOME_EXIT_STOPPED;
      break;
    case CM_OUTCOME_PASS:
    case CM_OUTCOME_NOT_JUDGED:
    default:
      outcome->exit_status = 0;
      break;
    }
  return outcome;
}

void
cm_outcome_free (CmOutcome *outcome)
{
  if (outcome == NULL)
    return;
  g_free (outcome->badge);
  g_free (outcome->answer);
  g_free (outcome);
}

/* A job stopped before it kept a document: "Stopped", in any kind. */
CmOutcome *
cm_outcome_new_stopped (const char *kind)
{
  g_autofree char *answer = NULL;

  if (kind == NULL)
    /* Translators: a job of no known kind stopped before its end */
    answer = g_strdup (_("The check stopped before the end"));
  else
    /* Translators: a job stopped before its end; %s is the kind, "Full verify" */
    answer = g_strdup_printf (_("%s stopped before the end"), cm_job_kind_get_title (kind));
  /* Translators: a badge: a job that was stopped before its end */
  return cm_outcome_new (CM_OUTCOME_STOPPED, CM_STATUS_NOT_JUDGED, _("Stopped"), answer);
}

/**
 * cm_result_dup_outcome:
 *
 * The document's one outcome, from its kind's row. A document of a
 * kind this CardMark does not know (a newer one's) is not judged.
 */
CmOutcome *
cm_result_dup_outcome (CmResult *result)
{
  const CmJobKind *kind;

  g_return_val_if_fail (CM_IS_RESULT (result), NULL);

  kind = cm_job_kinds_lookup (cm_result_get_kind (result));
  if (kind == NULL || kind->outcome == NULL)
    /* Translators: a badge: a document that judges nothing CardMark knows */
    return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("Not judged"), NULL);
  return kind->outcome (result);
}
