/* cm-engine.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The measuring engine: one test on one file descriptor, in the calling
 * thread. This file sets a test up, hands it to its pattern's loop
 * (cm-engine-patterns.c) and keeps what it measured; the record every
 * test shares (timed commands, samples, latencies, the figures at the
 * end) is cm-engine-run.c, which both call. Everything here runs in a
 * worker thread and touches only the job.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cm-engine-private.h"

#define HUGE_PAGE (2 * 1024 * 1024)

/* Buffers for O_DIRECT: aligned for the device, and large ones on 2 MiB
 * boundaries and touched once, so the kernel can back them with huge
 * pages and pins a few pages per command rather than a thousand. */
guint8 *
cm_engine_alloc (gsize size)
{
  gsize align = size >= HUGE_PAGE ? HUGE_PAGE : 4096;
  void *buffer = NULL;

  size = MAX (size, 4096);
  if (posix_memalign (&buffer, align, size) != 0)
    g_error ("Out of memory allocating %" G_GSIZE_FORMAT " bytes", size);

  if (size >= HUGE_PAGE)
    madvise (buffer, size / HUGE_PAGE * HUGE_PAGE, MADV_HUGEPAGE);
  memset (buffer, 0, size);

  return buffer;
}

void
cm_engine_fill_random (guint8 *buffer,
                       gsize   size)
{
  guint64 state = g_random_int () | ((guint64) g_random_int () << 32) | 1;

  for (gsize i = 0; i + 8 <= size; i += 8)
    {
      guint64 v = cm_engine_next_random (&state);
      memcpy (buffer + i, &v, 8);
    }
}

CmTestResult *
cm_engine_run_test (const CmEngineJob  *job,
                    const CmTestSpec   *spec,
                    GError            **error)
{
  gsize buffer_size = spec->block_size * spec->queue_depth;
  g_autofree guint8 *buffer = cm_engine_alloc (buffer_size);
  CmEngineRun run = { 0 };

  g_return_val_if_fail (job->fd >= 0, NULL);
  g_return_val_if_fail (job->area_bytes >= spec->block_size, NULL);

  if (spec->direction == CM_DIRECTION_WRITE)
    cm_engine_fill_random (buffer, buffer_size);

  cm_engine_run_init (&run, job, spec);
  if (spec->queue_depth == 1)
    run.test->engine = g_strdup ("psync");

  if (!cm_engine_run_pattern (&run, buffer, error))
    {
      cm_engine_run_clear (&run);
      return NULL;
    }

  g_clear_pointer (&run.latencies, g_array_unref);
  return g_steal_pointer (&run.test);
}
