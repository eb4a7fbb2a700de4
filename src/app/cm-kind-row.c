/* cm-kind-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every kind's row on a card's page shares (cm-kind-row.h): the
 * job of its kind it watches, the last document of its kind, Show, and
 * the action that becomes Stop while the job runs. The application
 * holds the job; the row only watches it, and a job goes on when the
 * row goes away.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-app-history.h"
#include "cm-backend.h"
#include "cm-history.h"
#include "cm-job-list.h"
#include "cm-outcome.h"
#include "cm-toast.h"

#include "cm-kind-row.h"

typedef struct
{
  CmCardItem   *item;
  CmJob        *job;          /* the job of the row's kind that runs, watched */
  CmResult     *result;       /* the last one, or NULL */
  gboolean      earlier;      /* the result is from before this session */
  gboolean      followed;     /* a job was followed in this session */
  GCancellable *finding;      /* the last result, looked up */
  char         *action_label; /* the action's label while no job runs */
  char         *stop_label;   /* the action's label while a job runs, or NULL
                               * when it cannot stop it */
  gboolean      shows;        /* Show opens the last result */

  GtkWidget    *badge;
  GtkButton    *show_button;
  GtkSpinner   *spinner;
  GtkButton    *button;
} CmKindRowPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (CmKindRow, cm_kind_row, ADW_TYPE_ACTION_ROW)

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

enum {
  SIGNAL_SHOW_RESULT,
  SIGNAL_PREPARE_JOB,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/**
 * cm_kind_row_fill:
 *
 * Says again what the row says while no job runs (its class's fill):
 * when the card or what is known of it changed.
 */
void
cm_kind_row_fill (CmKindRow *self)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_if_fail (CM_IS_KIND_ROW (self));

  if (priv->job != NULL)
    return;
  gtk_widget_set_visible (GTK_WIDGET (priv->show_button), priv->shows && priv->result != NULL);
  CM_KIND_ROW_GET_CLASS (self)->fill (self);
}

static void
set_busy (CmKindRow *self,
          gboolean   busy)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  gtk_widget_set_visible (GTK_WIDGET (priv->spinner), busy);
  gtk_spinner_set_spinning (priv->spinner, busy);
  if (priv->stop_label != NULL)
    gtk_button_set_label (priv->button, busy ? priv->stop_label : priv->action_label);
  else
    gtk_widget_set_sensitive (GTK_WIDGET (priv->button), !busy);
  if (busy)
    {
      gtk_widget_set_visible (GTK_WIDGET (priv->show_button), FALSE);
      gtk_widget_set_visible (priv->badge, FALSE);
    }
  else
    cm_kind_row_fill (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
progress_cb (CmKindRow *self)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  if (priv->job != NULL)
    CM_KIND_ROW_GET_CLASS (self)->progress (self, priv->job);
}

static void
state_cb (CmKindRow *self)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);
  g_autoptr(CmJob) job = priv->job != NULL ? g_object_ref (priv->job) : NULL;

  if (job == NULL || cm_job_is_active (job))
    return;

  g_signal_handlers_disconnect_by_data (job, self);
  g_clear_object (&priv->job);
  if (priv->item == NULL)
    return;  /* the row went away; the job kept what it did */

  if (cm_job_get_result (job) != NULL)
    {
      g_set_object (&priv->result, cm_job_get_result (job));
      priv->earlier = FALSE;
    }
  set_busy (self, FALSE);
  CM_KIND_ROW_GET_CLASS (self)->ended (self, job);
}

/**
 * cm_kind_row_follow_job:
 * @job: a job of the row's kind on the row's card
 *
 * Shows @job until it ends: the row's own, or one started elsewhere
 * (another window, a batch of cards).
 */
void
cm_kind_row_follow_job (CmKindRow *self,
                        CmJob     *job)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_if_fail (CM_IS_KIND_ROW (self));
  g_return_if_fail (CM_IS_JOB (job));
  g_return_if_fail (priv->job == NULL);

  priv->job = g_object_ref (job);
  priv->followed = TRUE;
  cm_job_watch (job, G_CALLBACK (progress_cb), G_CALLBACK (state_cb), self);
  set_busy (self, TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), _("Starting…"));
  progress_cb (self);
}

/**
 * cm_kind_job_new:
 * @kind: a kind from the kind table
 * @item: the card
 * @method: how the job reaches the card
 *
 * A job of @kind on @item as the app makes every one, before the kind's
 * own options are set: named after the card and kept in the history. A
 * kind's row file builds its job on it, once, for its row and for a
 * batch of cards alike.
 *
 * Returns: (transfer full): the job, not started
 */
CmJob *
cm_kind_job_new (const CmJobKind *kind,
                 CmCardItem      *item,
                 CmMethod         method)
{
  g_autoptr(CmHistory) history = NULL;
  CmJob *job;

  g_return_val_if_fail (kind != NULL, NULL);
  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  history = cm_app_history_dup ();
  job = cm_backend_new_job (kind, NULL, item, method);
  cm_job_set_name (job, cm_card_item_get_name (item));
  cm_job_set_history (job, history);
  return job;
}

/* cm_kind_job_new() of the row's kind on the row's card. */
CmJob *
cm_kind_row_new_job (CmKindRow *self,
                     CmMethod   method)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_val_if_fail (CM_IS_KIND_ROW (self), NULL);
  g_return_val_if_fail (priv->item != NULL, NULL);

  return cm_kind_job_new (cm_kind_row_get_kind (self), priv->item, method);
}

/**
 * cm_kind_row_start_job:
 * @job: a job of the row's kind on its card, its options set
 *
 * Starts @job in the application's job list, and follows it; the
 * card's page first sets what it knows of the card ("prepare-job").
 */
void
cm_kind_row_start_job (CmKindRow *self,
                       CmJob     *job)
{
  g_return_if_fail (CM_IS_KIND_ROW (self));
  g_return_if_fail (CM_IS_JOB (job));

  g_signal_emit (self, signals[SIGNAL_PREPARE_JOB], 0, job);
  cm_kind_row_follow_job (self, job);
  cm_job_list_start (cm_job_list_get_default (), job);
}

/**
 * cm_kind_row_show_done:
 * @job: a job of the row that ended
 *
 * Opens @job's document, if it made one, saying first when the history
 * could not keep it.
 */
void
cm_kind_row_show_done (CmKindRow *self,
                       CmJob     *job)
{
  g_return_if_fail (CM_IS_KIND_ROW (self));
  g_return_if_fail (CM_IS_JOB (job));

  if (cm_job_get_result (job) == NULL)
    return;
  if (cm_job_get_save_error (job) != NULL)
    {
      g_autofree char *message = g_strdup_printf (_("The result could not be kept in the history: %s"),
                                                  cm_job_get_save_error (job)->message);

      cm_toast_show (GTK_WIDGET (self), message);
    }
  g_signal_emit (self, signals[SIGNAL_SHOW_RESULT], 0, cm_job_get_result (job));
}

/**
 * cm_kind_row_dup_last_answer:
 *
 * The last result's answer in its kind's words, dated when it is from
 * before this session, or %NULL when there is none.
 */
char *
cm_kind_row_dup_last_answer (CmKindRow *self)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);
  g_autoptr(CmOutcome) outcome = NULL;
  const char *answer;

  g_return_val_if_fail (CM_IS_KIND_ROW (self), NULL);

  if (priv->result == NULL)
    return NULL;
  outcome = cm_result_dup_outcome (priv->result);
  answer = outcome->answer != NULL ? outcome->answer : outcome->badge;
  return priv->earlier ? cm_app_history_dup_earlier (priv->result, answer) : g_strdup (answer);
}

/**
 * cm_kind_row_activate:
 *
 * The row's action, as a click on it: stops the job that runs, or
 * starts one (after asking what the kind asks).
 */
void
cm_kind_row_activate (CmKindRow *self)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_if_fail (CM_IS_KIND_ROW (self));

  if (priv->job != NULL)
    {
      if (priv->stop_label != NULL)
        cm_job_cancel (priv->job);
      return;
    }
  CM_KIND_ROW_GET_CLASS (self)->activate (self);
}

static void
button_clicked_cb (CmKindRow *self)
{
  cm_kind_row_activate (self);
}

static void
show_clicked_cb (CmKindRow *self)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  if (priv->result != NULL)
    g_signal_emit (self, signals[SIGNAL_SHOW_RESULT], 0, priv->result);
}

/* The card's last result of the kind from before this session, unless
 * a job of this one says more. */
static void
last_found (gpointer  owner,
            CmResult *last)
{
  CmKindRow *self = owner;
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_clear_object (&priv->finding);
  if (last == NULL || priv->result != NULL || priv->job != NULL || priv->followed || priv->item == NULL)
    return;
  priv->result = g_object_ref (last);
  priv->earlier = TRUE;
  cm_kind_row_fill (self);
}

/**
 * cm_kind_row_set_item:
 *
 * The row's card, or the same card as UDisks sees it now (mounted or
 * not), or again once another job of it started or ended.
 */
void
cm_kind_row_set_item (CmKindRow  *self,
                      CmCardItem *item)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_if_fail (CM_IS_KIND_ROW (self));
  g_return_if_fail (CM_IS_CARD_ITEM (item));

  g_set_object (&priv->item, item);
  cm_kind_row_fill (self);
  /* After a restart: the card's last result of the kind, from the
   * history, once, in another thread; not where the kind cannot run at
   * all (its fill hid the action: a health read behind a USB reader). */
  if (priv->result == NULL && priv->job == NULL && priv->finding == NULL && !priv->followed && gtk_widget_get_visible (GTK_WIDGET (priv->button)))
    {
      priv->finding = g_cancellable_new ();
      cm_app_history_find_last (item, cm_kind_row_get_kind (self)->name, priv->finding, last_found, self);
    }
}

CmCardItem *
cm_kind_row_get_item (CmKindRow *self)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_val_if_fail (CM_IS_KIND_ROW (self), NULL);
  return priv->item;
}

const CmJobKind *
cm_kind_row_get_kind (CmKindRow *self)
{
  g_return_val_if_fail (CM_IS_KIND_ROW (self), NULL);
  return CM_KIND_ROW_GET_CLASS (self)->kind;
}

/* Whether a job of the row's kind runs on its card, watched. */
gboolean
cm_kind_row_get_busy (CmKindRow *self)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_val_if_fail (CM_IS_KIND_ROW (self), FALSE);
  return priv->job != NULL;
}

/* The job the row shows while it runs, or NULL. */
CmJob *
cm_kind_row_get_job (CmKindRow *self)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_val_if_fail (CM_IS_KIND_ROW (self), NULL);
  return priv->job;
}

/* The card's last document of the row's kind, or NULL. */
CmResult *
cm_kind_row_get_result (CmKindRow *self)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_val_if_fail (CM_IS_KIND_ROW (self), NULL);
  return priv->result;
}

/**
 * cm_kind_row_set_action:
 * @label: the action's label while no job runs, with a mnemonic
 * @tooltip: (nullable): what it does
 */
void
cm_kind_row_set_action (CmKindRow  *self,
                        const char *label,
                        const char *tooltip)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_if_fail (CM_IS_KIND_ROW (self));
  g_return_if_fail (label != NULL);

  if (g_strcmp0 (priv->action_label, label) != 0)
    {
      g_free (priv->action_label);
      priv->action_label = g_strdup (label);
    }
  if (priv->job == NULL || priv->stop_label == NULL)
    gtk_button_set_label (priv->button, priv->action_label);
  if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (priv->button)), tooltip) != 0)
    gtk_widget_set_tooltip_text (GTK_WIDGET (priv->button), tooltip);
}

/**
 * cm_kind_row_set_stop_label:
 * @label: (nullable): the action's label while a job runs ("_Stop" by
 *   default), or %NULL when it cannot stop it and is only insensitive
 *   until it ends (a job of seconds)
 */
void
cm_kind_row_set_stop_label (CmKindRow  *self,
                            const char *label)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_if_fail (CM_IS_KIND_ROW (self));
  g_free (priv->stop_label);
  priv->stop_label = g_strdup (label);
}

/* Offers Show, which opens the last result, with @tooltip. */
void
cm_kind_row_set_show (CmKindRow  *self,
                      const char *tooltip)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_if_fail (CM_IS_KIND_ROW (self));
  priv->shows = TRUE;
  gtk_widget_set_tooltip_text (GTK_WIDGET (priv->show_button), tooltip);
}

/* Whether the action can start a job now; said by the class's fill. */
void
cm_kind_row_set_can_start (CmKindRow *self,
                           gboolean   can_start)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_if_fail (CM_IS_KIND_ROW (self));
  gtk_widget_set_sensitive (GTK_WIDGET (priv->button), can_start || priv->job != NULL);
}

void
cm_kind_row_set_subtitle (CmKindRow  *self,
                          const char *subtitle)
{
  g_return_if_fail (CM_IS_KIND_ROW (self));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), subtitle != NULL ? subtitle : "");
}

/* A label at the row's end, hidden until the kind shows it
 * (cm-outcome-badge.h); hidden again while a job runs. */
GtkWidget *
cm_kind_row_get_badge (CmKindRow *self)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_val_if_fail (CM_IS_KIND_ROW (self), NULL);
  return priv->badge;
}

/* The action's button, for a kind that has none on some cards. */
GtkWidget *
cm_kind_row_get_button (CmKindRow *self)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  g_return_val_if_fail (CM_IS_KIND_ROW (self), NULL);
  return GTK_WIDGET (priv->button);
}

static void
cm_kind_row_real_progress (CmKindRow *self,
                           CmJob     *job)
{
  g_autofree char *text = cm_job_dup_progress_text (job);

  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), text);
}

static void
cm_kind_row_dispose (GObject *object)
{
  CmKindRow *self = CM_KIND_ROW (object);
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  /* The job goes on without the row; the application holds it. */
  if (priv->job != NULL)
    g_signal_handlers_disconnect_by_data (priv->job, self);
  g_clear_object (&priv->job);
  g_cancellable_cancel (priv->finding);
  g_clear_object (&priv->finding);
  g_clear_object (&priv->item);
  g_clear_object (&priv->result);
  g_clear_pointer (&priv->action_label, g_free);
  g_clear_pointer (&priv->stop_label, g_free);

  G_OBJECT_CLASS (cm_kind_row_parent_class)->dispose (object);
}

static void
cm_kind_row_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  CmKindRow *self = CM_KIND_ROW (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, cm_kind_row_get_busy (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_kind_row_class_init (CmKindRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_kind_row_dispose;
  object_class->get_property = cm_kind_row_get_property;
  klass->progress = cm_kind_row_real_progress;
  klass->ended = cm_kind_row_show_done;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * CmKindRow::show-result:
   * @result: the document a job of the row just made, or the last one
   *   when Show is clicked
   *
   * The window shows its page.
   */
  signals[SIGNAL_SHOW_RESULT] =
    g_signal_new ("show-result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CM_TYPE_RESULT);
  /**
   * CmKindRow::prepare-job:
   * @job: a job of the row, about to start
   *
   * The card's page may set what it knows of the card (its brand).
   */
  signals[SIGNAL_PREPARE_JOB] =
    g_signal_new ("prepare-job", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CM_TYPE_JOB);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-kind-row.ui");
  gtk_widget_class_bind_template_child_private (widget_class, CmKindRow, badge);
  gtk_widget_class_bind_template_child_private (widget_class, CmKindRow, show_button);
  gtk_widget_class_bind_template_child_private (widget_class, CmKindRow, spinner);
  gtk_widget_class_bind_template_child_private (widget_class, CmKindRow, button);
  gtk_widget_class_bind_template_callback (widget_class, button_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_clicked_cb);
}

static void
cm_kind_row_init (CmKindRow *self)
{
  CmKindRowPrivate *priv = cm_kind_row_get_instance_private (self);

  priv->stop_label = g_strdup (_("_Stop"));
  gtk_widget_init_template (GTK_WIDGET (self));
}
