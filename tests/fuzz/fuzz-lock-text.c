/* fuzz-lock-text.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lock-text reader (cm_card_lock_read_holder(), cm-card-lock.c) and
 * the cleaner behind it (cm_text_dup_clean(), cm-text.c): any user can
 * write a card's lock or a bus's gate, and what the reader gives back is
 * printed on root's terminal. Whatever the input, the text that comes
 * out is one line of valid UTF-8 with no control character (no escape,
 * no line break) and no bidirectional override, within its bound.
 */

#include "config.h"

#include <sys/mman.h>
#include <unistd.h>

#include "cm-card-lock.h"
#include "cm-text.h"

#include "fuzz-common.h"

static void
assert_clean (const char *text,
              gsize       max_chars)
{
  g_assert (g_utf8_validate (text, -1, NULL));
  if (max_chars > 0)
    g_assert_cmpint (g_utf8_strlen (text, -1), <=, (glong) max_chars);
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      g_assert (!g_unichar_iscntrl (c));
      g_assert (!(c >= 0x202a && c <= 0x202e) && !(c >= 0x2066 && c <= 0x2069));
      g_assert (c != 0x2028 && c != 0x2029);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autofree char *whole = cm_text_dup_clean (text, 0);
  g_autofree char *short_one = cm_text_dup_clean (text, 1 + size % 40);
  g_autofree char *holder = NULL;
  int fd = memfd_create ("lock", MFD_CLOEXEC);

  assert_clean (whole, 0);
  assert_clean (short_one, 1 + size % 40);
  /* Nothing from a valid text is lost but what the bound cuts. Counting
   * the characters of an invalid text would read past its end (a lead
   * byte skips its NUL), so it is validated first. */
  g_assert (!g_utf8_validate (text, -1, NULL) || g_utf8_strlen (whole, -1) == g_utf8_strlen (text, -1));

  g_assert (fd >= 0);
  g_assert (write (fd, data, size) == (ssize_t) size);
  holder = cm_card_lock_read_holder (fd);
  if (holder != NULL)
    {
      assert_clean (holder, CM_TEXT_LINE_MAX);
      g_assert (holder[0] != '\0');
    }
  close (fd);
  return 0;
}
