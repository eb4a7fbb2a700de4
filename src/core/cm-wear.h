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
  gint64  started;         /* when a new test began (Unix seconds), kept in its state */
  guint64 maker_bytes;     /* the maker's endurance, 0: not given (a test carried on keeps its own) */
} CmWearLimits;

/* Where a wear test stands, as its state file (cm-wear-state.c) keeps
 * it, so that a stopped test carries on from the round and place it
 * stopped. */
typedef struct
{
  guint        round;                /* the round under way, from 1 */
  gboolean     reading;              /* its phase: writing, then reading back */
  guint64      place;                /* 4 MiB regions done in this phase (reading: in the round's shuffled order) */
  guint64      round_bad;            /* this round's bad sectors so far */
  guint64      round_new_bad;
  double       round_write_seconds;
  double       round_read_seconds;
  GArray      *failed;               /* guint64: regions whose write failed in this round */
  guint8      *ever_bad;             /* a bit per sector; sectors that ever came back wrong */
  double       elapsed;              /* seconds of work so far, earlier runs included */
  gint64       started;              /* when the test began (Unix seconds), 0 when not known */
  CmEndurance *endurance;            /* the rounds finished */
} CmWearPlace;

void         cm_wear_place_init      (CmWearPlace *place,
                                      guint64      sectors);
void         cm_wear_place_clear     (CmWearPlace *place);
/* Bytes written so far, the round under way included, on a card of
 * @size bytes (whole sectors). */
guint64      cm_wear_place_bytes_written (const CmWearPlace *place,
                                          guint64            size);
/* "round 3, writing, 40 %": where a stopped test would carry on. */
char        *cm_wear_place_describe  (const CmWearPlace *place,
                                      guint64            size) G_GNUC_WARN_UNUSED_RESULT;

typedef struct _CmWearState CmWearState;

/* Both called on the worker thread. */
typedef struct
{
  /* @reading: the read-back; @fraction of the whole run (or of the round
   * when it has no limit); @seconds_left of the run (or of the round when
   * it has no limit), < 0 while unknown; @bad_sectors that came back
   * wrong so far in this round. */
  void (*progress)   (guint              round,
                      gboolean           reading,
                      double             fraction,
                      double             seconds_left,
                      guint64            bad_sectors,
                      gpointer           user_data);
  void (*round_done) (const CmWearRound *round,
                      gpointer           user_data);
  /* Waiting for (or, NULL, done waiting for) a card on the same bus that
   * measures its speed; may be NULL. */
  void (*paused)     (const char        *measurer,
                      gpointer           user_data);
  /* The card's own count of bytes written to its flash (CMD56), or -1
   * where it does not tell; asked before and after each round. May be
   * NULL. */
  gint64 (*flash_written) (int           fd,
                           gpointer      user_data);
} CmWearCallbacks;

/* The data of round @round at @offset (a multiple of 512): the full
 * verify's pattern, keyed by the round. */
void         cm_wear_fill  (guint8  *buffer,
                            gsize    length,
                            guint64  offset,
                            guint    round);

/* Whether the card holds what the test stopped at @place wrote: a few
 * regions read back must hold the pattern of their round. */
gboolean     cm_wear_prove (int                     fd,
                            guint64                 size,
                            const CmWearPlace      *place,
                            GError                **error);

/* Runs the rounds on @fd (opened for O_DIRECT reading and writing) over
 * its first @size bytes, in the calling (worker) thread, keeping where it
 * stands in @state as it goes and when it stops; with @resume, carrying
 * on from the place @state holds, once the card proves it. Returns what
 * was found, whatever stopped it (a stopped round is left out, and kept
 * in @state); sets @error as well when the card went away or refused the
 * work. NULL with @error when it could not start (or resume). */
CmEndurance *cm_wear_run   (int                     fd,
                            guint64                 size,
                            CmWearState            *state,
                            gboolean                resume,
                            const CmWearLimits     *limits,
                            const CmWearCallbacks  *callbacks,
                            gpointer                user_data,
                            GCancellable           *cancellable,
                            GError                **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
