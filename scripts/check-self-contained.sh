#!/usr/bin/env bash
# Fails when a tracked file reaches outside the repository: `make test` and `make run` must work on
# a clone with nothing beside it. Looks for the sibling folder the project's references live in and
# for relative paths that climb above the repository root from where the file sits.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
# 1. The shared reference folder, by name, in anything but prose about where data was copied from.
if git grep -nE '(\.\./)+shared/' -- ':!*.md' ':!scripts/check-self-contained.sh'; then
  echo "check-self-contained: the lines above read ../shared, which a fresh clone does not have" >&2
  status=1
fi
# 2. A relative path with more `../` than the file is deep (it leaves the clone).
while IFS=: read -r file line text; do
  depth=$(($(tr -cd '/' <<<"$file" | wc -c)))
  for climb in $(grep -oE '(\.\./)+' <<<"$text" | awk '{ print length($0) / 3 }'); do
    if [ "$climb" -gt "$depth" ]; then
      echo "$file:$line: climbs $climb folders from depth $depth: $text" >&2
      status=1
    fi
  done
done < <(git grep -nE '(\.\./){2,}' -- ':!*.lock' ':!*package-lock.json' ':!*.md' ':!gateway/src/spa.rs' ':!scripts/check-self-contained.sh' || true)
exit $status
