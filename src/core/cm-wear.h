/* cm-wear.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The wear test's rounds (cm-wear.c): write the whole card, read it all
 * back in a shuffled order, count what came back wrong; again, until a
 * limit, half the card bad, or a stop.
 */

#pragma once

#include <gio/gio.h>

#include "cm-endurance.h"

G_BEGIN_DECLS

typedef struct
{
  guint   rounds;          /* 0: no limit */
  double  seconds;         /* 0: no limit; checked before each round */
} CmWearLimits;

/* Both called on the worker thread. */
typedef struct
{
  /* @reading: the read-back; @fraction of the whole run (or of the round
   * when it has no limit); @seconds_left < 0 while unknown. */
  void (*progress)   (guint              round,
                      gboolean           reading,
                      double             fraction,
                      double             seconds_left,
                      gpointer           user_data);
  void (*round_done) (const CmWearRound *round,
                      gpointer           user_data);
} CmWearCallbacks;

/* The data of round @round at @offset (a multiple of 512): the full
 * verify's pattern, keyed by the round. */
void         cm_wear_fill  (guint8  *buffer,
                            gsize    length,
                            guint64  offset,
                            guint    round);

/* Runs the rounds on @fd (opened for O_DIRECT reading and writing) over
 * its first @size bytes, in the calling (worker) thread. Returns what was
 * found, whatever stopped it (a cancelled round is left out); sets @error
 * as well when the card went away or refused the work. */
CmEndurance *cm_wear_run   (int                     fd,
                            guint64                 size,
                            const CmWearLimits     *limits,
                            const CmWearCallbacks  *callbacks,
                            gpointer                user_data,
                            GCancellable           *cancellable,
                            GError                **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
