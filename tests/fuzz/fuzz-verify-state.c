/* fuzz-verify-state.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The verify's state file reader (cm-verify-state.c), which --resume
 * believes only when it proves itself: the input is read as a whole
 * state file (nearly always refused by its checksum), then again as the
 * body of one, with the checksum it should end with, so the reader's
 * bounds are what the fuzzer meets. Whatever it accepts fits the card.
 */

#include "config.h"

#include <string.h>

#include "cm-verify-private.h"

#include "fuzz-common.h"

static CmVerify *
verify_once (void)
{
  static CmVerify *verify;

  if (verify == NULL)
    {
      verify = g_object_new (CM_TYPE_VERIFY, NULL);
      verify->path = g_strdup ("/media/card");
      verify->folder = g_strdup ("/media/card");
      verify->state_path = g_strdup ("/nonexistent/files-268435456-1234.ini");
      verify->identity = g_strdup ("files-268435456-1234");
      verify->card_bytes = 256 * 1024 * 1024;
      verify->mode = CM_VERIFY_MODE_FILES;
    }
  verify->file_bytes = 8 * 1024 * 1024;
  return verify;
}

static void
parse (const char *data,
       gsize       length)
{
  CmVerify *verify = verify_once ();
  CmVerifyRun *run = cm_verify_run_new (verify, NULL);
  g_autoptr(GError) error = NULL;

  if (cm_verify_state_parse (run, data, length, &error))
    {
      guint64 total = 0;

      g_assert (run->n_files == run->numbers->len && run->n_files == run->lengths->len);
      g_assert (run->cur_file <= run->n_files);
      g_assert (verify->file_bytes <= CM_VERIFY_FILE_BYTES);
      for (guint i = 0; i < run->n_files; i++)
        total += g_array_index (run->lengths, guint64, i);
      g_assert (total <= verify->card_bytes);
      g_assert (run->written_bytes <= verify->card_bytes && run->read_bytes <= run->planned_bytes);
      for (guint i = 0; i < run->regions->len; i++)
        g_assert (g_array_index (run->regions, CmRegion, i).start < g_array_index (run->regions, CmRegion, i).end);
    }
  else
    g_assert (error != NULL && error->domain == CM_VERIFY_ERROR);
  cm_verify_run_free (run);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, size);
  g_autofree char *whole = g_malloc (size + 100);
  gsize length;

  parse ((const char *) data, size);

  memcpy (whole, data, size);
  length = size + g_snprintf (whole + size, 100, "[checksum]\nsha256=%s\n", sum);
  parse (whole, length);
  return 0;
}
