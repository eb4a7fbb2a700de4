/* cm-plan.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "cm-test-table.h"

G_BEGIN_DECLS

typedef enum
{
  CM_PROFILE_QUICK,
  CM_PROFILE_FULL,
} CmProfile;

/* One test of a plan. Sequential tests move @bytes (0: the whole test
 * area), or stop after @max_seconds once they have moved @min_bytes
 * (the quick profile: a slow card does not wait longer); random tests
 * run for @duration_s, of which the first @warmup_s are not counted.
 * The @sustained write stops earlier when its rate has been steady for
 * a while after the last change (cm_engine_run_test()). */
typedef struct
{
  char        *name;
  CmPattern    pattern;
  CmDirection  direction;
  gsize        block_size;
  guint        queue_depth;
  guint64      bytes;
  double       duration_s;
  double       warmup_s;
  gboolean     sustained;
  double       max_seconds;
  guint64      min_bytes;
} CmTestSpec;

#define CM_TYPE_PLAN (cm_plan_get_type ())

G_DECLARE_FINAL_TYPE (CmPlan, cm_plan, CM, PLAN, GObject)

CmPlan           *cm_plan_new              (CmProfile    profile,
                                            guint64      au_size_bytes) G_GNUC_WARN_UNUSED_RESULT;
CmPlan           *cm_plan_new_empty        (CmProfile    profile,
                                            guint64      area_bytes) G_GNUC_WARN_UNUSED_RESULT;
CmProfile         cm_plan_get_profile      (CmPlan      *self);
guint64           cm_plan_get_area_bytes   (CmPlan      *self);
guint             cm_plan_get_n_tests      (CmPlan      *self);
const CmTestSpec *cm_plan_get_test         (CmPlan      *self,
                                            guint        index);
const CmTestSpec *cm_plan_lookup           (CmPlan      *self,
                                            const char  *name);
void              cm_plan_add_test         (CmPlan      *self,
                                            const char  *name,
                                            CmPattern    pattern,
                                            CmDirection  direction,
                                            gsize        block_size,
                                            guint        queue_depth,
                                            guint64      bytes,
                                            double       duration_s);
void              cm_plan_remove_writes    (CmPlan      *self);
void              cm_plan_keep_only        (CmPlan      *self,
                                            const char * const *names);
gboolean          cm_plan_has_writes       (CmPlan      *self);
guint64           cm_plan_get_sustained_limit (CmPlan   *self);
void              cm_plan_set_sustained_limit (CmPlan   *self,
                                               guint64   bytes);
double            cm_plan_estimate_seconds (CmPlan      *self,
                                            double       seq_mb_per_s);


gboolean          cm_plan_parse_size       (const char  *text,
                                            guint64     *bytes);

const char       *cm_profile_to_string     (CmProfile    profile);
const char       *cm_profile_get_title     (CmProfile    profile);
gboolean          cm_profile_from_string   (const char  *str,
                                            CmProfile   *profile);

G_END_DECLS
