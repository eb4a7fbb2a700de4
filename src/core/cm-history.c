/* cm-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Past results, one JSON document per run in the user's data folder, so
 * cards can be compared side by side. A file that cannot be read is
 * reported and left alone, never deleted.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-history.h"
#include "cm-history-index.h"

struct _CmHistory
{
  GObject  parent_instance;

  GFile   *folder;
};

G_DEFINE_FINAL_TYPE (CmHistory, cm_history, G_TYPE_OBJECT)

static void
cm_history_finalize (GObject *object)
{
  CmHistory *self = (CmHistory *) object;

  g_clear_object (&self->folder);

  G_OBJECT_CLASS (cm_history_parent_class)->finalize (object);
}

static void
cm_history_class_init (CmHistoryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cm_history_finalize;
}

static void
cm_history_init (CmHistory *self)
{
}

CmHistory *
cm_history_new (GFile *folder)
{
  CmHistory *self;

  g_return_val_if_fail (G_IS_FILE (folder), NULL);

  self = g_object_new (CM_TYPE_HISTORY, NULL);
  self->folder = g_object_ref (folder);

  return self;
}

/* $XDG_DATA_HOME/cardmark/history; a development build keeps its own, so
 * it never mixes with an installed CardMark. */
CmHistory *
cm_history_new_default (void)
{
  const char *name = DEVELOPMENT ? "cardmark-devel" : "cardmark";
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), name, "history", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (path);

  return cm_history_new (folder);
}

GFile *
cm_history_get_folder (CmHistory *self)
{
  g_return_val_if_fail (CM_IS_HISTORY (self), NULL);

  return self->folder;
}

/* Only regular files of a sensible size are read: a FIFO or a device
 * named *.json would block the reader or never end, and a huge file
 * would fill the memory. */
static gboolean
check_history_file (GFile      *file,
                    GFileInfo  *info,
                    GError    **error)
{
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("it is not a regular file."));
      return FALSE;
    }

  if (g_file_info_get_size (info) > CM_HISTORY_MAX_FILE_BYTES)
    {
      g_autofree char *size = g_format_size (g_file_info_get_size (info));
      g_autofree char *limit = g_format_size (CM_HISTORY_MAX_FILE_BYTES);

      /* Translators: "it is 2.1 GB, more than a result can be (64.0 MB)." */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("it is %s, more than a result can be (%s)."), size, limit);
      return FALSE;
    }

  return TRUE;
}

/* "20261204-130512-": every file of a result started then begins so. */
static char *
stamp_for (CmResult *result)
{
  return g_date_time_format (cm_result_get_started (result), "%Y%m%d-%H%M%S-");
}

static char *
file_name_for (CmResult *result)
{
  g_autofree char *stamp = stamp_for (result);

  return g_strdup_printf ("%s%06x.json", stamp, g_random_int () & 0xffffff);
}

/* Whether @a and @b are one test's: the same kind, card and start. A
 * stopped wear test saves what it did; carried on, it keeps its start,
 * and its new document holds the earlier one's rounds as well. */
static gboolean
same_test (CmResult *a,
           CmResult *b)
{
  return g_strcmp0 (cm_result_get_kind (a), cm_result_get_kind (b)) == 0 &&
         g_strcmp0 (cm_result_get_device (a), cm_result_get_device (b)) == 0 &&
         cm_result_get_device (a) != NULL &&
         g_date_time_compare (cm_result_get_started (a), cm_result_get_started (b)) == 0;
}

/* Deletes the documents @result, saved as @saved, takes the place of:
 * files named for the same start that hold the same test. */
static void
drop_earlier (CmHistory *self,
              CmResult  *result,
              GFile     *saved)
{
  g_autofree char *stamp = stamp_for (result);
  g_autoptr(GFileEnumerator) enumerator = NULL;
  GFileInfo *info;

  enumerator = g_file_enumerate_children (self->folder,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                          G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  while (enumerator != NULL && (info = g_file_enumerator_next_file (enumerator, NULL, NULL)) != NULL)
    {
      g_autoptr(GFileInfo) owned = info;
      const char *name = g_file_info_get_name (info);
      g_autoptr(GFile) file = NULL;
      g_autoptr(CmResult) earlier = NULL;

      if (!g_str_has_prefix (name, stamp) || !g_str_has_suffix (name, ".json"))
        continue;
      file = g_file_get_child (self->folder, name);
      if (g_file_equal (file, saved) || !check_history_file (file, info, NULL))
        continue;
      earlier = cm_result_new_from_file (file, NULL);
      if (earlier != NULL && same_test (earlier, result))
        g_file_delete (file, NULL, NULL);
    }
}

#define FILE_KEY "cm-history-file"

static void
remember_file (CmResult *result,
               GFile    *file)
{
  g_object_set_data_full (G_OBJECT (result), FILE_KEY, g_object_ref (file), g_object_unref);
}

/* The file of a result saved in or loaded from a history, or NULL. */
GFile *
cm_history_get_file (CmResult *result)
{
  g_return_val_if_fail (CM_IS_RESULT (result), NULL);
  return g_object_get_data (G_OBJECT (result), FILE_KEY);
}

/* Brings the index beside the documents up to date after a save or a
 * delete, if there is one: it only looks again at what changed. */
static void
update_index (CmHistory *self)
{
  g_autoptr(CmHistoryIndex) index = NULL;
  g_autoptr(GError) error = NULL;

  if (!cm_history_index_exists (self->folder))
    return;
  if ((index = cm_history_index_open (self->folder, &error)) == NULL ||
      !cm_history_index_refresh (index, &error))
    g_debug ("History index not updated: %s", error->message);
}

/* Deletes a result loaded from this history: its file only, never
 * anything else in the folder. */
gboolean
cm_history_delete (CmHistory  *self,
                   CmResult   *result,
                   GError    **error)
{
  GFile *file;
  g_autoptr(GFile) parent = NULL;

  g_return_val_if_fail (CM_IS_HISTORY (self), FALSE);
  g_return_val_if_fail (CM_IS_RESULT (result), FALSE);

  file = cm_history_get_file (result);
  parent = file != NULL ? g_file_get_parent (file) : NULL;
  if (parent == NULL || !g_file_equal (parent, self->folder))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("This result is not in the history, so there is nothing to delete."));
      return FALSE;
    }

  if (!g_file_delete (file, NULL, error))
    return FALSE;
  update_index (self);
  return TRUE;
}

GFile *
cm_history_save (CmHistory  *self,
                 CmResult   *result,
                 GError    **error)
{
  g_autofree char *name = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (CM_IS_HISTORY (self), NULL);
  g_return_val_if_fail (CM_IS_RESULT (result), NULL);

  if (!g_file_make_directory_with_parents (self->folder, NULL, &local_error) &&
      !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_EXISTS))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  name = file_name_for (result);
  file = g_file_get_child (self->folder, name);
  if (!cm_result_save_compact (result, file, error))
    return NULL;
  remember_file (result, file);
  drop_earlier (self, result, file);
  update_index (self);

  return g_steal_pointer (&file);
}

static int
compare_started (gconstpointer a,
                 gconstpointer b)
{
  CmResult *ra = *(CmResult **) a;
  CmResult *rb = *(CmResult **) b;

  return g_date_time_compare (cm_result_get_started (ra), cm_result_get_started (rb));
}

/* Every readable result, oldest first. Files that are not results are
 * listed in @problems as sentences, and left where they are. */
GPtrArray *
cm_history_load (CmHistory  *self,
                 GPtrArray **problems,
                 GError    **error)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) bad = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GError) local_error = NULL;
  GFileInfo *info;

  g_return_val_if_fail (CM_IS_HISTORY (self), NULL);

  enumerator = g_file_enumerate_children (self->folder,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                          G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                          G_FILE_QUERY_INFO_NONE, NULL, &local_error);
  if (enumerator == NULL)
    {
      /* No history yet is an empty history. */
      if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
    }

  while (enumerator != NULL &&
         (info = g_file_enumerator_next_file (enumerator, NULL, error)) != NULL)
    {
      g_autoptr(GFileInfo) owned = info;
      const char *name = g_file_info_get_name (info);
      g_autoptr(GFile) file = NULL;
      g_autoptr(GError) file_error = NULL;
      CmResult *result;

      if (!g_str_has_suffix (name, ".json"))
        continue;

      file = g_file_get_child (self->folder, name);
      if (!check_history_file (file, info, &file_error))
        {
          g_ptr_array_add (bad, g_strdup_printf (_("Skipped %s: %s"), g_file_peek_path (file), file_error->message));
          continue;
        }

      result = cm_result_new_from_file (file, &file_error);
      if (result != NULL)
        {
          remember_file (result, file);
          g_ptr_array_add (results, result);
        }
      else
        g_ptr_array_add (bad, g_strdup_printf (_("Skipped %s: %s"), g_file_peek_path (file), file_error->message));
    }

  g_ptr_array_sort (results, compare_started);

  if (problems != NULL)
    *problems = g_steal_pointer (&bad);

  return g_steal_pointer (&results);
}

/* Loading off the caller's thread: a history of many results is many
 * megabytes of JSON, which the app must not parse on its main loop. */

typedef struct
{
  GPtrArray *results;
  GPtrArray *problems;
} Loaded;

static void
loaded_free (Loaded *loaded)
{
  g_clear_pointer (&loaded->results, g_ptr_array_unref);
  g_clear_pointer (&loaded->problems, g_ptr_array_unref);
  g_free (loaded);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Loaded *loaded = g_new0 (Loaded, 1);
  GError *error = NULL;

  loaded->results = cm_history_load (source_object, &loaded->problems, &error);
  if (loaded->results == NULL)
    {
      loaded_free (loaded);
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, loaded, (GDestroyNotify) loaded_free);
}

void
cm_history_load_async (CmHistory           *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (CM_IS_HISTORY (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cm_history_load_async);
  g_task_run_in_thread (task, load_thread);
}

/* What cm_history_load returns; cancelled, %NULL with
 * G_IO_ERROR_CANCELLED. */
GPtrArray *
cm_history_load_finish (CmHistory     *self,
                        GAsyncResult  *result,
                        GPtrArray    **problems,
                        GError       **error)
{
  Loaded *loaded;
  GPtrArray *results;

  g_return_val_if_fail (CM_IS_HISTORY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  loaded = g_task_propagate_pointer (G_TASK (result), error);
  if (loaded == NULL)
    return NULL;

  results = g_steal_pointer (&loaded->results);
  if (problems != NULL)
    *problems = g_steal_pointer (&loaded->problems);
  loaded_free (loaded);

  return results;
}
