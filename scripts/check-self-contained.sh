#!/usr/bin/env bash
# Fails when a tracked file reaches outside the repository: `make test` and `make run` must work on
# a clone with nothing beside it. Every relative path that climbs (`../`) is resolved from the
# file's folder and from its package's root (the nearest folder with a Cargo.toml or package.json,
# which is where `CARGO_MANIFEST_DIR` and npm scripts start); climbing out of the clone from either
# is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
status=0
package_root() {
  local dir=$1
  while [ "$dir" != "." ] && [ ! -e "$dir/Cargo.toml" ] && [ ! -e "$dir/package.json" ]; do
    dir=$(dirname "$dir")
  done
  echo "$dir"
}
while IFS= read -r hit; do
  file=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  text=${rest#*:}
  for climb in $(grep -oE '(\.\./)+' <<<"$text" | sort -u); do
    for base in "$(dirname "$file")" "$(package_root "$(dirname "$file")")"; do
      target=$(realpath -m --relative-to="$root" "$root/$base/$climb")
      if [[ $target == ..* ]]; then
        echo "$file:$line: '$climb' from $base leaves the clone: $text" >&2
        status=1
        break
      fi
    done
  done
done < <(git grep -nE '\.\./' -- ':!*.lock' ':!*package-lock.json' ':!*.md' ':!gateway/src/spa/mod.rs' ':!scripts/check-self-contained.sh' || true)
exit $status
