/* cm-plan.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-size.h"

#include "cm-plan.h"

#define MiB (1024 * 1024)
#define GiB (1024ull * MiB)

/* The quick profile's sequential tests: at most this long, once they
 * have moved the floor below, so a verdict comes within a minute on any
 * card from 4 MB/s up (issue 13; tests/perf/quick-time). */
#define QUICK_SEQ_SECONDS 12
#define QUICK_SEQ_FLOOR (32 * MiB)
/* How far the full profile's sustained write goes at most, unless the
 * user says otherwise (cardmark-cli --sustained-limit). */
#define SUSTAINED_LIMIT (8 * GiB)

struct _CmPlan
{
  GObject    parent_instance;

  CmProfile  profile;
  guint64    area_bytes;
  GPtrArray *tests;
};

G_DEFINE_FINAL_TYPE (CmPlan, cm_plan, G_TYPE_OBJECT)

static void
cm_test_spec_free (CmTestSpec *spec)
{
  g_free (spec->name);
  g_free (spec);
}

static void
cm_plan_finalize (GObject *object)
{
  CmPlan *self = (CmPlan *) object;

  g_clear_pointer (&self->tests, g_ptr_array_unref);

  G_OBJECT_CLASS (cm_plan_parent_class)->finalize (object);
}

static void
cm_plan_class_init (CmPlanClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cm_plan_finalize;
}

static void
cm_plan_init (CmPlan *self)
{
  self->tests = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_test_spec_free);
}

CmPlan *
cm_plan_new_empty (CmProfile profile,
                   guint64   area_bytes)
{
  CmPlan *self = g_object_new (CM_TYPE_PLAN, NULL);

  self->profile = profile;
  self->area_bytes = area_bytes;

  return self;
}

/* How long a random test runs: a sweep test a few seconds per size, a
 * 4K test 5 s (full: 20 s). */
static double
timed_seconds (const CmTestKind *kind,
               gboolean          full)
{
  if (kind->amount == CM_AMOUNT_SWEEP)
    return 4;
  return full ? 20 : 5;
}

static void
add_kind (CmPlan           *self,
          const CmTestKind *kind,
          gsize             seq_block)
{
  gboolean full = self->profile == CM_PROFILE_FULL;
  gsize block = kind->block_size > 0 ? kind->block_size : seq_block;

  switch (kind->amount)
    {
    case CM_AMOUNT_AREA:
      cm_plan_add_test (self, kind->name, kind->pattern, kind->direction, block, kind->queue_depth, 0, 0);
      if (!full)
        {
          CmTestSpec *spec = g_ptr_array_index (self->tests, self->tests->len - 1);

          spec->max_seconds = QUICK_SEQ_SECONDS;
          spec->min_bytes = QUICK_SEQ_FLOOR;
        }
      break;
    case CM_AMOUNT_TIMED:
    case CM_AMOUNT_SWEEP:
      cm_plan_add_test (self, kind->name, kind->pattern, kind->direction, block, kind->queue_depth, 0,
                        timed_seconds (kind, full));
      break;
    case CM_AMOUNT_POSITIONS:
      cm_plan_add_test (self, kind->name, kind->pattern, kind->direction, block, kind->queue_depth, 128, 0);
      break;
    case CM_AMOUNT_SUSTAINED:
      /* Until the rate is steady past the card's write cache, at most
       * several GiB; the runner shortens it to 90 % of the free space,
       * or the card's size in raw mode. */
      cm_plan_add_test (self, kind->name, kind->pattern, kind->direction, block, kind->queue_depth,
                        SUSTAINED_LIMIT, 0);
      ((CmTestSpec *) g_ptr_array_index (self->tests, self->tests->len - 1))->sustained = TRUE;
      break;
    default:
      g_assert_not_reached ();
    }
}

/* The standard plan of a profile (docs/methodology.md): the tests of
 * the table (cm-test-table.c) that the profile runs, in its order, the
 * sequential ones in 4 MiB blocks or the card's allocation unit if larger. */
CmPlan *
cm_plan_new (CmProfile profile,
             guint64   au_size_bytes)
{
  gboolean full = profile == CM_PROFILE_FULL;
  CmProfileMask mask = full ? CM_IN_FULL : CM_IN_QUICK;
  gsize seq_block = MAX (4 * MiB, au_size_bytes);
  CmPlan *self = cm_plan_new_empty (profile, full ? GiB : 256 * MiB);

  for (guint i = 0; i < cm_test_table_get_n_kinds (); i++)
    {
      const CmTestKind *kind = cm_test_table_get_kind (i);

      if (kind->profiles & mask)
        add_kind (self, kind, seq_block);
    }

  return self;
}

CmProfile
cm_plan_get_profile (CmPlan *self)
{
  g_return_val_if_fail (CM_IS_PLAN (self), CM_PROFILE_QUICK);

  return self->profile;
}

guint64
cm_plan_get_area_bytes (CmPlan *self)
{
  g_return_val_if_fail (CM_IS_PLAN (self), 0);

  return self->area_bytes;
}

guint
cm_plan_get_n_tests (CmPlan *self)
{
  g_return_val_if_fail (CM_IS_PLAN (self), 0);

  return self->tests->len;
}

const CmTestSpec *
cm_plan_get_test (CmPlan *self,
                  guint   index)
{
  g_return_val_if_fail (CM_IS_PLAN (self), NULL);
  g_return_val_if_fail (index < self->tests->len, NULL);

  return g_ptr_array_index (self->tests, index);
}

const CmTestSpec *
cm_plan_lookup (CmPlan     *self,
                const char *name)
{
  g_return_val_if_fail (CM_IS_PLAN (self), NULL);

  for (guint i = 0; i < self->tests->len; i++)
    {
      const CmTestSpec *spec = g_ptr_array_index (self->tests, i);

      if (g_str_equal (spec->name, name))
        return spec;
    }

  return NULL;
}

void
cm_plan_add_test (CmPlan      *self,
                  const char  *name,
                  CmPattern    pattern,
                  CmDirection  direction,
                  gsize        block_size,
                  guint        queue_depth,
                  guint64      bytes,
                  double       duration_s)
{
  CmTestSpec *spec;

  g_return_if_fail (CM_IS_PLAN (self));
  g_return_if_fail (block_size > 0 && block_size % 4096 == 0);
  g_return_if_fail (queue_depth >= 1);

  spec = g_new0 (CmTestSpec, 1);
  spec->name = g_strdup (name);
  spec->pattern = pattern;
  spec->direction = direction;
  spec->block_size = block_size;
  spec->queue_depth = queue_depth;
  spec->bytes = bytes;
  spec->duration_s = duration_s;
  /* The first second of a time-based test is not counted: it lets the
   * card settle after the previous test (issue: the spine). */
  spec->warmup_s = duration_s > 0 ? MIN (1.0, duration_s / 4) : 0;

  g_ptr_array_add (self->tests, spec);
}

void
cm_plan_remove_writes (CmPlan *self)
{
  g_return_if_fail (CM_IS_PLAN (self));

  for (guint i = self->tests->len; i > 0; i--)
    {
      const CmTestSpec *spec = g_ptr_array_index (self->tests, i - 1);

      if (spec->direction == CM_DIRECTION_WRITE)
        g_ptr_array_remove_index (self->tests, i - 1);
    }
}

void
cm_plan_keep_only (CmPlan             *self,
                   const char * const *names)
{
  g_return_if_fail (CM_IS_PLAN (self));

  for (guint i = self->tests->len; i > 0; i--)
    {
      const CmTestSpec *spec = g_ptr_array_index (self->tests, i - 1);

      if (!g_strv_contains (names, spec->name))
        g_ptr_array_remove_index (self->tests, i - 1);
    }
}

gboolean
cm_plan_has_writes (CmPlan *self)
{
  g_return_val_if_fail (CM_IS_PLAN (self), FALSE);

  for (guint i = 0; i < self->tests->len; i++)
    {
      const CmTestSpec *spec = g_ptr_array_index (self->tests, i);

      if (spec->direction == CM_DIRECTION_WRITE)
        return TRUE;
    }

  return FALSE;
}

/* How far the sustained write may go, or 0 when the plan has none. */
guint64
cm_plan_get_sustained_limit (CmPlan *self)
{
  g_return_val_if_fail (CM_IS_PLAN (self), 0);

  for (guint i = 0; i < self->tests->len; i++)
    {
      const CmTestSpec *spec = g_ptr_array_index (self->tests, i);

      if (spec->sustained)
        return spec->bytes;
    }
  return 0;
}

void
cm_plan_set_sustained_limit (CmPlan  *self,
                             guint64  bytes)
{
  g_return_if_fail (CM_IS_PLAN (self));
  g_return_if_fail (bytes > 0);

  for (guint i = 0; i < self->tests->len; i++)
    {
      CmTestSpec *spec = g_ptr_array_index (self->tests, i);

      if (spec->sustained)
        spec->bytes = bytes;
    }
}

double
cm_plan_estimate_seconds (CmPlan *self,
                          double  seq_mb_per_s)
{
  double seconds = 0;

  g_return_val_if_fail (CM_IS_PLAN (self), 0);

  seq_mb_per_s = MAX (seq_mb_per_s, 1);
  for (guint i = 0; i < self->tests->len; i++)
    {
      const CmTestSpec *spec = g_ptr_array_index (self->tests, i);

      if (spec->duration_s > 0)
        seconds += spec->duration_s;
      else if (spec->max_seconds > 0)
        seconds += MIN ((spec->bytes ? spec->bytes : self->area_bytes) / (seq_mb_per_s * 1e6),
                        MAX (spec->max_seconds, spec->min_bytes / (seq_mb_per_s * 1e6)));
      else if (spec->pattern == CM_PATTERN_SURFACE)
        seconds += spec->bytes * spec->block_size / (seq_mb_per_s * 1e6);
      else
        seconds += (spec->bytes ? spec->bytes : self->area_bytes) / (seq_mb_per_s * 1e6);
    }

  return seconds;
}

/* A size as people write it: "2GiB", "500MB", "4G" (binary without a B),
 * or bytes. FALSE for anything else, zero included. */
gboolean
cm_plan_parse_size (const char *text,
                    guint64    *bytes)
{
  g_return_val_if_fail (bytes != NULL, FALSE);

  /* The one syntax of every size option (cm-size.c). */
  return cm_size_parse (text, NULL, 1, bytes, NULL);
}

const char *
cm_profile_to_string (CmProfile profile)
{
  switch (profile)
    {
    case CM_PROFILE_QUICK:
      return "quick";
    case CM_PROFILE_FULL:
      return "full";
    default:
      g_return_val_if_reached ("quick");
    }
}

/* A benchmark of the profile as people say it: "Quick benchmark". */
const char *
cm_profile_get_title (CmProfile profile)
{
  switch (profile)
    {
    case CM_PROFILE_QUICK:
      return _("Quick benchmark");
    case CM_PROFILE_FULL:
      return _("Full benchmark");
    default:
      g_return_val_if_reached (NULL);
    }
}

gboolean
cm_profile_from_string (const char *str,
                        CmProfile  *profile)
{
  if (g_strcmp0 (str, "quick") == 0)
    *profile = CM_PROFILE_QUICK;
  else if (g_strcmp0 (str, "full") == 0)
    *profile = CM_PROFILE_FULL;
  else
    return FALSE;

  return TRUE;
}
