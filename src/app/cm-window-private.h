/* cm-window-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the window's two files share: cm-window.c decides which page
 * shows, cm-window-actions.c holds the actions and the run they start.
 */

#pragma once

#include "cm-job-list.h"
#include "cm-card-list-page.h"
#include "cm-card-page.h"
#include "cm-history-page.h"
#include "cm-result-page.h"
#include "cm-run-page.h"

#include "cm-window.h"

G_BEGIN_DECLS

/* The pages of the window's stack, in the order a run walks through them,
 * then those reached from the menu. */
typedef enum
{
  CM_WINDOW_PAGE_CARDS,    /* the card list */
  CM_WINDOW_PAGE_CARD,     /* one card, before a run */
  CM_WINDOW_PAGE_RUN,      /* the run in progress */
  CM_WINDOW_PAGE_RESULT,   /* the run just finished */
  CM_WINDOW_PAGE_ERROR,    /* why a run ended without a result */
  CM_WINDOW_PAGE_HISTORY,  /* the results kept */
  CM_WINDOW_PAGE_SAVED,    /* one result opened from the history */
  CM_WINDOW_N_PAGES
} CmWindowPage;

struct _CmWindow
{
  AdwApplicationWindow  parent_instance;

  /* Owned references. */
  GSettings            *settings;
  GListModel           *devices;
  CmResult             *last_result;
  CmHistory            *history;
  CmJournalWatch       *journal_watch;
  GListModel           *jobs;            /* the application's */   /* offers to undo an interrupted capacity check */

  /* The benchmark the run page follows, if any (cm-window-actions.c);
   * the application holds it, @cancellable marks it until it ends. */
  GCancellable         *cancellable;
  CmJob                *job;
  CmCardItem           *run_item;
  gboolean              card_removed;
  gboolean              close_confirmed;  /* the user agreed to stop every job */

  /* The values of :running and :can-start last notified. */
  gboolean              running;
  gboolean              can_start;

  /* Template widgets. */
  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  GtkButton            *back_button;
  GtkStack             *stack;
  CmCardListPage       *card_list_page;
  AdwStatusPage        *error_page;

  /* The pages made when they are needed and replaced by the next of
   * their kind; the stack owns them, NULL until the first. */
  CmCardPage           *card_page;
  CmRunPage            *run_page;
  CmResultPage         *result_page;
  CmResultPage         *saved_page;
  CmHistoryPage        *history_page;
  CmWindowPage          before_history;  /* the page History was opened from */
};

/* cm-window-pages.c: navigation. */
const char   *_cm_window_page_name          (CmWindowPage  page);
GtkWidget    *_cm_window_page_widget        (CmWindow     *self,
                                             CmWindowPage  page);
void          _cm_window_replace_page       (CmWindow     *self,
                                             CmWindowPage  page,
                                             GtkWidget    *widget);
CmWindowPage  _cm_window_get_visible_page   (CmWindow     *self);
CmResult     *_cm_window_get_visible_result (CmWindow     *self);
void          _cm_window_show_page          (CmWindow     *self,
                                             CmWindowPage  page);
void          _cm_window_show_run           (CmWindow     *self,
                                             CmRunPage    *page);
void          _cm_window_show_result        (CmWindow     *self,
                                             CmResult     *result);
void          _cm_window_keep_result        (CmWindow     *self,
                                             CmResult     *result);
void          _cm_window_show_error         (CmWindow     *self,
                                             const char   *title,
                                             const char   *description);
void          _cm_window_show_history       (CmWindow     *self);
void          _cm_window_drop_card_page     (CmWindow     *self);
void          _cm_window_go_back            (CmWindow     *self);
void          _cm_window_set_run_state      (CmWindow     *self,
                                             gboolean      running,
                                             gboolean      can_start);

/* cm-window-actions.c: the actions, and the run they start. */
void          _cm_window_class_actions_init (CmWindowClass *klass);
void          _cm_window_actions_init       (CmWindow      *self);
void          _cm_window_actions_update     (CmWindow      *self);
CmJob        *_cm_window_get_shown_job      (CmWindow      *self);
void          _cm_window_cancel_bench       (CmWindow      *self);
void          _cm_window_test_items         (CmWindow      *self,
                                             GPtrArray     *items);
void          _cm_window_verify_items       (CmWindow      *self,
                                             GPtrArray     *items);
void          _cm_window_wear_items         (CmWindow      *self,
                                             GPtrArray     *items);

G_END_DECLS
