/* cm-simcard-power.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The simulated card's power: a volatile write cache that only a flush
 * makes durable, and power cuts that lose what a card of the modelled kind
 * loses. cm-simcard.c calls these hooks at its write, read and flush
 * points and when the power goes off (SIGPWR, or "off" written to the
 * mount's power file) or comes back (SIGUSR2, or "on"). */

#pragma once

#include <glib.h>
#include <sys/types.h>

typedef struct
{
  gboolean volatile_cache;     /* [power] volatile-cache: writes wait for a flush */
  guint64  lying_flush;        /* [power] lying-flush: a cut also undoes the last N flushed writes */
  guint64  collateral;         /* [power] collateral: a cut also corrupts N sectors after the last write */
} SimPowerModel;

gboolean sim_power_model_from_keyfile (GKeyFile       *kf,
                                       SimPowerModel  *m,
                                       GError        **error);
void     sim_power_print_model        (const SimPowerModel *m);

void     sim_power_start              (const SimPowerModel *m,
                                       int                  backing_fd,
                                       guint64              real_size);
int      sim_power_write              (const char *buf,
                                       size_t      len,
                                       off_t       offset);
void     sim_power_read               (char   *buf,
                                       size_t  len,
                                       off_t   offset);
int      sim_power_flush              (void);
void     sim_power_cut                (void);
void     sim_power_restore            (void);
gboolean sim_power_is_off             (void);
void     sim_power_stats              (GString *s);
