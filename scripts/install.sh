#!/usr/bin/env bash
# Installs `notes` into $PREFIX/bin (default /usr/local, or ~/.local when not root).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ "$(id -u)" -eq 0 ]; then default_prefix=/usr/local; else default_prefix="$HOME/.local"; fi
PREFIX="${PREFIX:-$default_prefix}"
binary="$(scripts/build.sh)"
mkdir -p "$PREFIX/bin"
install -m 0755 "$binary" "$PREFIX/bin/notes"
echo "Installed $PREFIX/bin/notes"
