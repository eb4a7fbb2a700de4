/* cm-plan.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-plan.h"

#define MiB (1024 * 1024)
#define GiB (1024ull * MiB)

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

/* The standard plan of a profile (DESIGN.md § Measurements): sequential
 * write and read in 4 MiB blocks or the card's allocation unit if larger,
 * then 4K random write and read at queue depth 1 and 32. */
CmPlan *
cm_plan_new (CmProfile profile,
             guint64   au_size_bytes)
{
  gboolean full = profile == CM_PROFILE_FULL;
  double random_s = full ? 20 : 5;
  gsize seq_block = MAX (4 * MiB, au_size_bytes);
  CmPlan *self = cm_plan_new_empty (profile, full ? GiB : 256 * MiB);

  cm_plan_add_test (self, "seq-write", CM_PATTERN_SEQUENTIAL, CM_DIRECTION_WRITE, seq_block, 1, 0, 0);
  cm_plan_add_test (self, "seq-read", CM_PATTERN_SEQUENTIAL, CM_DIRECTION_READ, seq_block, 1, 0, 0);
  cm_plan_add_test (self, "rand-write-4k", CM_PATTERN_RANDOM, CM_DIRECTION_WRITE, 4096, 1, 0, random_s);
  cm_plan_add_test (self, "rand-read-4k", CM_PATTERN_RANDOM, CM_DIRECTION_READ, 4096, 1, 0, random_s);
  cm_plan_add_test (self, "rand-write-4k-qd32", CM_PATTERN_RANDOM, CM_DIRECTION_WRITE, 4096, 32, 0, random_s);
  cm_plan_add_test (self, "rand-read-4k-qd32", CM_PATTERN_RANDOM, CM_DIRECTION_READ, 4096, 32, 0, random_s);

  if (full)
    {
      /* The block-size sweep of the iozone-based card comparisons. */
      static const gsize sweep[] = { 4096, 64 * 1024, 512 * 1024, 4 * MiB, 16 * MiB };

      for (guint i = 0; i < G_N_ELEMENTS (sweep); i++)
        {
          g_autofree char *size = sweep[i] >= MiB ? g_strdup_printf ("%" G_GSIZE_FORMAT "m", sweep[i] / MiB)
                                                  : g_strdup_printf ("%" G_GSIZE_FORMAT "k", sweep[i] / 1024);
          g_autofree char *write = g_strconcat ("sweep-write-", size, NULL);
          g_autofree char *read = g_strconcat ("sweep-read-", size, NULL);

          cm_plan_add_test (self, write, CM_PATTERN_RANDOM, CM_DIRECTION_WRITE, sweep[i], 1, 0, 4);
          cm_plan_add_test (self, read, CM_PATTERN_RANDOM, CM_DIRECTION_READ, sweep[i], 1, 0, 4);
        }

      /* Raw read mode only: file mode has no positions to speak of. */
      cm_plan_add_test (self, "surface-read", CM_PATTERN_SURFACE, CM_DIRECTION_READ, 4 * MiB, 1, 128, 0);

      /* Several GiB, so the card's write cache runs out; the runner
       * shortens it to 90 % of the free space. */
      cm_plan_add_test (self, "seq-write-sustained", CM_PATTERN_SEQUENTIAL, CM_DIRECTION_WRITE,
                        seq_block, 1, 8 * GiB, 0);
      ((CmTestSpec *) g_ptr_array_index (self->tests, self->tests->len - 1))->sustained = TRUE;
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

void
cm_plan_set_area_bytes (CmPlan  *self,
                        guint64  area_bytes)
{
  g_return_if_fail (CM_IS_PLAN (self));

  self->area_bytes = area_bytes;
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

/* Raw write mode writes back what it read, so the sequential read must
 * come first: it fills the buffer that every later write takes its bytes
 * from. */
void
cm_plan_reads_first (CmPlan *self)
{
  g_return_if_fail (CM_IS_PLAN (self));

  for (guint i = 0; i < self->tests->len; i++)
    {
      CmTestSpec *spec = g_ptr_array_index (self->tests, i);

      if (spec->pattern == CM_PATTERN_SEQUENTIAL && spec->direction == CM_DIRECTION_READ)
        {
          g_ptr_array_steal_index (self->tests, i);
          g_ptr_array_insert (self->tests, 0, spec);
          return;
        }
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
      else if (spec->pattern == CM_PATTERN_SURFACE)
        seconds += spec->bytes * spec->block_size / (seq_mb_per_s * 1e6);
      else
        seconds += (spec->bytes ? spec->bytes : self->area_bytes) / (seq_mb_per_s * 1e6);
    }

  return seconds;
}

/* The block size at the end of a sweep test's name, as people write it:
 * "64K" for sweep-read-64k. NULL when @name is not @prefix and a size. */
static char *
dup_sweep_size (const char *name,
                const char *prefix)
{
  const char *size;
  gsize digits;

  if (!g_str_has_prefix (name, prefix))
    return NULL;

  size = name + strlen (prefix);
  digits = strspn (size, "0123456789");
  if (digits == 0 || (size[digits] != 'k' && size[digits] != 'm') || size[digits + 1] != '\0')
    return NULL;

  return g_ascii_strup (size, -1);
}

/* One format per direction rather than ten labels: the sizes are not
 * words to translate, and a new size needs no new string. */
static char *
dup_sweep_label (const char *name)
{
  g_autofree char *size = NULL;

  if ((size = dup_sweep_size (name, "sweep-read-")) != NULL)
    /* Translators: a block-size test, "Random read, 64K blocks"; %s is 4K, 64K, 512K, 4M or 16M */
    return g_strdup_printf (_("Random read, %s blocks"), size);

  if ((size = dup_sweep_size (name, "sweep-write-")) != NULL)
    /* Translators: a block-size test, "Random write, 64K blocks"; %s is 4K, 64K, 512K, 4M or 16M */
    return g_strdup_printf (_("Random write, %s blocks"), size);

  return NULL;
}

/* A test's name as people say it, translated: what the app shows while a
 * test runs and in a result's table. seq-write-sustained and surface-read
 * take the words of the charts that show them. A name it does not know
 * (a result from a newer CardMark) comes back as it is. The CLI keeps the
 * names themselves: they are what --only takes. */
const char *
cm_plan_describe_test (const char *name)
{
  static const struct { const char *name; const char *label; } labels[] = {
    { "seq-write", N_("Sequential write") },
    { "seq-read", N_("Sequential read") },
    { "rand-write-4k", N_("Random 4K write") },
    { "rand-read-4k", N_("Random 4K read") },
    { "rand-write-4k-qd32", N_("Random 4K write, 32 at once") },
    { "rand-read-4k-qd32", N_("Random 4K read, 32 at once") },
    { "seq-write-sustained", N_("Long sustained write") },
    { "surface-read", N_("Read speed across the card") },
  };
  g_autofree char *sweep = NULL;

  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    if (g_str_equal (labels[i].name, name))
      return _(labels[i].label);

  /* Interned, so that a sweep label lives as long as a translation does;
   * there are ten for each language. */
  sweep = dup_sweep_label (name);
  if (sweep != NULL)
    return g_intern_string (sweep);

  return name;
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
