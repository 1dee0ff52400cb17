#!/usr/bin/env bash
# scripts/demo.sh — the main job on a bundled sample: installs what is
# missing, builds, and converts samples/asp/sample.log with the project's own
# TOPPERS/ASP rules, printing the first events and the summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
out="$(mktemp -d)/sample.std"
build/tlv convert -r samples/asp/sample.res samples/asp/sample.log -o "$out"
echo "--- first events of $out:"
head -n 12 "$out"
