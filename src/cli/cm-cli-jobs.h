/* cm-cli-jobs.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One command, several TARGETs: a CmJob each, all on one main loop.
 */

#pragma once

#include <stdio.h>

#include "cm-job.h"

G_BEGIN_DECLS

typedef struct
{
  const char *target;
  CmJob      *job;      /* NULL when prepare() could not start it (error set) */
  CmResult   *result;   /* the job's document, or NULL and error set */
  GError     *error;
  gboolean    several;  /* more than one TARGET: lines are prefixed, never redrawn */
  gboolean    tty;      /* stderr is a terminal */
  gpointer    data;     /* the command's own, freed with free_data */
  gint64      shown;    /* when a progress line was last printed */
  gboolean    redrawn;  /* a line waits to be cleared */
} CmCliTarget;

typedef struct
{
  /* Makes t->job and connects to it, or sets t->error. */
  void  (*prepare)   (CmCliTarget  *t,
                      gpointer      user_data);
  /* Once every job ended, in the order given: says what became of t and
   * returns its exit status. With @json non-NULL the document goes there
   * instead of stdout. */
  int   (*finish)    (CmCliTarget  *t,
                      JsonNode    **json,
                      gpointer      user_data);
  /* Cancels @cancellable on Ctrl-C (and the like); returns the source. */
  guint (*watch)     (GCancellable *cancellable,
                      gpointer      user_data);
  GDestroyNotify free_data;
  /* The kind its jobs are ("verify"), for the words of a stop. */
  const char    *kind;
  /* Optional: how to carry on after a stop, in this command's words
   * ("Carry on with “cardmark-cli verify --resume”."), or NULL. */
  char        *(*resume_hint) (CmCliTarget *t,
                               gpointer     user_data);
} CmCliJobsFuncs;

int  cm_cli_jobs_run      (const CmCliJobsFuncs *funcs,
                           char                **targets,
                           int                   n_targets,
                           gboolean              json,
                           gpointer              user_data);
void cm_cli_jobs_progress (CmCliTarget          *t,
                           const char           *format,
                           ...) G_GNUC_PRINTF (2, 3);
void cm_cli_jobs_say      (CmCliTarget          *t,
                           const char           *format,
                           ...) G_GNUC_PRINTF (2, 3);
void cm_cli_jobs_clear    (CmCliTarget          *t);
const char *cm_cli_jobs_describe (void);
int  cm_cli_worst_status  (int                   a,
                           int                   b);

G_END_DECLS
