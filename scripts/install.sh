#!/usr/bin/env bash
# Installs `notes` into $PREFIX/bin (default /usr/local, or ~/.local when not root), and its
# documentation (README.md and docs/) into $PREFIX/share/doc/notes, where the systemd unit in
# contrib/ points.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ "$(id -u)" -eq 0 ]; then default_prefix=/usr/local; else default_prefix="$HOME/.local"; fi
PREFIX="${PREFIX:-$default_prefix}"
binary="$(scripts/build.sh)"
mkdir -p "$PREFIX/bin" "$PREFIX/share/doc/notes/docs"
install -m 0755 "$binary" "$PREFIX/bin/notes"
install -m 0644 README.md "$PREFIX/share/doc/notes/README.md"
install -m 0644 docs/*.md "$PREFIX/share/doc/notes/docs/"
echo "Installed $PREFIX/bin/notes and its documentation in $PREFIX/share/doc/notes"
