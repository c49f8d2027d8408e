#!/usr/bin/env bash
# Fails on any C++ source that clang-format (with the repository's .clang-format) would change.
# Usage: check_format.sh SOURCE_DIR
set -u
cd "$1" || exit 2
command -v clang-format >/dev/null || { echo "check_format: clang-format not installed" >&2; exit 2; }
files=$(find core ui app tests -name '*.cpp' -o -name '*.h' | sort)
out=$(echo "$files" | xargs clang-format --dry-run --Werror 2>&1)
if [ -n "$out" ]; then
  echo "$out" | grep 'error:' | head -40 >&2
  echo "check_format: $(echo "$out" | grep -c 'error:') places need formatting: run clang-format -i on the files above" >&2
  exit 1
fi
echo "check_format: $(echo "$files" | wc -l) files formatted"
