/* test-bus.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fair measurement on one bus (issue 25): a bulk job pauses between its
 * chunks while another card measures, the measurement starts only once
 * every bulk job has paused, bulk jobs learn which cards moved data
 * beside them, and a cancelled wait returns.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "cm-bus.h"
#include "cm-card-lock.h"
#include "cm-test-files.h"

static char *lock_dir;
static const char *self_path;

/* A bulk job: chunks until told to stop, pausing when the bus wants. */
typedef struct
{
  CmBusShare   *share;
  GCancellable *stop;
  gint          chunks;     /* atomic */
  gint          in_chunk;   /* atomic: between yield and the chunk's end */
  gint64        paused_us;
  GMutex        told_lock;
  GString      *told;       /* what the paused func said, "measurer;" or "-;" */
} Bulk;

static void
bulk_paused_cb (const char *measurer,
                gpointer    user_data)
{
  Bulk *bulk = user_data;

  g_mutex_lock (&bulk->told_lock);
  if (bulk->told == NULL)
    bulk->told = g_string_new (NULL);
  g_string_append_printf (bulk->told, "%s;", measurer != NULL ? measurer : "-");
  g_mutex_unlock (&bulk->told_lock);
}

/* What @bulk was told so far, and forgets it. */
static char *
bulk_take_told (Bulk *bulk)
{
  char *told;

  g_mutex_lock (&bulk->told_lock);
  told = bulk->told != NULL ? g_string_free (bulk->told, FALSE) : g_strdup ("");
  bulk->told = NULL;
  g_mutex_unlock (&bulk->told_lock);
  return told;
}

static gpointer
bulk_thread (gpointer data)
{
  Bulk *bulk = data;

  while (!g_cancellable_is_cancelled (bulk->stop))
    {
      bulk->paused_us += cm_bus_share_yield (bulk->share, bulk->stop);
      g_atomic_int_set (&bulk->in_chunk, 1);
      g_usleep (1000);  /* the chunk's I/O */
      g_atomic_int_inc (&bulk->chunks);
      g_atomic_int_set (&bulk->in_chunk, 0);
    }
  return NULL;
}

static void
wait_for_chunks (Bulk *bulk,
                 gint  at_least)
{
  while (g_atomic_int_get (&bulk->chunks) < at_least)
    g_thread_yield ();
}

static void
test_bulk_pauses_while_measuring (void)
{
  Bulk a = { 0 }, b = { 0 };
  GThread *ta, *tb;
  gint before_a, before_b;

  a.share = cm_bus_share_begin ("test:pause", "/dev/a");
  b.share = cm_bus_share_begin ("test:pause", "/dev/b");
  cm_bus_share_set_paused_func (a.share, bulk_paused_cb, &a);
  a.stop = b.stop = g_cancellable_new ();
  ta = g_thread_new ("a", bulk_thread, &a);
  tb = g_thread_new ("b", bulk_thread, &b);
  wait_for_chunks (&a, 3);
  wait_for_chunks (&b, 3);

  g_assert_true (cm_bus_measure_begin ("test:pause", "/dev/c", NULL, NULL, NULL, NULL));
  /* Both are parked: neither is inside a chunk, and neither moves while
   * the measurement holds the bus. */
  g_assert_cmpint (g_atomic_int_get (&a.in_chunk), ==, 0);
  g_assert_cmpint (g_atomic_int_get (&b.in_chunk), ==, 0);
  before_a = g_atomic_int_get (&a.chunks);
  before_b = g_atomic_int_get (&b.chunks);
  g_usleep (G_USEC_PER_SEC / 10);  /* the measurement */
  g_assert_cmpint (g_atomic_int_get (&a.chunks), ==, before_a);
  g_assert_cmpint (g_atomic_int_get (&b.chunks), ==, before_b);
  cm_bus_measure_end ("test:pause");

  /* Free again, they carry on, and know how long they waited. */
  wait_for_chunks (&a, before_a + 3);
  wait_for_chunks (&b, before_b + 3);
  g_cancellable_cancel (a.stop);
  g_thread_join (ta);
  g_thread_join (tb);
  g_assert_cmpint (a.paused_us, >=, G_USEC_PER_SEC / 10);
  g_assert_cmpint (b.paused_us, >=, G_USEC_PER_SEC / 10);
  /* The job was told whom it paused for, and when it carried on. */
  {
    g_autofree char *told = bulk_take_told (&a);

    g_assert_cmpstr (told, ==, "/dev/c;-;");
  }

  cm_bus_share_end (a.share);
  cm_bus_share_end (b.share);
  g_object_unref (a.stop);
}

static void
test_other_bus_not_paused (void)
{
  Bulk a = { 0 };
  GThread *ta;
  gint before;

  a.share = cm_bus_share_begin ("test:own", "/dev/a");
  a.stop = g_cancellable_new ();
  ta = g_thread_new ("a", bulk_thread, &a);
  wait_for_chunks (&a, 1);

  g_assert_true (cm_bus_measure_begin ("test:elsewhere", "/dev/c", NULL, NULL, NULL, NULL));
  before = g_atomic_int_get (&a.chunks);
  wait_for_chunks (&a, before + 3);
  cm_bus_measure_end ("test:elsewhere");

  g_cancellable_cancel (a.stop);
  g_thread_join (ta);
  g_assert_cmpint (a.paused_us, ==, 0);
  cm_bus_share_end (a.share);
  g_object_unref (a.stop);
}

static void
assert_neighbours (CmBusShare *share,
                   const char *expected)
{
  g_auto(GStrv) got = cm_bus_share_take_neighbours (share);
  g_autofree char *joined = g_strjoinv (" ", got);

  g_assert_cmpstr (joined, ==, expected);
}

static void
test_neighbours (void)
{
  CmBusShare *a = cm_bus_share_begin ("test:n", "/dev/a");
  CmBusShare *elsewhere = cm_bus_share_begin ("test:m", "/dev/x");
  CmBusShare *c, *b;

  assert_neighbours (a, "");
  c = cm_bus_share_begin ("test:n", "/dev/c");
  b = cm_bus_share_begin ("test:n", "/dev/b");
  assert_neighbours (a, "/dev/b /dev/c");
  assert_neighbours (b, "/dev/a /dev/c");
  cm_bus_share_end (c);
  /* c moved data beside a before it ended: a's next phase started with
   * c still there. */
  assert_neighbours (a, "/dev/b /dev/c");
  assert_neighbours (a, "/dev/b");
  cm_bus_share_end (b);
  assert_neighbours (a, "/dev/b");
  assert_neighbours (a, "");
  assert_neighbours (elsewhere, "");

  cm_bus_share_end (a);
  cm_bus_share_end (elsewhere);
}

typedef struct
{
  const char   *key;
  GCancellable *cancellable;
  gboolean      took;
  char         *waited_for;
} Measure;

static void
waiting_cb (const char *holder,
            gpointer    user_data)
{
  Measure *m = user_data;

  m->waited_for = g_strdup (holder);
  g_cancellable_cancel (m->cancellable);
}

static gpointer
measure_thread (gpointer data)
{
  Measure *m = data;

  m->took = cm_bus_measure_begin (m->key, "/dev/second", m->cancellable, waiting_cb, m, NULL);
  return NULL;
}

static void
test_cancelled_waits_return (void)
{
  Measure m = { "test:cancel", g_cancellable_new (), TRUE, NULL };
  g_autoptr(GCancellable) stop = g_cancellable_new ();
  CmBusShare *share;
  GThread *thread;

  /* A second measurement waits for the first, names it, and gives up
   * when cancelled, holding nothing. */
  g_assert_true (cm_bus_measure_begin ("test:cancel", "/dev/first", NULL, NULL, NULL, NULL));
  thread = g_thread_new ("m", measure_thread, &m);
  g_thread_join (thread);
  g_assert_false (m.took);
  g_assert_cmpstr (m.waited_for, ==, "/dev/first");

  /* A paused bulk job returns once cancelled. */
  share = cm_bus_share_begin ("test:cancel", "/dev/bulk");
  g_cancellable_cancel (stop);
  cm_bus_share_yield (share, stop);
  cm_bus_measure_end ("test:cancel");

  /* A measurement waiting for a bulk job that never pauses gives up
   * when cancelled, and the bus is free afterwards. */
  g_clear_object (&m.cancellable);
  g_clear_pointer (&m.waited_for, g_free);
  m.cancellable = g_cancellable_new ();
  g_cancellable_cancel (m.cancellable);
  g_assert_false (cm_bus_measure_begin ("test:cancel", "/dev/second", m.cancellable, NULL, NULL, NULL));
  cm_bus_share_end (share);
  g_assert_true (cm_bus_measure_begin ("test:cancel", "/dev/second", NULL, NULL, NULL, NULL));
  cm_bus_measure_end ("test:cancel");
  g_object_unref (m.cancellable);
}

static void
test_no_bus (void)
{
  g_auto(GStrv) none = NULL;

  g_assert_null (cm_bus_key_for_device ("/tmp"));
  g_assert_null (cm_bus_key_for_device (NULL));
  g_assert_null (cm_bus_share_begin (NULL, "/dev/a"));
  g_assert_cmpint (cm_bus_share_yield (NULL, NULL), ==, 0);
  none = cm_bus_share_take_neighbours (NULL);
  g_assert_cmpuint (g_strv_length (none), ==, 0);
  cm_bus_share_end (NULL);
  g_assert_true (cm_bus_measure_begin (NULL, "/dev/a", NULL, NULL, NULL, NULL));
  cm_bus_measure_end (NULL);
}

/* The other process: "test-bus --measure-as DEVICE KEY FOLDER" measures
 * on KEY (the locks in FOLDER), says "measuring" once it holds the bus,
 * and ends when a line comes in. */
static int
measure_as (const char *device,
            const char *key,
            const char *folder)
{
  char line[16];

  cm_card_lock_set_folder_for_testing (folder);
  if (!cm_bus_measure_begin (key, device, NULL, NULL, NULL, NULL))
    return 1;
  printf ("measuring\n");
  fflush (stdout);
  if (fgets (line, sizeof line, stdin) == NULL)
    return 1;
  cm_bus_measure_end (key);
  return 0;
}

/* Whether this program can start itself: not when it is a foreign
 * build run under qemu-user (the cross builds' unit tests), where the
 * kernel cannot run it directly. */
static gboolean
can_start_self (void)
{
  g_autoptr(GSubprocess) self = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                                                  NULL, self_path, "--can-start", NULL);

  return self != NULL && g_subprocess_wait_check (self, NULL, NULL);
}

/* Another process that measures on the bus, once it holds it. */
static GSubprocess *
start_other_measurer (const char     *device,
                      const char     *key,
                      GDataInputStream **out)
{
  g_autoptr(GError) error = NULL;
  GSubprocess *other = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                                         self_path, "--measure-as", device, key, lock_dir, NULL);

  g_assert_no_error (error);
  *out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (other));
  return other;
}

static void
end_other_measurer (GSubprocess      *other,
                    GDataInputStream *out)
{
  g_autoptr(GError) error = NULL;

  g_output_stream_write_all (g_subprocess_get_stdin_pipe (other), "end\n", 4, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (other, NULL, &error));
  g_assert_no_error (error);
  g_object_unref (out);
  g_object_unref (other);
}

static void
expect_line (GDataInputStream *out,
             const char       *expected)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line (out, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (line, ==, expected);
}

/* A card measuring in another process (a CLI beside the app): this
 * process's bulk job pauses, outside a chunk, until it is done; the
 * other one started only once the bulk job was between two chunks. */
static void
test_other_process_measures (void)
{
  Bulk a = { 0 };
  GDataInputStream *out;
  GSubprocess *other;
  GThread *ta;
  gint before;

  if (!can_start_self ())
    {
      g_test_skip ("This test program cannot start itself here (a foreign build under qemu-user)");
      return;
    }
  a.share = cm_bus_share_begin ("test:across", "/dev/a");
  cm_bus_share_set_paused_func (a.share, bulk_paused_cb, &a);
  a.stop = g_cancellable_new ();
  ta = g_thread_new ("a", bulk_thread, &a);
  wait_for_chunks (&a, 3);

  other = start_other_measurer ("/dev/other", "test:across", &out);
  expect_line (out, "measuring");
  before = g_atomic_int_get (&a.chunks);
  /* The measurement: the bulk job moves at most the chunk it was in
   * when the other process asked, and is never inside one after. */
  for (guint i = 0; i < 10; i++)
    {
      g_usleep (G_USEC_PER_SEC / 100);
      g_assert_cmpint (g_atomic_int_get (&a.chunks), <=, before + 1);
    }
  g_assert_cmpint (g_atomic_int_get (&a.in_chunk), ==, 0);
  end_other_measurer (other, out);

  wait_for_chunks (&a, before + 3);
  g_cancellable_cancel (a.stop);
  g_thread_join (ta);
  g_assert_cmpint (a.paused_us, >=, G_USEC_PER_SEC / 10);
  {
    g_autofree char *told = bulk_take_told (&a);

    g_assert_cmpstr (told, ==, "/dev/other;-;");
  }
  cm_bus_share_end (a.share);
  g_object_unref (a.stop);
}

typedef struct
{
  char     *holder;   /* whom the measurement waited for */
  gboolean  began;    /* atomic */
} Waiter;

static void
waiter_cb (const char *holder,
            gpointer    user_data)
{
  Waiter *w = user_data;

  g_assert_null (w->holder);
  w->holder = g_strdup (holder);
}

static gpointer
waiter_thread (gpointer data)
{
  Waiter *w = data;

  g_assert_true (cm_bus_measure_begin ("test:across-measure", "/dev/here", NULL, waiter_cb, w, NULL));
  g_atomic_int_set (&w->began, TRUE);
  return NULL;
}

/* A measurement here waits for one in another process, naming its card,
 * and begins once it ends. */
static void
test_waits_for_other_process (void)
{
  Waiter w = { 0 };
  GDataInputStream *out;
  GSubprocess *other;
  GThread *thread;

  if (!can_start_self ())
    {
      g_test_skip ("This test program cannot start itself here (a foreign build under qemu-user)");
      return;
    }
  other = start_other_measurer ("/dev/other", "test:across-measure", &out);
  expect_line (out, "measuring");
  thread = g_thread_new ("measure", waiter_thread, &w);
  while (g_atomic_pointer_get (&w.holder) == NULL)
    g_usleep (1000);
  g_assert_cmpstr (w.holder, ==, "/dev/other");
  g_assert_false (g_atomic_int_get (&w.began));
  end_other_measurer (other, out);

  g_thread_join (thread);
  g_assert_true (w.began);
  cm_bus_measure_end ("test:across-measure");
  g_free (w.holder);
}

/* Another user holds the bus's gate and never lets go (a flock on the
 * file, with text of their own in it): a bulk job pauses, says for whom
 * (cleaned), and past the limit carries on, naming it among what shared
 * the bus, without pausing again for it at every chunk. */
static void
test_gate_held_for_ever (void)
{
#if CM_TEST_HOOKS
  static const char planted[] = "/dev/sdz\033]0;PWNED\007\033[2J\nfake line\n";
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "test:held", -1);
  g_autofree char *gate_name = g_strdup_printf ("cardmark-bus-%.16s.gate", sum);
  g_autofree char *told = NULL;
  g_auto(GStrv) neighbours = NULL;
  Bulk a = { 0 };
  GThread *ta;
  int gate = cm_card_lock_open_file (gate_name);

  g_assert_cmpint (gate, >=, 0);
  g_assert_cmpint (flock (gate, LOCK_EX), ==, 0);
  g_assert_cmpint (pwrite (gate, planted, sizeof planted - 1, 0), ==, (gssize) sizeof planted - 1);
  g_setenv ("CARDMARK_TEST_BUS_PAUSE_LIMIT_MS", "200", TRUE);

  a.share = cm_bus_share_begin ("test:held", "/dev/a");
  cm_bus_share_set_paused_func (a.share, bulk_paused_cb, &a);
  a.stop = g_cancellable_new ();
  ta = g_thread_new ("a", bulk_thread, &a);
  /* Before the limit it was paused for ever: this wait never ended. */
  wait_for_chunks (&a, 10);
  g_cancellable_cancel (a.stop);
  g_thread_join (ta);

  told = bulk_take_told (&a);
  g_test_message ("told: %s", told);
  g_assert_true (g_str_has_prefix (told, "/dev/sdz"));
  g_assert_true (g_str_has_suffix (told, ";-;"));
  g_assert_null (strpbrk (told, "\033\007\n"));
  /* Told it paused once and carried on once, not at every chunk. */
  g_assert_true (strstr (told, "/dev/sdz") == g_strrstr (told, "/dev/sdz"));
  g_assert_true (strstr (told, ";-;") == g_strrstr (told, ";-;"));
  neighbours = cm_bus_share_take_neighbours (a.share);
  g_assert_cmpuint (g_strv_length (neighbours), ==, 1);
  g_assert_true (g_str_has_prefix (neighbours[0], "/dev/sdz"));
  g_assert_null (strpbrk (neighbours[0], "\033\007\n"));

  g_unsetenv ("CARDMARK_TEST_BUS_PAUSE_LIMIT_MS");
  cm_bus_share_end (a.share);
  g_object_unref (a.stop);
  close (gate);
#else
  g_test_skip ("Built without test hooks: the pause limit is 15 minutes");
#endif
}

int
main (int   argc,
      char *argv[])
{
  int status;

  if (argc == 5 && g_str_equal (argv[1], "--measure-as"))
    return measure_as (argv[2], argv[3], argv[4]);
  if (argc == 2 && g_str_equal (argv[1], "--can-start"))
    return 0;

  g_test_init (&argc, &argv, NULL);
  self_path = argv[0];
  lock_dir = g_dir_make_tmp ("cardmark-bus-locks-XXXXXX", NULL);
  cm_card_lock_set_folder_for_testing (lock_dir);

  g_test_add_func ("/cardmark/bus/bulk-pauses-while-measuring", test_bulk_pauses_while_measuring);
  g_test_add_func ("/cardmark/bus/other-bus-not-paused", test_other_bus_not_paused);
  g_test_add_func ("/cardmark/bus/neighbours", test_neighbours);
  g_test_add_func ("/cardmark/bus/cancelled-waits-return", test_cancelled_waits_return);
  g_test_add_func ("/cardmark/bus/no-bus", test_no_bus);
  g_test_add_func ("/cardmark/bus/other-process-measures", test_other_process_measures);
  g_test_add_func ("/cardmark/bus/waits-for-other-process", test_waits_for_other_process);
  g_test_add_func ("/cardmark/bus/gate-held-for-ever", test_gate_held_for_ever);

  status = g_test_run ();
  cm_test_remove_folder (lock_dir);
  return status;
}
