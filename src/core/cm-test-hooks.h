/* cm-test-hooks.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The CARDMARK_* environment variables through which the tests steer a
 * run (docs/architecture.md lists them). They exist only in a build with
 * -Dtest_hooks=true, as ./run-tests makes; a release build never reads
 * them, so nothing in a user's environment changes what CardMark does.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

static inline const char *
cm_test_hook (const char *name)
{
#if CM_TEST_HOOKS
  return g_getenv (name);
#else
  (void) name;
  return NULL;
#endif
}

G_END_DECLS
