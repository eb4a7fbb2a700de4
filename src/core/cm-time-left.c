/* cm-time-left.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run's time left, test by test, from what each will really do: a
 * timed test by its time, a sized test by the bytes it will move at the
 * rate its direction has shown so far (or the guess before any has),
 * the sustained write by the limit the runner resolved for it (and,
 * where it reads each chunk first to put it back, a read of it too);
 * the running test by the time it has taken on the clock. What is
 * learned while a test runs is its own average rate, never one noisy
 * sample, so the estimate grows only when the card proves slower than
 * expected, and only by what that slower rate costs.
 */

#include "config.h"

#include "cm-time-left.h"

typedef struct
{
  const CmTestSpec *spec;
  guint64           bytes;
  gboolean          reads_first; /* each chunk is read before it is written */
} Entry;

struct _CmTimeLeft
{
  GObject  parent_instance;

  GArray  *entries;
  /* Indexed by CmDirection: the average rate of the last sized test of
   * that direction, in MB/s. */
  double   rate[2];
};

G_DEFINE_FINAL_TYPE (CmTimeLeft, cm_time_left, G_TYPE_OBJECT)

static void
cm_time_left_finalize (GObject *object)
{
  CmTimeLeft *self = (CmTimeLeft *) object;

  g_clear_pointer (&self->entries, g_array_unref);

  G_OBJECT_CLASS (cm_time_left_parent_class)->finalize (object);
}

static void
cm_time_left_class_init (CmTimeLeftClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cm_time_left_finalize;
}

static void
cm_time_left_init (CmTimeLeft *self)
{
  self->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  self->rate[CM_DIRECTION_READ] = CM_TIME_LEFT_GUESS_MB_PER_S;
  self->rate[CM_DIRECTION_WRITE] = CM_TIME_LEFT_GUESS_MB_PER_S;
}

CmTimeLeft *
cm_time_left_new (void)
{
  return g_object_new (CM_TYPE_TIME_LEFT, NULL);
}

/* Appends the next test of the run; @bytes is what it will move at most
 * (ignored for a timed test). */
void
cm_time_left_add_test (CmTimeLeft       *self,
                       const CmTestSpec *spec,
                       guint64           bytes)
{
  Entry entry = { spec, bytes, FALSE };

  g_return_if_fail (CM_IS_TIME_LEFT (self));
  g_return_if_fail (spec != NULL);

  g_array_append_val (self->entries, entry);
}

/* A test's size changed before it ran (the quick profile's tests after
 * a time-bounded one use only what it covered). */
void
cm_time_left_set_bytes (CmTimeLeft *self,
                        guint       index,
                        guint64     bytes)
{
  g_return_if_fail (CM_IS_TIME_LEFT (self));
  g_return_if_fail (index < self->entries->len);

  g_array_index (self->entries, Entry, index).bytes = bytes;
}

/* The test at @index reads each chunk before it writes it back (the raw
 * sustained write, which puts the card's bytes back): it costs a read
 * of its bytes as well. */
void
cm_time_left_set_reads_first (CmTimeLeft *self,
                              guint       index)
{
  g_return_if_fail (CM_IS_TIME_LEFT (self));
  g_return_if_fail (index < self->entries->len);

  g_array_index (self->entries, Entry, index).reads_first = TRUE;
}

double
cm_time_left_get_rate (CmTimeLeft  *self,
                       CmDirection  direction)
{
  g_return_val_if_fail (CM_IS_TIME_LEFT (self), 0);
  g_return_val_if_fail (direction <= CM_DIRECTION_WRITE, 0);

  return self->rate[direction];
}

static gboolean
is_timed (const Entry *entry)
{
  return entry->spec->duration_s > 0;
}

/* Whether a test's rate says how fast its direction's other sized tests
 * will go: random tests move small blocks and say nothing of that. */
static gboolean
teaches_rate (const Entry *entry)
{
  return !is_timed (entry) && entry->spec->pattern != CM_PATTERN_RANDOM;
}

/* How long a test that has not started will take. */
static double
expected_seconds (CmTimeLeft  *self,
                  const Entry *entry)
{
  const CmTestSpec *spec = entry->spec;
  double rate = self->rate[spec->direction] * 1e6;

  if (is_timed (entry))
    return spec->duration_s;
  if (spec->max_seconds > 0)
    return MIN (entry->bytes / rate, MAX (spec->max_seconds, spec->min_bytes / rate));
  if (entry->reads_first)
    return entry->bytes / rate + entry->bytes / (self->rate[CM_DIRECTION_READ] * 1e6);
  return entry->bytes / rate;
}

/* How long the running test still takes: a timed one by its time; a
 * sized one, once it has moved a little, at its own average rate, and
 * the time-bounded ones no longer than their bound. */
static double
running_seconds_left (CmTimeLeft  *self,
                      const Entry *entry,
                      double       fraction,
                      double       elapsed)
{
  const CmTestSpec *spec = entry->spec;
  double left;

  if (is_timed (entry))
    return spec->duration_s * (1 - fraction);
  if (fraction <= 0.01 || elapsed <= 0)
    return expected_seconds (self, entry);

  left = elapsed / fraction - elapsed;
  if (spec->max_seconds > 0)
    left = MIN (left, spec->max_seconds - elapsed);
  return left;
}

/* Learns the running test's average rate for the tests after it. */
static void
learn (CmTimeLeft  *self,
       const Entry *entry,
       double       elapsed,
       guint64      done_bytes)
{
  if (!teaches_rate (entry) || entry->reads_first || elapsed <= 0 || done_bytes == 0)
    return;

  self->rate[entry->spec->direction] = done_bytes / elapsed / 1e6;
}

/* The test at @index has done @fraction of its work, @done_bytes, in
 * @elapsed seconds: returns the run's time left. */
double
cm_time_left_update (CmTimeLeft *self,
                     guint       index,
                     double      fraction,
                     double      elapsed,
                     guint64     done_bytes)
{
  const Entry *entry;
  double left;

  g_return_val_if_fail (CM_IS_TIME_LEFT (self), 0);
  g_return_val_if_fail (index < self->entries->len, 0);

  entry = &g_array_index (self->entries, Entry, index);
  learn (self, entry, elapsed, done_bytes);

  left = running_seconds_left (self, entry, fraction, elapsed);
  for (guint i = index + 1; i < self->entries->len; i++)
    left += expected_seconds (self, &g_array_index (self->entries, Entry, i));

  return MAX (left, 0);
}
