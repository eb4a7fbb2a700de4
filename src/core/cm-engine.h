/* cm-engine.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The I/O loops: one test on one file descriptor, in the calling thread.
 */

#pragma once

#include <gio/gio.h>

#include "cm-plan.h"
#include "cm-result.h"

G_BEGIN_DECLS

typedef void (*CmEngineProgressFunc) (const CmSample *sample,
                                      double          fraction,
                                      gpointer        user_data);

typedef struct
{
  int                   fd;
  gboolean              direct_io;
  guint64               area_bytes;
  guint64               seq_start;   /* where a sequential test starts */
  /* Raw write mode: the area's own bytes. Sequential reads fill it and
   * every write takes its bytes from it, so the card keeps its content
   * whatever happens. NULL in file mode, where writes use random data. */
  guint8               *backup;
  /* Raw write mode past the backup (the sustained write): each chunk is
   * read, untimed, and the same bytes written back, timed. */
  gboolean              preserve;
  /* An earlier write of the run went past the card's cache: a sustained
   * write that starts steady has nothing left to find. */
  gboolean              cache_spent;
  /* If set, every byte a write put on the target is added here (from
   * every thread), warm-up and unmeasured passes included, so the
   * runner can tell its own writes from another program's. */
  guint64              *written;
  GCancellable         *cancellable;
  CmEngineProgressFunc  progress;
  gpointer              user_data;
} CmEngineJob;

CmTestResult *cm_engine_run_test (const CmEngineJob  *job,
                                  const CmTestSpec   *spec,
                                  GError            **error) G_GNUC_WARN_UNUSED_RESULT;
guint8       *cm_engine_alloc    (gsize               size) G_GNUC_WARN_UNUSED_RESULT;
void          cm_engine_fill_random (guint8          *buffer,
                                     gsize            size);

G_END_DECLS
