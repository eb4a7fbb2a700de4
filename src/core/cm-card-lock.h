/* cm-card-lock.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CM_CARD_LOCK_ERROR (cm_card_lock_error_quark ())

typedef enum
{
  CM_CARD_LOCK_ERROR_BUSY,    /* another job holds the card */
  CM_CARD_LOCK_ERROR_FAILED,  /* the lock itself could not be made */
} CmCardLockError;

GQuark cm_card_lock_error_quark (void);

typedef struct _CmCardLock CmCardLock;

CmCardLock *cm_card_lock_take     (const char  *path,
                                   const char  *what,
                                   GError     **error) G_GNUC_WARN_UNUSED_RESULT;
void        cm_card_lock_release  (CmCardLock  *lock);

char       *cm_card_lock_dup_key  (const char  *path) G_GNUC_WARN_UNUSED_RESULT;
char       *cm_card_lock_dup_busy_text (const char *holder) G_GNUC_WARN_UNUSED_RESULT;

/* Who holds a lock: its process, found in /proc/locks, and the user it
 * runs as (from /proc, or the file's owner when the process is not
 * listed). */
typedef struct
{
  GPid   pid;      /* 0 when not known */
  uid_t  uid;
  char  *program;  /* the process's name, cleaned; NULL when not known */
} CmLockHolder;

gboolean    cm_card_lock_find_holder   (int                 fd,
                                        CmLockHolder       *holder);
void        cm_lock_holder_clear       (CmLockHolder       *holder);
gboolean    cm_lock_holder_is_stranger (const CmLockHolder *holder);
char       *cm_lock_holder_dup_name    (const CmLockHolder *holder) G_GNUC_WARN_UNUSED_RESULT;
char       *cm_card_lock_dup_stranger_text (const char         *path,
                                            const CmLockHolder *holder) G_GNUC_WARN_UNUSED_RESULT;

/* What a look at a card's lock shows of a job another process runs. */
typedef struct
{
  CmLockHolder holder;
  char        *words;    /* what it runs, in its words, cleaned; NULL from another user */
  char        *kind;     /* its kind's name ("wear"), NULL when not said */
  int          percent;  /* how far it is, -1 when not said */
} CmCardLockSight;

gboolean    cm_card_lock_peek          (const char      *path,
                                        CmCardLockSight *sight);
void        cm_card_lock_sight_clear   (CmCardLockSight *sight);
void        cm_card_lock_note_progress (CmCardLock      *lock,
                                        const char      *kind,
                                        double           fraction);

/* The lock folder's files, for locks of other kinds (cm-bus.c). */
int         cm_card_lock_open_file    (const char *name);
char       *cm_card_lock_read_holder  (int         fd) G_GNUC_WARN_UNUSED_RESULT;
void        cm_card_lock_write_holder (int         fd,
                                       const char *what);

/* For the tests: where the lock files go (NULL: /run/lock). */
void        cm_card_lock_set_folder_for_testing (const char *folder);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmCardLock, cm_card_lock_release)

G_END_DECLS
