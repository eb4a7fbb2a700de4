/* cm-time-left.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "cm-plan.h"

G_BEGIN_DECLS

/* Until a test of a direction has shown the card's speed, the time left
 * of that direction's sized tests is estimated with this. */
#define CM_TIME_LEFT_GUESS_MB_PER_S 20.0

#define CM_TYPE_TIME_LEFT (cm_time_left_get_type ())

G_DECLARE_FINAL_TYPE (CmTimeLeft, cm_time_left, CM, TIME_LEFT, GObject)

CmTimeLeft *cm_time_left_new        (void) G_GNUC_WARN_UNUSED_RESULT;
void        cm_time_left_add_test   (CmTimeLeft       *self,
                                     const CmTestSpec *spec,
                                     guint64           bytes);
void        cm_time_left_set_bytes  (CmTimeLeft       *self,
                                     guint             index,
                                     guint64           bytes);
void        cm_time_left_set_reads_first (CmTimeLeft  *self,
                                          guint        index);
double      cm_time_left_update     (CmTimeLeft       *self,
                                     guint             index,
                                     double            fraction,
                                     double            elapsed,
                                     guint64           done_bytes);
double      cm_time_left_get_rate   (CmTimeLeft       *self,
                                     CmDirection       direction);

G_END_DECLS
