/* fuzz-journal.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The capacity check's journal reader (src/core/cm-capacity-journal.c),
 * which decides what gets written to a card: the input is read as a
 * journal twice, as it is, and with its magic and header checksum made
 * right, so that the fuzzer reaches the header's layout and ranges behind
 * the SHA-256 it could never guess.
 */

#include "config.h"

#include <string.h>

#include "cm-capacity-private.h"

#include "fuzz-common.h"

static void
read_as_journal (const guint8 *data,
                 gsize         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(GError) error = NULL;

  /* Either a journal, or refused with a reason: never both, never neither. */
  if (cm_capacity_journal_validate (bytes, &error))
    g_assert_no_error (error);
  else
    g_assert (error != NULL && error->message[0] != '\0');
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree guint8 *fixed = NULL;
  g_autoptr(GChecksum) sum = NULL;
  guint64 header_len;
  gsize digest_len = 32;

  read_as_journal (data, size);
  if (size < 16 + 32)
    return 0;

  fixed = g_memdup2 (data, size);
  memcpy (fixed, "CMJRNL02", 8);
  memcpy (&header_len, fixed + 8, 8);
  header_len = MIN (header_len, size - 16 - 32);
  memcpy (fixed + 8, &header_len, 8);
  sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (sum, fixed + 8, 8 + header_len);
  g_checksum_get_digest (sum, fixed + 16 + header_len, &digest_len);
  read_as_journal (fixed, size);
  return 0;
}
