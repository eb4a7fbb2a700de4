/* cm-history-index.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-outcome.h"
#include "cm-result.h"

G_BEGIN_DECLS

/* One row of the index: what a list shows of one history document. */
typedef struct
{
  char    *path;       /* the document */
  gboolean damaged;    /* the document could not be read */
  char    *kind;
  char    *serial;     /* the card's CID serial, or NULL */
  char    *name;
  char    *brand;
  guint64  size_bytes; /* the card's registers', else its block device's; 0 if unknown */
  gint64   started;    /* unix seconds, 0 if unknown */
  char    *title;      /* the card as History titles it */
  char    *run;        /* a benchmark's profile, or the job's kind */
  char    *verdict;
  double   figures[4]; /* write, read MB/s; 4K write, read IOPS; -1 if none */
  char    *problem;    /* why a damaged document could not be read */
  char    *machine;    /* the test machine, from the shared store; NULL here */
  CmStatus tone;       /* the verdict's colour (cm_summary_dup_answer()) */
  CmOutcomeStatus outcome; /* pass, fail, not judged or stopped */
  char    *badge;      /* the outcome in the kind's words: "Fake", "Stopped" */
  char    *answer;     /* cm_summary_dup_answer(), or NULL */
  char    *method;     /* a benchmark's method in words, or NULL */
  char    *figures_text; /* "Sequential read 45.1 MB/s · …", or "" */
} CmHistoryEntry;

CmHistoryEntry *cm_history_entry_new_for_result (CmResult *result) G_GNUC_WARN_UNUSED_RESULT;
void cm_history_entry_free (CmHistoryEntry *entry);
const char *cm_history_entry_get_run_label (const CmHistoryEntry *entry);
gboolean cm_history_entry_is_of_card (const CmHistoryEntry *entry,
                                      const char           *serial,
                                      guint64               size_bytes);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmHistoryEntry, cm_history_entry_free)

typedef struct _CmHistoryIndex CmHistoryIndex;

/* How many documents cm_history_index_refresh() indexes in one
 * transaction: what a build stopped half way keeps is whole batches. */
#define CM_HISTORY_INDEX_BATCH_SIZE 250

/**
 * CmHistoryIndexProgressFunc:
 * @done: the documents indexed so far in this refresh
 * @total: the documents this refresh indexes: the new and changed ones
 *   only, so a build resumed after a stop counts what is left
 * @user_data: as given to cm_history_index_set_progress_func()
 *
 * Called by cm_history_index_refresh(), in the thread that runs it (the
 * app's worker: hand the figures to the main loop with
 * g_main_context_invoke()), with 0 before the first batch and again
 * after each batch is kept; never when nothing changed.
 *
 * Returns: %FALSE to stop the build: the batches done are kept, the
 *   refresh fails with %G_IO_ERROR_CANCELLED and the next one goes on
 *   from there
 */
typedef gboolean (*CmHistoryIndexProgressFunc) (guint    done,
                                                guint    total,
                                                gpointer user_data);

CmHistoryIndex *cm_history_index_open    (GFile           *folder,
                                          GError         **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean        cm_history_index_exists  (GFile           *folder);
const char     *cm_history_index_get_path (CmHistoryIndex *self);
void            cm_history_index_free    (CmHistoryIndex  *self);
void            cm_history_index_set_progress_func (CmHistoryIndex             *self,
                                                    CmHistoryIndexProgressFunc  func,
                                                    gpointer                    user_data);
gboolean        cm_history_index_refresh (CmHistoryIndex  *self,
                                          GError         **error);
guint           cm_history_index_count   (CmHistoryIndex  *self);
GPtrArray      *cm_history_index_query   (CmHistoryIndex  *self,
                                          guint            offset,
                                          guint            limit) G_GNUC_WARN_UNUSED_RESULT;
CmHistoryEntry *cm_history_index_last_for_serial (CmHistoryIndex *self,
                                                  const char     *serial) G_GNUC_WARN_UNUSED_RESULT;
GPtrArray      *cm_history_index_query_kinds (CmHistoryIndex     *self,
                                              const char         *serial,
                                              const char * const *kinds,
                                              guint               limit) G_GNUC_WARN_UNUSED_RESULT;

/* Returns FALSE to stop. */
typedef gboolean (*CmHistoryIndexFunc) (CmHistoryEntry *entry,
                                        gpointer        user_data);

void            cm_history_index_foreach (CmHistoryIndex     *self,
                                          gboolean            damaged,
                                          gboolean            oldest_first,
                                          CmHistoryIndexFunc  func,
                                          gpointer            user_data);
GPtrArray      *cm_history_index_build_batch_report (CmHistoryIndex *self) G_GNUC_WARN_UNUSED_RESULT;

GPtrArray      *cm_history_index_list_for_serial (CmHistoryIndex *self,
                                                  const char     *serial,
                                                  guint           limit) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmHistoryIndex, cm_history_index_free)

G_END_DECLS
