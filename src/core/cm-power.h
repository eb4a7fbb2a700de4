/* cm-power.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The power-cut test's run, on a worker thread: the reference, then cut
 * after cut: records written with a flush every few, the power cut while
 * writes are in flight, the same card waited for, everything read back
 * and judged. Where it stands is kept on the host (cm-power-state.h).
 */

#pragma once

#include <gio/gio.h>

#include "cm-power-state.h"
#include "cm-power-switch.h"

G_BEGIN_DECLS

/* Records between two flushes. */
#define CM_POWER_FLUSH_EVERY 4

typedef enum
{
  CM_POWER_STEP_CHECK,     /* the switch is checked: the card must go and come back */
  CM_POWER_STEP_FILL,
  CM_POWER_STEP_WRITE,
  CM_POWER_STEP_CUT,
  CM_POWER_STEP_WAIT,      /* for the same card to come back */
  CM_POWER_STEP_READ,
} CmPowerStep;

typedef struct
{
  /* @cut counts from 1; @fraction of the whole test. */
  void (*progress) (CmPowerStep step,
                    guint       cut,
                    guint       n_cuts,
                    double      fraction,
                    gpointer    user_data);
  /* A cut read back (the state's last). */
  void (*cut_done) (const CmPowerCut *cut,
                    gpointer          user_data);
} CmPowerCallbacks;

typedef struct
{
  char                   *device;
  CmPowerState           *state;    /* new (run 0) or loaded */
  CmPowerSwitch           sw;
  double                  limit;    /* seconds the card may take to go, or come back */
  const CmPowerCallbacks *callbacks;
  gpointer                user_data;
} CmPowerRun;

gboolean cm_power_run          (CmPowerRun    *run,
                                GCancellable  *cancellable,
                                GError       **error);

/* The card's CID as its reader gives it, or NULL. */
char    *cm_power_dup_cid      (const char    *device) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
