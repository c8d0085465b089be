#!/usr/bin/env bash
# After changing a string of the website: adds new strings to locale/es/LC_MESSAGES/django.po
# for a translator to fill in, and compiles the catalogue (docs/i18n.md).
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

ensure_venv
ensure_gettext
export DEBUG="${DEBUG:-1}"
update_messages
compile_messages
log "untranslated: $(msgattrib --untranslated --no-obsolete locale/es/LC_MESSAGES/django.po | grep -c '^msgid ' || true) (less the header)"
