/* cm-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The few places where the app reaches into the core: the device list,
 * opening a target, the plan and the verdict. Kept in one small file so
 * that the widgets stay independent of how the core grows.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#ifdef HAVE_CM_VERDICT
# include "cm-verdict.h"
#endif

#include "cm-backend.h"

GListModel *
cm_backend_dup_devices (GError **error)
{
  /* Until the UDisks device monitor lands the list is empty; the window
   * still offers this computer's storage and a folder. */
  return G_LIST_MODEL (g_list_store_new (CM_TYPE_CARD_ITEM));
}

/* CARDMARK_TEST_PLAN lets the widget tests run a plan of a few
 * megabytes ("tiny") or one that runs until cancelled ("slow"). */
CmPlan *
cm_backend_new_plan (CmProfile   profile,
                     CmCardItem *item)
{
  const char *test_plan = g_getenv ("CARDMARK_TEST_PLAN");
  CmCardInfo *info = item != NULL ? cm_card_item_get_card_info (item) : NULL;
  CmPlan *plan;

  if (g_strcmp0 (test_plan, "tiny") == 0 || g_strcmp0 (test_plan, "slow") == 0)
    {
      gboolean slow = g_str_equal (test_plan, "slow");

      plan = cm_plan_new_empty (profile, 8 * 1024 * 1024);
      cm_plan_add_test (plan, "seq-write", CM_PATTERN_SEQUENTIAL, CM_DIRECTION_WRITE, 1 << 20, 1, 0, 0);
      cm_plan_add_test (plan, "seq-read", CM_PATTERN_SEQUENTIAL, CM_DIRECTION_READ, 1 << 20, 1, 0, 0);
      cm_plan_add_test (plan, "rand-read-4k", CM_PATTERN_RANDOM, CM_DIRECTION_READ, 4096, 1, 0,
                        slow ? 60 : 0.5);
      return plan;
    }

  return cm_plan_new (profile, info != NULL ? cm_card_info_get_au_size_bytes (info) : 0);
}

static void
open_target_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  const char *path = g_object_get_data (G_OBJECT (task), "path");
  gboolean writable = GPOINTER_TO_INT (task_data);
  GError *error = NULL;
  CmTarget *target = cm_target_new_for_path (path, writable, &error);

  if (target == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, target, g_object_unref);
}

void
cm_backend_open_target_async (CmCardItem          *item,
                              CmMethod             method,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  const char *path;

  g_return_if_fail (CM_IS_CARD_ITEM (item));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, cm_backend_open_target_async);
  g_task_set_task_data (task, GINT_TO_POINTER (method == CM_METHOD_RAW_WRITE), NULL);

  if (method == CM_METHOD_FILE)
    path = cm_card_item_get_file_folder (item);
  else
    path = cm_card_item_get_device (item);

  if (path == NULL)
    {
      g_task_return_new_error (task, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                               method == CM_METHOD_FILE
                               ? _("The card is not mounted, so there is no folder for a safe test. Mount it in Files, or choose a raw test.")
                               : _("This is a folder, not a card, so it can only be tested with the safe method."));
      return;
    }

  /* Raw devices are opened directly for now, which needs permission to
   * the device; UDisks will open them on the user's behalf once the
   * device monitor provides it. */
  g_object_set_data_full (G_OBJECT (task), "path", g_strdup (path), g_free);
  g_task_run_in_thread (task, open_target_thread);
}

CmTarget *
cm_backend_open_target_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
cm_backend_judge (CmResult           *result,
                  const char * const *claims)
{
#ifdef HAVE_CM_VERDICT
  cm_verdict_judge (result, claims, "label");
#else
  cm_result_clear_claims (result);
  for (guint i = 0; claims != NULL && claims[i] != NULL; i++)
    {
      CmClaim *claim = cm_claim_new (claims[i]);

      claim->status = CM_STATUS_NOT_JUDGED;
      claim->reason = g_strdup (_("This build cannot judge classes yet."));
      cm_result_take_claim (result, claim);
    }
#endif
}

const char * const *
cm_backend_get_classes (void)
{
  static const char * const classes[] = {
    "C10", "U1", "U3", "V10", "V30", "V60", "V90", "A1", "A2", NULL
  };

  return classes;
}

/* A test's name as people say it. */
const char *
cm_backend_describe_test (const char *name)
{
  static const struct { const char *name; const char *label; } labels[] = {
    { "seq-write", N_("Sequential write") },
    { "seq-read", N_("Sequential read") },
    { "rand-write-4k", N_("Random 4K write") },
    { "rand-read-4k", N_("Random 4K read") },
    { "rand-write-4k-qd32", N_("Random 4K write, 32 at once") },
    { "rand-read-4k-qd32", N_("Random 4K read, 32 at once") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    if (g_strcmp0 (labels[i].name, name) == 0)
      return _(labels[i].label);

  return name;
}
