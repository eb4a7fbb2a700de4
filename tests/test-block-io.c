/* test-block-io.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one read/write loop (cm-block-io.c) on a regular file made under
 * $TMPDIR: whole transfers at an offset, a read that runs past the end
 * (a short read, then nothing), and an error naming the byte it was at.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "cm-block-io.h"
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/cardmark/block-io/round-trip", Fixture, NULL, fixture_set_up, test_round_trip, fixture_tear_down);
  g_test_add ("/cardmark/block-io/past-the-end", Fixture, NULL, fixture_set_up, test_past_the_end, fixture_tear_down);
  g_test_add ("/cardmark/block-io/error-at-offset", Fixture, NULL, fixture_set_up, test_error_at_offset, fixture_tear_down);
  g_test_add ("/cardmark/block-io/nothing-to-do", Fixture, NULL, fixture_set_up, test_nothing_to_do, fixture_tear_down);

  return g_test_run ();
}
