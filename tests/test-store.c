/* test-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared store's parts that need no database: the URL as shown, the
 * queue of documents kept while the store cannot be reached, and what
 * "tested before" makes of a card's earlier results. tests/cli-store.sh
 * runs a real PostgreSQL.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "cm-card-info.h"
#include "cm-history.h"
#include "cm-store.h"

static void
assert_safe (const char *url,
             const char *expected)
{
  g_autofree char *safe = cm_store_url_dup_safe (url);

  g_assert_cmpstr (safe, ==, expected);
  g_assert_null (strstr (safe, "secret"));
}

static void
test_safe_url (void)
{
  assert_safe ("postgresql://lab:secret@db.lab:5433/cards", "postgresql://lab@db.lab:5433/cards");
  assert_safe ("postgres://lab:secret@db/cards?sslmode=require", "postgres://lab@db/cards?sslmode=require");
  /* A password with an @ of its own, and one in the query. */
  assert_safe ("postgresql://lab:se@cret@db/cards", "postgresql://lab@db/cards");
  assert_safe ("postgresql://lab@db/cards?password=secret&connect_timeout=2",
               "postgresql://lab@db/cards?connect_timeout=2");
  /* libpq knows no "PASSWORD": a URL it cannot read is not shown. */
  assert_safe ("postgresql://db/cards?connect_timeout=2&PASSWORD=secret",
               cm_store_is_supported () ? "(an address that cannot be read, not shown)" : "postgresql://db/cards?connect_timeout=2");
  assert_safe ("postgresql://:secret@db/cards", "postgresql://db/cards");
  assert_safe ("postgresql://lab@db/cards", "postgresql://lab@db/cards");
  assert_safe ("postgresql://lab:secret@host1:5432,host2:5433/cards", "postgresql://lab@host1:5432,host2:5433/cards");
  /* A connection string is not shown at all. */
  assert_safe ("host=db password=secret", "(not a postgresql:// URL)");
  if (!cm_store_is_supported ())
    return;
  /* Every spelling of the password libpq reads (issue 47): a %-escaped
   * key, the sslpassword, a password with a '/' or a '?' in it. */
  assert_safe ("postgresql://lab@db/cards?pass%77ord=secret&connect_timeout=2",
               "postgresql://lab@db/cards?connect_timeout=2");
  assert_safe ("postgresql://lab@db/cards?%70%61%73%73%77%6f%72%64=secret", "postgresql://lab@db/cards");
  assert_safe ("postgresql://lab@db/cards?sslpassword=secret", "postgresql://lab@db/cards");
  assert_safe ("postgresql://lab:se?cret@db/cards", "postgresql://lab@db/cards");
  assert_safe ("postgresql://lab:se/cret@db/cards", "postgresql://lab@db/cards");
  assert_safe ("postgresql://lab@db/cards?application_name=a@b", "postgresql://lab@db/cards?application_name=a@b");
  /* libpq cannot read these: which part is the password cannot be
   * known, so none of the URL is shown. */
  assert_safe ("postgresql://lab:secret@[::1/cards", "(an address that cannot be read, not shown)");
  assert_safe ("postgresql://lab:S3cr3t%zzsecret@db/cards", "(an address that cannot be read, not shown)");
}

static void
test_url_check (void)
{
  g_autoptr(GError) error = NULL;

  if (!cm_store_is_supported ())
    {
      g_assert_false (cm_store_url_check ("postgresql://db/cards", &error));
      g_assert_error (error, CM_STORE_ERROR, CM_STORE_ERROR_UNSUPPORTED);
      return;
    }
  g_assert_true (cm_store_url_check ("postgresql://lab:secret@db/cards", &error));
  g_assert_no_error (error);
  g_assert_false (cm_store_url_check ("mysql://lab:secret@db/cards", &error));
  g_assert_error (error, CM_STORE_ERROR, CM_STORE_ERROR_URL);
  g_assert_null (strstr (error->message, "secret"));
  g_clear_error (&error);
  g_assert_false (cm_store_url_check ("postgresql://lab:secret@db/cards?nonsense=1", &error));
  g_assert_error (error, CM_STORE_ERROR, CM_STORE_ERROR_URL);
  g_assert_null (strstr (error->message, "secret"));
  /* A URL libpq cannot read is not echoed, whole or in part, nor the
   * piece of it libpq quotes (issue 47). */
  for (guint i = 0; i < 3; i++)
    {
      const char *urls[] = { "postgresql://lab:secret@[::1/cards", "postgresql://lab:S3cr3t%zzsecret@db/cards",
                             "postgresql://lab@db/cards?password=secret%zz" };

      g_clear_error (&error);
      g_assert_false (cm_store_url_check (urls[i], &error));
      g_assert_error (error, CM_STORE_ERROR, CM_STORE_ERROR_URL);
      g_test_message ("%s", error->message);
      g_assert_null (strstr (error->message, "secret"));
      g_assert_null (strstr (error->message, "S3cr3t"));
      g_assert_null (strstr (error->message, "lab"));
    }
  /* Every spelling of a password is seen as one. */
  g_assert_true (cm_store_url_has_password ("postgresql://lab:secret@db/cards"));
  g_assert_true (cm_store_url_has_password ("postgresql://lab@db/cards?password=secret"));
  g_assert_true (cm_store_url_has_password ("postgresql://lab@db/cards?pass%77ord=secret"));
  g_assert_false (cm_store_url_has_password ("postgresql://lab@db/cards"));
}

static CmResult *
card_result (int         hour,
             const char *serial,
             const char *brand,
             guint64     size)
{
  CmResult *result = cm_result_new ();
  g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 12, 3, hour, 0, 0);
  g_autofree char *json = g_strdup_printf ("{\"registers_available\": true, \"serial\": \"%s\", "
                                           "\"brand\": \"%s\", \"capacity_bytes\": %" G_GUINT64_FORMAT "}",
                                           serial, brand, size);
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmCardInfo) card = cm_card_info_new_from_json (node, &error);

  g_assert_no_error (error);
  cm_result_set_started (result, when);
  cm_result_set_target (result, "/media/card", "file", NULL, NULL);
  cm_result_set_card (result, card);
  return result;
}

static GFile *
make_folder (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-store-XXXXXX", &error);

  g_assert_no_error (error);
  return g_file_new_for_path (dir);
}

static void
save (CmHistory *history,
      CmResult  *result)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = cm_history_save (history, result, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
}

/* Tested before, from this computer's index: an earlier result of the
 * same serial, never the result itself; another size → a clone. */
static void
test_seen_local (void)
{
  g_autoptr(GFile) folder = make_folder ();
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(CmResult) first = card_result (8, "0x00001234", "SanDisk", 32000000000);
  g_autoptr(CmResult) other = card_result (9, "0x00005678", "SanDisk", 32000000000);
  g_autoptr(CmResult) again = card_result (10, "0x00001234", "SanDisk", 32000000000);
  g_autoptr(CmResult) clone = card_result (11, "0x00001234", "SanDisk", 128000000000);
  g_autoptr(GError) error = NULL;

  save (history, first);
  {
    g_autoptr(CmStoreSeen) seen = cm_history_dup_seen (history, first, &error);

    g_assert_no_error (error);
    g_assert_nonnull (seen);
    g_assert_null (seen->previous);
    g_assert_null (seen->sentence);
  }
  save (history, other);
  save (history, again);
  {
    g_autoptr(CmStoreSeen) seen = cm_history_dup_seen (history, again, &error);
    g_autoptr(GDateTime) eight = g_date_time_new_utc (2026, 12, 3, 8, 0, 0);

    g_assert_no_error (error);
    g_assert_nonnull (seen->previous);
    g_assert_cmpint (seen->previous->started, ==, g_date_time_to_unix (eight));
    g_assert_nonnull (seen->sentence);
    g_assert_nonnull (strstr (seen->sentence, "this computer"));
    g_assert_null (seen->clone);
    g_assert_null (seen->warning);
  }
  save (history, clone);
  {
    g_autoptr(CmStoreSeen) seen = cm_history_dup_seen (history, clone, &error);

    g_assert_no_error (error);
    g_assert_nonnull (seen->clone);
    g_assert_cmpuint (seen->clone->size_bytes, ==, 32000000000);
    g_assert_nonnull (seen->warning);
    g_assert_nonnull (strstr (seen->warning, "0x00001234"));
  }
}

/* A card as its registers tell it in a reader now: no brand (that is
 * the user's to give). */
static CmCardInfo *
card_in_reader (const char *serial,
                guint64     size)
{
  g_autofree char *json = g_strdup_printf ("{\"registers_available\": true, \"serial\": \"%s\", "
                                           "\"capacity_bytes\": %" G_GUINT64_FORMAT "}", serial, size);
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GError) error = NULL;
  CmCardInfo *card = cm_card_info_new_from_json (node, &error);

  g_assert_no_error (error);
  return card;
}

/* A card in a reader, before any check of it (its page): every result of
 * its serial is from before, the newest named; one of another size is a
 * clone; a serial never seen says nothing. */
static void
test_seen_card (void)
{
  g_autoptr(GFile) folder = make_folder ();
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(CmResult) first = card_result (8, "0x00001234", "SanDisk", 32000000000);
  g_autoptr(CmResult) other = card_result (9, "0x00005678", "SanDisk", 32000000000);
  g_autoptr(CmResult) big = card_result (10, "0x00001234", "SanDisk", 128000000000);
  g_autoptr(CmResult) again = card_result (11, "0x00001234", "SanDisk", 32000000000);
  g_autoptr(CmCardInfo) card = card_in_reader ("0x00001234", 32000000000);
  g_autoptr(CmCardInfo) unseen = card_in_reader ("0x0000abcd", 32000000000);
  g_autoptr(CmCardInfo) no_serial = cm_card_info_new ();
  g_autoptr(GError) error = NULL;

  save (history, first);
  save (history, other);
  save (history, big);
  save (history, again);
  {
    g_autoptr(CmStoreSeen) seen = cm_history_dup_seen_for_card (history, card, NULL, &error);
    g_autoptr(GDateTime) eleven = g_date_time_new_utc (2026, 12, 3, 11, 0, 0);
    g_autoptr(GDateTime) ten = g_date_time_new_utc (2026, 12, 3, 10, 0, 0);
    g_autofree char *big_size = g_format_size (128000000000);

    g_assert_no_error (error);
    g_assert_nonnull (seen);
    /* The newest result counts as "before": nothing of this card's is
     * its own yet. */
    g_assert_cmpint (seen->previous->started, ==, g_date_time_to_unix (eleven));
    g_assert_nonnull (strstr (seen->sentence, "Tested before on this computer"));
    g_assert_cmpint (seen->clone->started, ==, g_date_time_to_unix (ten));
    g_assert_nonnull (strstr (seen->warning, "0x00001234"));
    g_assert_nonnull (strstr (seen->warning, big_size));
  }
  {
    g_autoptr(CmStoreSeen) seen = cm_history_dup_seen_for_card (history, unseen, NULL, &error);

    g_assert_no_error (error);
    g_assert_nonnull (seen);
    g_assert_null (seen->previous);
    g_assert_null (seen->sentence);
    g_assert_null (seen->warning);
  }
  {
    /* The brand the user gives: one the same CID never came with makes
     * the newest result the clone; the same brand in other letters does
     * not. */
    g_autoptr(CmStoreSeen) samsung = cm_history_dup_seen_for_card (history, card, "Samsung", &error);
    g_autoptr(CmStoreSeen) sandisk = cm_history_dup_seen_for_card (history, card, "SANDISK", &error);

    g_assert_no_error (error);
    g_assert_true (samsung->clone == samsung->previous);
    g_assert_nonnull (strstr (samsung->warning, "SanDisk"));
    g_assert_cmpuint (sandisk->clone->size_bytes, ==, 128000000000);
  }
  g_assert_null (cm_history_dup_seen_for_card (history, no_serial, NULL, &error));
  g_assert_no_error (error);

  /* A store that cannot be reached (port 1 of this computer), with
   * nothing sent to it before, as an app's look-up in its own thread:
   * this computer's results answer. */
  if (cm_store_is_supported ())
    {
      g_autoptr(CmStoreSeen) seen = NULL;

      g_assert_true (cm_history_set_store (history, "postgresql://lab@127.0.0.1:1/cards?connect_timeout=2", &error));
      g_assert_no_error (error);
      seen = cm_history_dup_seen_for_card (history, card, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (seen);
      g_assert_nonnull (strstr (seen->sentence, "Tested before on this computer"));
      g_assert_nonnull (seen->warning);
    }
}

/* How many connections wait on @listener (drained). */
static guint
count_connections (GSocket *listener)
{
  guint n = 0;
  GSocket *connection;

  while ((connection = g_socket_accept (listener, NULL, NULL)) != NULL)
    {
      n++;
      g_object_unref (connection);
    }
  return n;
}

/* A store that takes the connection and never answers, looked up as the
 * app does (a history of its own for each look-up): the first look-up
 * waits out its connect timeout and this computer's results answer; the
 * next one answers from them at once, without connecting again. */
static void
test_seen_unreachable_once (void)
{
  g_autoptr(GFile) folder = make_folder ();
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(CmResult) first = card_result (8, "0x00004321", "SanDisk", 32000000000);
  g_autoptr(CmCardInfo) card = card_in_reader ("0x00004321", 32000000000);
  g_autoptr(GSocket) listener = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any_port = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autofree char *url = NULL;
  g_autoptr(GError) error = NULL;

  if (!cm_store_is_supported ())
    {
      g_test_skip ("built without libpq");
      return;
    }
  save (history, first);
  listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (listener, any_port, TRUE, &error));
  g_assert_true (g_socket_listen (listener, &error));
  g_assert_no_error (error);
  g_socket_set_blocking (listener, FALSE);
  bound = g_socket_get_local_address (listener, &error);
  g_assert_no_error (error);
  url = g_strdup_printf ("postgresql://lab@127.0.0.1:%u/cards?connect_timeout=2&sslmode=disable",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(CmHistory) looker = cm_history_new (folder);
      g_autoptr(CmStoreSeen) seen = NULL;

      g_assert_true (cm_history_set_store (looker, url, &error));
      seen = cm_history_dup_seen_for_card (looker, card, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (seen);
      g_assert_nonnull (strstr (seen->sentence, "Tested before on this computer"));
      if (i == 0)
        g_assert_cmpuint (count_connections (listener), >=, 1);
      else
        g_assert_cmpuint (count_connections (listener), ==, 0);
    }
}

/* A store that cannot be reached: every saved document waits in the
 * queue, the error names the store without its password, and the
 * documents are still in the history. */
static void
test_queue_unreachable (void)
{
  g_autoptr(GFile) folder = make_folder ();
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(CmResult) first = card_result (8, "0x00001234", "SanDisk", 32000000000);
  g_autoptr(CmResult) second = card_result (9, "0x00001234", "SanDisk", 32000000000);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  const GError *store_error;

  if (!cm_store_is_supported ())
    {
      g_test_skip ("built without libpq");
      return;
    }
  /* Port 1 of this computer: refused at once. */
  g_assert_true (cm_history_set_store (history, "postgresql://lab:secret@127.0.0.1:1/cards?connect_timeout=2", &error));
  g_assert_no_error (error);
  save (history, first);
  g_assert_cmpuint (cm_history_count_queued (history), ==, 1);
  save (history, second);
  g_assert_cmpuint (cm_history_count_queued (history), ==, 2);
  store_error = cm_history_get_store_error (history);
  g_assert_error ((GError *) store_error, CM_STORE_ERROR, CM_STORE_ERROR_UNREACHABLE);
  g_assert_nonnull (strstr (store_error->message, "postgresql://lab@127.0.0.1:1/cards"));
  g_assert_null (strstr (store_error->message, "secret"));
  g_assert_cmpuint (cm_history_send_queued (history), ==, 2);

  results = cm_history_load (history, &problems, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 2);
  g_assert_cmpuint (problems->len, ==, 0);

  /* A queued document deleted from the history is not sent: its entry
   * goes when the queue is next looked at. */
  g_assert_true (cm_history_delete (history, g_ptr_array_index (results, 0), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cm_history_send_queued (history), ==, 1);
}

/* Results queued while one store is down wait for that store only
 * (issue 47): the history set to another store neither counts nor sends
 * them, and they are still there for their own. */
static void
test_queue_per_store (void)
{
  g_autoptr(GFile) folder = make_folder ();
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(CmResult) result = card_result (8, "0x00001234", "SanDisk", 32000000000);
  g_autoptr(GError) error = NULL;

  if (!cm_store_is_supported ())
    {
      g_test_skip ("built without libpq");
      return;
    }
  g_assert_true (cm_history_set_store (history, "postgresql://lab@127.0.0.1:1/cards?connect_timeout=2", &error));
  g_assert_no_error (error);
  save (history, result);
  g_assert_cmpuint (cm_history_count_queued (history), ==, 1);

  /* Another store, on another port: not its queue. */
  g_assert_true (cm_history_set_store (history, "postgresql://lab@127.0.0.1:2/cards?connect_timeout=2", &error));
  g_assert_cmpuint (cm_history_count_queued (history), ==, 0);
  g_assert_cmpuint (cm_history_send_queued (history), ==, 0);
  g_assert_null (cm_history_get_store_error (history));

  /* The first store again, given with another timeout: still its own. */
  g_assert_true (cm_history_set_store (history, "postgresql://lab@127.0.0.1:1/cards?connect_timeout=3", &error));
  g_assert_cmpuint (cm_history_count_queued (history), ==, 1);
  g_assert_cmpuint (cm_history_send_queued (history), ==, 1);
}

static void
store_sent_cb (CmHistory *history,
               guint      waiting,
               gpointer   user_data)
{
  gint *sent = user_data;

  *sent = (gint) waiting;
}

/* For an app: a save returns before the store is tried, so a store that
 * does not answer never holds the window; the send in another thread
 * says when it is done, and how many wait, and why. */
static void
test_send_in_background (void)
{
  g_autoptr(GFile) folder = make_folder ();
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(CmResult) result = card_result (8, "0x00001234", "SanDisk", 32000000000);
  g_autoptr(GError) error = NULL;
  gint sent = -1;

  if (!cm_store_is_supported ())
    {
      g_test_skip ("built without libpq");
      return;
    }
  g_assert_true (cm_history_set_store (history, "postgresql://lab@127.0.0.1:1/cards?connect_timeout=2", &error));
  cm_history_set_send_in_background (history, TRUE);
  g_signal_connect (history, "store-sent", G_CALLBACK (store_sent_cb), &sent);
  save (history, result);
  /* Not tried yet in this thread: no answer, no error, the document waits. */
  g_assert_cmpint (sent, ==, -1);
  g_assert_null (cm_history_get_store_error (history));
  g_assert_cmpuint (cm_history_count_queued (history), ==, 1);
  while (sent < 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (sent, ==, 1);
  g_assert_error ((GError *) cm_history_get_store_error (history), CM_STORE_ERROR, CM_STORE_ERROR_UNREACHABLE);
}

/* The app keeps no password in its settings: a URL with one is told
 * apart, and the password goes to libpq's password file, 0600, in place
 * of the line for the same server, database and user, never through a
 * link planted at its name. */
static void
test_remember_password (void)
{
  g_autoptr(GFile) folder = make_folder ();
  g_autofree char *dir = g_file_get_path (folder);
  g_autofree char *path = g_build_filename (dir, "pgpass", NULL);
  g_autofree char *victim = g_build_filename (dir, "victim", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  if (!cm_store_is_supported ())
    {
      g_test_skip ("built without libpq");
      return;
    }
  g_assert_true (cm_store_url_has_password ("postgresql://lab:secret@db/cards"));
  g_assert_true (cm_store_url_has_password ("postgresql://lab@db/cards?password=secret"));
  g_assert_false (cm_store_url_has_password ("postgresql://lab@db:5433/cards"));
  g_assert_false (cm_store_url_has_password ("postgresql://db/cards"));

  g_setenv ("PGPASSFILE", path, TRUE);
  g_assert_true (g_file_set_contents (victim, "untouched\n", -1, NULL));
  g_assert_cmpint (symlink (victim, path), ==, 0);
  g_assert_true (cm_store_remember_password ("postgresql://lab@db:5433/cards", "se:cr\\et", &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (victim, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "untouched\n");
  g_clear_pointer (&contents, g_free);
  g_assert_cmpint (g_lstat (path, &st), ==, 0);
  g_assert_true (S_ISREG (st.st_mode));
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "db:5433:cards:lab:se\\:cr\\\\et\n");
  g_clear_pointer (&contents, g_free);

  /* Another server's line is kept; this one's is replaced, then forgotten. */
  g_assert_true (g_file_set_contents (path, "other:*:*:me:pw\ndb:5433:cards:lab:old\n", -1, NULL));
  g_assert_true (cm_store_remember_password ("postgresql://lab@db:5433/cards", "new", &error));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "other:*:*:me:pw\ndb:5433:cards:lab:new\n");
  g_clear_pointer (&contents, g_free);
  g_assert_true (cm_store_remember_password ("postgresql://lab@db:5433/cards", NULL, &error));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "other:*:*:me:pw\n");
  g_unsetenv ("PGPASSFILE");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/store/safe-url", test_safe_url);
  g_test_add_func ("/cardmark/store/url-check", test_url_check);
  g_test_add_func ("/cardmark/store/seen-local", test_seen_local);
  g_test_add_func ("/cardmark/store/seen-card", test_seen_card);
  g_test_add_func ("/cardmark/store/seen-unreachable-once", test_seen_unreachable_once);
  g_test_add_func ("/cardmark/store/queue-unreachable", test_queue_unreachable);
  g_test_add_func ("/cardmark/store/queue-per-store", test_queue_per_store);
  g_test_add_func ("/cardmark/store/send-in-background", test_send_in_background);
  g_test_add_func ("/cardmark/store/remember-password", test_remember_password);

  return g_test_run ();
}
