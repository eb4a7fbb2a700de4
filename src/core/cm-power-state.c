/* cm-power-state.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A key file in the user's data folder (cardmark/power/), named after
 * the card as the wear test's is (cm-state-file.c), sealed, written
 * whole and synced; every value read back is bounded.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cm-power-state.h"
#include "cm-state-file.h"
#include "cm-verify.h"

#define GROUP "power"
#define STATE_VERSION 1
#define STATE_MAX_BYTES (1024 * 1024)
#define MAX_CUTS 100000
#define MAX_SECONDS (24.0 * 3600)

CmPowerState *
cm_power_state_new (const char *device,
                    guint64     card_bytes,
                    const char *folder)
{
  g_autofree char *default_folder = NULL;
  g_autofree char *identity = NULL;
  g_autofree char *file = NULL;
  CmPowerState *state;

  g_return_val_if_fail (device != NULL, NULL);

  state = g_new0 (CmPowerState, 1);
  state->device = g_strdup (device);
  state->card_bytes = card_bytes;
  state->cuts = g_array_new (FALSE, TRUE, sizeof (CmPowerCut));
  identity = cm_state_file_card_identity (device, card_bytes);
  if (folder == NULL)
    folder = default_folder = cm_state_file_folder ("power");
  file = g_strconcat (identity, ".ini", NULL);
  state->path = g_build_filename (folder, file, NULL);
  return state;
}

void
cm_power_state_free (CmPowerState *state)
{
  if (state == NULL)
    return;
  g_free (state->path);
  g_free (state->device);
  g_free (state->reference_sha256);
  g_free (state->cid);
  g_array_unref (state->cuts);
  g_free (state);
}

gboolean
cm_power_state_exists (CmPowerState *state)
{
  g_return_val_if_fail (state != NULL, FALSE);
  return g_file_test (state->path, G_FILE_TEST_EXISTS);
}

/* A column of the cuts, as a list the reader takes back. */
static void
set_column (GKeyFile     *key_file,
            CmPowerState *state,
            const char   *key,
            gsize         member)
{
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint i = 0; i < state->cuts->len; i++)
    {
      const guint8 *cut = (const guint8 *) &g_array_index (state->cuts, CmPowerCut, i);

      g_array_append_vals (values, cut + member, 1);
    }
  cm_state_file_set_u64_list (key_file, GROUP, key, values, values->len);
}

gboolean
cm_power_state_save (CmPowerState  *state,
                     GError       **error)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autofree double *back = g_new0 (double, state->cuts->len + 1);
  g_autofree char *data = NULL;
  gsize length;

  g_key_file_set_integer (key_file, GROUP, "version", STATE_VERSION);
  g_key_file_set_string (key_file, GROUP, "device", state->device);
  g_key_file_set_uint64 (key_file, GROUP, "card-bytes", state->card_bytes);
  g_key_file_set_uint64 (key_file, GROUP, "run", state->run);
  g_key_file_set_uint64 (key_file, GROUP, "area", state->area);
  g_key_file_set_uint64 (key_file, GROUP, "cuts-planned", state->cuts_planned);
  g_key_file_set_int64 (key_file, GROUP, "started", state->started);
  g_key_file_set_uint64 (key_file, GROUP, "phase", state->phase);
  g_key_file_set_uint64 (key_file, GROUP, "confirmed", state->confirmed);
  g_key_file_set_string (key_file, GROUP, "reference-sha256", state->reference_sha256 ? state->reference_sha256 : "none");
  g_key_file_set_string (key_file, GROUP, "cid", state->cid ? state->cid : "none");
  set_column (key_file, state, "kept", G_STRUCT_OFFSET (CmPowerCut, kept));
  set_column (key_file, state, "lost", G_STRUCT_OFFSET (CmPowerCut, lost));
  set_column (key_file, state, "new", G_STRUCT_OFFSET (CmPowerCut, fresh));
  set_column (key_file, state, "old", G_STRUCT_OFFSET (CmPowerCut, old));
  set_column (key_file, state, "torn", G_STRUCT_OFFSET (CmPowerCut, torn));
  set_column (key_file, state, "collateral", G_STRUCT_OFFSET (CmPowerCut, collateral));
  set_column (key_file, state, "collateral-first", G_STRUCT_OFFSET (CmPowerCut, collateral_first));
  for (guint i = 0; i < state->cuts->len; i++)
    back[i] = g_array_index (state->cuts, CmPowerCut, i).back_seconds;
  cm_state_file_set_double_list (key_file, GROUP, "back-seconds", back, state->cuts->len);

  data = cm_state_file_seal (key_file, &length);
  return cm_state_file_write (state->path, data, length, error);
}

static gboolean
damaged (CmPowerState  *state,
         GError       **error)
{
  g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_DAMAGED,
               _("The saved power-cut test in %s is damaged, so it cannot be trusted, and nothing was written. "
                 "Delete %s to start over."),
               state->path, state->path);
  return FALSE;
}

static gboolean
read_columns (CmPowerState  *state,
              CmStateReader *r)
{
  static const struct { const char *key; gsize member; } columns[] = {
    { "kept", G_STRUCT_OFFSET (CmPowerCut, kept) },
    { "lost", G_STRUCT_OFFSET (CmPowerCut, lost) },
    { "new", G_STRUCT_OFFSET (CmPowerCut, fresh) },
    { "old", G_STRUCT_OFFSET (CmPowerCut, old) },
    { "torn", G_STRUCT_OFFSET (CmPowerCut, torn) },
    { "collateral", G_STRUCT_OFFSET (CmPowerCut, collateral) },
    { "collateral-first", G_STRUCT_OFFSET (CmPowerCut, collateral_first) },
  };
  g_autofree double *back = NULL;
  gsize n_back = 0;

  back = cm_state_reader_double_list (r, "back-seconds", MAX_CUTS, MAX_SECONDS, &n_back);
  g_array_set_size (state->cuts, n_back);
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    {
      g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (guint64));

      cm_state_reader_u64_list (r, columns[c].key, values, MAX_CUTS, state->card_bytes);
      if (values->len != n_back)
        return FALSE;
      for (guint i = 0; i < n_back; i++)
        *(guint64 *) ((guint8 *) &g_array_index (state->cuts, CmPowerCut, i) + columns[c].member) =
          g_array_index (values, guint64, i);
    }
  for (guint i = 0; i < n_back; i++)
    g_array_index (state->cuts, CmPowerCut, i).back_seconds = back[i];
  return r->ok;
}

gboolean
cm_power_state_load (CmPowerState  *state,
                     GError       **error)
{
  g_autofree char *data = NULL;
  g_autofree char *device = NULL;
  g_autofree char *sum = NULL;
  g_autoptr(GKeyFile) key_file = NULL;
  CmStateReader r = { NULL, GROUP, TRUE };
  gsize length = 0;

  if (!cm_state_file_read (state->path, STATE_MAX_BYTES, &data, &length))
    {
      GStatBuf st;

      if (g_lstat (state->path, &st) == 0)
        return damaged (state, error);
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOTHING,
                   _("No power-cut test of the card in %s is saved."), state->device);
      return FALSE;
    }
  key_file = cm_state_file_unseal (data, length, STATE_MAX_BYTES);
  r.key_file = key_file;
  if (key_file == NULL || cm_state_reader_u64 (&r, "version", G_MAXUINT) != STATE_VERSION ||
      cm_state_reader_u64 (&r, "card-bytes", G_MAXUINT64) != state->card_bytes)
    return damaged (state, error);
  state->run = cm_state_reader_u64 (&r, "run", G_MAXUINT64);
  state->area = cm_state_reader_u64 (&r, "area", state->card_bytes);
  state->cuts_planned = cm_state_reader_u64 (&r, "cuts-planned", MAX_CUTS);
  state->started = cm_state_reader_u64 (&r, "started", G_GINT64_CONSTANT (253402300799));
  state->phase = cm_state_reader_u64 (&r, "phase", CM_POWER_PHASE_OFF);
  state->confirmed = cm_state_reader_u64 (&r, "confirmed", G_MAXUINT32);
  g_clear_pointer (&state->reference_sha256, g_free);
  state->reference_sha256 = cm_state_reader_plain_string (&r, "reference-sha256");
  g_clear_pointer (&state->cid, g_free);
  state->cid = cm_state_reader_plain_string (&r, "cid");
  if (g_strcmp0 (state->cid, "none") == 0)
    g_clear_pointer (&state->cid, g_free);
  if (!r.ok || !read_columns (state, &r) || state->area < CM_POWER_STATE_MIN_AREA ||
      state->cuts->len > state->cuts_planned)
    return damaged (state, error);
  return TRUE;
}

void
cm_power_state_remove (CmPowerState *state)
{
  g_return_if_fail (state != NULL);
  g_unlink (state->path);
}
