/* cm-power-state.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where a power-cut test stands, on the host's disk: written whole and
 * synced after every flush the card confirms, sealed with a SHA-256 so
 * a file with flipped bytes is refused, not believed. It is what lets
 * the test carry on after the host itself crashed, and it is the only
 * place the records the card confirmed are known: never on the card.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CM_POWER_STATE_MIN_AREA (64 * 1024)

typedef enum
{
  CM_POWER_PHASE_FILL,     /* the reference is being written */
  CM_POWER_PHASE_WRITING,  /* records are being written, the power on */
  CM_POWER_PHASE_OFF,      /* the power was being cut, or is off */
} CmPowerPhase;

/* One cut, as read back. */
typedef struct
{
  guint64 kept;            /* records a flush confirmed, found whole */
  guint64 lost;            /* records a flush confirmed, not found */
  guint64 fresh;           /* in flight, found new */
  guint64 old;             /* in flight, found as before */
  guint64 torn;            /* in flight, found part new, part old or damaged */
  guint64 collateral;      /* reference sectors damaged */
  guint64 collateral_first; /* the first one's byte offset (with collateral > 0) */
  double  back_seconds;    /* from the cut until the card answered again */
} CmPowerCut;

typedef struct
{
  char         *path;
  char         *device;
  guint64       card_bytes;
  guint64       run;         /* this run's mark, in every sector it writes */
  guint64       area;        /* bytes from the card's start */
  guint         cuts_planned;
  gint64        started;     /* unix time */
  CmPowerPhase  phase;
  guint64       confirmed;   /* writes of the current cut a flush confirmed */
  char         *reference_sha256;
  char         *cid;         /* the card's CID at the start, where the reader gives it */
  GArray       *cuts;        /* CmPowerCut, the cuts read back */
} CmPowerState;

CmPowerState *cm_power_state_new    (const char    *device,
                                     guint64        card_bytes,
                                     const char    *folder) G_GNUC_WARN_UNUSED_RESULT;
void          cm_power_state_free   (CmPowerState  *state);
gboolean      cm_power_state_exists (CmPowerState  *state);
gboolean      cm_power_state_save   (CmPowerState  *state,
                                     GError       **error);
gboolean      cm_power_state_load   (CmPowerState  *state,
                                     GError       **error);
void          cm_power_state_remove (CmPowerState  *state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmPowerState, cm_power_state_free)

G_END_DECLS
