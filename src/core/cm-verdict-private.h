/* cm-verdict-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the class rules (cm-verdict.c) and the reader's part in a verdict
 * (cm-verdict-host.c) share: the judge's view of one result.
 */

#pragma once

#include "cm-verdict.h"

G_BEGIN_DECLS

typedef struct
{
  CmResult   *result;
  gboolean    buffered;
  gboolean    no_queueing;
  double      qd1_iops;
  double      qd32_iops;
  double      ceiling_low;  /* MB/s; 0 when no ceiling is known */
  double      ceiling_high;
  const char *ceiling_what;
  gboolean    unqueued;     /* a queued criterion was not judged for it */
} CmJudge;

void cm_verdict_find_ceiling    (CmJudge  *judge);
void cm_verdict_find_queueing   (CmJudge  *judge);
void cm_verdict_fall_back_to_a1 (CmResult *result,
                                 CmClaim  *a2,
                                 CmClaim  *a1);

G_END_DECLS
