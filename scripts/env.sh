# Sourced by the scripts: the toolchain on PATH and llama.cpp's pkg-config file visible.
NOTES_DEPS="${NOTES_DEPS:-/opt/notes-deps}"
export NOTES_DEPS
case ":$PATH:" in *":/opt/swift/usr/bin:"*) ;; *) [ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH" ;; esac
export PKG_CONFIG_PATH="$NOTES_DEPS/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
