/* cm-card-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One card before a test: what it says about itself, the classes on its
 * label, and how to test it. The capacity check and the full verify
 * started here are jobs the application holds: the page only watches
 * them, and a page opened again for the same card shows the job that
 * still runs on it.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-app-history.h"
#include "cm-bench-row.h"
#include "cm-job-list.h"
#include "cm-capacity-row.h"
#include "cm-chart-view.h"
#include "cm-format-row.h"
#include "cm-health-row.h"
#include "cm-queue-row.h"
#include "cm-seen-list.h"
#include "cm-history.h"
#include "cm-summary.h"
#include "cm-verdict.h"
#include "cm-verify-row.h"
#include "cm-wear-row.h"

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
  CmSeenList     *seen_list;
  GtkFlowBox     *class_box;
  AdwComboRow    *brand_row;
  AdwComboRow    *profile_row;
  AdwComboRow    *method_row;
  GtkWidget      *method_warning;
  GtkLabel       *method_warning_label;
  GtkButton      *method_fix_button;
  CmMethod        method_fix;
  AdwPreferencesGroup *test_group;
  GtkWidget      *start_button;
  GtkWidget      *bench_row;    /* the card's last benchmark */
  gboolean        focused_once;
  AdwPreferencesGroup *capacity_group;
  GtkWidget      *capacity_row;
  GtkWidget      *verify_row;
  GtkWidget      *health_row;   /* a device's only */
  GtkWidget      *wear_row;
  GtkWidget      *queue_row;    /* a card that claims A2 or a slot that queues */
  AdwPreferencesGroup *format_group;
  GtkWidget      *format_row;   /* a device's only */
  GtkProgressBar *capacity_progress;
  CmChartView    *capacity_map;

  GtkRevealer    *job_bar;
  GtkLabel       *job_label;
  GtkProgressBar *job_progress;
  GtkWidget      *job_stop_button;
  CmJob          *shown_job;        /* the job the bar over the page shows */
  char           *outside_text;     /* a job another program runs on the card */
  double          outside_fraction; /* …how far it is, -1 when not said */
  guint           outside_poll;
};

G_DEFINE_FINAL_TYPE (CmCardPage, cm_card_page, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_JOB,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_SHOW_RESULT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void hold_rows (CmCardPage *self,
                       gboolean    held);

static gboolean
offers_method (CmCardPage *self,
               CmMethod    method)
{
  for (guint i = 0; i < self->n_methods; i++)
    if (self->methods[i] == method)
      return TRUE;
  return FALSE;
}

/* Before the run, not after it: the classes ticked that the method can't
 * judge, and the method this card offers that can. */
static void
update_method_warning (CmCardPage *self)
{
  g_auto(GStrv) claims = NULL;
  g_autofree char *warning = NULL;
  g_autofree char *fix = NULL;

  if (self->item == NULL)
    return;

  claims = cm_card_page_dup_claims (self);
  warning = cm_summary_dup_method_warning (cm_method_to_string (cm_card_page_get_method (self)),
                                           (const char * const *) claims);
  gtk_widget_set_visible (self->method_warning, warning != NULL);
  if (warning == NULL)
    return;

  gtk_label_set_label (self->method_warning_label, warning);
  if (offers_method (self, CM_METHOD_RAW_WRITE))
    self->method_fix = CM_METHOD_RAW_WRITE;
  else if (offers_method (self, CM_METHOD_FILE))
    self->method_fix = CM_METHOD_FILE;
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self->method_fix_button), FALSE);
      return;
    }
  /* Translators: a button that picks another test method, "Use “Raw test with writes”" */
  fix = g_strdup_printf (_("Use “%s”"), cm_method_get_label (self->method_fix));
  gtk_button_set_label (self->method_fix_button, fix);
  gtk_widget_set_visible (GTK_WIDGET (self->method_fix_button), TRUE);
}

static void
method_fix_clicked_cb (CmCardPage *self,
                       GtkButton  *button)
{
  cm_card_page_set_method (self, self->method_fix);
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

/* The classes picked for each card while the app runs, so that its
 * page opened again has them: by its serial number where the registers
 * tell it, else by its device or folder. */
static GHashTable *picked_classes;

static char *
dup_card_key (CmCardItem *item)
{
  CmCardInfo *info = cm_card_item_get_card_info (item);
  const char *serial = info != NULL ? cm_card_info_get_serial (info) : NULL;

  if (serial != NULL && *serial != '\0')
    return g_strconcat ("serial:", serial, NULL);
  if (cm_card_item_get_device (item) != NULL)
    return g_strconcat ("device:", cm_card_item_get_device (item), NULL);
  return g_strconcat ("folder:", cm_card_item_get_file_folder (item) != NULL ? cm_card_item_get_file_folder (item) : "", NULL);
}

static void
remember_classes (CmCardPage *self)
{
  if (picked_classes == NULL)
    picked_classes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);
  g_hash_table_replace (picked_classes, dup_card_key (self->item), cm_card_page_dup_claims (self));
}

static void
fill_classes (CmCardPage *self)
{
  const char * const *classes = cm_verdict_get_offered_classes ();
  CmCardInfo *info = cm_card_item_get_card_info (self->item);
  g_auto(GStrv) declared = info != NULL ? cm_card_info_dup_declared_classes (info) : NULL;
  g_autofree char *key = dup_card_key (self->item);
  const char * const *picked = picked_classes != NULL ? g_hash_table_lookup (picked_classes, key) : NULL;

  /* What the user picked for this card before, else what it declares. */
  if (picked != NULL)
    {
      g_strfreev (declared);
      declared = g_strdupv ((char **) picked);
    }

  for (guint i = 0; classes[i] != NULL; i++)
    {
      GtkWidget *button = gtk_toggle_button_new_with_label (classes[i]);

      g_autofree char *promise = cm_summary_dup_class_promise (classes[i]);

      gtk_widget_set_name (button, classes[i]);
      gtk_widget_set_tooltip_text (button, promise);
      g_signal_connect_object (button, "toggled", G_CALLBACK (update_method_warning), self, G_CONNECT_SWAPPED);
      if (declared != NULL && g_strv_contains ((const char * const *) declared, classes[i]))
        gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
      g_signal_connect_object (button, "toggled", G_CALLBACK (remember_classes), self, G_CONNECT_SWAPPED);
      gtk_flow_box_append (self->class_box, button);
      /* One Tab stop a class: the button, not also the box's child
       * around it, which is named after it for screen readers. */
      gtk_widget_set_focusable (gtk_widget_get_parent (button), FALSE);
      gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_parent (button)),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, classes[i], -1);
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
    gtk_string_list_append (labels, cm_method_get_label (self->methods[i]));

  adw_combo_row_set_model (self->method_row, G_LIST_MODEL (labels));
  adw_combo_row_set_selected (self->method_row, 0);
}

/* Asks first, since the check writes to the card (and then puts back
 * what it overwrote); cancels the check when one is running. */
void
cm_card_page_check_capacity (CmCardPage *self)
{
  g_return_if_fail (CM_IS_CARD_PAGE (self));

  cm_kind_row_activate (CM_KIND_ROW (self->capacity_row));
}

/* The sentence the last capacity check showed, or NULL. */
const char *
cm_card_page_get_capacity_outcome (CmCardPage *self,
                                   gboolean   *fake)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);

  return cm_capacity_row_get_outcome (CM_CAPACITY_ROW (self->capacity_row), fake);
}

/* The map of the last capacity check (hidden until there is one). */
CmChartView *
cm_card_page_get_capacity_map (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);
  return self->capacity_map;
}

/* Whether the page's capacity check runs. */
gboolean
cm_card_page_get_checking_capacity (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), FALSE);
  return cm_kind_row_get_busy (CM_KIND_ROW (self->capacity_row));
}

/* The rows of the kinds of job that hold the card while they run,
 * NULL where the card has none. */
#define N_HOLDING_ROWS 5

static void
get_holding_rows (CmCardPage *self,
                  GtkWidget  *rows[N_HOLDING_ROWS])
{
  rows[0] = self->capacity_row;
  rows[1] = self->verify_row;
  rows[2] = self->wear_row;
  rows[3] = self->format_row;
  rows[4] = self->queue_row;
}

/* The job the page watches (its capacity check, its verify, its wear
 * test or its format), while it runs; nothing else may start on the
 * card meanwhile. */
CmJob *
cm_card_page_get_job (CmCardPage *self)
{
  GtkWidget *rows[N_HOLDING_ROWS];

  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);

  get_holding_rows (self, rows);
  for (guint i = 0; i < N_HOLDING_ROWS; i++)
    if (rows[i] != NULL && cm_kind_row_get_job (CM_KIND_ROW (rows[i])) != NULL)
      return cm_kind_row_get_job (CM_KIND_ROW (rows[i]));
  return NULL;
}

/* Test Again on a saved document of the kind: as a click on its row,
 * asking first where it writes. */
static gboolean
capacity_again (CmCardPage *self,
                CmResult   *result)
{
  /* As deep as it was. */
  cm_capacity_row_again (CM_CAPACITY_ROW (self->capacity_row), result);
  return TRUE;
}

static gboolean
verify_again (CmCardPage *self,
              CmResult   *result)
{
  cm_kind_row_activate (CM_KIND_ROW (self->verify_row));
  return TRUE;
}

static gboolean
wear_again (CmCardPage *self,
            CmResult   *result)
{
  cm_kind_row_activate (CM_KIND_ROW (self->wear_row));
  return TRUE;
}

static gboolean
health_again (CmCardPage *self,
              CmResult   *result)
{
  /* A folder's page has no Health row. */
  if (self->health_row == NULL)
    return FALSE;
  cm_kind_row_activate (CM_KIND_ROW (self->health_row));
  return TRUE;
}

/* A saved document of the kind runs again from its row (a format is
 * asked for on its own, a benchmark's Test Again is the window's). */
static const struct
{
  const CmJobKind *kind;
  gboolean       (*again) (CmCardPage *self,
                           CmResult   *result);
} kind_rows[] = {
  { &cm_job_kind_capacity, capacity_again },
  { &cm_job_kind_verify, verify_again },
  { &cm_job_kind_wear, wear_again },
  { &cm_job_kind_format, NULL },
  { &cm_job_kind_health, health_again },
  { &cm_job_kind_queue, NULL },
};

static gint
find_kind_row (const char *kind)
{
  for (guint i = 0; kind != NULL && i < G_N_ELEMENTS (kind_rows); i++)
    if (g_str_equal (kind, kind_rows[i].kind->name))
      return (gint) i;
  return -1;
}

/**
 * cm_card_page_can_test_again:
 * @kind: a document's kind
 *
 * Whether Test Again on a saved document of @kind starts it on its
 * card's page.
 */
gboolean
cm_card_page_can_test_again (const char *kind)
{
  gint i = find_kind_row (kind);

  return i >= 0 && kind_rows[i].again != NULL;
}

/**
 * cm_card_page_test_again:
 * @result: a saved document of this page's card
 *
 * Starts @result's kind on the card again, through its row, as a click
 * there does: what writes to the card asks first. Nothing starts while
 * a job runs on the card (a click on a row that runs would stop it).
 *
 * Returns: FALSE when this page cannot run @result's kind now
 */
gboolean
cm_card_page_test_again (CmCardPage *self,
                         CmResult   *result)
{
  CmJob *busy;
  gint i;

  g_return_val_if_fail (CM_IS_CARD_PAGE (self), FALSE);
  g_return_val_if_fail (CM_IS_RESULT (result), FALSE);

  busy = cm_job_list_lookup (cm_job_list_get_default (), self->item);
  if (busy != NULL && cm_job_is_active (busy))
    return FALSE;
  i = find_kind_row (cm_result_get_kind (result));
  return i >= 0 && kind_rows[i].again != NULL && kind_rows[i].again (self, result);
}

/* Shows @job, one that runs on the page's card, started by an earlier
 * page of the same card. */
void
cm_card_page_follow_job (CmCardPage *self,
                         CmJob      *job)
{
  GtkWidget *rows[] = { self->capacity_row, self->verify_row, self->wear_row, self->format_row, self->health_row,
                        self->queue_row };
  const CmJobKind *kind;

  g_return_if_fail (CM_IS_CARD_PAGE (self));
  g_return_if_fail (CM_IS_JOB (job));

  if (!cm_job_is_active (job) || cm_card_page_get_job (self) != NULL)
    return;
  kind = cm_job_kinds_lookup (cm_job_get_kind (job));
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    if (rows[i] != NULL && cm_kind_row_get_kind (CM_KIND_ROW (rows[i])) == kind &&
        !cm_kind_row_get_busy (CM_KIND_ROW (rows[i])))
      cm_kind_row_follow_job (CM_KIND_ROW (rows[i]), job);
}

/* The brand picked here titles the card in History, whichever row
 * starts its job. */
static void
row_prepare_job_cb (CmCardPage *self,
                    CmJob      *job)
{
  cm_job_set_brand (job, cm_card_page_get_brand (self));
}

/* A capacity check, a verify, a wear test or a format started or
 * ended: one job on a card at a time, and only its row can stop it. */
static void
row_busy_cb (CmCardPage *self)
{
  GtkWidget *rows[N_HOLDING_ROWS];
  GtkWidget *running = NULL;

  get_holding_rows (self, rows);
  for (guint i = 0; i < N_HOLDING_ROWS; i++)
    if (rows[i] != NULL && cm_kind_row_get_busy (CM_KIND_ROW (rows[i])))
      running = rows[i];
  gtk_widget_set_sensitive (GTK_WIDGET (self->test_group), running == NULL);
  gtk_widget_set_sensitive (self->start_button, running == NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->class_box), running == NULL);
  for (guint i = 0; i < N_HOLDING_ROWS; i++)
    if (rows[i] != NULL)
      gtk_widget_set_sensitive (rows[i], running == NULL || running == rows[i]);
  /* It says why it cannot start while another job holds the card. */
  if (self->format_row != NULL)
    cm_kind_row_set_item (CM_KIND_ROW (self->format_row), self->item);
  if (running == NULL)
    cm_kind_row_fill (CM_KIND_ROW (self->capacity_row));
  if (self->outside_text != NULL)
    hold_rows (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_JOB]);
}

/* A verify, a wear test or a capacity check of the card ended, or its
 * Show was clicked: the document's page. */
static void
row_show_result_cb (CmCardPage *self,
                    CmResult   *result)
{
  g_signal_emit (self, signals[SIGNAL_SHOW_RESULT], 0, result);
}

/* What the capacity check's row says, for the tests. */
const char *
cm_card_page_get_capacity_subtitle (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);
  return adw_action_row_get_subtitle (ADW_ACTION_ROW (self->capacity_row));
}

/* The wear test's row, for the tests. */
GtkWidget *
cm_card_page_get_wear_row (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);
  return self->wear_row;
}

/* What the bar over the page says, or NULL while it is hidden; for the
 * tests. */
const char *
cm_card_page_get_job_bar_text (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);

  if (!gtk_revealer_get_reveal_child (self->job_bar))
    return NULL;
  return gtk_label_get_label (self->job_label);
}

/* The Erase and Format row, a device's only; NULL for a folder. */
GtkWidget *
cm_card_page_get_format_row (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);
  return self->format_row;
}

/**
 * cm_card_page_erase_and_format:
 *
 * Asks to erase and format the page's card, as its Format… does (the
 * result page of a check that erased it offers it). FALSE for a folder.
 */
gboolean
cm_card_page_erase_and_format (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), FALSE);

  if (self->format_row == NULL)
    return FALSE;
  cm_kind_row_activate (CM_KIND_ROW (self->format_row));
  return TRUE;
}

/* The last benchmark's row, for the tests. */
GtkWidget *
cm_card_page_get_bench_row (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);
  return self->bench_row;
}

/* The Health row, a device's only; NULL for a folder. */
GtkWidget *
cm_card_page_get_health_row (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);
  return self->health_row;
}

GtkWidget *
cm_card_page_get_verify_row (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);
  return self->verify_row;
}

/* The bar over the page: whatever job runs on the card — its capacity
 * check or its verify — with its progress and a Stop, never scrolled out
 * of sight. */
/* The rows that start a job on the card: none can while another
 * program holds it, and each says why. */
static void
hold_rows (CmCardPage *self,
           gboolean    held)
{
  GtkWidget *rows[] = { GTK_WIDGET (self->test_group), self->start_button, GTK_WIDGET (self->class_box),
                        GTK_WIDGET (self->capacity_row), self->verify_row, self->wear_row, self->format_row,
                        self->queue_row };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    if (rows[i] != NULL)
      {
        gtk_widget_set_tooltip_text (rows[i], held ? self->outside_text : NULL);
        if (held)
          gtk_widget_set_sensitive (rows[i], FALSE);
      }
  /* Let go: each row as the page's own jobs leave it. */
  if (!held)
    row_busy_cb (self);
}

/* The bar over the page while another program runs a job on the card:
 * what and how far, with no Stop (it is not this program's). */
static void
show_outside_job (CmCardPage *self)
{
  if (self->outside_text == NULL)
    {
      gtk_revealer_set_reveal_child (self->job_bar, FALSE);
      return;
    }
  gtk_label_set_label (self->job_label, self->outside_text);
  gtk_widget_set_visible (self->job_stop_button, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->job_progress), self->outside_fraction >= 0);
  gtk_progress_bar_set_fraction (self->job_progress, MAX (self->outside_fraction, 0));
  gtk_revealer_set_reveal_child (self->job_bar, TRUE);
}

static void
update_job_bar (CmCardPage *self)
{
  g_autofree char *text = NULL;

  if (self->shown_job == NULL || !cm_job_is_active (self->shown_job))
    {
      show_outside_job (self);
      return;
    }
  gtk_widget_set_visible (self->job_stop_button, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->job_progress), TRUE);
  text = cm_job_dup_status_text (self->shown_job);
  gtk_label_set_label (self->job_label, text);
  gtk_progress_bar_set_fraction (self->job_progress, cm_job_get_progress (self->shown_job));
  gtk_revealer_set_reveal_child (self->job_bar, TRUE);
}

static void
job_changed_cb (CmCardPage *self)
{
  CmJob *job = cm_card_page_get_job (self);

  if (job != self->shown_job)
    {
      if (self->shown_job != NULL)
        g_signal_handlers_disconnect_by_data (self->shown_job, self);
      g_set_object (&self->shown_job, job);
      if (job != NULL)
        {
          cm_job_watch (job, G_CALLBACK (update_job_bar), G_CALLBACK (update_job_bar), self);
        }
    }
  update_job_bar (self);
}

/* Whether another program (cardmark-cli, another copy of the app) runs
 * a job on the card: looked at every second, as nothing tells the app
 * when another process takes or lets go of a card's lock. */
static gboolean
outside_poll_cb (gpointer data)
{
  CmCardPage *self = data;
  g_autofree char *text = NULL;
  double fraction = -1;
  gboolean was = self->outside_text != NULL;

  if (cm_card_page_get_job (self) == NULL)
    text = cm_job_list_dup_outside_text (self->item, &fraction);
  if (g_strcmp0 (text, self->outside_text) == 0 && fraction == self->outside_fraction)
    return G_SOURCE_CONTINUE;
  g_free (self->outside_text);
  self->outside_text = g_steal_pointer (&text);
  self->outside_fraction = fraction;
  if (self->outside_text != NULL || was)
    hold_rows (self, self->outside_text != NULL);
  update_job_bar (self);
  return G_SOURCE_CONTINUE;
}

/* What the bar says of another program's job on the card, or NULL; for
 * the tests. */
const char *
cm_card_page_get_outside_job_text (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);
  return self->outside_text;
}

static void
job_stop_clicked_cb (CmCardPage *self)
{
  if (self->shown_job != NULL)
    cm_job_cancel (self->shown_job);
}

static void
cm_card_page_dispose (GObject *object)
{
  CmCardPage *self = CM_CARD_PAGE (object);

  /* The job goes on without the page; the application holds it. */
  if (self->shown_job != NULL)
    g_signal_handlers_disconnect_by_data (self->shown_job, self);
  g_clear_object (&self->shown_job);

  g_clear_handle_id (&self->outside_poll, g_source_remove);
  g_clear_pointer (&self->outside_text, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), CM_TYPE_CARD_PAGE);
  g_clear_object (&self->item);

  G_OBJECT_CLASS (cm_card_page_parent_class)->dispose (object);
}

static void
cm_card_page_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  CmCardPage *self = CM_CARD_PAGE (object);

  switch (prop_id)
    {
    case PROP_JOB:
      g_value_set_object (value, cm_card_page_get_job (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Opened, the page's main action has the focus: Enter starts the test
 * (the safe method unless another is picked), Tab goes on from there.
 * Once, when the page is first shown, and after the stack has shown it. */
static gboolean
focus_start_cb (gpointer data)
{
  CmCardPage *self = data;

  if (gtk_widget_get_mapped (GTK_WIDGET (self)) && gtk_widget_is_sensitive (self->start_button))
    gtk_widget_grab_focus (self->start_button);
  return G_SOURCE_REMOVE;
}

static void
cm_card_page_map (GtkWidget *widget)
{
  CmCardPage *self = CM_CARD_PAGE (widget);

  GTK_WIDGET_CLASS (cm_card_page_parent_class)->map (widget);
  if (self->focused_once)
    return;
  self->focused_once = TRUE;
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, focus_start_cb, g_object_ref (self), g_object_unref);
}

static void
cm_card_page_class_init (CmCardPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_card_page_dispose;
  object_class->get_property = cm_card_page_get_property;
  widget_class->map = cm_card_page_map;

  /* The capacity check or verify that works on the card: nothing else
   * may meanwhile. */
  properties[PROP_JOB] =
    g_param_spec_object ("job", NULL, NULL, CM_TYPE_JOB,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * CmCardPage::show-result:
   * @result: a document of the page's card to show: a capacity check's,
   *   a verify's or a wear test's, that just ended or whose Show was
   *   clicked
   *
   * The window shows its page, if the card's page is still the one in
   * sight.
   */
  signals[SIGNAL_SHOW_RESULT] =
    g_signal_new ("show-result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CM_TYPE_RESULT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-card-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, identity_group);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, identity_row);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, declared_row);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, seen_list);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, class_box);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, brand_row);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, profile_row);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, method_row);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, test_group);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, start_button);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, capacity_group);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, format_group);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, capacity_row);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, capacity_progress);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, capacity_map);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, method_warning);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, method_warning_label);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, method_fix_button);
  gtk_widget_class_bind_template_callback (widget_class, method_fix_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, update_method_warning);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, job_bar);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, job_label);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, job_progress);
  gtk_widget_class_bind_template_child (widget_class, CmCardPage, job_stop_button);
  gtk_widget_class_bind_template_callback (widget_class, job_stop_clicked_cb);
}

static void
setup_value_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_list_item_set_child (list_item, label);
}

static void
bind_value_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item)
{
  GtkStringObject *item = gtk_list_item_get_item (list_item);

  gtk_label_set_label (GTK_LABEL (gtk_list_item_get_child (list_item)),
                       gtk_string_object_get_string (item));
}

/* A combo row's value wraps rather than being cut ("Rápida, alrededor
 * de u…" at 800 pixels in Spanish): the row grows a line instead. */
static void
wrap_combo_values (AdwComboRow *row)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_value_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_value_cb), NULL);
  adw_combo_row_set_factory (row, factory);
}

static void
cm_card_page_init (CmCardPage *self)
{
  g_type_ensure (CM_TYPE_CHART_VIEW);
  g_type_ensure (CM_TYPE_CAPACITY_ROW);
  g_type_ensure (CM_TYPE_SEEN_LIST);
  gtk_widget_init_template (GTK_WIDGET (self));
  wrap_combo_values (self->brand_row);
  wrap_combo_values (self->profile_row);
  wrap_combo_values (self->method_row);
  g_signal_connect (self, "notify::job", G_CALLBACK (job_changed_cb), NULL);
}

/* Tested before, or a cloned CID, from the history or the lab's store:
 * again when the user picks the brand on the label, which may be another
 * than the one the same CID came with. */
static void
look_up_seen (CmCardPage *self)
{
  cm_seen_list_look_up_card (self->seen_list, cm_card_item_get_card_info (self->item),
                             cm_card_page_get_brand (self));
}

CmCardPage *
cm_card_page_new (CmCardItem *item)
{
  CmCardPage *self;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  self = g_object_new (CM_TYPE_CARD_PAGE, NULL);
  self->item = g_object_ref (item);
  fill_identity (self);
  /* What is known of the card before: looked up now, when the brand is
   * picked, and each time the page shows again (a check may have ended
   * and been sent to the store since). */
  look_up_seen (self);
  g_signal_connect_object (self->brand_row, "notify::selected", G_CALLBACK (look_up_seen), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "map", G_CALLBACK (look_up_seen), self, G_CONNECT_SWAPPED);
  fill_classes (self);
  fill_methods (self);
  cm_capacity_row_set_views (CM_CAPACITY_ROW (self->capacity_row), self->capacity_progress, self->capacity_map);
  cm_kind_row_set_item (CM_KIND_ROW (self->capacity_row), item);
  g_signal_connect_object (self->capacity_row, "notify::busy", G_CALLBACK (row_busy_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->capacity_row, "show-result", G_CALLBACK (row_show_result_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->capacity_row, "prepare-job", G_CALLBACK (row_prepare_job_cb), self, G_CONNECT_SWAPPED);
  if (cm_card_item_get_kind (item) == CM_CARD_KIND_DEVICE)
    {
      self->health_row = cm_health_row_new (item);
      adw_preferences_group_add (self->identity_group, self->health_row);
    }
  self->verify_row = cm_verify_row_new (item);
  adw_preferences_group_add (self->capacity_group, self->verify_row);
  g_signal_connect_object (self->verify_row, "notify::busy", G_CALLBACK (row_busy_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->verify_row, "show-result", G_CALLBACK (row_show_result_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->verify_row, "prepare-job", G_CALLBACK (row_prepare_job_cb), self, G_CONNECT_SWAPPED);
  self->wear_row = cm_wear_row_new (item);
  adw_preferences_group_add (self->capacity_group, self->wear_row);
  g_signal_connect_object (self->wear_row, "notify::busy", G_CALLBACK (row_busy_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->wear_row, "show-result", G_CALLBACK (row_show_result_cb), self, G_CONNECT_SWAPPED);
  if (cm_queue_row_wanted (item))
    {
      self->queue_row = cm_queue_row_new (item);
      adw_preferences_group_add (self->capacity_group, self->queue_row);
      g_signal_connect_object (self->queue_row, "notify::busy", G_CALLBACK (row_busy_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->queue_row, "show-result", G_CALLBACK (row_show_result_cb), self, G_CONNECT_SWAPPED);
    }
  if (cm_card_item_get_kind (item) == CM_CARD_KIND_DEVICE)
    {
      self->format_row = cm_format_row_new (item);
      adw_preferences_group_add (self->format_group, self->format_row);
      g_signal_connect_object (self->format_row, "notify::busy", G_CALLBACK (row_busy_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->format_row, "show-result", G_CALLBACK (row_show_result_cb), self, G_CONNECT_SWAPPED);
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->format_group), FALSE);
  /* The card's last benchmark, looked up each time the page shows. */
  self->bench_row = cm_bench_row_new (item);
  adw_preferences_group_add (self->test_group, self->bench_row);
  g_signal_connect_object (self->bench_row, "show-result", G_CALLBACK (row_show_result_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "map", G_CALLBACK (cm_bench_row_look_up), self->bench_row, G_CONNECT_SWAPPED);
  update_method_warning (self);
  self->outside_fraction = -1;
  outside_poll_cb (self);
  self->outside_poll = g_timeout_add_seconds (1, outside_poll_cb, self);

  return self;
}

/* The same card, as UDisks sees it now (mounted or unmounted since the
 * page opened, say): the test methods and the capacity check follow. */
void
cm_card_page_update_item (CmCardPage *self,
                          CmCardItem *item)
{
  CmMethod method;

  g_return_if_fail (CM_IS_CARD_PAGE (self));
  g_return_if_fail (CM_IS_CARD_ITEM (item));

  if (item == self->item)
    return;

  method = cm_card_page_get_method (self);
  /* Its identity stays; what can be done with it may not. */
  g_set_object (&self->item, item);
  fill_methods (self);
  cm_card_page_set_method (self, method);
  update_method_warning (self);
  cm_kind_row_set_item (CM_KIND_ROW (self->capacity_row), item);
  cm_kind_row_set_item (CM_KIND_ROW (self->verify_row), item);
  cm_kind_row_set_item (CM_KIND_ROW (self->wear_row), item);
  if (self->format_row != NULL)
    cm_kind_row_set_item (CM_KIND_ROW (self->format_row), item);
  if (self->queue_row != NULL)
    cm_kind_row_set_item (CM_KIND_ROW (self->queue_row), item);
}

CmCardItem *
cm_card_page_get_item (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);
  return self->item;
}

/* The warning shown next to Start Test, or NULL when there is none. */
const char *
cm_card_page_get_method_warning (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);

  if (!gtk_widget_get_visible (self->method_warning))
    return NULL;
  return gtk_label_get_label (self->method_warning_label);
}

/* Picks the method the warning offers, as its button does; FALSE when
 * there is no warning or nothing to offer. */
gboolean
cm_card_page_accept_method_fix (CmCardPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_PAGE (self), FALSE);

  if (!gtk_widget_get_visible (self->method_warning) ||
      !gtk_widget_get_visible (GTK_WIDGET (self->method_fix_button)))
    return FALSE;
  g_signal_emit_by_name (self->method_fix_button, "clicked");
  return TRUE;
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
  guint selected;

  g_return_val_if_fail (CM_IS_CARD_PAGE (self), NULL);

  /* "Not given" and "Other" name no brand the card can be checked
   * against, and neither is a brand to keep with the result. */
  selected = adw_combo_row_get_selected (self->brand_row);
  if (selected == 0 || selected + 1 >= g_list_model_get_n_items (adw_combo_row_get_model (self->brand_row)))
    return NULL;

  item = adw_combo_row_get_selected_item (self->brand_row);
  return item != NULL ? gtk_string_object_get_string (item) : NULL;
}

/* Picks @brand as the user would; FALSE when the list has no such brand. */
gboolean
cm_card_page_set_brand (CmCardPage *self,
                        const char *brand)
{
  GListModel *model;

  g_return_val_if_fail (CM_IS_CARD_PAGE (self), FALSE);
  g_return_val_if_fail (brand != NULL, FALSE);

  model = adw_combo_row_get_model (self->brand_row);
  for (guint i = 1; i + 1 < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (gtk_string_object_get_string (item), brand) == 0)
        {
          adw_combo_row_set_selected (self->brand_row, i);
          return TRUE;
        }
    }
  return FALSE;
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
