/* cm-endurance.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A wear test's findings: its rounds, the thresholds read from them (the
 * round in which data was first lost, and in which 0.1 %, 1 %, 10 %,
 * 25 % and 50 % of the card came back wrong, as Mikaey's Flash Stress
 * Test counts them) and the sentence that says it.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-endurance.h"

G_DEFINE_QUARK (cm-endurance-error-quark, cm_endurance_error)

static const double shares[CM_ENDURANCE_N_THRESHOLDS] = { 0, 0.001, 0.01, 0.10, 0.25, 0.50 };

CmEndurance *
cm_endurance_new (void)
{
  CmEndurance *e = g_new0 (CmEndurance, 1);

  e->rounds = g_array_new (FALSE, FALSE, sizeof (CmWearRound));
  return e;
}

CmEndurance *
cm_endurance_copy (const CmEndurance *endurance)
{
  CmEndurance *copy;

  g_return_val_if_fail (endurance != NULL, NULL);

  copy = g_new0 (CmEndurance, 1);
  copy->rounds = g_array_copy (endurance->rounds);
  copy->stopped = g_strdup (endurance->stopped);
  copy->maker_bytes = endurance->maker_bytes;
  copy->shared_bus_with = g_strdupv (endurance->shared_bus_with);
  return copy;
}

void
cm_endurance_free (CmEndurance *endurance)
{
  if (endurance == NULL)
    return;
  g_clear_pointer (&endurance->rounds, g_array_unref);
  g_free (endurance->stopped);
  g_strfreev (endurance->shared_bus_with);
  g_free (endurance);
}

/* The share of bad sectors threshold @index stands for; 0 is the first
 * error (any bad sector). */
double
cm_endurance_threshold_share (guint index)
{
  g_return_val_if_fail (index < CM_ENDURANCE_N_THRESHOLDS, 0);

  return shares[index];
}

/**
 * cm_endurance_get_threshold:
 * @index: 0 for the first error, then 0.1 %, 1 %, 10 %, 25 %, 50 %
 * @round: (out) (optional): the first round that reached it
 * @bytes_written: (out) (optional): bytes written by the end of that round
 *
 * Returns: %TRUE when a round reached the threshold
 */
gboolean
cm_endurance_get_threshold (const CmEndurance *endurance,
                            guint              index,
                            guint             *round,
                            guint64           *bytes_written)
{
  g_return_val_if_fail (endurance != NULL, FALSE);
  g_return_val_if_fail (index < CM_ENDURANCE_N_THRESHOLDS, FALSE);

  for (guint i = 0; i < endurance->rounds->len; i++)
    {
      const CmWearRound *r = &g_array_index (endurance->rounds, CmWearRound, i);
      gboolean reached = index == 0 ? r->bad_sectors > 0
                                    : r->sectors > 0 && r->bad_sectors >= shares[index] * r->sectors;

      if (reached)
        {
          if (round != NULL)
            *round = r->round;
          if (bytes_written != NULL)
            *bytes_written = r->bytes_written;
          return TRUE;
        }
    }
  return FALSE;
}

/* The round in which data was first lost, 0 while none was. */
guint
cm_endurance_get_first_error_round (const CmEndurance *endurance)
{
  guint round = 0;

  g_return_val_if_fail (endurance != NULL, 0);

  cm_endurance_get_threshold (endurance, 0, &round, NULL);
  return round;
}

gboolean
cm_endurance_lost_data (const CmEndurance *endurance)
{
  g_return_val_if_fail (endurance != NULL, FALSE);

  return cm_endurance_get_first_error_round (endurance) > 0;
}

/* The sentence that sets the measured bytes beside the maker's. */
static char *
beside_maker (const CmEndurance *endurance,
              gboolean           lost,
              guint64            bytes)
{
  g_autofree char *maker = NULL;
  double share;

  if (endurance->maker_bytes == 0)
    return g_strdup ("");
  maker = g_format_size (endurance->maker_bytes);
  share = 100.0 * bytes / endurance->maker_bytes;
  /* Never "0.0 % of it": a share too small to show says so. */
  if (share < 0.05 && lost)
    return g_strdup_printf (_(" The maker states %s written: data was first lost at less than 0.1 %% of it."), maker);
  if (share < 0.05)
    return g_strdup_printf (_(" The maker states %s written: no data lost by less than 0.1 %% of it."), maker);
  if (lost)
    return g_strdup_printf (_(" The maker states %s written: data was first lost at %.1f %% of it."),
                            maker, 100.0 * bytes / endurance->maker_bytes);
  return g_strdup_printf (_(" The maker states %s written: no data lost by %.1f %% of it."),
                          maker, 100.0 * bytes / endurance->maker_bytes);
}

static char *
describe (const CmEndurance *endurance);

char *
cm_endurance_describe (const CmEndurance *endurance)
{
  g_autofree char *text = NULL;
  g_autofree char *maker = NULL;
  guint64 first_bytes = 0;
  gboolean lost;

  g_return_val_if_fail (endurance != NULL, NULL);

  text = describe (endurance);
  if (endurance->rounds->len == 0)
    return g_steal_pointer (&text);
  lost = cm_endurance_get_threshold (endurance, 0, NULL, &first_bytes);
  if (!lost)
    first_bytes = g_array_index (endurance->rounds, CmWearRound, endurance->rounds->len - 1).bytes_written;
  maker = beside_maker (endurance, lost, first_bytes);
  return g_strconcat (text, maker, NULL);
}

static char *
describe (const CmEndurance *endurance)
{
  const CmWearRound *last;
  g_autofree char *total = NULL;
  g_autofree char *by_then = NULL;
  guint first = 0, worst;
  guint64 first_bytes = 0;
  double share;

  g_return_val_if_fail (endurance != NULL, NULL);

  if (endurance->rounds->len == 0)
    return g_strdup (_("No round of the wear test was finished, so there is nothing to judge yet."));

  last = &g_array_index (endurance->rounds, CmWearRound, endurance->rounds->len - 1);
  total = g_format_size (last->bytes_written);
  if (!cm_endurance_get_threshold (endurance, 0, &first, &first_bytes) &&
      (g_strcmp0 (endurance->stopped, "cancelled") == 0 || g_strcmp0 (endurance->stopped, "card-gone") == 0))
    /* A stop is no pass: what it found so far, not that it lasted. */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Stopped after %u round, %s written: no data lost so far.",
                                         "Stopped after %u rounds, %s written: no data lost so far.",
                                         last->round),
                            last->round, total);
  if (!cm_endurance_get_threshold (endurance, 0, &first, &first_bytes))
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Every round came back whole: %u round, %s written.",
                                         "Every round came back whole: %u rounds, %s written.",
                                         last->round),
                            last->round, total);

  by_then = g_format_size (first_bytes);
  share = last->sectors > 0 ? 100.0 * last->bad_sectors / last->sectors : 0;
  worst = 0;
  for (guint i = 1; i < CM_ENDURANCE_N_THRESHOLDS; i++)
    if (cm_endurance_get_threshold (endurance, i, NULL, NULL))
      worst = i;
  if (worst == CM_ENDURANCE_N_THRESHOLDS - 1)
    return g_strdup_printf (_("First data lost in round %u, after %s written; by round %u half the card came back wrong (%.1f %% in the last round, %s written in all). "
                              "This card is worn out: don't keep anything on it."),
                            first, by_then, last->round, share, total);
  return g_strdup_printf (_("First data lost in round %u, after %s written; in round %u, the last, %.2f %% of the card came back wrong (%s written in all). "
                            "Don't trust this card with anything you can't lose."),
                          first, by_then, last->round, share, total);
}

/* The maker's endurance in bytes written, from what the user gives (the
 * CLI's --tbw, --video-hours and --video-mbps, the app's form): @tbw TB
 * (10^12 bytes) written, or @video_hours of video at the @video_mbps the
 * maker states (10^6 bits a second, 8 bits a byte). A figure of 0 is not
 * given; none given is a @maker_bytes of 0. Out of range, or given half
 * or twice: FALSE with @error, nothing set. */
gboolean
cm_endurance_maker_bytes_from (double   tbw,
                               double   video_hours,
                               double   video_mbps,
                               guint64 *maker_bytes,
                               GError **error)
{
  g_return_val_if_fail (maker_bytes != NULL, FALSE);

  if (tbw < 0 || !(tbw < 1e6))
    {
      g_set_error_literal (error, CM_ENDURANCE_ERROR, CM_ENDURANCE_ERROR_TBW,
                           _("The maker's endurance in TB written must be a number above 0 and below 1000000."));
      return FALSE;
    }
  if (video_hours < 0 || !(video_hours < 1e7) || video_mbps < 0 || !(video_mbps < 1e5))
    {
      g_set_error_literal (error, CM_ENDURANCE_ERROR, CM_ENDURANCE_ERROR_VIDEO,
                           _("The hours of video must be a number above 0 and below 10000000, "
                             "and the bitrate in Mbit/s above 0 and below 100000."));
      return FALSE;
    }
  if ((video_hours > 0) != (video_mbps > 0))
    {
      g_set_error_literal (error, CM_ENDURANCE_ERROR, CM_ENDURANCE_ERROR_VIDEO_PAIR,
                           _("Hours of video need the bitrate the maker states for them, in Mbit/s, and the other way round."));
      return FALSE;
    }
  if (tbw > 0 && video_hours > 0)
    {
      g_set_error_literal (error, CM_ENDURANCE_ERROR, CM_ENDURANCE_ERROR_TWICE,
                           _("Give the maker's endurance once: TB written, or hours of video with their bitrate."));
      return FALSE;
    }
  if (tbw > 0)
    *maker_bytes = (guint64) (tbw * 1e12 + 0.5);
  else
    *maker_bytes = (guint64) (video_hours * 3600 * video_mbps * 1e6 / 8 + 0.5);
  return TRUE;
}

guint64
cm_endurance_mark_bad (guint8  *ever_bad,
                       guint64  first,
                       guint64  n)
{
  guint64 fresh = 0;

  g_return_val_if_fail (ever_bad != NULL || n == 0, 0);

  for (guint64 s = first; s < first + n; s++)
    {
      guint8 bit = 1u << (s % 8);

      if (!(ever_bad[s / 8] & bit))
        {
          ever_bad[s / 8] |= bit;
          fresh++;
        }
    }
  return fresh;
}

/* The write amplification of the round at @index (flash bytes ÷ what
 * that round wrote); FALSE where the card did not tell its flash bytes. */
gboolean
cm_endurance_get_round_write_amplification (const CmEndurance *e,
                                            guint              index,
                                            double            *wa)
{
  const CmWearRound *r;
  guint64 before, wrote;

  g_return_val_if_fail (e != NULL && index < e->rounds->len, FALSE);

  r = &g_array_index (e->rounds, CmWearRound, index);
  before = index > 0 ? g_array_index (e->rounds, CmWearRound, index - 1).bytes_written : 0;
  wrote = r->bytes_written > before ? r->bytes_written - before : 0;
  if (!r->flash_known || wrote == 0)
    return FALSE;
  *wa = (double) r->flash_bytes_written / wrote;
  return TRUE;
}

/* The lowest and highest write amplification of the rounds whose flash
 * bytes the card told; FALSE when the card told none, so it is not known. */
gboolean
cm_endurance_get_write_amplification (const CmEndurance *e,
                                      double            *lo,
                                      double            *hi)
{
  gboolean known = FALSE;
  double wa;

  *lo = G_MAXDOUBLE;
  *hi = 0;
  for (guint i = 0; i < e->rounds->len; i++)
    if (cm_endurance_get_round_write_amplification (e, i, &wa))
      {
        *lo = MIN (*lo, wa);
        *hi = MAX (*hi, wa);
        known = TRUE;
      }
  return known;
}
