#!/usr/bin/env bash
# Commit subjects say what changed in at most 72 characters; the why and the figures go in
# the body (CONTRIBUTING.md, "Commit messages"). Checks every commit since the rule began
# (a5579ec, the last commit before it), or, with a file argument, one message (the
# commit-msg hook in .githooks/: `git config core.hooksPath .githooks`).
set -euo pipefail
cd "$(dirname "$0")/.."
max=72
if [ $# -gt 0 ]; then
  subject=$(grep -v '^#' "$1" | head -n 1)
  if [ "${#subject}" -gt "$max" ]; then
    echo "commit subject is ${#subject} characters, at most $max: say what changed, put the why in the body" >&2
    exit 1
  fi
  exit 0
fi
since=a5579ec
if git cat-file -e "$since^{commit}" 2>/dev/null; then range="$since..HEAD"; else range="-n 50 HEAD"; fi
# shellcheck disable=SC2086 # the range is one or three words on purpose
long=$(git log --format='%h%x09%s' $range | awk -F '\t' -v max="$max" 'length($2) > max')
if [ -n "$long" ]; then
  echo "commit subjects over $max characters:" >&2
  echo "$long" >&2
  exit 1
fi
echo "commit subjects: $(git log --format=%h $range | wc -l) since $since, each at most $max characters"
