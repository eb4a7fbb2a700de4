/* cm-endurance.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a wear test (cm-wear.c) found, round by round: the document's
 * "endurance" member, and its thresholds and sentence.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CM_ENDURANCE_ERROR (cm_endurance_error_quark ())

/* What is wrong with the maker's endurance as given. */
typedef enum
{
  CM_ENDURANCE_ERROR_TBW,          /* TB written out of range */
  CM_ENDURANCE_ERROR_VIDEO,        /* hours or bitrate out of range */
  CM_ENDURANCE_ERROR_VIDEO_PAIR,   /* hours without bitrate, or the other way round */
  CM_ENDURANCE_ERROR_TWICE,        /* both a TBW and hours of video */
} CmEnduranceError;

GQuark       cm_endurance_error_quark (void);

/* One round: the whole card written, then read back. Sectors are 512
 * bytes; new_bad_sectors are those that were right in every earlier
 * round; bytes_written counts every round up to and including this one. */
typedef struct
{
  guint    round;              /* from 1 */
  double   write_mb_per_s;     /* MB = 10^6 bytes */
  double   read_mb_per_s;
  guint64  sectors;
  guint64  bad_sectors;
  guint64  new_bad_sectors;
  guint64  bytes_written;
  double   seconds;            /* this round's */
  /* What the card says it wrote to its flash during the round (CMD56,
   * cm-health.h), where it told its counter before and after. */
  gboolean flash_known;
  guint64  flash_bytes_written;
} CmWearRound;

/* The thresholds, in this order: the first error, then 0.1 %, 1 %, 10 %,
 * 25 % and 50 % of the sectors bad in one round. */
#define CM_ENDURANCE_N_THRESHOLDS 6

typedef struct
{
  GArray *rounds;              /* CmWearRound, round 1 first */
  char   *stopped;             /* why it ended: "rounds", "hours", "half-bad", "cancelled", "card-gone" */
  guint64 maker_bytes;         /* the maker's endurance in bytes written, 0 when not given */
  GStrv   shared_bus_with;     /* cards that moved data on the same bus during the rounds, or NULL */
} CmEndurance;

CmEndurance *cm_endurance_new    (void);
CmEndurance *cm_endurance_copy   (const CmEndurance *endurance);
void         cm_endurance_free   (CmEndurance       *endurance);

double       cm_endurance_threshold_share (guint index);
gboolean     cm_endurance_get_threshold (const CmEndurance *endurance,
                                         guint              index,
                                         guint             *round,
                                         guint64           *bytes_written);
guint        cm_endurance_get_first_error_round (const CmEndurance *endurance);
gboolean     cm_endurance_get_round_write_amplification (const CmEndurance *endurance,
                                                         guint              index,
                                                         double            *write_amplification);
gboolean     cm_endurance_get_write_amplification (const CmEndurance *endurance,
                                                   double            *lowest,
                                                   double            *highest);
gboolean     cm_endurance_lost_data (const CmEndurance *endurance);
char        *cm_endurance_describe  (const CmEndurance *endurance) G_GNUC_WARN_UNUSED_RESULT;

/* The maker's endurance in bytes, from a TBW or hours of video and
 * their bitrate (cm-endurance.c says how); FALSE with @error when out of
 * range, or given half or twice. */
gboolean     cm_endurance_maker_bytes_from (double   tbw,
                                           double   video_hours,
                                           double   video_mbps,
                                           guint64 *maker_bytes,
                                           GError **error);

/* The round bookkeeping: @ever_bad has one bit per sector of the card.
 * Marks @n sectors from @first bad and returns how many of them had not
 * been bad before. */
guint64      cm_endurance_mark_bad  (guint8            *ever_bad,
                                     guint64            first,
                                     guint64            n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmEndurance, cm_endurance_free)

G_END_DECLS
