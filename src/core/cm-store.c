/* cm-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The store a lab shares: one PostgreSQL database that the test machines
 * send their finished documents to, each as JSONB beside the columns a
 * list shows and the machine's name. libpq is optional at build time.
 * The URL's password is never printed or saved: everything that shows a
 * URL shows cm_store_url_dup_safe()'s.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if HAVE_LIBPQ
#include <libpq-fe.h>
#endif

#include "cm-batch-report.h"
#include "cm-outcome.h"
#include "cm-result.h"
#include "cm-summary.h"
#include "cm-text.h"

#include "cm-store.h"

/* How long a command waits for an unreachable database before it keeps
 * the document for later, unless the URL says (connect_timeout=N). */
#define CONNECT_TIMEOUT "5"

struct _CmStore
{
  char     *url;
  char     *safe_url;
  char     *password;  /* only to scrub it out of libpq's messages */
  char     *key;       /* cm_store_get_key() */
  char     *machine;
#if HAVE_LIBPQ
  PGconn   *conn;
#endif
  gboolean  table_ready;
};

G_DEFINE_QUARK (cm-store-error-quark, cm_store_error)

gboolean
cm_store_is_supported (void)
{
  return HAVE_LIBPQ;
}

static const char *
skip_scheme (const char *url)
{
  if (g_str_has_prefix (url, "postgresql://"))
    return url + strlen ("postgresql://");
  if (g_str_has_prefix (url, "postgres://"))
    return url + strlen ("postgres://");
  return NULL;
}

/* Whether a query parameter's key, as libpq reads it (%-escapes
 * decoded), names a password: "password", "sslpassword", and any spelling
 * of them, such as "pass%77ord". A key that does not decode is dropped
 * too: what it is cannot be known. */
static gboolean
is_password_key (const char *param)
{
  g_autofree char *raw = g_strndup (param, strcspn (param, "="));
  g_autofree char *key = g_uri_unescape_string (raw, NULL);
  g_autofree char *folded = key != NULL ? g_ascii_strdown (key, -1) : NULL;

  return folded == NULL || strstr (folded, "password") != NULL;
}

/* The query of a URL without its password parameters. */
static void
append_query_without_password (GString    *out,
                               const char *query)
{
  g_auto(GStrv) params = g_strsplit (query, "&", -1);
  gboolean first = TRUE;

  for (guint i = 0; params[i] != NULL; i++)
    {
      if (params[i][0] == '\0' || is_password_key (params[i]))
        continue;
      g_string_append_c (out, first ? '?' : '&');
      g_string_append (out, params[i]);
      first = FALSE;
    }
}

/* Where the user's part of @rest ends: its last @ that no '=' comes
 * before. libpq ends it at the first @, but a password typed with an @,
 * a '/' or a '?' of its own is still hidden whole; an @ in a query's
 * value is not taken for it. */
static const char *
find_credentials_end (const char *rest)
{
  const char *at = NULL;

  for (const char *p = rest; *p != '\0' && *p != '='; p++)
    if (*p == '@')
      at = p;
  return at;
}

#if HAVE_LIBPQ
static char *dup_password (const char *url);
#endif

/**
 * cm_store_url_dup_safe:
 *
 * @url as it may be printed or saved: postgresql://user:secret@host/db
 * becomes postgresql://user@host/db, and a password=… parameter goes,
 * however its key is spelled. A text that is no postgresql:// URL, or
 * that libpq cannot read (so what is its password cannot be known), is
 * not shown at all.
 */
char *
cm_store_url_dup_safe (const char *url)
{
  const char *rest, *at, *query;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *clean = NULL;

  g_return_val_if_fail (url != NULL, NULL);

  if ((rest = skip_scheme (url)) == NULL)
    return g_strdup (_("(not a postgresql:// URL)"));
#if HAVE_LIBPQ
  {
    PQconninfoOption *options = PQconninfoParse (url, NULL);

    if (options == NULL)
      return g_strdup (_("(an address that cannot be read, not shown)"));
    PQconninfoFree (options);
  }
#endif
  g_string_append_len (out, url, rest - url);

  if ((at = find_credentials_end (rest)) != NULL)
    {
      gsize user_length = strcspn (rest, ":@");

      if (user_length > 0 && rest + user_length <= at)
        {
          g_string_append_len (out, rest, MIN (user_length, (gsize) (at - rest)));
          g_string_append_c (out, '@');
        }
      rest = at + 1;
    }
  query = strchr (rest, '?');
  g_string_append_len (out, rest, query != NULL ? (gsize) (query - rest) : strcspn (rest, "#"));
  if (query != NULL)
    {
      g_autofree char *params = g_strndup (query + 1, strcspn (query + 1, "#"));

      append_query_without_password (out, params);
    }
#if HAVE_LIBPQ
  /* Whatever libpq takes for the password is in no shown text, however
   * it came to be there. */
  {
    g_autofree char *password = dup_password (url);

    if (password != NULL)
      g_string_replace (out, password, "********", 0);
  }
#endif

  clean = cm_text_dup_clean (out->str, 500);
  return g_steal_pointer (&clean);
}

static gboolean
check_unsupported (GError **error)
{
  if (HAVE_LIBPQ)
    return TRUE;
  g_set_error_literal (error, CM_STORE_ERROR, CM_STORE_ERROR_UNSUPPORTED,
                       _("This CardMark was built without PostgreSQL support (libpq), so it cannot send results to a store. "
                         "Build it with libpq-dev installed, or leave out the store."));
  return FALSE;
}

#if HAVE_LIBPQ
/* libpq's reason a URL cannot be read, without the piece of the URL it
 * quotes at its end (‘invalid percent-encoded token: "S3cr3t%zz"’): that
 * piece may be the password. */
static char *
dup_url_reason (const char *why)
{
  g_autofree char *text = g_strdup (why != NULL ? why : "");
  char *quoted = g_strrstr (text, ": \"");

  if (quoted != NULL)
    *quoted = '\0';
  return cm_text_dup_clean (g_strstrip (text), CM_TEXT_LINE_MAX);
}

/* The URL itself is not echoed: libpq could not read it, so which part
 * of it is a password cannot be known. */
static void
set_url_error (GError    **error,
               const char *why)
{
  g_autofree char *reason = dup_url_reason (why);

  g_set_error (error, CM_STORE_ERROR, CM_STORE_ERROR_URL,
               _("The store’s address is not a URL CardMark can use (%s). Give it as postgresql://USER@HOST[:PORT]/DATABASE."),
               reason);
}

/* The password libpq reads from @url, to scrub out of its messages. */
static char *
dup_password (const char *url)
{
  PQconninfoOption *options = PQconninfoParse (url, NULL);
  char *password = NULL;

  for (PQconninfoOption *o = options; o != NULL && o->keyword != NULL; o++)
    if (g_str_equal (o->keyword, "password") && o->val != NULL && *o->val != '\0')
      password = g_strdup (o->val);
  PQconninfoFree (options);
  return password;
}

/* A message of libpq's as it may be shown: one clean line, without the
 * password even if a server or libpq echoed it. */
static char *
dup_message (const char *message,
             const char *password)
{
  g_autoptr(GString) text = g_string_new (message != NULL ? message : "");
  g_autoptr(GString) line = g_string_new (NULL);
  g_autofree char *clean = NULL;

  if (password != NULL)
    g_string_replace (text, password, "********", 0);
  /* libpq's lines ("…refused\n\tIs the server running…") as one. */
  for (const char *p = text->str; *p != '\0'; p++)
    {
      gboolean space = g_ascii_isspace (*p);

      if (!space)
        g_string_append_c (line, *p);
      else if (line->len > 0 && line->str[line->len - 1] != ' ')
        g_string_append_c (line, ' ');
    }
  g_strchomp (line->str);
  clean = cm_text_dup_clean (line->str, 400);
  return g_steal_pointer (&clean);
}
#endif

/**
 * cm_store_url_check:
 *
 * Whether @url is a postgresql:// URL that libpq can read, checked
 * before any card is touched; nothing is connected.
 */
gboolean
cm_store_url_check (const char  *url,
                    GError     **error)
{
  g_return_val_if_fail (url != NULL, FALSE);

  if (!check_unsupported (error))
    return FALSE;
  if (skip_scheme (url) == NULL)
    {
      /* Not shown: it may be a connection string with a password. */
      g_set_error_literal (error, CM_STORE_ERROR, CM_STORE_ERROR_URL,
                           _("The store must be given as a URL that begins with postgresql://, such as "
                             "postgresql://USER@HOST[:PORT]/DATABASE."));
      return FALSE;
    }
#if HAVE_LIBPQ
  {
    char *why = NULL;
    PQconninfoOption *options = PQconninfoParse (url, &why);

    if (options == NULL)
      {
        set_url_error (error, why);
        PQfreemem (why);
        return FALSE;
      }
    PQconninfoFree (options);
  }
#endif
  return TRUE;
}

/**
 * cm_store_url_has_password:
 *
 * Whether @url carries a password (postgresql://user:secret@host/db,
 * or ?password=…): an app keeps such a URL in no setting.
 */
gboolean
cm_store_url_has_password (const char *url)
{
#if HAVE_LIBPQ
  g_autofree char *password = url != NULL && skip_scheme (url) != NULL ? dup_password (url) : NULL;

  return password != NULL;
#else
  /* Built without a store: no URL is taken, so none is kept either. */
  return FALSE;
#endif
}

#if HAVE_LIBPQ
/* A field of libpq's password file: ':' and '\' escaped; empty → any. */
static void
append_pgpass_field (GString    *line,
                     const char *value)
{
  if (value == NULL || *value == '\0')
    {
      g_string_append_c (line, '*');
      return;
    }
  for (const char *p = value; *p != '\0'; p++)
    {
      if (*p == ':' || *p == '\\')
        g_string_append_c (line, '\\');
      g_string_append_c (line, *p);
    }
}

/* The first four fields of a password file's line, escapes kept: what
 * a line for the same server, database and user starts with. */
static char *
pgpass_key (const char *url)
{
  PQconninfoOption *options = PQconninfoParse (url, NULL);
  const char *host = NULL, *port = NULL, *dbname = NULL, *user = NULL;
  GString *key = g_string_new (NULL);

  for (PQconninfoOption *o = options; o != NULL && o->keyword != NULL; o++)
    {
      if (g_str_equal (o->keyword, "host"))
        host = o->val;
      else if (g_str_equal (o->keyword, "port"))
        port = o->val;
      else if (g_str_equal (o->keyword, "dbname"))
        dbname = o->val;
      else if (g_str_equal (o->keyword, "user"))
        user = o->val;
    }
  /* libpq names a local socket "localhost" here, and a missing user is
   * the one logged in. */
  append_pgpass_field (key, host != NULL && *host != '\0' ? host : "localhost");
  g_string_append_c (key, ':');
  append_pgpass_field (key, port);
  g_string_append_c (key, ':');
  append_pgpass_field (key, dbname);
  g_string_append_c (key, ':');
  append_pgpass_field (key, user != NULL && *user != '\0' ? user : g_get_user_name ());
  g_string_append_c (key, ':');
  PQconninfoFree (options);
  return g_string_free (key, FALSE);
}
#endif

/**
 * cm_store_dup_password_file:
 *
 * libpq's password file: $PGPASSFILE, else ~/.pgpass. Both faces
 * connect through libpq, so a password kept there serves the app and
 * the CLI, and is in no setting and no URL.
 */
char *
cm_store_dup_password_file (void)
{
  const char *file = g_getenv ("PGPASSFILE");

  if (file != NULL && *file != '\0')
    return g_strdup (file);
  return g_build_filename (g_get_home_dir (), ".pgpass", NULL);
}

/**
 * cm_store_remember_password:
 * @url: the store, without a password
 * @password: (nullable): its password; %NULL or "" forgets it
 *
 * Keeps @password for @url's server, database and user in libpq's
 * password file (readable by its owner only, as libpq requires), in
 * place of the line it had; other lines are kept as they were.
 */
gboolean
cm_store_remember_password (const char  *url,
                            const char  *password,
                            GError     **error)
{
#if HAVE_LIBPQ
  g_autofree char *path = cm_store_dup_password_file ();
  g_autofree char *key = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  GError *local_error = NULL;

  if (!cm_store_url_check (url, error))
    return FALSE;
  key = pgpass_key (url);
  /* The lines it had, read never through a link (one planted at the
   * name would copy another file in): anything but a file is replaced. */
  {
    int fd = open (path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;

    if (fd < 0 && errno != ENOENT && errno != ELOOP)
      {
        int errsv = errno;

        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), _("Cannot read %s: %s"), path,
                     g_strerror (errsv));
        return FALSE;
      }
    if (fd >= 0 && fstat (fd, &st) == 0 && S_ISREG (st.st_mode))
      {
        g_autoptr(GMappedFile) mapped = g_mapped_file_new_from_fd (fd, FALSE, &local_error);

        if (mapped == NULL)
          {
            close (fd);
            g_propagate_error (error, local_error);
            return FALSE;
          }
        contents = g_strndup (g_mapped_file_get_contents (mapped), g_mapped_file_get_length (mapped));
      }
    if (fd >= 0)
      close (fd);
  }
  lines = g_strsplit (contents != NULL ? contents : "", "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (*lines[i] != '\0' && !g_str_has_prefix (lines[i], key))
      g_string_append_printf (out, "%s\n", lines[i]);
  if (password != NULL && *password != '\0')
    {
      g_string_append (out, key);
      /* The last field: only '\\' and ':' need escaping there too. */
      {
        g_autoptr(GString) field = g_string_new (NULL);

        append_pgpass_field (field, password);
        g_string_append_printf (out, "%s\n", field->str);
      }
    }
  /* Written whole to a new file then renamed: a link planted at the
   * name is replaced, never written through; 0600, or libpq ignores it. */
  return g_file_set_contents_full (path, out->str, out->len, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
#else
  return check_unsupported (error);
#endif
}

/**
 * cm_store_dup_machine_name:
 *
 * The name this machine's documents carry in the store: the host name,
 * or $CARDMARK_MACHINE_NAME where a lab's machines share one (every
 * Raspberry Pi is "raspberrypi" until renamed).
 */
char *
cm_store_dup_machine_name (void)
{
  const char *name = g_getenv ("CARDMARK_MACHINE_NAME");

  if (name == NULL || *name == '\0')
    name = g_get_host_name ();
  return cm_text_dup_clean (name, 100);
}

/**
 * cm_store_new:
 *
 * A store at @url, not yet connected: the first send or list connects.
 */
CmStore *
cm_store_new (const char  *url,
              GError     **error)
{
  CmStore *self;

  g_return_val_if_fail (url != NULL, NULL);

  if (!cm_store_url_check (url, error))
    return NULL;
  self = g_new0 (CmStore, 1);
  self->url = g_strdup (url);
  self->safe_url = cm_store_url_dup_safe (url);
  self->machine = cm_store_dup_machine_name ();
#if HAVE_LIBPQ
  self->password = dup_password (url);
  self->key = pgpass_key (url);
#else
  self->key = g_strdup (self->safe_url);
#endif
  return self;
}

void
cm_store_free (CmStore *self)
{
  if (self == NULL)
    return;
#if HAVE_LIBPQ
  g_clear_pointer (&self->conn, PQfinish);
#endif
  g_free (self->url);
  g_free (self->safe_url);
  if (self->password != NULL)
    memset (self->password, 0, strlen (self->password));
  g_free (self->password);
  g_free (self->key);
  g_free (self->machine);
  g_free (self);
}

/* The URL as it may be shown. */
const char *
cm_store_get_safe_url (CmStore *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->safe_url;
}

/**
 * cm_store_dup_id:
 *
 * A document's id in the store: the SHA-256 of its text as saved.
 */
char *
cm_store_dup_id (const char *document,
                 gsize       length)
{
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) document, length);
}

#if HAVE_LIBPQ

static const char create_sql[] =
  "CREATE TABLE IF NOT EXISTS cardmark_results ("
  " id text PRIMARY KEY,"           /* SHA-256 of the document */
  " machine text NOT NULL,"
  " kind text NOT NULL,"
  " serial text, name text, brand text, size_bytes bigint,"
  " started timestamptz, title text, run text, outcome text, verdict text,"
  " write_mb_s double precision, read_mb_s double precision,"
  " write_4k_iops double precision, read_4k_iops double precision,"
  " document jsonb NOT NULL,"
  " received timestamptz NOT NULL DEFAULT now());"
  "CREATE INDEX IF NOT EXISTS cardmark_results_started ON cardmark_results (started DESC);"
  "CREATE INDEX IF NOT EXISTS cardmark_results_serial ON cardmark_results (serial, started DESC);"
  /* One test's key (cm_result_dup_run_key()): a wear test carried on
   * replaces the row of its stop. Added to a table made before it. */
  "ALTER TABLE cardmark_results ADD COLUMN IF NOT EXISTS run_key text;"
  "CREATE INDEX IF NOT EXISTS cardmark_results_run ON cardmark_results (machine, run_key);";

/* Unreachable when the connection is gone, failed when the database
 * refused what it was asked. */
static void
set_pq_error (CmStore    *self,
              GError    **error,
              const char *message)
{
  g_autofree char *why = dup_message (message, self->password);
  gboolean gone = self->conn == NULL || PQstatus (self->conn) != CONNECTION_OK;

  if (gone)
    /* Translators: "The store postgresql://lab@db/cards cannot be reached: connection refused" */
    g_set_error (error, CM_STORE_ERROR, CM_STORE_ERROR_UNREACHABLE,
                 _("The store %s cannot be reached: %s"), self->safe_url, why);
  else
    g_set_error (error, CM_STORE_ERROR, CM_STORE_ERROR_FAILED,
                 _("The store %s refused the result: %s"), self->safe_url, why);
}

/* A notice of the server's (a trigger's RAISE NOTICE, a warning) is
 * never printed as libpq would print it, raw on stderr: with
 * G_MESSAGES_DEBUG it is logged, one clean line. */
static void
notice_cb (void       *user_data,
           const char *message)
{
  CmStore *self = user_data;
  g_autofree char *clean = dup_message (message, self->password);

  g_debug ("The store says: %s", clean);
}

static gboolean
connect_store (CmStore  *self,
               GError  **error)
{
  /* connect_timeout before dbname: the URL's own, if it has one, wins. */
  const char * const keywords[] = { "connect_timeout", "application_name", "dbname", NULL };
  const char * const values[] = { CONNECT_TIMEOUT, "cardmark", self->url, NULL };
  PGresult *res;

  if (self->conn != NULL && PQstatus (self->conn) == CONNECTION_OK)
    return TRUE;
  g_clear_pointer (&self->conn, PQfinish);
  self->table_ready = FALSE;

  self->conn = PQconnectdbParams (keywords, values, 1);
  if (self->conn == NULL || PQstatus (self->conn) != CONNECTION_OK)
    {
      set_pq_error (self, error, self->conn != NULL ? PQerrorMessage (self->conn) : "out of memory");
      g_clear_pointer (&self->conn, PQfinish);
      return FALSE;
    }
  PQsetNoticeProcessor (self->conn, notice_cb, self);

  /* Several machines may make the table at once: they wait on one lock.
   * IF NOT EXISTS says "already exists, skipping" as a notice each time:
   * not asked for. */
  res = PQexec (self->conn, "BEGIN; SET LOCAL client_min_messages = warning; SELECT pg_advisory_xact_lock(4242); ");
  PQclear (res);
  res = PQexec (self->conn, create_sql);
  if (PQresultStatus (res) != PGRES_COMMAND_OK)
    {
      set_pq_error (self, error, PQresultErrorMessage (res));
      PQclear (res);
      PQclear (PQexec (self->conn, "ROLLBACK"));
      return FALSE;
    }
  PQclear (res);
  res = PQexec (self->conn, "COMMIT");
  PQclear (res);
  self->table_ready = TRUE;
  return TRUE;
}

static char *
dup_figure (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (value < 0)
    return NULL;
  return g_strdup (g_ascii_dtostr (buffer, sizeof buffer, value));
}

#define N_INSERT_PARAMS 18

static const char insert_sql[] =
  "INSERT INTO cardmark_results (id, machine, kind, serial, name, brand, size_bytes,"
  " started, title, run, outcome, verdict, write_mb_s, read_mb_s, write_4k_iops, read_4k_iops, document, run_key)"
  " VALUES ($1, $2, $3, $4, $5, $6, $7::bigint, to_timestamp($8::bigint), $9, $10, $11, $12,"
  " $13::float8, $14::float8, $15::float8, $16::float8, $17::jsonb, $18)"
  " ON CONFLICT (id) DO NOTHING";

/* The earlier documents of the same test on the same machine: a wear
 * test's stop, which the document carried on from it replaces. */
static const char replace_sql[] =
  "DELETE FROM cardmark_results WHERE machine = $1 AND run_key = $2 AND id <> $3";

/* One statement of a send; FALSE with the error set. */
static gboolean
exec_params (CmStore     *self,
             const char  *sql,
             int          n_params,
             const char **params,
             GError     **error)
{
  PGresult *res = PQexecParams (self->conn, sql, n_params, NULL, params, NULL, NULL, 0);
  gboolean ok = PQresultStatus (res) == PGRES_COMMAND_OK;

  if (!ok)
    set_pq_error (self, error, PQresultErrorMessage (res));
  PQclear (res);
  return ok;
}

/**
 * cm_store_send:
 *
 * Sends one finished document (its text as saved in the history). Its
 * id is the SHA-256 of that text, so sending it again adds nothing.
 * CM_STORE_ERROR_UNREACHABLE means: keep it and try later.
 */
gboolean
cm_store_send (CmStore     *self,
               const char  *document,
               gsize        length,
               GError     **error)
{
  g_autoptr(CmResult) result = NULL;
  g_autoptr(CmHistoryEntry) entry = NULL;
  g_autoptr(CmOutcome) outcome = NULL;
  g_autofree char *id = NULL;
  g_autofree char *text = NULL;
  g_autofree char *size = NULL;
  g_autofree char *started = NULL;
  g_autofree char *run_key = NULL;
  char *figures[4];
  const char *params[N_INSERT_PARAMS];
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (document != NULL, FALSE);

  if ((result = cm_result_new_from_data (document, length, error)) == NULL)
    return FALSE;
  if (!connect_store (self, error))
    return FALSE;

  entry = cm_history_entry_new_for_result (result);
  outcome = cm_result_dup_outcome (result);
  id = cm_store_dup_id (document, length);
  text = g_strndup (document, length);
  size = g_strdup_printf ("%" G_GUINT64_FORMAT, entry->size_bytes);
  started = g_strdup_printf ("%" G_GINT64_FORMAT, entry->started);
  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    figures[i] = dup_figure (entry->figures[i]);

  params[0] = id;
  params[1] = self->machine;
  params[2] = entry->kind != NULL ? entry->kind : "";
  params[3] = entry->serial;
  params[4] = entry->name;
  params[5] = entry->brand;
  params[6] = entry->size_bytes > 0 ? size : NULL;
  params[7] = entry->started > 0 ? started : NULL;
  params[8] = entry->title;
  params[9] = entry->run;
  params[10] = outcome != NULL ? cm_outcome_status_to_string (outcome->status) : NULL;
  params[11] = entry->verdict;
  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    params[12 + i] = figures[i];
  params[16] = text;
  params[17] = run_key = cm_result_dup_run_key (result);

  /* The row of a stopped wear test goes as its carried-on document comes:
   * both, or neither. */
  if (run_key == NULL)
    ok = exec_params (self, insert_sql, N_INSERT_PARAMS, params, error);
  else
    {
      const char *replace_params[] = { self->machine, run_key, id };

      ok = exec_params (self, "BEGIN", 0, NULL, error) &&
           exec_params (self, replace_sql, G_N_ELEMENTS (replace_params), replace_params, error) &&
           exec_params (self, insert_sql, N_INSERT_PARAMS, params, error) &&
           exec_params (self, "COMMIT", 0, NULL, error);
      if (!ok && PQstatus (self->conn) == CONNECTION_OK)
        PQclear (PQexec (self->conn, "ROLLBACK"));
    }
  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    g_free (figures[i]);
  return ok;
}

/* Whether @text is printable ASCII short enough to be kept whole: what
 * cm_text_dup_clean() would give back unchanged. */
static gboolean
is_plain_line (const char *text,
               int         length)
{
  if (length > CM_TEXT_LINE_MAX)
    return FALSE;
  for (int i = 0; i < length; i++)
    if (text[i] < 0x20 || text[i] > 0x7e)
      return FALSE;
  return TRUE;
}

static char *
dup_clean_value (PGresult *res,
                 int       row,
                 int       column)
{
  const char *value;
  int length;

  if (PQgetisnull (res, row, column))
    return NULL;
  value = PQgetvalue (res, row, column);
  length = PQgetlength (res, row, column);
  /* Most values are plain: 100 000 rows are listed without looking at
   * each of their characters twice. */
  if (is_plain_line (value, length))
    return g_strndup (value, length);
  return cm_text_dup_clean (value, CM_TEXT_LINE_MAX);
}

/* The columns entry_from_result() reads, in its order. */
#define SELECT_ENTRY \
  "SELECT id, machine, kind, serial, name, brand, size_bytes, extract(epoch FROM started)::bigint," \
  " title, run, verdict, write_mb_s, read_mb_s, write_4k_iops, read_4k_iops FROM cardmark_results"

/* Everything that comes from the database is text from outside: cleaned. */
static CmHistoryEntry *
entry_from_result (PGresult *res,
                   int       row)
{
  CmHistoryEntry *entry = g_new0 (CmHistoryEntry, 1);

  entry->path = dup_clean_value (res, row, 0);
  entry->machine = dup_clean_value (res, row, 1);
  entry->kind = dup_clean_value (res, row, 2);
  entry->serial = dup_clean_value (res, row, 3);
  entry->name = dup_clean_value (res, row, 4);
  entry->brand = dup_clean_value (res, row, 5);
  entry->size_bytes = PQgetisnull (res, row, 6) ? 0 : g_ascii_strtoull (PQgetvalue (res, row, 6), NULL, 10);
  entry->started = PQgetisnull (res, row, 7) ? 0 : g_ascii_strtoll (PQgetvalue (res, row, 7), NULL, 10);
  entry->title = dup_clean_value (res, row, 8);
  entry->run = dup_clean_value (res, row, 9);
  entry->verdict = dup_clean_value (res, row, 10);
  for (guint i = 0; i < G_N_ELEMENTS (entry->figures); i++)
    entry->figures[i] = PQgetisnull (res, row, 11 + i) ? -1 : g_ascii_strtod (PQgetvalue (res, row, 11 + i), NULL);
  return entry;
}

static GPtrArray *
query_entries (CmStore     *self,
               const char  *sql,
               int          n_params,
               const char **params,
               GError     **error)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_history_entry_free);
  PGresult *res;

  if (!connect_store (self, error))
    return NULL;
  res = PQexecParams (self->conn, sql, n_params, NULL, params, NULL, NULL, 0);
  if (PQresultStatus (res) != PGRES_TUPLES_OK)
    {
      set_pq_error (self, error, PQresultErrorMessage (res));
      PQclear (res);
      return NULL;
    }
  for (int row = 0; row < PQntuples (res); row++)
    g_ptr_array_add (entries, entry_from_result (res, row));
  PQclear (res);
  return g_steal_pointer (&entries);
}

/* Row by row (libpq's single-row mode): the store's 100 000 documents
 * are never all in memory. */
static gboolean
foreach_document (CmStore                *self,
                  CmStoreDocumentFunc     func,
                  gpointer                user_data,
                  GError                **error)
{
  gboolean stopped = FALSE;
  gboolean ok = TRUE;
  PGresult *res;

  if (!connect_store (self, error))
    return FALSE;
  /* The column holds the start to the second; the document's own text
   * to the microsecond tells apart two machines' checks in one second. */
  if (!PQsendQuery (self->conn, "SELECT id, machine, document::text FROM cardmark_results"
                                " ORDER BY started, document->>'started', id") ||
      !PQsetSingleRowMode (self->conn))
    {
      set_pq_error (self, error, PQerrorMessage (self->conn));
      while ((res = PQgetResult (self->conn)) != NULL)
        PQclear (res);
      return FALSE;
    }
  while ((res = PQgetResult (self->conn)) != NULL)
    {
      ExecStatusType status = PQresultStatus (res);

      if (status == PGRES_SINGLE_TUPLE && !stopped)
        {
          g_autofree char *id = dup_clean_value (res, 0, 0);
          g_autofree char *machine = dup_clean_value (res, 0, 1);

          stopped = !func (id, machine, PQgetvalue (res, 0, 2), (gsize) PQgetlength (res, 0, 2), user_data);
        }
      else if (status != PGRES_SINGLE_TUPLE && status != PGRES_TUPLES_OK && ok)
        {
          set_pq_error (self, error, PQresultErrorMessage (res));
          ok = FALSE;
        }
      PQclear (res);
    }
  return ok;
}

/* The list, oldest first, fetched a batch at a time through a cursor:
 * memory stays one batch's however many rows the store holds, and each
 * row is handed on as it comes. */
#define FETCH_BATCH 2000

static gboolean
foreach_entry (CmStore             *self,
               CmStoreEntryFunc     func,
               gpointer             user_data,
               GError             **error)
{
  static const char fetch_sql[] = "FETCH " G_STRINGIFY (FETCH_BATCH) " FROM cardmark_list";
  gboolean more = TRUE;

  if (!connect_store (self, error))
    return FALSE;
  if (!exec_params (self, "BEGIN READ ONLY", 0, NULL, error) ||
      !exec_params (self, "DECLARE cardmark_list NO SCROLL CURSOR FOR " SELECT_ENTRY " ORDER BY started, id", 0, NULL, error))
    {
      if (PQstatus (self->conn) == CONNECTION_OK)
        PQclear (PQexec (self->conn, "ROLLBACK"));
      return FALSE;
    }
  while (more)
    {
      PGresult *res = PQexec (self->conn, fetch_sql);
      int n;

      if (PQresultStatus (res) != PGRES_TUPLES_OK)
        {
          set_pq_error (self, error, PQresultErrorMessage (res));
          PQclear (res);
          if (PQstatus (self->conn) == CONNECTION_OK)
            PQclear (PQexec (self->conn, "ROLLBACK"));
          return FALSE;
        }
      n = PQntuples (res);
      more = n == FETCH_BATCH;
      for (int row = 0; row < n; row++)
        {
          g_autoptr(CmHistoryEntry) entry = entry_from_result (res, row);

          if (!func (entry, user_data))
            {
              more = FALSE;
              break;
            }
        }
      PQclear (res);
    }
  PQclear (PQexec (self->conn, "ROLLBACK"));
  return TRUE;
}

#else /* !HAVE_LIBPQ */

gboolean
cm_store_send (CmStore     *self,
               const char  *document,
               gsize        length,
               GError     **error)
{
  return check_unsupported (error);
}

#endif /* HAVE_LIBPQ */

/**
 * cm_store_list:
 *
 * Every result in the store, newest first, as the history's index lists
 * them; each entry's machine says where it ran.
 */
GPtrArray *
cm_store_list (CmStore  *self,
               GError  **error)
{
  g_return_val_if_fail (self != NULL, NULL);
#if HAVE_LIBPQ
  return query_entries (self, SELECT_ENTRY " ORDER BY started DESC, id DESC", 0, NULL, error);
#else
  check_unsupported (error);
  return NULL;
#endif
}

/**
 * cm_store_foreach_entry:
 * @func: called with each result's entry (borrowed), oldest first, as
 *   the store sends it; returns %FALSE to stop
 *
 * Every result in the store, as cm_store_list() gives them but oldest
 * first and one at a time: its memory does not grow with the store.
 */
gboolean
cm_store_foreach_entry (CmStore           *self,
                        CmStoreEntryFunc   func,
                        gpointer           user_data,
                        GError           **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);
#if HAVE_LIBPQ
  return foreach_entry (self, func, user_data, error);
#else
  return check_unsupported (error);
#endif
}

/**
 * cm_store_reach:
 *
 * Connects to the store now, if it is not connected, and makes its table:
 * whether it answers, measured rather than assumed.
 */
gboolean
cm_store_reach (CmStore  *self,
                GError  **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
#if HAVE_LIBPQ
  return connect_store (self, error);
#else
  return check_unsupported (error);
#endif
}

/**
 * cm_store_get_key:
 *
 * Which store this is, as a document queued for it names it: its
 * server, port, database and user, without the password or the URL's
 * other parameters, so the same store given with another timeout is
 * still the same.
 */
const char *
cm_store_get_key (CmStore *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->key;
}

/**
 * cm_store_foreach_document:
 * @func: called with each document's id, machine and text (borrowed),
 *   oldest first; returns %FALSE to stop
 *
 * Every document in the store, one at a time.
 */
gboolean
cm_store_foreach_document (CmStore              *self,
                           CmStoreDocumentFunc   func,
                           gpointer              user_data,
                           GError              **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);
#if HAVE_LIBPQ
  return foreach_document (self, func, user_data, error);
#else
  return check_unsupported (error);
#endif
}

typedef struct
{
  CmBatchReport *report;
  GPtrArray     *problems;
} BatchBuild;

static gboolean
add_to_report_cb (const char *id,
                  const char *machine,
                  const char *document,
                  gsize       length,
                  gpointer    user_data)
{
  BatchBuild *build = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = cm_result_new_from_data (document, length, &error);

  if (result != NULL)
    {
      CmBatchFacts *facts = cm_batch_facts_new_for_result (result);

      facts->machine = g_strdup (machine);
      cm_batch_report_add (build->report, facts);
    }
  else
    /* Translators: a document in the store that could not be read, by its id */
    g_ptr_array_add (build->problems, g_strdup_printf (_("Skipped %s from %s: %s"), id, machine, error->message));
  return TRUE;
}

/**
 * cm_store_build_batch_report:
 * @problems: (out) (element-type utf8): sentences naming the documents
 *   that could not be read
 *
 * Returns: (transfer full) (element-type CmBatchRow): the batch report of
 *   every document in the store, read one at a time; %NULL on an error
 */
GPtrArray *
cm_store_build_batch_report (CmStore    *self,
                             GPtrArray **problems,
                             GError    **error)
{
  g_autoptr(CmBatchReport) report = cm_batch_report_new ();
  g_autoptr(GPtrArray) bad = g_ptr_array_new_with_free_func (g_free);
  BatchBuild build = { report, bad };

  if (!cm_store_foreach_document (self, add_to_report_cb, &build, error))
    return NULL;
  if (problems != NULL)
    *problems = g_steal_pointer (&bad);
  return cm_batch_report_get_rows (report);
}

/* The store's results for a card with this CID serial, newest first. */
GPtrArray *
cm_store_list_for_serial (CmStore     *self,
                          const char  *serial,
                          guint        limit,
                          GError     **error)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (serial != NULL, NULL);
#if HAVE_LIBPQ
  {
    g_autofree char *count = g_strdup_printf ("%u", limit);
    const char *params[] = { serial, count };

    return query_entries (self, SELECT_ENTRY " WHERE serial = $1 ORDER BY started DESC LIMIT $2::int",
                          2, params, error);
  }
#else
  check_unsupported (error);
  return NULL;
#endif
}

/* A card's brand printed by the user may be missing on one result and
 * there on another: only two known values can differ. */
static gboolean
differs (CmHistoryEntry *entry,
         guint64         size_bytes,
         const char     *brand)
{
  if (entry->size_bytes > 0 && size_bytes > 0 && entry->size_bytes != size_bytes)
    return TRUE;
  return entry->brand != NULL && *entry->brand != '\0' && brand != NULL && *brand != '\0' &&
         g_utf8_collate (entry->brand, brand) != 0 &&
         g_ascii_strcasecmp (entry->brand, brand) != 0;
}

static char *
dup_where_when (CmHistoryEntry *entry)
{
  g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (entry->started);
  /* As every other date a card's page and the CLI's reports say. */
  g_autofree char *date = cm_summary_format_date (when);

  if (entry->machine == NULL)
    /* Translators: where and when a card was tested: "on this computer, 4 Dec 2026, 13:05" */
    return g_strdup_printf (_("on this computer, %s"), date);
  /* Translators: where and when a card was tested: "on lab-pi-3, 2026-12-04 13:05" */
  return g_strdup_printf (_("on %s, %s"), entry->machine, date);
}

/**
 * cm_store_seen_new_for_card:
 * @same_serial: (element-type CmHistoryEntry): the results for @card's
 *   CID serial, newest first, from the history's index or the store
 * @card: the card as a result's entry would name it: its serial, size and
 *   brand; its start, after which results do not count (%G_MAXINT64 for
 *   a card in a reader now)
 * @itself: (nullable): the entry of the result that is not "before" (its
 *   file in the history, its id in the store)
 *
 * What they say of @card: when and where it was tested before, and
 * whether a card with its CID serial had another size or brand.
 */
CmStoreSeen *
cm_store_seen_new_for_card (GPtrArray            *same_serial,
                            const CmHistoryEntry *card,
                            const char           *itself)
{
  CmStoreSeen *seen = g_new0 (CmStoreSeen, 1);

  g_return_val_if_fail (same_serial != NULL, seen);
  g_return_val_if_fail (card != NULL, seen);

  seen->entries = g_ptr_array_ref (same_serial);
  for (guint i = 0; i < same_serial->len; i++)
    {
      CmHistoryEntry *entry = g_ptr_array_index (same_serial, i);

      if (entry->started > card->started || g_strcmp0 (entry->path, itself) == 0)
        continue;
      if (seen->previous == NULL)
        seen->previous = entry;
      if (seen->clone == NULL && differs (entry, card->size_bytes, card->brand))
        seen->clone = entry;
    }

  if (seen->previous != NULL)
    {
      g_autofree char *where = dup_where_when (seen->previous);

      /* Translators: "Tested before on lab-pi-3, 2026-12-04 13:05: Meets A1, U1, C10" */
      seen->sentence = g_strdup_printf (_("Tested before %s: %s"), where,
                                        seen->previous->verdict != NULL ? seen->previous->verdict : _("no verdict"));
    }
  if (seen->clone != NULL)
    {
      g_autofree char *where = dup_where_when (seen->clone);
      g_autofree char *size = g_format_size (seen->clone->size_bytes);
      g_autofree char *other = NULL;

      /* Translators: a card's size and brand: "64.0 GB SanDisk" */
      other = seen->clone->brand != NULL && *seen->clone->brand != '\0'
              ? g_strdup_printf (_("%s %s"), size, seen->clone->brand) : g_strdup (size);
      /* Translators: "Cloned card? A card with this CID serial (0x1234abcd) was a 64.0 GB SanDisk on lab-pi-3, 2026-12-04 13:05. …" */
      seen->warning = g_strdup_printf (_("Cloned card? A card with this CID serial (%s) was a %s %s. "
                                         "Counterfeit cards often carry a copied CID."),
                                       card->serial, other, where);
    }
  return seen;
}

void
cm_store_seen_free (CmStoreSeen *seen)
{
  if (seen == NULL)
    return;
  g_clear_pointer (&seen->entries, g_ptr_array_unref);
  g_free (seen->sentence);
  g_free (seen->warning);
  g_free (seen);
}
