/* cm-card-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One card before a test: what it says about itself, the classes on its
 * label, and how to test it.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-card-page.h"

#define MAX_METHODS 3

struct _CmCardPage
{
  GtkBox          parent_instance;

  CmCardItem     *item;
  CmMethod        methods[MAX_METHODS];
  guint           n_methods;

  AdwPreferencesGroup *identity_group;
  AdwExpanderRow *identity_row;
  AdwActionRow   *declared_row;
  GtkFlowBox     *class_box;
  AdwComboRow    *brand_row;
  AdwComboRow    *profile_row;
  AdwComboRow    *method_row;
};

G_DEFINE_FINAL_TYPE (CmCardPage, cm_card_page, GTK_TYPE_BOX)

static const char *
method_label (CmMethod method)
{
  switch (method)
    {
    case CM_METHOD_FILE:
      return _("Safe: test in a scratch file");
    case CM_METHOD_RAW_READ:
      return _("Read-only raw test");
    case CM_METHOD_RAW_WRITE:
      return _("Raw test with writes");
    default:
      g_assert_not_reached ();
    }
}

static void
add_identity_row (CmCardPage *self,
                  const char *title,
                  const char *value)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), value);
  gtk_widget_add_css_class (row, "property");
  adw_expander_row_add_row (self->identity_row, row);
}

static const char *
or_unknown (const char *value)
{
  return value != NULL && *value != '\0' ? value : _("Not known");
}

static gboolean
behind_usb_reader (CmCardItem *item)
{
  return cm_card_item_get_usb_speed_mbps (item) > 0
         || (cm_card_item_get_reader (item) != NULL
             && strstr (cm_card_item_get_reader (item), "USB") != NULL);
}

static void
fill_identity (CmCardPage *self)
{
  CmCardItem *item = self->item;
  CmCardInfo *info = cm_card_item_get_card_info (item);
  const char *unknown = behind_usb_reader (item)
                        ? _("Not available through this USB reader")
                        : _("Not known");
  g_auto(GStrv) declared = info != NULL ? cm_card_info_dup_declared_classes (info) : NULL;
  g_autofree char *size = NULL;
  g_autofree char *declared_text = NULL;

  adw_preferences_group_set_title (self->identity_group, cm_card_item_get_name (item));

  if (cm_card_item_get_kind (item) != CM_CARD_KIND_DEVICE)
    {
      g_autofree char *subtitle = cm_card_item_dup_subtitle (item);

      adw_preferences_group_set_description (self->identity_group, subtitle);
      gtk_widget_set_visible (GTK_WIDGET (self->identity_row), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->declared_row), FALSE);
      return;
    }

  size = cm_card_item_get_size (item) > 0 ? g_format_size (cm_card_item_get_size (item)) : NULL;
  adw_expander_row_set_subtitle (self->identity_row, cm_card_item_get_device (item));

  if (info != NULL && cm_card_info_get_registers_available (info))
    {
      const char *maker = cm_card_info_get_manufacturer (info);
      guint64 capacity = cm_card_info_get_capacity_bytes (info);

      if (capacity > 0)
        {
          g_free (size);
          size = g_format_size (capacity);
        }
      add_identity_row (self, _("Maker"), maker != NULL ? maker : _("Not known"));
      add_identity_row (self, _("Product"), or_unknown (cm_card_info_get_product_name (info)));
      add_identity_row (self, _("Manufactured"), or_unknown (cm_card_info_get_manufacture_date (info)));
      add_identity_row (self, _("Serial Number"), or_unknown (cm_card_info_get_serial (info)));
    }
  else
    {
      if (info != NULL && cm_card_info_get_unavailable_reason (info) != NULL)
        unknown = cm_card_info_get_unavailable_reason (info);
      add_identity_row (self, _("Maker"), unknown);
      add_identity_row (self, _("Product"), unknown);
      add_identity_row (self, _("Manufactured"), unknown);
      add_identity_row (self, _("Serial Number"), unknown);
    }
  add_identity_row (self, _("Capacity"), size != NULL ? size : _("Not known"));
  add_identity_row (self, _("Reader"),
                    cm_card_item_get_reader (item) != NULL ? cm_card_item_get_reader (item) : _("Not known"));
  add_identity_row (self, _("Mounted"),
                    cm_card_item_get_mounted (item) ? cm_card_item_get_mount_point (item) : _("No"));

  if (declared != NULL && declared[0] != NULL)
    declared_text = g_strjoinv (" ", declared);
  adw_action_row_set_subtitle (self->declared_row,
                               declared_text != NULL ? declared_text : unknown);
}

static void
fill_classes (CmCardPage *self)
{
  const char * const *classes = cm_backend_get_classes ();
  CmCardInfo *info = cm_card_item_get_card_info (self->item);
  g_auto(GStrv) declared = info != NULL ? cm_card_info_dup_declared_classes (info) : NULL;

  for (guint i = 0; classes[i] != NULL; i++)
    {
      GtkWidget *button = gtk_toggle_button_new_with_label (classes[i]);

      gtk_widget_set_name (button, classes[i]);
      gtk_widget_set_tooltip_text (button, _("Printed on the card"));
      if (declared != NULL && g_strv_contains ((const char * const *) declared, classes[i]))
        gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
      gtk_flow_box_append (self->class_box, button);
    }
}

static void
fill_methods (CmCardPage *self)
{
  CmCardItem *item = self->item;
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
  gboolean is_device = cm_card_item_get_kind (item) == CM_CARD_KIND_DEVICE;

  self->n_methods = 0;
  if (cm_card_item_get_mounted (item))
    self->methods[self->n_methods++] = CM_METHOD_FILE;
  if (is_device)
    self->methods[self->n_methods++] = CM_METHOD_RAW_READ;
  /* Writing to the raw device is offered only where nothing uses it. */
  if (is_device && !cm_card_item_get_mounted (item) && !cm_card_item_get_is_system (item))
    self->methods[self->n_methods++] = CM_METHOD_RAW_WRITE;

  for (guint i = 0; i < self->n_methods; i++)
    gtk_string_list_append (labels, method_label (self->methods[i]));

  adw_combo_row_set_model (self->method_row, G_LIST_MODEL (labels));
  adw_combo_row_set_selected (self->method_row, 0);
}

static void
cm_card_page_dispose (GObject *object)
{
  CmCardPage *self = CM_CARD_PAGE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), CM_TYPE_CARD_PAGE);
  g_clear_object (&self->item);

  G_OBJECT_CLASS (cm_card_page_parent_class)->dispose (object);
}

static void
cm_card_page_class_init (CmCardPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_card_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-card-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, identity_group);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, identity_row);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, declared_row);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, class_box);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, brand_row);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, profile_row);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, method_row);
}

static void
cm_card_page_init (CmCardPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

CmCardPage *
cm_card_page_new (CmCardItem *item)
{
  CmCardPage *self;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  self = g_object_new (CM_TYPE_CARD_PAGE, NULL);
  self->item = g_object_ref (item);
  fill_identity (self);
  fill_classes (self);
  fill_methods (self);

  return self;
}

CmCardItem *
cm_card_page_get_item (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);
  return self->item;
}

GStrv
cm_card_page_dup_claims (CmCardPage *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->class_box));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *button = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child));

      if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)))
        g_strv_builder_add (builder, gtk_widget_get_name (button));
    }

  return g_strv_builder_end (builder);
}

void
cm_card_page_set_claims (CmCardPage         *self,
                         const char * const *claims)
{
  g_return_if_fail (CM_IS_CARD_PAGE (self));

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->class_box));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *button = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child));

      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button),
                                    claims != NULL && g_strv_contains (claims, gtk_widget_get_name (button)));
    }
}

/* The brand the user picked, or NULL when not given. */
const char *
cm_card_page_get_brand (CmCardPage *self)
{
  GtkStringObject *item;

  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);

  if (adw_combo_row_get_selected (self->brand_row) == 0)
    return NULL;

  item = adw_combo_row_get_selected_item (self->brand_row);
  return item != NULL ? gtk_string_object_get_string (item) : NULL;
}

CmProfile
cm_card_page_get_profile (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), CM_PROFILE_QUICK);
  return adw_combo_row_get_selected (self->profile_row) == 1 ? CM_PROFILE_FULL : CM_PROFILE_QUICK;
}

void
cm_card_page_set_profile (CmCardPage *self,
                          CmProfile   profile)
{
  g_return_if_fail (CM_IS_CARD_PAGE (self));
  adw_combo_row_set_selected (self->profile_row, profile == CM_PROFILE_FULL ? 1 : 0);
}

CmMethod
cm_card_page_get_method (CmCardPage *self)
{
  guint selected;

  g_return_val_if_fail (CM_IS_CARD_PAGE (self), CM_METHOD_FILE);

  selected = adw_combo_row_get_selected (self->method_row);
  if (selected >= self->n_methods)
    return CM_METHOD_FILE;
  return self->methods[selected];
}

/* Selects @method if this card offers it; returns whether it did. */
gboolean
cm_card_page_set_method (CmCardPage *self,
                         CmMethod    method)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), FALSE);

  for (guint i = 0; i < self->n_methods; i++)
    if (self->methods[i] == method)
      {
        adw_combo_row_set_selected (self->method_row, i);
        return TRUE;
      }

  return FALSE;
}
