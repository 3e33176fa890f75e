#!/usr/bin/env bash
# Installs the Debian packages Sluice builds and tests with, only those that are missing.
set -euo pipefail
packages=(
  build-essential cmake ninja-build ccache pkg-config python3-venv
  libgtest-dev libgmock-dev libbenchmark-dev
  librdkafka-dev librocksdb-dev libsimdjson-dev libre2-dev libssl-dev zlib1g-dev libdeflate-dev libedit-dev
  openjdk-17-jre-headless maven
  # The web UI test loads the page in headless Chromium.
  chromium
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Java and Maven may come from elsewhere on a machine; only ask for them when absent.
if command -v java >/dev/null && command -v mvn >/dev/null; then
  filtered=(); for p in "${missing[@]}"; do case "$p" in openjdk-*|maven) ;; *) filtered+=("$p");; esac; done
  missing=("${filtered[@]}")
fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
