#!/bin/bash
# test-install.sh — `meson install` puts every file where a desktop looks
# for it: the programs, the desktop file, the metainfo, the GSettings
# schema, the icons, the D-Bus service and the translations.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: test-install.sh BUILDDIR SRCDIR APP_ID PREFIX BINDIR DATADIR LOCALEDIR LIBEXECDIR
# (tests/meson.build passes them; BINDIR, DATADIR, LOCALEDIR and LIBEXECDIR
# are relative to PREFIX, as meson's options are.)

set -u
builddir=$1 srcdir=$2 app_id=$3 prefix=$4 bindir=$5 datadir=$6 localedir=$7 libexecdir=$8
CARDMARK_CLI=${CARDMARK_CLI:-unused}   # tap.sh wants it; this test runs none
. "$(dirname "$0")/lib/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! meson install -C "$builddir" --destdir "$tmp/root" --no-rebuild >"$tmp/install.log" 2>&1; then
  sed 's/^/# /' "$tmp/install.log"
  not_ok "meson install --destdir"
  done_testing
fi
ok "meson install --destdir"

# quiet COMMAND…: runs it, showing its output as TAP comments only on failure.
quiet () {
  if "$@" >"$tmp/out" 2>&1; then return 0; fi
  sed 's/^/# /' "$tmp/out"
  return 1
}

root=$tmp/root$prefix
bin=$root/$bindir
share=$root/$datadir

# The programs.
check "bin/cardmark is executable" test -x "$bin/cardmark"
check "bin/cardmark-cli is executable" test -x "$bin/cardmark-cli"

# The health helper, and the polkit action that lets pkexec run it: its
# exec.path must be where the helper is, or pkexec asks with no message.
helper=$root/$libexecdir/cardmark-read-health
check "libexec/cardmark-read-health is executable" test -x "$helper"
policy=$share/polkit-1/actions/io.github.cardmark.CardMark.read-health.policy
if [ -f "$policy" ]; then
  ok "polkit-1/actions/io.github.cardmark.CardMark.read-health.policy installed"
  check "policy exec.path is the installed helper" \
    grep -qF ">$prefix/$libexecdir/cardmark-read-health</annotate>" "$policy"
  check "policy asks for the administrator once a session (auth_admin_keep)" \
    grep -qF "<allow_active>auth_admin_keep</allow_active>" "$policy"
  if command -v xmllint >/dev/null && [ -f /usr/share/polkit-1/policyconfig-1.dtd ]; then
    check "policy is valid against polkit's DTD" \
      quiet xmllint --noout --dtdvalid /usr/share/polkit-1/policyconfig-1.dtd "$policy"
  else
    skip "xmllint or polkit's DTD is missing: policy not validated"
  fi
else
  not_ok "polkit-1/actions/io.github.cardmark.CardMark.read-health.policy installed"
fi

# The desktop file, named after the app ID (GNOME matches windows to it).
desktop=$share/applications/$app_id.desktop
if [ -f "$desktop" ]; then
  ok "applications/$app_id.desktop installed"
  check "desktop file passes desktop-file-validate" quiet desktop-file-validate "$desktop"
  check "desktop Icon= is the app ID" grep -qx "Icon=$app_id" "$desktop"
  exec_bin=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop")
  check "desktop Exec= ($exec_bin) is an installed program" test -x "$bin/$exec_bin"
else
  not_ok "applications/$app_id.desktop installed"
fi

# AppStream metainfo.
metainfo=$share/metainfo/$app_id.metainfo.xml
if [ -f "$metainfo" ]; then
  ok "metainfo/$app_id.metainfo.xml installed"
  check "metainfo passes appstreamcli validate --no-net" quiet appstreamcli validate --no-net "$metainfo"
  check "metainfo <id> is the app ID" grep -q "<id>$app_id</id>" "$metainfo"
  check "metainfo launches $app_id.desktop" grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo"
else
  not_ok "metainfo/$app_id.metainfo.xml installed"
fi

# GSettings: the app calls g_settings_new (APP_ID), so a schema with that id
# must be installed, and the installed set must compile.
schemas=$share/glib-2.0/schemas
if compgen -G "$schemas/*.gschema.xml" >/dev/null; then
  ok "glib-2.0/schemas/*.gschema.xml installed"
  check "installed schemas compile (--strict)" quiet glib-compile-schemas --strict --dry-run "$schemas"
  check "a schema with id $app_id is installed" grep -q "<schema id=\"$app_id\"" "$schemas"/*.gschema.xml
else
  not_ok "glib-2.0/schemas/*.gschema.xml installed"
fi

# Icons, looked up by the app ID.
check "icons/hicolor/scalable/apps/$app_id.svg installed" test -s "$share/icons/hicolor/scalable/apps/$app_id.svg"
check "icons/hicolor/symbolic/apps/$app_id-symbolic.svg installed" test -s "$share/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
if command -v rsvg-convert >/dev/null; then
  for svg in "$share/icons/hicolor/scalable/apps/$app_id.svg" "$share/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"; do
    check "$(basename "$svg") renders" quiet rsvg-convert -w 64 -h 64 -o "$tmp/icon.png" "$svg"
  done
else
  skip "rsvg-convert is missing (apt install librsvg2-bin): icons not rendered"
fi

# D-Bus activation: a DBusActivatable desktop file needs a service of the
# same name that starts the installed program.
service=$share/dbus-1/services/$app_id.service
if grep -qx 'DBusActivatable=true' "$desktop" 2>/dev/null; then
  if [ -f "$service" ]; then
    ok "dbus-1/services/$app_id.service installed"
    check "service Name= is the app ID" grep -qx "Name=$app_id" "$service"
    check "service Exec= starts the installed cardmark" \
      grep -qx "Exec=$prefix/$bindir/cardmark --gapplication-service" "$service"
  else
    not_ok "dbus-1/services/$app_id.service installed (the desktop file is DBusActivatable)"
  fi
else
  skip "the desktop file is not DBusActivatable"
fi

# Translations: a catalogue for every language in po/LINGUAS.
if [ -f "$srcdir/po/LINGUAS" ]; then
  while read -r lang; do
    case "$lang" in ''|\#*) continue ;; esac
    check "locale/$lang/LC_MESSAGES/cardmark.mo installed" \
      test -s "$root/$localedir/$lang/LC_MESSAGES/cardmark.mo"
  done < "$srcdir/po/LINGUAS"
  # The desktop file carries the translations of its own strings, when
  # the catalogues have them.
  if grep -q '^msgid "SD Card Benchmark"' "$srcdir"/po/*.po 2>/dev/null; then
    check "desktop file has translated GenericName" grep -q '^GenericName\[' "$desktop"
  else
    skip "po/ has no translation of the desktop file's strings yet"
  fi
else
  skip "no po/LINGUAS: no translations to install"
fi

done_testing
