#!/usr/bin/env bash
# Fetches the jars of the Kafka broker that Sluice's tests and demos run (pom.xml next to this
# script) into .kafka/<kafka version>/libs of the repository, and prints that folder.
# Maven runs only when the folder is missing or was fetched for another pom.xml, so a clean clone
# fetches once and every later call returns at once. Safe to call from parallel processes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
pom="$here/pom.xml"

version="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$pom")"
if [ -z "$version" ]; then
  echo "fetch.sh: no <kafka.version> property in $pom" >&2
  exit 1
fi
target="$repo/.kafka/$version"
libs="$target/libs"
# The stamp holds the checksum of the pom the jars came from: editing the pom refetches.
stamp="$target/fetched.sha256"
wanted="$(sha256sum "$pom" | cut -d' ' -f1)"

if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  mkdir -p "$target"
  exec 9>"$target/fetch.lock"
  flock 9
  # Another process may have finished the fetch while this one waited for the lock.
  if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    echo "Fetching the Kafka $version broker jars with Maven into $libs" >&2
    staging="$target/libs.partial"
    rm -rf "$staging" "$stamp"
    # -B: no colours or progress bars in logs; stdout goes to stderr so that the only thing this
    # script prints on stdout is the folder.
    mvn -B -q -f "$pom" dependency:copy-dependencies -DincludeScope=runtime \
      -DoutputDirectory="$staging" >&2
    rm -rf "$libs"
    mv "$staging" "$libs"
    echo "$wanted" >"$stamp"
  fi
fi
echo "$libs"
