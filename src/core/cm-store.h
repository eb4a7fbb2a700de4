/* cm-store.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-history-index.h"

G_BEGIN_DECLS

#define CM_STORE_ERROR (cm_store_error_quark ())

typedef enum
{
  CM_STORE_ERROR_URL,          /* not a postgresql:// URL libpq accepts */
  CM_STORE_ERROR_UNSUPPORTED,  /* built without libpq */
  CM_STORE_ERROR_UNREACHABLE,  /* no connection: the document waits */
  CM_STORE_ERROR_FAILED,       /* connected, but the database said no */
} CmStoreError;

/* What the store knows of a card before this result: the newest other
 * result with its CID serial, and whether one of them had another size
 * or brand (a cloned CID). */
typedef struct
{
  GPtrArray      *entries;   /* the results looked at, owning the two below */
  CmHistoryEntry *previous;  /* NULL: never tested before */
  CmHistoryEntry *clone;     /* NULL: no result with this serial differs */
  char           *sentence;  /* "Tested before: …", or NULL */
  char           *warning;   /* "Cloned card? …", or NULL */
} CmStoreSeen;

typedef struct _CmStore CmStore;

GQuark       cm_store_error_quark      (void);
gboolean     cm_store_is_supported     (void);
char        *cm_store_url_dup_safe     (const char  *url) G_GNUC_WARN_UNUSED_RESULT;
gboolean     cm_store_url_check        (const char  *url,
                                        GError     **error);
char        *cm_store_dup_machine_name (void) G_GNUC_WARN_UNUSED_RESULT;
gboolean     cm_store_url_has_password (const char  *url);
char        *cm_store_dup_password_file (void) G_GNUC_WARN_UNUSED_RESULT;
gboolean     cm_store_remember_password (const char  *url,
                                         const char  *password,
                                         GError     **error);

CmStore     *cm_store_new              (const char  *url,
                                        GError     **error) G_GNUC_WARN_UNUSED_RESULT;
void         cm_store_free             (CmStore     *self);
const char  *cm_store_get_safe_url     (CmStore     *self);
gboolean     cm_store_send             (CmStore     *self,
                                        const char  *document,
                                        gsize        length,
                                        GError     **error);
GPtrArray   *cm_store_list             (CmStore     *self,
                                        GError     **error) G_GNUC_WARN_UNUSED_RESULT;
GPtrArray   *cm_store_list_for_serial  (CmStore     *self,
                                        const char  *serial,
                                        guint        limit,
                                        GError     **error) G_GNUC_WARN_UNUSED_RESULT;

/* Returns FALSE to stop. */
typedef gboolean (*CmStoreDocumentFunc) (const char *id,
                                         const char *machine,
                                         const char *document,
                                         gsize       length,
                                         gpointer    user_data);

/* Returns FALSE to stop. */
typedef gboolean (*CmStoreEntryFunc) (CmHistoryEntry *entry,
                                      gpointer        user_data);

gboolean     cm_store_foreach_entry    (CmStore              *self,
                                        CmStoreEntryFunc      func,
                                        gpointer              user_data,
                                        GError              **error);
gboolean     cm_store_reach            (CmStore              *self,
                                        GError              **error);
const char  *cm_store_get_key          (CmStore              *self);
gboolean     cm_store_foreach_document (CmStore              *self,
                                        CmStoreDocumentFunc   func,
                                        gpointer              user_data,
                                        GError              **error);
GPtrArray   *cm_store_build_batch_report (CmStore    *self,
                                          GPtrArray **problems,
                                          GError    **error) G_GNUC_WARN_UNUSED_RESULT;

char        *cm_store_dup_id           (const char  *document,
                                        gsize        length) G_GNUC_WARN_UNUSED_RESULT;

CmStoreSeen *cm_store_seen_new_for_card (GPtrArray            *same_serial,
                                         const CmHistoryEntry *card,
                                         const char           *itself) G_GNUC_WARN_UNUSED_RESULT;
void         cm_store_seen_free        (CmStoreSeen *seen);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmStore, cm_store_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmStoreSeen, cm_store_seen_free)

G_END_DECLS
