/* cm-capacity-probe.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-capacity-report.h"

G_BEGIN_DECLS

#define CM_CAPACITY_ERROR (cm_capacity_error_quark ())

typedef enum
{
  CM_CAPACITY_ERROR_OTHER_CARD,   /* a journal names another card */
  CM_CAPACITY_ERROR_INTERRUPTED,  /* a journal waits to be restored first */
  CM_CAPACITY_ERROR_JOURNAL,      /* the journal could not be written or read */
  CM_CAPACITY_ERROR_BUSY,         /* a check of this card is running now */
  CM_CAPACITY_ERROR_DAMAGED,      /* the journal fails its checksum or its ranges */
} CmCapacityError;

GQuark cm_capacity_error_quark (void);

/* Caches up to this size are ruled out unless asked for more. */
#define CM_CAPACITY_DEFAULT_CACHE (G_GUINT64_CONSTANT (256) * 1024 * 1024)


typedef enum
{
  CM_CAPACITY_PHASE_SAVING,     /* reading what will be overwritten, into the journal */
  CM_CAPACITY_PHASE_SIGNING,
  CM_CAPACITY_PHASE_FLUSHING,   /* pushing signatures out of any cache */
  CM_CAPACITY_PHASE_READING,
  CM_CAPACITY_PHASE_RESTORING,
} CmCapacityPhase;

typedef struct
{
  CmCapacityPhase phase;
  double          fraction;
  double          seconds_left;   /* < 0 while not yet known */
} CmCapacityProgress;

typedef void (*CmCapacityProgressFunc) (const CmCapacityProgress *progress,
                                        gpointer                  user_data);

char    *cm_capacity_report_describe (const char             *device,
                                      const CmCapacityReport *report) G_GNUC_WARN_UNUSED_RESULT;
char    *cm_capacity_progress_describe (const CmCapacityProgress *progress) G_GNUC_WARN_UNUSED_RESULT;

double   cm_capacity_estimate_seconds (guint64 size,
                                       guint64 cache_bytes,
                                       double  write_mb_s,
                                       double  read_mb_s);
char    *cm_capacity_describe_plan    (guint64 size,
                                       guint64 cache_bytes) G_GNUC_WARN_UNUSED_RESULT;

/* The blocking check; called from a worker thread. @progress is called
 * on that thread. */
CmCapacityReport *cm_capacity_probe (int                     fd,
                                     const char             *device,
                                     guint64                 size,
                                     guint64                 cache_bytes,
                                     GCancellable           *cancellable,
                                     CmCapacityProgressFunc  progress,
                                     gpointer                user_data,
                                     GError                **error) G_GNUC_WARN_UNUSED_RESULT;

/* The same in a thread; @progress reaches the caller's main context a
 * few times a second. @fd stays the caller's and must stay open until
 * the callback. */
void              cm_capacity_probe_async  (int                     fd,
                                            const char             *device,
                                            guint64                 size,
                                            guint64                 cache_bytes,
                                            GCancellable           *cancellable,
                                            CmCapacityProgressFunc  progress,
                                            gpointer                progress_data,
                                            GAsyncReadyCallback     callback,
                                            gpointer                user_data);
CmCapacityReport *cm_capacity_probe_finish (GAsyncResult           *result,
                                            GError                **error) G_GNUC_WARN_UNUSED_RESULT;

/* The journal of an interrupted check. */
GFile   *cm_capacity_journal_default_folder (void) G_GNUC_WARN_UNUSED_RESULT;
char    *cm_capacity_card_identity          (const char  *device,
                                             guint64      size) G_GNUC_WARN_UNUSED_RESULT;
char    *cm_capacity_journal_find           (GFile       *folder,
                                             const char  *device,
                                             guint64      size,
                                             GError     **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean cm_capacity_journal_restore        (int          fd,
                                             const char  *device,
                                             guint64      size,
                                             const char  *journal,
                                             guint       *n_restored,
                                             char       **note,
                                             GError     **error);
void     cm_capacity_restore_async          (int                  fd,
                                             const char          *device,
                                             guint64              size,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
gboolean cm_capacity_restore_finish         (GAsyncResult        *result,
                                             guint               *n_restored,
                                             GError             **error);
gboolean cm_capacity_restore_get_found      (GAsyncResult        *result,
                                             const char         **note);

G_END_DECLS
