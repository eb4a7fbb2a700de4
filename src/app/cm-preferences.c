/* cm-preferences.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Preferences: the lab's store. Its address is kept in the settings,
 * never with a password; the password goes to libpq's password file,
 * which the CLI reads too. The status says what waits, and why.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "cm-app-history.h"
#include "cm-store.h"
#include "cm-text.h"

#include "cm-preferences.h"

struct _CmPreferences
{
  AdwPreferencesWindow  parent_instance;

  AdwPreferencesGroup  *store_group;
  AdwEntryRow          *url_row;
  AdwPasswordEntryRow  *password_row;
  AdwActionRow         *status_row;

  GSettings            *settings;
  CmHistory            *history;
  gboolean              sending;
  char                 *reached;  /* the key of the store last reached */
};

G_DEFINE_FINAL_TYPE (CmPreferences, cm_preferences, ADW_TYPE_PREFERENCES_WINDOW)

/* The widget after @widget in a walk of @root's tree, depth first. */
static GtkWidget *
cm_preferences_next_widget (GtkWidget *root,
                            GtkWidget *widget)
{
  if (gtk_widget_get_first_child (widget) != NULL)
    return gtk_widget_get_first_child (widget);
  for (; widget != NULL && widget != root; widget = gtk_widget_get_parent (widget))
    if (gtk_widget_get_next_sibling (widget) != NULL)
      return gtk_widget_get_next_sibling (widget);
  return NULL;
}

static void
set_status (CmPreferences *self,
            const char    *text)
{
  g_autofree char *clean = cm_text_dup_clean (text, 0);

  adw_action_row_set_subtitle (self->status_row, clean);
}

/* What the store's row says: none, sending, all sent, or what waits
 * and why. */
static void
update_status (CmPreferences *self)
{
  CmStore *store = cm_history_get_store (self->history);
  const GError *error = cm_history_get_store_error (self->history);
  guint waiting;

  if (!cm_store_is_supported ())
    {
      set_status (self, _("This copy of CardMark was built without a store."));
      return;
    }
  if (store == NULL)
    {
      set_status (self, _("No store: results are kept on this computer only."));
      return;
    }
  if (self->sending)
    {
      set_status (self, _("Sending…"));
      return;
    }
  waiting = cm_history_count_queued (self->history);
  if (waiting == 0 && error != NULL)
    /* "The store … cannot be reached: …" */
    set_status (self, error->message);
  else if (waiting == 0 && g_strcmp0 (self->reached, cm_store_get_key (store)) == 0)
    {
      g_autofree char *text = g_strdup_printf (_("Every result is in %s."), cm_store_get_safe_url (store));

      set_status (self, text);
    }
  else if (waiting == 0)
    {
      /* Said only once the store answered: it is tried now. */
      self->sending = TRUE;
      cm_history_send_queued_in_background (self->history);
      set_status (self, _("Sending…"));
    }
  else
    {
      g_autofree char *text = g_strdup_printf (ngettext ("%u result waits for the store. %s",
                                                         "%u results wait for the store. %s", waiting),
                                               waiting, error != NULL ? error->message : "");

      set_status (self, text);
    }
}

/* The history tells only the news of its store of now. */
static void
store_sent_cb (CmPreferences *self,
               guint          waiting)
{
  CmStore *store = cm_history_get_store (self->history);

  self->sending = FALSE;
  g_clear_pointer (&self->reached, g_free);
  if (store != NULL && cm_history_get_store_error (self->history) == NULL)
    self->reached = g_strdup (cm_store_get_key (store));
  update_status (self);
}

static void
send_now (CmPreferences *self)
{
  if (cm_history_get_store (self->history) == NULL)
    return;
  self->sending = TRUE;
  cm_history_send_queued_in_background (self->history);
}

static void
url_applied_cb (CmPreferences *self)
{
  g_autofree char *url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->url_row))));
  g_autoptr(GError) error = NULL;

  gtk_widget_remove_css_class (GTK_WIDGET (self->url_row), "error");
  if (*url != '\0' && cm_store_url_has_password (url))
    {
      /* Settings are plain text anyone with this account reads. */
      set_status (self, _("Leave the password out of the address and give it in the Password row: "
                          "CardMark keeps it in libpq’s password file, not in its settings."));
      gtk_widget_add_css_class (GTK_WIDGET (self->url_row), "error");
      return;
    }
  if (*url != '\0' && !cm_store_url_check (url, &error))
    {
      set_status (self, error->message);
      gtk_widget_add_css_class (GTK_WIDGET (self->url_row), "error");
      return;
    }
  /* The shared history follows the setting (cm-app-history.c). */
  g_settings_set_string (self->settings, "store-url", url);
  send_now (self);
  update_status (self);
}

static void
password_applied_cb (CmPreferences *self)
{
  g_autofree char *url = g_settings_get_string (self->settings, "store-url");
  g_autoptr(GError) error = NULL;
  const char *password = gtk_editable_get_text (GTK_EDITABLE (self->password_row));

  if (*url == '\0')
    {
      set_status (self, _("Give the store’s address first, then its password."));
      return;
    }
  if (!cm_store_remember_password (url, password, &error))
    {
      g_autofree char *text = g_strdup_printf (_("The password could not be kept: %s"), error->message);

      set_status (self, text);
      return;
    }
  /* Not left in the row, nor anywhere else in the app. */
  gtk_editable_set_text (GTK_EDITABLE (self->password_row), "");
  send_now (self);
  update_status (self);
}

/* The show/hide button's name follows what it does now, as its icon
 * does. */
static void
name_peek_button (GtkButton *button)
{
  const char *icon = gtk_button_get_icon_name (button);
  gboolean shown = icon != NULL && g_str_has_prefix (icon, "view-conceal");

  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  shown ? _("Hide the password") : _("Show the password"),
                                  -1);
}

/* AdwPasswordEntryRow's show/hide button has an icon and no name: a
 * screen reader would call it "GtkImage". */
static void
name_show_text_button (CmPreferences *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->password_row));
       child != NULL;
       child = cm_preferences_next_widget (GTK_WIDGET (self->password_row), child))
    {
      const char *icon = GTK_IS_BUTTON (child) ? gtk_button_get_icon_name (GTK_BUTTON (child)) : NULL;

      if (icon != NULL && (g_str_has_prefix (icon, "view-reveal") || g_str_has_prefix (icon, "view-conceal")))
        {
          name_peek_button (GTK_BUTTON (child));
          g_signal_connect (child, "notify::icon-name", G_CALLBACK (name_peek_button), NULL);
        }
    }
}

static void
cm_preferences_dispose (GObject *object)
{
  CmPreferences *self = CM_PREFERENCES (object);

  if (self->history != NULL)
    g_signal_handlers_disconnect_by_data (self->history, self);
  g_clear_object (&self->history);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->reached, g_free);

  G_OBJECT_CLASS (cm_preferences_parent_class)->dispose (object);
}

static void
cm_preferences_class_init (CmPreferencesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_preferences_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-preferences.ui");
  gtk_widget_class_bind_template_child (widget_class, CmPreferences, store_group);
  gtk_widget_class_bind_template_child (widget_class, CmPreferences, url_row);
  gtk_widget_class_bind_template_child (widget_class, CmPreferences, password_row);
  gtk_widget_class_bind_template_child (widget_class, CmPreferences, status_row);
  gtk_widget_class_bind_template_callback (widget_class, url_applied_cb);
  gtk_widget_class_bind_template_callback (widget_class, password_applied_cb);
}

static void
cm_preferences_init (CmPreferences *self)
{
  g_autofree char *url = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APP_ID);
  self->history = cm_app_history_dup ();
  g_signal_connect_swapped (self->history, "store-sent", G_CALLBACK (store_sent_cb), self);

  url = g_settings_get_string (self->settings, "store-url");
  gtk_editable_set_text (GTK_EDITABLE (self->url_row), url);
  gtk_widget_set_sensitive (GTK_WIDGET (self->url_row), cm_store_is_supported ());
  gtk_widget_set_sensitive (GTK_WIDGET (self->password_row), cm_store_is_supported ());
  name_show_text_button (self);
  update_status (self);
}

CmPreferences *
cm_preferences_new (GtkWindow *parent)
{
  return g_object_new (CM_TYPE_PREFERENCES, "transient-for", parent, NULL);
}
