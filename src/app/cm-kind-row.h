/* cm-kind-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The row of one kind of card job on a card's page: what every kind's
 * row shares. A kind's row file (cm-health-row.c, …) derives from it,
 * names its kind in its class, says its title and its action in its
 * init, and fills in the few class functions below; the row does the
 * rest:
 *
 *  - busy while a job of its kind runs on the card: a spinner, and the
 *    action becomes Stop (or, for a kind that cannot stop, insensitive);
 *    the subtitle says the job's progress (cm_job_watch());
 *  - the last result: the card's last document of the kind, looked up in
 *    the history after a restart and dated, or the one a job just made;
 *    the kind's outcome says its words (cm_kind_row_dup_last_answer());
 *  - Show, which opens that document ("show-result");
 *  - following a job started elsewhere (cm_kind_row_follow_job());
 *  - the job built once (cm_kind_job_new(), for the row and for a batch
 *    of cards alike) and started in the application's job list
 *    (cm_kind_row_start_job()).
 */

#pragma once

#include <adwaita.h>

#include "cm-card-item.h"
#include "cm-job.h"
#include "cm-job-kinds.h"
#include "cm-result.h"

G_BEGIN_DECLS

#define CM_TYPE_KIND_ROW (cm_kind_row_get_type ())

G_DECLARE_DERIVABLE_TYPE (CmKindRow, cm_kind_row, CM, KIND_ROW, AdwActionRow)

struct _CmKindRowClass
{
  AdwActionRowClass parent_class;

  /* The row's kind, from the kind table: &cm_job_kind_NAME. */
  const CmJobKind *kind;

  /* Says what the row says while no job of its kind runs (its last
   * answer, what it does, or why it may not run now) and whether its
   * action can start (cm_kind_row_set_can_start()). */
  void (*fill)     (CmKindRow *self);
  /* The action, while no job runs: asks what it must, then builds and
   * starts the job (cm_kind_row_new_job(), cm_kind_row_start_job()). */
  void (*activate) (CmKindRow *self);
  /* Optional: the job moved on; by default its progress in words. */
  void (*progress) (CmKindRow *self,
                    CmJob     *job);
  /* Optional: the job ended (the row is filled again already); by
   * default a finished document opens (cm_kind_row_show_done()). */
  void (*ended)    (CmKindRow *self,
                    CmJob     *job);
};

/* For the card's page. */
void        cm_kind_row_set_item        (CmKindRow  *self,
                                         CmCardItem *item);
const CmJobKind *cm_kind_row_get_kind   (CmKindRow  *self);
void        cm_kind_row_activate        (CmKindRow  *self);
void        cm_kind_row_follow_job      (CmKindRow  *self,
                                         CmJob      *job);
gboolean    cm_kind_row_get_busy        (CmKindRow  *self);
CmJob      *cm_kind_row_get_job         (CmKindRow  *self);
CmResult   *cm_kind_row_get_result      (CmKindRow  *self);

/* For the kind's row file. */
CmJob      *cm_kind_job_new             (const CmJobKind *kind,
                                         CmCardItem      *item,
                                         CmMethod         method) G_GNUC_WARN_UNUSED_RESULT;
CmCardItem *cm_kind_row_get_item        (CmKindRow  *self);
void        cm_kind_row_set_action      (CmKindRow  *self,
                                         const char *label,
                                         const char *tooltip);
void        cm_kind_row_set_stop_label  (CmKindRow  *self,
                                         const char *label);
void        cm_kind_row_set_show        (CmKindRow  *self,
                                         const char *tooltip);
void        cm_kind_row_set_can_start   (CmKindRow  *self,
                                         gboolean    can_start);
void        cm_kind_row_set_subtitle    (CmKindRow  *self,
                                         const char *subtitle);
GtkWidget  *cm_kind_row_get_badge       (CmKindRow  *self);
GtkWidget  *cm_kind_row_get_button      (CmKindRow  *self);
void        cm_kind_row_fill            (CmKindRow  *self);
char       *cm_kind_row_dup_last_answer (CmKindRow  *self) G_GNUC_WARN_UNUSED_RESULT;
CmJob      *cm_kind_row_new_job         (CmKindRow  *self,
                                         CmMethod    method) G_GNUC_WARN_UNUSED_RESULT;
void        cm_kind_row_start_job       (CmKindRow  *self,
                                         CmJob      *job);
void        cm_kind_row_show_done       (CmKindRow  *self,
                                         CmJob      *job);

G_END_DECLS
