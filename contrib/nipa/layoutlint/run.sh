#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# layoutlint as a NIPA per-patch test: copy this directory to NIPA's
# tests/patch/layoutlint/. NIPA runs run.sh at the top of the tree with
# the patch under test committed as HEAD; HEAD~ is the tree before it.
# This compares the two with layoutlint-kernel (--base HEAD~ --new HEAD:
# both built in its kept worktrees, never in the tree itself), so the
# result holds only what the patch changed.
#
# The tree must be configured in place (.config with CONFIG_DEBUG_INFO)
# and, unless LAYOUTLINT_OBJS names the objects, hold a built object that
# includes each header the patch changes (layoutlint-kernel picks it).
#
# Environment:
#   LAYOUTLINT_RULES   rules file or directory (default: the tree's .layoutlint)
#   LAYOUTLINT_KERNEL  the layoutlint-kernel script (default: on PATH)
#   LAYOUTLINT         the layoutlint binary (default: beside the script, or on PATH)
#   LAYOUTLINT_OBJS    objects to lint, space-separated (default: picked)
#   DESC_FD            NIPA's descriptor for the one-line result (default: stdout)
#
# Output: the one-line result on DESC_FD; on stdout, layoutlint's
# --format=mail (the quoted hunk, each new finding, the fix as a patch),
# fit for a reply to the patch. Exit: 0 pass, 1 fail (new findings),
# 250 warning (warnings only, or the patch could not be checked).
set -u

desc() {
  if [[ -n ${DESC_FD:-} ]]; then echo "$*" >&"$DESC_FD"; else echo "$*"; fi
}

tool=${LAYOUTLINT_KERNEL:-layoutlint-kernel}
args=(--base HEAD~ --new HEAD)
[[ -z ${LAYOUTLINT_RULES:-} ]] || args+=(-r "$LAYOUTLINT_RULES")
[[ -z ${LAYOUTLINT:-} ]] || args+=(--layoutlint "$LAYOUTLINT")
# shellcheck disable=SC2206 # object paths have no spaces
[[ -z ${LAYOUTLINT_OBJS:-} ]] || args+=($LAYOUTLINT_OBJS)

out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
rc=0
"$tool" "${args[@]}" -- --format=mail >"$out" 2>"$err" || rc=$?
cat "$out"
cat "$err" >&2

# The mail's first paragraph is its summary ("layoutlint: 1 new finding
# against HEAD~ (1a2b3c4) in struct file:"), wrapped: one line again.
summary=$(awk 'NF == 0 { exit } { printf "%s%s", (NR > 1 ? " " : ""), $0 }' "$out")
case $rc in
  0)
    if grep -qE '^[^ >].*: warning: ' "$out"; then
      desc "${summary:-layoutlint: warnings}"
      exit 250
    fi
    desc "${summary:-$(tail -n 1 "$err")}"
    exit 0 ;;
  1)
    desc "$summary"
    exit 1 ;;
  *)
    desc "layoutlint could not check the patch (exit $rc): $(tail -n 1 "$err")"
    exit 250 ;;
esac
