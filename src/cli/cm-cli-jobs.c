/* cm-cli-jobs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What bench, probe-capacity, verify and endure share when given several
 * TARGETs: one CmJob each, all running at once on one main loop (the card
 * lock refuses two jobs on one card), one progress line per card, the
 * documents in one JSON array in the order given, and the worst exit
 * status. With one TARGET every command behaves as it always did.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <unistd.h>

#include "cm-cli.h"
#include "cm-cli-jobs.h"
#include "cm-outcome.h"

/* With several cards, a card's progress line at most this often. */
#define SEVERAL_EVERY_US (2 * G_USEC_PER_SEC)

typedef struct
{
  GMainLoop *loop;
  guint      running;
} Run;

typedef struct
{
  Run         *run;
  CmCliTarget *target;
} Pending;

static int
rank (int status)
{
  switch (status)
    {
    case CM_EXIT_OK:      return 0;
    case CM_OUTCOME_EXIT_STOPPED: return 1;
    case CM_EXIT_FAILED:  return 2;
    case CM_EXIT_BELOW:   return 3;
    case CM_EXIT_FAKE:    return 4;
    default:              return 5;
    }
}

/* 4 (data lost) over 3 (below its class) over 1 (failed) over 5
 * (stopped) over 0. */
int
cm_cli_worst_status (int a,
                     int b)
{
  return rank (b) > rank (a) ? b : a;
}

void
cm_cli_jobs_clear (CmCliTarget *t)
{
  if (t->redrawn)
    fprintf (stderr, "\r\033[K");
  t->redrawn = FALSE;
}

static void
vprint (CmCliTarget *t,
        gboolean     progress,
        const char  *format,
        va_list      args)
{
  g_autofree char *text = g_strdup_vprintf (format, args);

  if (!t->several)
    {
      if (progress)
        {
          /* One card: its line is redrawn in place, on a terminal only. */
          if (!t->tty)
            return;
          fprintf (stderr, "\r\033[K%s", text);
          t->redrawn = TRUE;
        }
      else
        {
          cm_cli_jobs_clear (t);
          fputs (text, stderr);
        }
      fflush (stderr);
      return;
    }

  if (progress)
    {
      gint64 now = g_get_monotonic_time ();

      if (t->shown != 0 && now - t->shown < SEVERAL_EVERY_US)
        return;
      t->shown = now;
    }
  /* Several cards: each line says whose it is, and none is redrawn. */
  g_strchomp (text);
  fprintf (stderr, "%s: %s\n", t->target, text);
  fflush (stderr);
}

/* A progress line: redrawn for one card on a terminal, one line per card
 * every few seconds for several. */
void
cm_cli_jobs_progress (CmCliTarget *t,
                      const char  *format,
                      ...)
{
  va_list args;

  va_start (args, format);
  vprint (t, TRUE, format, args);
  va_end (args);
}

/* A line to keep (a phase began, a round ended): prefixed with the
 * target when there are several. */
void
cm_cli_jobs_say (CmCliTarget *t,
                 const char  *format,
                 ...)
{
  va_list args;

  va_start (args, format);
  vprint (t, FALSE, format, args);
  va_end (args);
}

/* The paragraph every --help of a command that takes several ends with. */
const char *
cm_cli_jobs_describe (void)
{
  return _("Several targets are tested at once, one line of progress each. With --json the output is one JSON array "
           "of their documents, in the order given. A target that cannot be opened is named and the others go on; "
           "the exit status is the worst of them (4 over 3 over 1 over 5 over 0).");
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Pending *pending = user_data;
  CmCliTarget *t = pending->target;

  t->result = cm_job_run_finish (CM_JOB (object), result, &t->error);
  cm_cli_jobs_clear (t);
  if (--pending->run->running == 0)
    g_main_loop_quit (pending->run->loop);
  g_free (pending);
}

/* A bulk job paused for a card that measures on its bus: a line kept. */
static void
bus_paused_cb (CmJob       *job,
               const char  *measurer,
               CmCliTarget *t)
{
  cm_cli_jobs_say (t, "%s\n", cm_job_get_phase (job));
}

/* The command says what became of @t and returns only what it could
 * not do (1 no document or a file not written, 2 a usage error found
 * before the card was touched); the exit status of a card's verdict, or
 * of a stop, is its document's one outcome (cm-outcome.h) alone, and a
 * stop says so, with how to carry on where the kind can. */
static int
finish_one (const CmCliJobsFuncs *funcs,
            CmCliTarget          *t,
            JsonNode            **node,
            gboolean              json,
            gpointer              user_data)
{
  gboolean stopped = g_error_matches (t->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_autoptr(CmOutcome) outcome = t->result != NULL ? cm_result_dup_outcome (t->result) : NULL;
  int status = funcs->finish (t, node, user_data);

  /* What this computer's history, or the lab's store, knew of the card. */
  cm_cli_store_print_seen (t->result, json);

  if (outcome != NULL && outcome->status == CM_OUTCOME_STOPPED)
    stopped = TRUE;
  if (stopped)
    {
      if (outcome == NULL)
        outcome = cm_outcome_new_stopped (funcs->kind != NULL ? funcs->kind : t->job != NULL ? cm_job_get_kind (t->job) : NULL);
      fprintf (stderr, "%s\n", outcome->answer);
      if (funcs->resume_hint != NULL)
        {
          g_autofree char *hint = funcs->resume_hint (t, user_data);

          if (hint != NULL)
            fprintf (stderr, "%s\n", hint);
        }
      /* The command failed for want of a document: the stop is why. */
      return outcome->exit_status;
    }
  if (outcome != NULL)
    return cm_cli_worst_status (status, outcome->exit_status);
  return status;
}

/* Runs one job per target at once; returns the worst exit status. */
int
cm_cli_jobs_run (const CmCliJobsFuncs *funcs,
                 char                **targets,
                 int                   n_targets,
                 gboolean              json,
                 gpointer              user_data)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree CmCliTarget *all = g_new0 (CmCliTarget, n_targets);
  g_autoptr(JsonArray) documents = json_array_new ();
  gboolean several = n_targets > 1;
  gboolean tty = isatty (STDERR_FILENO);
  Run run = { loop, 0 };
  int status = CM_EXIT_OK;
  guint signal_source;

  signal_source = funcs->watch (cancellable, user_data);
  for (int i = 0; i < n_targets; i++)
    {
      CmCliTarget *t = &all[i];

      t->target = targets[i];
      t->several = several;
      t->tty = tty;
      funcs->prepare (t, user_data);
      if (t->job != NULL)
        {
          Pending *pending = g_new0 (Pending, 1);

          pending->run = &run;
          pending->target = t;
          run.running++;
          g_signal_connect (t->job, "bus-paused", G_CALLBACK (bus_paused_cb), t);
          cm_job_run_async (t->job, cancellable, done_cb, pending);
        }
    }
  if (run.running > 0)
    g_main_loop_run (loop);
  g_source_remove (signal_source);

  for (int i = 0; i < n_targets; i++)
    {
      CmCliTarget *t = &all[i];
      JsonNode *node = NULL;

      /* A card that failed is named, so the others' output still reads. */
      if (several && t->error != NULL)
        g_prefix_error (&t->error, "%s: ", t->target);
      if (several && !json && t->error == NULL)
        printf ("%s%s\n", i > 0 ? "\n" : "", t->target);
      status = cm_cli_worst_status (status, finish_one (funcs, t, several && json ? &node : NULL, json, user_data));
      fflush (stdout);
      if (node != NULL)
        json_array_add_element (documents, node);

      g_clear_error (&t->error);
      g_clear_object (&t->result);
      g_clear_object (&t->job);
      if (funcs->free_data != NULL && t->data != NULL)
        funcs->free_data (t->data);
    }

  if (several && json)
    {
      g_autoptr(JsonNode) root = json_node_new (JSON_NODE_ARRAY);

      json_node_set_array (root, documents);
      cm_cli_print_json (root);
    }
  cm_cli_store_report ();

  return status;
}
