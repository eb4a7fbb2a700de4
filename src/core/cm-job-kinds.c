/* cm-job-kinds.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table of card job kinds. A new kind is its file (cm-job-NAME.c,
 * which defines `const CmJobKind cm_job_kind_NAME`, see cm-job-kinds.h)
 * and its line here; the job and both faces name it by pointer, the
 * history and the CLI's text find it here by its name.
 */

#include "config.h"

#include "cm-card-info.h"
#include "cm-job-kinds.h"

static const CmJobKind * const builtin[] = {
  &cm_job_kind_bench,
  &cm_job_kind_capacity,
  &cm_job_kind_verify,
  &cm_job_kind_wear,
  &cm_job_kind_restore,
  &cm_job_kind_format,
  &cm_job_kind_health,
  &cm_job_kind_power,
  &cm_job_kind_queue,
};

/* Kinds the tests add, as the test table's own new-kind test does. */
static GPtrArray *added;

const CmJobKind *
cm_job_kinds_lookup (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (builtin); i++)
    if (g_str_equal (builtin[i]->name, name))
      return builtin[i];
  for (guint i = 0; added != NULL && i < added->len; i++)
    {
      const CmJobKind *kind = g_ptr_array_index (added, i);

      if (g_str_equal (kind->name, name))
        return kind;
    }
  return NULL;
}

const char * const *
cm_job_kinds_list_names (void)
{
  static GPtrArray *names;

  if (names == NULL)
    names = g_ptr_array_new ();
  g_ptr_array_set_size (names, 0);
  for (guint i = 0; i < G_N_ELEMENTS (builtin); i++)
    g_ptr_array_add (names, (gpointer) builtin[i]->name);
  for (guint i = 0; added != NULL && i < added->len; i++)
    g_ptr_array_add (names, (gpointer) ((const CmJobKind *) g_ptr_array_index (added, i))->name);
  g_ptr_array_add (names, NULL);
  return (const char * const *) names->pdata;
}

void
cm_job_kinds_add_for_testing (const CmJobKind *kind)
{
  g_return_if_fail (kind != NULL && kind->name != NULL && kind->run != NULL);
  g_return_if_fail (cm_job_kinds_lookup (kind->name) == NULL);

  if (added == NULL)
    added = g_ptr_array_new ();
  g_ptr_array_add (added, (gpointer) kind);
}

/* The row of @result's kind, or NULL (a document of a newer CardMark). */
static const CmJobKind *
lookup_for_result (CmResult *result)
{
  const char *kind = cm_result_get_kind (result);

  return kind != NULL ? cm_job_kinds_lookup (kind) : NULL;
}

/**
 * cm_job_kind_measures_speed:
 * @kind: (nullable): a document's kind
 *
 * Whether the kind's tests are speed tests, charted and judged on the
 * card's classes (a benchmark); a document without a kind is one.
 */
gboolean
cm_job_kind_measures_speed (const char *kind)
{
  const CmJobKind *row = kind != NULL ? cm_job_kinds_lookup (kind) : NULL;

  return kind == NULL || (row != NULL && row->measures_speed);
}

/**
 * cm_job_kind_left_card_erased:
 * @result: a document
 *
 * Whether the run it tells of left a whole card with its data destroyed
 * (a full verify of a device, a wear test), so that the card wants a
 * partition and a file system again. A raw benchmark puts back what it
 * overwrote, a capacity check too: they leave the card as it was.
 */
gboolean
cm_job_kind_left_card_erased (CmResult *result)
{
  const CmJobKind *row;

  g_return_val_if_fail (CM_IS_RESULT (result), FALSE);

  row = lookup_for_result (result);
  return row != NULL && row->erases && g_strcmp0 (cm_result_get_target_mode (result), "raw-write") == 0;
}

/**
 * cm_job_kind_get_title:
 * @kind: a document's kind
 *
 * The kind as people say it ("Capacity check"), or @kind itself for a
 * kind this CardMark does not know (a document from a newer one).
 */
const char *
cm_job_kind_get_title (const char *kind)
{
  const CmJobKind *row;

  g_return_val_if_fail (kind != NULL, NULL);

  row = cm_job_kinds_lookup (kind);
  return row != NULL ? g_dgettext (GETTEXT_PACKAGE, row->title) : kind;
}

/**
 * cm_job_kind_get_card_bytes:
 * @result: a document
 *
 * What the card holds, as the document knows it: the card's registers,
 * else the device's size, else what the kind's own part says
 * (CmJobKind.card_bytes). The batch report and the summary both ask
 * here, so a card is never two sizes.
 *
 * Returns: the card's bytes, 0 when the document does not say
 */
guint64
cm_job_kind_get_card_bytes (CmResult *result)
{
  CmCardInfo *card;
  const CmJobKind *row;

  g_return_val_if_fail (CM_IS_RESULT (result), 0);

  card = cm_result_get_card (result);
  if (card != NULL && cm_card_info_get_capacity_bytes (card) > 0)
    return cm_card_info_get_capacity_bytes (card);
  if (cm_result_get_device_bytes (result) > 0)
    return cm_result_get_device_bytes (result);
  row = lookup_for_result (result);
  return row != NULL && row->card_bytes != NULL ? row->card_bytes (result) : 0;
}

/**
 * cm_job_kind_get_lost_bytes:
 * @result: a document
 *
 * The bytes the card did not give back, as @result's kind says
 * (CmJobKind.lost_bytes).
 *
 * Returns: the bytes lost, -1 when the document checked none
 */
gint64
cm_job_kind_get_lost_bytes (CmResult *result)
{
  const CmJobKind *row;

  g_return_val_if_fail (CM_IS_RESULT (result), -1);

  row = lookup_for_result (result);
  return row != NULL && row->lost_bytes != NULL ? row->lost_bytes (result) : -1;
}
