/* fuzz-options.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table of options that take a number (cm-cli-number.c): the first
 * byte picks the option, the rest is what was typed after it. What is
 * accepted is plain decimal digits (a point where a fraction makes
 * sense), a finite number above 0 (0 is never taken as "no limit"), and
 * what is refused says the option's sentence, which names the option.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "cm-cli-number.h"

#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *option = NULL;
  const char *name;
  guint n = 0;
  double value = -1;

  if (size == 0)
    return 0;
  while (cm_cli_number_name (n) != NULL)
    n++;
  name = cm_cli_number_name (data[0] % n);
  option = g_strconcat ("--", name, NULL);
  text = g_strndup ((const char *) data + 1, size - 1);

  if (cm_cli_number_parse (option, text, &value, &error))
    {
      g_assert (error == NULL);
      g_assert (isfinite (value) && value > 0);
      g_assert (text[0] != '\0' && strspn (text, "0123456789.") == strlen (text));
      g_assert (g_ascii_isdigit (text[0]) && g_ascii_isdigit (text[strlen (text) - 1]));
      g_assert (value == g_ascii_strtod (text, NULL));
      g_assert (cm_cli_number_option_cb (option, text, NULL, NULL));
      g_assert (cm_cli_number_get (name, &value) && value == g_ascii_strtod (text, NULL));
    }
  else
    {
      g_assert (error != NULL && strstr (error->message, option) != NULL);
      g_assert (value == -1);
    }
  return 0;
}
