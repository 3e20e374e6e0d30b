#!/usr/bin/env bash
# Every test the quirks page names (the quoted names in its third column)
# must select exactly one test case of umax-tests, run the way the page tells
# the reader to (commas escaped as "\,", which Catch2 otherwise reads as "or").
#   tests/quirks_names.sh docs/pages/21-quirks.md build/bin/umax-tests
set -euo pipefail
page=$1 tests=$2
names=$(grep '^| \*\*' "$page" | awk -F' \\| ' '{print $3}' | grep -o '`"[^`]*"`' | sed 's/^`"//; s/"`$//')
[ -n "$names" ] || { echo "no test names found on $page"; exit 1; }
count=0 bad=0
while IFS= read -r name; do
  count=$((count + 1))
  filter=${name//,/\\,}
  # (--list-tests exits with a status of its own: read the count it prints)
  listing=$("$tests" "$filter" --list-tests </dev/null || true)
  matched=$(grep -o '^[0-9]* matching test case' <<<"$listing" | cut -d' ' -f1 || true)
  if [ "$matched" != 1 ]; then
    echo "the quirks page names \"$name\": ${matched:-no} matching test cases (want 1)"
    bad=$((bad + 1))
  fi
done <<<"$names"
echo "$count test names on the page, $bad not found"
[ "$bad" = 0 ]
