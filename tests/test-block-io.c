/* test-block-io.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one read/write loop (cm-block-io.c) on a regular file made under
 * $TMPDIR: whole transfers at an offset, a read that runs past the end
 * (a short read, then nothing), and an error naming the byte it was at;
 * and, through the seam in cm-block-io-private.h, a card that moves less
 * than asked, or is interrupted, call after call.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "cm-block-io.h"
#include "cm-block-io-private.h"
#include "cm-target.h"

typedef struct
{
  char *dir;
  char *path;
  int   fd;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("cardmark-block-io-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "card", NULL);
  f->fd = g_open (f->path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (f->fd, >=, 0);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  close (f->fd);
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static guint8 *
pattern (gsize length,
         guint seed)
{
  guint8 *data = g_malloc (length);

  for (gsize i = 0; i < length; i++)
    data[i] = (guint8) (i * 31 + seed);
  return data;
}

static void
test_round_trip (Fixture       *f,
                 gconstpointer  data)
{
  gsize length = 3 * 65536 + 17;
  guint64 offset = 4096 + 5;
  g_autofree guint8 *out = pattern (length, 7);
  g_autofree guint8 *in = g_malloc0 (length);
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  g_assert_true (cm_block_io_write_at (f->fd, out, length, offset, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (f->path, &st), ==, 0);
  g_assert_cmpuint ((guint64) st.st_size, ==, offset + length);

  g_assert_true (cm_block_io_read_at (f->fd, in, length, offset, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (in, length, out, length);
}

static void
test_past_the_end (Fixture       *f,
                   gconstpointer  data)
{
  gsize stored = 1000, asked = 4096;
  guint64 offset = 512;
  g_autofree guint8 *out = pattern (stored, 3);
  g_autofree guint8 *in = g_malloc0 (asked);
  g_autoptr(GError) error = NULL;
  g_autofree char *at = NULL;
  int errsv = -1;
  gssize done;

  g_assert_true (cm_block_io_write_at (f->fd, out, stored, 0, &error));
  g_assert_no_error (error);

  /* The first read is short, the next one moves nothing: what was read
   * and why it stopped. */
  done = cm_block_io_transfer (f->fd, FALSE, in, asked, offset, &errsv);
  g_assert_cmpint (done, ==, (gssize) (stored - offset));
  g_assert_cmpint (errsv, ==, EIO);
  g_assert_cmpmem (in, stored - offset, out + offset, stored - offset);

  /* Wholly past the end: nothing, which is not a refusal (-1). */
  done = cm_block_io_transfer (f->fd, FALSE, in, asked, stored + 4096, &errsv);
  g_assert_cmpint (done, ==, 0);
  g_assert_cmpint (errsv, ==, EIO);

  /* The error names the byte where reading stopped, not where it began. */
  g_assert_false (cm_block_io_read_at (f->fd, in, asked, offset, &error));
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO);
  at = g_strdup_printf ("at byte %" G_GSIZE_FORMAT " ", stored);
  g_assert_nonnull (strstr (error->message, at));
  g_assert_nonnull (strstr (error->message, g_strerror (EIO)));
}

static void
test_error_at_offset (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree guint8 *out = pattern (512, 1);
  g_autoptr(GError) error = NULL;
  int fd = g_open (f->path, O_RDONLY, 0);
  int errsv = 0;

  g_assert_cmpint (fd, >=, 0);
  /* Writing through a read-only descriptor: the system's reason, and the
   * byte, in the message. */
  g_assert_cmpint (cm_block_io_transfer (fd, TRUE, out, 512, 8192, &errsv), ==, -1);
  g_assert_cmpint (errsv, ==, EBADF);
  g_assert_false (cm_block_io_write_at (fd, out, 512, 8192, &error));
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "Writing to the card at byte 8192 "));
  g_assert_nonnull (strstr (error->message, g_strerror (EBADF)));
  close (fd);
}

static void
test_nothing_to_do (Fixture       *f,
                    gconstpointer  data)
{
  guint8 byte = 0;
  int errsv = -1;

  g_assert_cmpint (cm_block_io_transfer (f->fd, FALSE, &byte, 0, 0, &errsv), ==, 0);
  g_assert_cmpint (errsv, ==, 0);
}

/* The stand-in card: a script of what each call does, and the card's
 * bytes in memory. */
typedef struct
{
  gssize most;    /* moves at most this many bytes; 0: nothing; -1: fails */
  int    errsv;   /* with this errno, when it fails */
} Step;

#define CARD_BYTES 65536

static guint8 card[CARD_BYTES];
static const Step *script;
static guint n_steps;
static guint n_calls;
static guint64 call_offsets[16];

static gssize
scripted_call (int       fd,
               gboolean  write,
               guint8   *buffer,
               gsize     length,
               guint64   offset)
{
  Step step = { (gssize) length, 0 };
  gsize n;

  g_assert_cmpuint (n_calls, <, G_N_ELEMENTS (call_offsets));
  call_offsets[n_calls] = offset;
  if (n_calls < n_steps)
    step = script[n_calls];
  n_calls++;
  if (step.most < 0)
    {
      errno = step.errsv;
      return -1;
    }
  n = MIN ((gsize) step.most, length);
  g_assert_cmpuint (offset + n, <=, CARD_BYTES);
  if (write)
    memcpy (card + offset, buffer, n);
  else
    memcpy (buffer, card + offset, n);
  return n;
}

static void
run_script (const Step *steps,
            guint       n)
{
  script = steps;
  n_steps = n;
  n_calls = 0;
  _cm_block_io_set_call_for_testing (scripted_call);
}

static void
seam_tear_down (void)
{
  _cm_block_io_set_call_for_testing (NULL);
  script = NULL;
  n_steps = 0;
}

/* A read or a write that comes back short goes on from where it
 * stopped, with the rest, until the whole buffer is done. */
static void
test_short_then_more (void)
{
  const Step steps[] = { { 100, 0 }, { 1, 0 }, { 4000, 0 } };
  gsize length = 5000;
  guint64 offset = 777;
  g_autofree guint8 *out = pattern (length, 11);
  g_autofree guint8 *in = g_malloc0 (length);
  g_autoptr(GError) error = NULL;

  memset (card, 0, sizeof card);
  run_script (steps, G_N_ELEMENTS (steps));
  g_assert_true (cm_block_io_write_at (-1, out, length, offset, &error));
  g_assert_no_error (error);
  /* Four calls, each where the last one stopped. */
  g_assert_cmpuint (n_calls, ==, 4);
  g_assert_cmpuint (call_offsets[0], ==, offset);
  g_assert_cmpuint (call_offsets[1], ==, offset + 100);
  g_assert_cmpuint (call_offsets[2], ==, offset + 101);
  g_assert_cmpuint (call_offsets[3], ==, offset + 4101);
  g_assert_cmpmem (card + offset, length, out, length);

  run_script (steps, G_N_ELEMENTS (steps));
  g_assert_true (cm_block_io_read_at (-1, in, length, offset, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_calls, ==, 4);
  g_assert_cmpmem (in, length, out, length);
  seam_tear_down ();
}

/* An interrupted call (EINTR) is made again, at the same place, also
 * after a short one; the caller never sees it. */
static void
test_interrupted (void)
{
  const Step steps[] = { { -1, EINTR }, { 300, 0 }, { -1, EINTR }, { -1, EINTR } };
  gsize length = 1024;
  g_autofree guint8 *out = pattern (length, 5);
  int errsv = -1;

  memset (card, 0, sizeof card);
  run_script (steps, G_N_ELEMENTS (steps));
  g_assert_cmpint (cm_block_io_transfer (-1, TRUE, out, length, 0, &errsv), ==, (gssize) length);
  g_assert_cmpint (errsv, ==, 0);
  g_assert_cmpuint (n_calls, ==, 5);
  g_assert_cmpuint (call_offsets[0], ==, 0);
  g_assert_cmpuint (call_offsets[1], ==, 0);
  g_assert_cmpuint (call_offsets[2], ==, 300);
  g_assert_cmpuint (call_offsets[3], ==, 300);
  g_assert_cmpuint (call_offsets[4], ==, 300);
  g_assert_cmpmem (card, length, out, length);
  seam_tear_down ();
}

/* Short, then a real error: what was done, the system's reason, and the
 * byte where it stopped in the message; short, then nothing moved on a
 * write: no room (ENOSPC). */
static void
test_short_then_error (void)
{
  const Step failing[] = { { 512, 0 }, { -1, EIO } };
  const Step full[] = { { 2048, 0 }, { 0, 0 } };
  g_autofree guint8 *buffer = pattern (4096, 9);
  g_autoptr(GError) error = NULL;
  g_autofree char *at = g_strdup_printf ("at byte %d ", 1000 + 512);
  int errsv = 0;

  run_script (failing, G_N_ELEMENTS (failing));
  g_assert_cmpint (cm_block_io_transfer (-1, FALSE, buffer, 4096, 1000, &errsv), ==, 512);
  g_assert_cmpint (errsv, ==, EIO);

  run_script (failing, G_N_ELEMENTS (failing));
  g_assert_false (cm_block_io_read_at (-1, buffer, 4096, 1000, &error));
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO);
  g_assert_nonnull (strstr (error->message, at));
  g_assert_nonnull (strstr (error->message, g_strerror (EIO)));

  run_script (full, G_N_ELEMENTS (full));
  g_assert_cmpint (cm_block_io_transfer (-1, TRUE, buffer, 4096, 0, &errsv), ==, 2048);
  g_assert_cmpint (errsv, ==, ENOSPC);
  g_assert_cmpuint (n_calls, ==, 2);
  seam_tear_down ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/cardmark/block-io/round-trip", Fixture, NULL, fixture_set_up, test_round_trip, fixture_tear_down);
  g_test_add ("/cardmark/block-io/past-the-end", Fixture, NULL, fixture_set_up, test_past_the_end, fixture_tear_down);
  g_test_add ("/cardmark/block-io/error-at-offset", Fixture, NULL, fixture_set_up, test_error_at_offset, fixture_tear_down);
  g_test_add ("/cardmark/block-io/nothing-to-do", Fixture, NULL, fixture_set_up, test_nothing_to_do, fixture_tear_down);
  g_test_add_func ("/cardmark/block-io/short-then-more", test_short_then_more);
  g_test_add_func ("/cardmark/block-io/interrupted", test_interrupted);
  g_test_add_func ("/cardmark/block-io/short-then-error", test_short_then_error);

  return g_test_run ();
}
