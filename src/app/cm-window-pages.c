/* cm-window-pages.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's pages: which one shows, making one in place of the last
 * of its kind, and Back. Below the window (cm-window.c) and its actions
 * (cm-window-actions.c), which both call here and never the other way:
 * a change of page is told by the window's "pages-changed" signal, which
 * the title and the actions follow.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-accessible.h"

#include "cm-window-private.h"

/* A page's name in the stack, which cm_window_get_page_name() and
 * cm_window_get_page() give to tests. */
const char *
_cm_window_page_name (CmWindowPage page)
{
  switch (page)
    {
    case CM_WINDOW_PAGE_CARDS:
      return "cards";
    case CM_WINDOW_PAGE_CARD:
      return "card";
    case CM_WINDOW_PAGE_RUN:
      return "run";
    case CM_WINDOW_PAGE_RESULT:
      return "result";
    case CM_WINDOW_PAGE_ERROR:
      return "error";
    case CM_WINDOW_PAGE_HISTORY:
      return "history";
    case CM_WINDOW_PAGE_SAVED:
      return "saved";
    case CM_WINDOW_N_PAGES:
    default:
      g_assert_not_reached ();
    }
}

GtkWidget *
_cm_window_page_widget (CmWindow     *self,
             CmWindowPage  page)
{
  switch (page)
    {
    case CM_WINDOW_PAGE_CARDS:
      return GTK_WIDGET (self->card_list_page);
    case CM_WINDOW_PAGE_CARD:
      return GTK_WIDGET (self->card_page);
    case CM_WINDOW_PAGE_RUN:
      return GTK_WIDGET (self->run_page);
    case CM_WINDOW_PAGE_RESULT:
      return GTK_WIDGET (self->result_page);
    case CM_WINDOW_PAGE_ERROR:
      return GTK_WIDGET (self->error_page);
    case CM_WINDOW_PAGE_HISTORY:
      return GTK_WIDGET (self->history_page);
    case CM_WINDOW_PAGE_SAVED:
      return GTK_WIDGET (self->saved_page);
    case CM_WINDOW_N_PAGES:
    default:
      g_assert_not_reached ();
    }
}

static void
set_page_widget (CmWindow     *self,
                 CmWindowPage  page,
                 GtkWidget    *widget)
{
  switch (page)
    {
    case CM_WINDOW_PAGE_CARD:
      self->card_page = widget != NULL ? CM_CARD_PAGE (widget) : NULL;
      break;
    case CM_WINDOW_PAGE_RUN:
      self->run_page = widget != NULL ? CM_RUN_PAGE (widget) : NULL;
      break;
    case CM_WINDOW_PAGE_RESULT:
      self->result_page = widget != NULL ? CM_RESULT_PAGE (widget) : NULL;
      break;
    case CM_WINDOW_PAGE_HISTORY:
      self->history_page = widget != NULL ? CM_HISTORY_PAGE (widget) : NULL;
      break;
    case CM_WINDOW_PAGE_SAVED:
      self->saved_page = widget != NULL ? CM_RESULT_PAGE (widget) : NULL;
      break;
    case CM_WINDOW_PAGE_CARDS:
    case CM_WINDOW_PAGE_ERROR:
    case CM_WINDOW_N_PAGES:
    default:
      g_assert_not_reached ();  /* the template's pages stay */
    }
}

/* Puts @widget in the stack in place of the page of its kind, if any.
 * The field is cleared first: removing the page on screen makes the
 * stack show another, and the title looks at the fields meanwhile. */
void
_cm_window_replace_page (CmWindow     *self,
              CmWindowPage  page,
              GtkWidget    *widget)
{
  GtkWidget *old = _cm_window_page_widget (self, page);

  g_assert (widget != NULL);

  if (old == widget)
    return;

  set_page_widget (self, page, NULL);
  if (old != NULL)
    gtk_stack_remove (self->stack, old);
  gtk_stack_add_named (self->stack, widget, _cm_window_page_name (page));
  set_page_widget (self, page, widget);
  cm_accessible_fix_mnemonics (widget);
}

CmWindowPage
_cm_window_get_visible_page (CmWindow *self)
{
  GtkWidget *visible = gtk_stack_get_visible_child (self->stack);

  for (CmWindowPage page = 0; page < CM_WINDOW_N_PAGES; page++)
    if (visible != NULL && _cm_window_page_widget (self, page) == visible)
      return page;

  return CM_WINDOW_PAGE_CARDS;
}

/* The result on screen: the run just finished, or one from the history. */
CmResult *
_cm_window_get_visible_result (CmWindow *self)
{
  switch (_cm_window_get_visible_page (self))
    {
    case CM_WINDOW_PAGE_RESULT:
      return cm_result_page_get_result (self->result_page);
    case CM_WINDOW_PAGE_SAVED:
      return cm_result_page_get_result (self->saved_page);
    case CM_WINDOW_PAGE_CARDS:
    case CM_WINDOW_PAGE_CARD:
    case CM_WINDOW_PAGE_RUN:
    case CM_WINDOW_PAGE_ERROR:
    case CM_WINDOW_PAGE_HISTORY:
    case CM_WINDOW_N_PAGES:
    default:
      return NULL;
    }
}

/* Shows @page, which must have been made; a page that is not there (the
 * card's, after the card went away) gives the card list instead. */
void
_cm_window_show_page (CmWindow     *self,
                      CmWindowPage  page)
{
  GtkWidget *widget = _cm_window_page_widget (self, page);

  if (widget == NULL)
    widget = GTK_WIDGET (self->card_list_page);

  gtk_stack_set_visible_child (self->stack, widget);
  g_signal_emit_by_name (self, "pages-changed");
}

void
_cm_window_show_run (CmWindow  *self,
                     CmRunPage *page)
{
  _cm_window_replace_page (self, CM_WINDOW_PAGE_RUN, GTK_WIDGET (page));
  _cm_window_show_page (self, CM_WINDOW_PAGE_RUN);
}

void
_cm_window_show_result (CmWindow *self,
                        CmResult *result)
{
  _cm_window_replace_page (self, CM_WINDOW_PAGE_RESULT, GTK_WIDGET (cm_result_page_new (result)));
  _cm_window_show_page (self, CM_WINDOW_PAGE_RESULT);
}

/* A result made while another page is on screen: ready for Back, not
 * shown. */
void
_cm_window_keep_result (CmWindow *self,
                        CmResult *result)
{
  _cm_window_replace_page (self, CM_WINDOW_PAGE_RESULT, GTK_WIDGET (cm_result_page_new (result)));
  g_signal_emit_by_name (self, "pages-changed");
}

void
_cm_window_show_error (CmWindow   *self,
                       const char *title,
                       const char *description)
{
  adw_status_page_set_title (self->error_page, title);
  adw_status_page_set_description (self->error_page, description);
  _cm_window_show_page (self, CM_WINDOW_PAGE_ERROR);
}

/* A card that went away takes its page with it, so that Back after an
 * error or a result never shows a card that is not there. */
void
_cm_window_drop_card_page (CmWindow *self)
{
  GtkWidget *page = GTK_WIDGET (self->card_page);

  if (page == NULL)
    return;

  self->card_page = NULL;
  gtk_stack_remove (self->stack, page);
  g_signal_emit_by_name (self, "pages-changed");
}

static void
open_result_cb (CmWindow      *self,
                CmResult      *result,
                CmHistoryPage *history)
{
  CmResultPage *page = cm_result_page_new (result);

  /* A saved check, verify, wear test or health read runs again from its
   * card's page; a benchmark's Test Again is there already. */
  if (cm_card_page_can_test_again (cm_result_get_kind (result)))
    cm_result_page_offer_again (page);
  _cm_window_replace_page (self, CM_WINDOW_PAGE_SAVED, GTK_WIDGET (page));
  _cm_window_show_page (self, CM_WINDOW_PAGE_SAVED);
}

/* Compare is a view of the history with a title of its own. */
static void
history_view_cb (CmWindow *self)
{
  g_signal_emit_by_name (self, "pages-changed");
}

/* The history is made once and read again each time it is shown. */
void
_cm_window_show_history (CmWindow *self)
{
  CmWindowPage visible = _cm_window_get_visible_page (self);

  if (visible != CM_WINDOW_PAGE_HISTORY)
    self->before_history = visible;

  if (self->history_page == NULL)
    {
      CmHistoryPage *page = cm_history_page_new (self->history);

      g_signal_connect_object (page, "open-result", G_CALLBACK (open_result_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (page, "notify::view", G_CALLBACK (history_view_cb), self, G_CONNECT_SWAPPED);
      _cm_window_replace_page (self, CM_WINDOW_PAGE_HISTORY, GTK_WIDGET (page));
    }
  else
    cm_history_page_reload (self->history_page);

  _cm_window_show_page (self, CM_WINDOW_PAGE_HISTORY);
}

/* Back walks up: a saved result to the history, the history's own views
 * to its list and then to where it was opened from, a result or an
 * error to the card, anything else to the card list. */
void
_cm_window_go_back (CmWindow *self)
{
  switch (_cm_window_get_visible_page (self))
    {
    case CM_WINDOW_PAGE_SAVED:
      _cm_window_show_page (self, CM_WINDOW_PAGE_HISTORY);
      break;
    case CM_WINDOW_PAGE_HISTORY:
      if (!cm_history_page_go_back (self->history_page))
        _cm_window_show_page (self, self->before_history);
      break;
    case CM_WINDOW_PAGE_RESULT:
    case CM_WINDOW_PAGE_ERROR:
      _cm_window_show_page (self, self->card_page != NULL ? CM_WINDOW_PAGE_CARD : CM_WINDOW_PAGE_CARDS);
      break;
    case CM_WINDOW_PAGE_CARDS:
    case CM_WINDOW_PAGE_CARD:
    case CM_WINDOW_PAGE_RUN:
    case CM_WINDOW_N_PAGES:
    default:
      _cm_window_show_page (self, CM_WINDOW_PAGE_CARDS);
      break;
    }
}

/* The state the application's Start and Cancel follow. */
void
_cm_window_set_run_state (CmWindow *self,
                          gboolean  running,
                          gboolean  can_start)
{
  g_object_freeze_notify (G_OBJECT (self));
  if (self->running != running)
    {
      self->running = running;
      g_object_notify (G_OBJECT (self), "running");
    }
  if (self->can_start != can_start)
    {
      self->can_start = can_start;
      g_object_notify (G_OBJECT (self), "can-start");
    }
  g_object_thaw_notify (G_OBJECT (self));
}
