/* cm-block-io.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one pread/pwrite loop that the capacity check, the verify (and the
 * wear test through it) and the format use. A short transfer goes on from
 * where it stopped, an interrupted call is made again; a call that moves
 * nothing ends the loop: reading past the end of the card gives EIO, a
 * write the card stops taking gives ENOSPC. The benchmark keeps its own
 * single timed call (cm-engine*.c).
 */

#include "config.h"

#include <errno.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

#include "cm-block-io.h"
#include "cm-block-io-private.h"
#include "cm-target.h"

static gssize
system_call (int       fd,
             gboolean  write,
             guint8   *buffer,
             gsize     length,
             guint64   offset)
{
  return write ? pwrite (fd, buffer, length, offset) : pread (fd, buffer, length, offset);
}

/* pread/pwrite, or a test's stand-in (cm-block-io-private.h). */
static CmBlockIoCall transfer_call = system_call;

/* For tests only: @call instead of pread/pwrite (it sets errno as they
 * do), to make short and interrupted transfers at will; %NULL puts
 * pread/pwrite back. Not thread-safe: set it before any transfer. */
void
_cm_block_io_set_call_for_testing (CmBlockIoCall call)
{
  transfer_call = call != NULL ? call : system_call;
}

/* The whole of @length, unless the card stops short: then what was done
 * (0 when the card had nothing more, -1 when the system refused at once)
 * and why in @errsv, which is 0 after a whole transfer. */
gssize
cm_block_io_transfer (int       fd,
                      gboolean  write,
                      guint8   *buffer,
                      gsize     length,
                      guint64   offset,
                      int      *errsv)
{
  gsize done = 0;

  *errsv = 0;
  while (done < length)
    {
      gssize n = transfer_call (fd, write, buffer + done, length - done, offset + done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          /* Nothing moved: a read ran past the end of the card, a write
           * found no more room on it. */
          *errsv = n < 0 ? errno : (write ? ENOSPC : EIO);
          return done > 0 ? (gssize) done : (n < 0 ? -1 : 0);
        }
      done += n;
    }
  return done;
}

static gboolean
transfer_at (int       fd,
             gboolean  write,
             guint8   *buffer,
             gsize     length,
             guint64   offset,
             GError  **error)
{
  int errsv;
  gssize done = cm_block_io_transfer (fd, write, buffer, length, offset, &errsv);
  guint64 at;

  if (errsv == 0)
    return TRUE;
  at = offset + (done > 0 ? (guint64) done : 0);
  g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
               write ? _("Writing to the card at byte %llu failed: %s. Check the card and its reader, and try again.")
                     : _("Reading the card at byte %llu failed: %s. Check the card and its reader, and try again."),
               (unsigned long long) at, g_strerror (errsv));
  return FALSE;
}

/* All of @length bytes at @offset into @buffer, or an error naming the
 * byte where reading stopped and why. */
gboolean
cm_block_io_read_at (int       fd,
                     guint8   *buffer,
                     gsize     length,
                     guint64   offset,
                     GError  **error)
{
  return transfer_at (fd, FALSE, buffer, length, offset, error);
}

gboolean
cm_block_io_write_at (int           fd,
                      const guint8 *buffer,
                      gsize         length,
                      guint64       offset,
                      GError      **error)
{
  return transfer_at (fd, TRUE, (guint8 *) buffer, length, offset, error);
}
