/* cm-card-list-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first page: every card the device monitor sees, live, followed by
 * this computer's storage and a folder of the user's choosing. A card a
 * job works on says so in its row: the job's phase, progress and time
 * left, and a small progress bar.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "cm-application.h"
#include "cm-card-item.h"

#include "cm-card-list-page.h"

struct _CmCardListPage
{
  GtkBox      parent_instance;

  GListModel *model;
  GListModel *jobs;      /* the application's, or NULL */
  CmCardItem *home_item;

  GtkStack   *devices_stack;
  GtkListBox *devices_list;
  AdwActionRow *home_row;
  AdwActionRow *folder_row;

  /* The last change to the list: rows from @moved_from on moved then. */
  gint64      moved_at;
  guint       moved_from;
};

/* A click this soon after its row moved was aimed at another card. */
#define MOVED_GRACE_US (G_USEC_PER_SEC / 2)

G_DEFINE_FINAL_TYPE (CmCardListPage, cm_card_list_page, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_MODEL,
  N_PROPS
};

enum {
  ITEM_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* The row says what the card is and, below, what its job does now:
 * cards that look alike stay told apart by their device while they run. */
static void
update_row_cb (CmCardItem   *item,
               GParamSpec   *pspec,
               AdwActionRow *row)
{
  CmJob *job = g_object_get_data (G_OBJECT (row), "cm-job");
  GtkWidget *bar = g_object_get_data (G_OBJECT (row), "cm-progress");
  g_autofree char *subtitle = cm_card_item_dup_subtitle (item);

  if (job != NULL && cm_job_is_active (job))
    {
      g_autofree char *status = cm_job_dup_status_text (job);
      g_autofree char *both = g_strconcat (subtitle, "\n", status, NULL);

      adw_action_row_set_subtitle (row, both);
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (bar), cm_job_get_progress (job));
      gtk_widget_set_visible (bar, TRUE);
      return;
    }
  gtk_widget_set_visible (bar, FALSE);
  adw_action_row_set_subtitle (row, subtitle);
}

static void
job_changed_cb (AdwActionRow *row)
{
  update_row_cb (g_object_get_data (G_OBJECT (row), "cm-item"), NULL, row);
}

/* Follows the job that runs on the row's card, if any. */
static void
follow_job (CmCardListPage *self,
            AdwActionRow   *row)
{
  CmCardItem *item = g_object_get_data (G_OBJECT (row), "cm-item");
  CmJob *old = g_object_get_data (G_OBJECT (row), "cm-job");
  CmJob *job = NULL;
  guint n = self->jobs != NULL ? g_list_model_get_n_items (self->jobs) : 0;

  for (guint i = 0; i < n && job == NULL; i++)
    {
      g_autoptr(CmJob) other = g_list_model_get_item (self->jobs, i);

      if (cm_job_is_active (other) && cm_application_job_is_for_item (other, item))
        job = other;  /* the list keeps its reference */
    }

  if (job != old)
    {
      if (old != NULL)
        g_signal_handlers_disconnect_by_func (old, job_changed_cb, row);
      if (job != NULL)
        {
          cm_job_watch (job, G_CALLBACK (job_changed_cb), G_CALLBACK (job_changed_cb), row);
        }
      g_object_set_data_full (G_OBJECT (row), "cm-job", job != NULL ? g_object_ref (job) : NULL, g_object_unref);
    }
  update_row_cb (item, NULL, row);
}

static void
jobs_changed_cb (CmCardListPage *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->devices_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (ADW_IS_ACTION_ROW (child))
      follow_job (self, ADW_ACTION_ROW (child));
}

/* The card's maker and model from its registers when the reader shows
 * them, then the drive's name: two cards of one reader differ here. */
static char *
dup_row_title (CmCardItem *card)
{
  CmCardInfo *info = cm_card_item_get_card_info (card);
  const char *maker = info != NULL ? cm_card_info_get_manufacturer (info) : NULL;
  const char *product = info != NULL ? cm_card_info_get_product_name (info) : NULL;

  if (maker == NULL && product == NULL)
    return g_strdup (cm_card_item_get_name (card));
  return g_strdup_printf ("%s%s%s · %s", maker != NULL ? maker : "",
                          maker != NULL && product != NULL ? " " : "",
                          product != NULL ? product : "", cm_card_item_get_name (card));
}

static GtkWidget *
create_row_cb (gpointer item,
               gpointer user_data)
{
  CmCardItem *card = item;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name ("media-flash-symbolic");
  GtkWidget *next = gtk_image_new_from_icon_name ("go-next-symbolic");
  GtkWidget *bar = gtk_progress_bar_new ();

  g_autofree char *title = dup_row_title (card);

  gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (bar, 64, -1);
  gtk_widget_set_visible (bar, FALSE);
  gtk_widget_set_name (bar, "job-progress");
  g_object_set_data (G_OBJECT (row), "cm-progress", bar);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), bar);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), next);
  g_object_set_data_full (G_OBJECT (row), "cm-item", g_object_ref (card), g_object_unref);
  g_signal_connect_object (card, "notify::mount-point", G_CALLBACK (update_row_cb), row, 0);
  follow_job (user_data, ADW_ACTION_ROW (row));

  return row;
}

static void
update_stack (CmCardListPage *self)
{
  guint n = self->model != NULL ? g_list_model_get_n_items (self->model) : 0;

  gtk_stack_set_visible_child_name (self->devices_stack, n > 0 ? "list" : "empty");
}

static void
items_changed_cb (CmCardListPage *self,
                  guint           position,
                  guint           removed,
                  guint           added,
                  GListModel     *model)
{
  self->moved_at = g_get_monotonic_time ();
  self->moved_from = position;
  update_stack (self);
}

static void
device_row_activated_cb (CmCardListPage *self,
                         GtkListBoxRow  *row,
                         GtkListBox     *box)
{
  CmCardItem *item = g_object_get_data (G_OBJECT (row), "cm-item");

  /* The list never moves a card under the pointer: a click on a row that
   * has just moved is dropped rather than opening the wrong card. */
  if (cm_card_list_page_row_just_moved (self, gtk_list_box_row_get_index (row)))
    return;

  if (item != NULL)
    g_signal_emit (self, signals[ITEM_ACTIVATED], 0, item);
}

static void
place_row_activated_cb (CmCardListPage *self,
                        GtkListBoxRow  *row,
                        GtkListBox     *box)
{
  if (row == GTK_LIST_BOX_ROW (self->home_row))
    g_signal_emit (self, signals[ITEM_ACTIVATED], 0, self->home_item);
  else if (row == GTK_LIST_BOX_ROW (self->folder_row))
    gtk_widget_activate_action (GTK_WIDGET (self), "win.choose-folder", NULL);
}

static void
cm_card_list_page_dispose (GObject *object)
{
  CmCardListPage *self = CM_CARD_LIST_PAGE (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, items_changed_cb, self);
  g_clear_object (&self->model);
  if (self->jobs != NULL)
    g_signal_handlers_disconnect_by_func (self->jobs, jobs_changed_cb, self);
  g_clear_object (&self->jobs);
  g_clear_object (&self->home_item);

  gtk_widget_dispose_template (GTK_WIDGET (self), CM_TYPE_CARD_LIST_PAGE);

  G_OBJECT_CLASS (cm_card_list_page_parent_class)->dispose (object);
}

static void
cm_card_list_page_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  CmCardListPage *self = CM_CARD_LIST_PAGE (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_card_list_page_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  CmCardListPage *self = CM_CARD_LIST_PAGE (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      cm_card_list_page_set_model (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_card_list_page_class_init (CmCardListPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_card_list_page_dispose;
  object_class->get_property = cm_card_list_page_get_property;
  object_class->set_property = cm_card_list_page_set_property;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * CmCardListPage::item-activated:
   * @item: the #CmCardItem the user picked
   */
  signals[ITEM_ACTIVATED] =
    g_signal_new ("item-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, CM_TYPE_CARD_ITEM);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-card-list-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, devices_stack);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, devices_list);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, home_row);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, folder_row);
  gtk_widget_class_bind_template_callback (widget_class, device_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, place_row_activated_cb);
}

static void
cm_card_list_page_init (CmCardListPage *self)
{
  g_autofree char *subtitle = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->home_item = cm_card_item_new_home ();
  subtitle = cm_card_item_dup_subtitle (self->home_item);
  adw_action_row_set_subtitle (self->home_row, subtitle);
  update_stack (self);
}

GListModel *
cm_card_list_page_get_model (CmCardListPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_LIST_PAGE (self), NULL);
  return self->model;
}

void
cm_card_list_page_set_model (CmCardListPage *self,
                             GListModel     *model)
{
  g_return_if_fail (CM_IS_CARD_LIST_PAGE (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));

  if (self->model == model)
    return;

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, items_changed_cb, self);
  g_set_object (&self->model, model);
  if (model != NULL)
    g_signal_connect_object (model, "items-changed", G_CALLBACK (items_changed_cb), self,
                             G_CONNECT_SWAPPED);

  gtk_list_box_bind_model (self->devices_list, model, create_row_cb, self, NULL);
  update_stack (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

/* The number of card rows shown, for tests. */
guint
cm_card_list_page_get_n_rows (CmCardListPage *self)
{
  guint n = 0;

  g_return_val_if_fail (CM_IS_CARD_LIST_PAGE (self), 0);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->devices_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;

  return n;
}

/* Whether the row at @index moved in the last half second, as a card
 * above it went away or came. */
gboolean
cm_card_list_page_row_just_moved (CmCardListPage *self,
                                  int             index)
{
  g_return_val_if_fail (CM_IS_CARD_LIST_PAGE (self), FALSE);

  return self->moved_at != 0 && index >= (int) self->moved_from &&
         g_get_monotonic_time () - self->moved_at < MOVED_GRACE_US;
}

/* Activates the card row at @index, as a click does. */
void
cm_card_list_page_activate_row (CmCardListPage *self,
                                guint           index)
{
  GtkListBoxRow *row;

  g_return_if_fail (CM_IS_CARD_LIST_PAGE (self));

  row = gtk_list_box_get_row_at_index (self->devices_list, index);
  g_return_if_fail (row != NULL);
  g_signal_emit_by_name (self->devices_list, "row-activated", row);
}

/* The application's jobs: each card's row shows the one on its card. */
void
cm_card_list_page_set_jobs (CmCardListPage *self,
                            GListModel     *jobs)
{
  g_return_if_fail (CM_IS_CARD_LIST_PAGE (self));
  g_return_if_fail (jobs == NULL || G_IS_LIST_MODEL (jobs));

  if (self->jobs != NULL)
    g_signal_handlers_disconnect_by_func (self->jobs, jobs_changed_cb, self);
  g_set_object (&self->jobs, jobs);
  if (jobs != NULL)
    g_signal_connect_object (jobs, "items-changed", G_CALLBACK (jobs_changed_cb), self, G_CONNECT_SWAPPED);
  jobs_changed_cb (self);
}

/* The row of the card at @device, for tests, or NULL. */
AdwActionRow *
cm_card_list_page_get_row_for_device (CmCardListPage *self,
                                      const char     *device)
{
  g_return_val_if_fail (CM_IS_CARD_LIST_PAGE (self), NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->devices_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      CmCardItem *item = g_object_get_data (G_OBJECT (child), "cm-item");

      if (item != NULL && g_strcmp0 (cm_card_item_get_device (item), device) == 0)
        return ADW_ACTION_ROW (child);
    }
  return NULL;
}
