# Turns a sentence-transformers BERT folder (config.json, model.safetensors, tokenizer.json) into
# a GGUF file that llama.cpp runs as an embedding model (mean pooling), and beside it the
# WordPiece table notes tokenizes with (OUT.wordpiece). Needs only numpy and the gguf package: the
# safetensors file is read by hand (an 8-byte header size, a JSON header, then the raw tensors),
# so no torch. Run once by scripts/setup.sh.
#
# Why the vocabulary is not in the GGUF: llama.cpp spends 30 to 50 ms building its tokenizer
# from 30,522 tokens each time the model is loaded, against 3 ms for the weights alone; a
# `notes search` without the daemon loads the model for one query. The table below is read as
# it lies on disk (a hash table of the pieces, and the characters' classes), with no parsing.
#
#   python convert_embedding_model.py MODEL_DIR OUT.gguf
import json
import struct
import sys
import unicodedata
from pathlib import Path

import numpy as np
import gguf

SAFETENSORS_DTYPES = {"F32": np.float32, "F16": np.float16}


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    data = path.read_bytes()
    (header_size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + header_size])
    base = 8 + header_size
    tensors = {}
    for name, info in header.items():
        # position_ids is an integer buffer, not a weight.
        if name == "__metadata__" or name.endswith("position_ids"):
            continue
        if info["dtype"] not in SAFETENSORS_DTYPES:
            sys.exit(f"Error: tensor {name} has dtype {info['dtype']}, expected F32 or F16")
        start, end = info["data_offsets"]
        array = np.frombuffer(data, dtype=SAFETENSORS_DTYPES[info["dtype"]], count=(end - start) // np.dtype(SAFETENSORS_DTYPES[info["dtype"]]).itemsize, offset=base + start)
        tensors[name] = array.reshape(info["shape"])
    return tensors


def vocabulary(tokenizer: dict) -> list[str]:
    """WordPiece pieces in id order, spelled as the tokenizer spells them ("##ing" continues a
    word)."""
    model = tokenizer["model"]
    if model.get("type") != "WordPiece" or model.get("continuing_subword_prefix", "##") != "##":
        sys.exit("Error: the tokenizer is not WordPiece with ## continuations")
    normalizer = tokenizer.get("normalizer") or {}
    if (normalizer.get("type") != "BertNormalizer" or not normalizer.get("lowercase", False)
            or normalizer.get("strip_accents") is False or normalizer.get("handle_chinese_chars") is False):
        sys.exit("Error: the tokenizer is not an uncased BERT tokenizer (lowercase, accents stripped), the only kind converted")
    by_id = sorted(model["vocab"].items(), key=lambda item: item[1])
    if [index for _, index in by_id] != list(range(len(by_id))):
        sys.exit("Error: the tokenizer's ids are not 0..n-1")
    return [text for text, _ in by_id]


# Character classes of the table, as the uncased BERT tokenizer treats each character.
KEEP, SPACE, SPLIT, DROP = 0, 1, 2, 3


def character_class(cp: int) -> tuple[int, str]:
    """What the tokenizer does with one character: drops it (controls, NUL, U+FFFD, and the
    accents that lowercasing and canonical decomposition leave), ends a word (white space), makes
    it a word of its own (punctuation, CJK ideographs), or keeps it, perhaps replaced (lowercased,
    accents stripped)."""
    c = chr(cp)
    category = unicodedata.category(c)
    if c in " \t\n\r" or category == "Zs":
        return SPACE, c
    if cp == 0 or cp == 0xFFFD or category.startswith("C"):
        return DROP, c
    if (33 <= cp <= 47) or (58 <= cp <= 64) or (91 <= cp <= 96) or (123 <= cp <= 126) or category.startswith("P"):
        return SPLIT, c
    if (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or 0x2A700 <= cp <= 0x2B73F
            or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F):
        return SPLIT, c
    replaced = "".join(ch for ch in unicodedata.normalize("NFD", c.lower()) if unicodedata.category(ch) != "Mn")
    if not replaced:
        return DROP, c
    return KEEP, replaced


def fnv1a(data: bytes) -> int:
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def write_wordpiece(path: Path, pieces: list[str]) -> None:
    """The table notes' WordPiece tokenizer reads (Sources/AI/Embedding/WordPiece.swift), little
    endian:
      "NOTESWP1"; u32 pieces, slots, [CLS], [SEP], [UNK], ranges, pool bytes;
      slots x (u32 pool offset + 1, 0 for an empty slot; u32 id): FNV-1a of the piece's UTF-8,
        modulo the slots (a power of two), then the next slot until found or empty;
      ranges x (u32 first, u32 last, u32 class << 24 | pool offset of the replacement): the
        characters that are not kept as they are, sorted, not overlapping;
      the pool: u8 length and UTF-8 bytes, for each piece and replacement."""
    pool = bytearray()

    def add(text: str) -> int:
        data = text.encode("utf-8")
        if len(data) > 255:
            sys.exit(f"Error: piece {text!r} is longer than 255 bytes")
        offset = len(pool)
        pool.append(len(data))
        pool.extend(data)
        return offset

    ids = {piece: index for index, piece in enumerate(pieces)}
    for special in ("[CLS]", "[SEP]", "[UNK]"):
        if special not in ids:
            sys.exit(f"Error: the vocabulary has no {special}")
    slots = 1
    while slots < 2 * len(pieces):
        slots *= 2
    table = [(0, 0)] * slots
    for index, piece in enumerate(pieces):
        slot = fnv1a(piece.encode("utf-8")) % slots
        while table[slot][0]:
            slot = (slot + 1) % slots
        table[slot] = (add(piece) + 1, index)

    ranges = []  # [first, last, value]
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        kind, replacement = character_class(cp)
        if kind == KEEP and replacement == chr(cp):
            continue
        if kind == KEEP:
            ranges.append([cp, cp, (KEEP << 24) | add(replacement)])
            continue
        previous = ranges[-1] if ranges else None
        # Runs of one class are one range (the unassigned code points alone are 800,000).
        contiguous = previous is not None and (previous[1] == cp - 1 or (previous[1] == 0xD7FF and cp == 0xE000))
        if contiguous and previous[2] == kind << 24:
            previous[1] = cp
        else:
            ranges.append([cp, cp, kind << 24])
    if len(pool) >= 1 << 24:
        sys.exit("Error: the table's pool is too large")

    with open(path, "wb") as out:
        out.write(b"NOTESWP1")
        out.write(struct.pack("<7I", len(pieces), slots, ids["[CLS]"], ids["[SEP]"], ids["[UNK]"], len(ranges), len(pool)))
        for offset, index in table:
            out.write(struct.pack("<2I", offset, index))
        for first, last, value in ranges:
            out.write(struct.pack("<3I", first, last, value))
        out.write(pool)


def main() -> None:
    source, target = Path(sys.argv[1]), Path(sys.argv[2])
    config = json.loads((source / "config.json").read_text())
    tokenizer = json.loads((source / "tokenizer.json").read_text())
    if config.get("model_type") != "bert":
        sys.exit(f"Error: {source} holds a {config.get('model_type')} model, expected bert")
    pooling = json.loads((source / "1_Pooling" / "config.json").read_text()) if (source / "1_Pooling" / "config.json").exists() else {}
    if pooling and not pooling.get("pooling_mode_mean_tokens"):
        sys.exit("Error: only mean pooling is converted")

    blocks = config["num_hidden_layers"]
    writer = gguf.GGUFWriter(str(target), gguf.MODEL_ARCH_NAMES[gguf.MODEL_ARCH.BERT])
    writer.add_name("all-MiniLM-L6-v2")
    writer.add_context_length(config["max_position_embeddings"])
    writer.add_embedding_length(config["hidden_size"])
    writer.add_feed_forward_length(config["intermediate_size"])
    writer.add_block_count(blocks)
    writer.add_head_count(config["num_attention_heads"])
    writer.add_layer_norm_eps(config["layer_norm_eps"])
    writer.add_causal_attention(False)
    writer.add_pooling_type(gguf.PoolingType.MEAN)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)

    pieces = vocabulary(tokenizer)
    # No vocabulary for llama.cpp (see the top): only its size, which the weights' shapes need.
    writer.add_tokenizer_model("none")
    writer.add_uint32(gguf.Keys.LLM.VOCAB_SIZE.format(arch=writer.arch), len(pieces))
    writer.add_token_type_count(config.get("type_vocab_size", 2))

    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.BERT, blocks)
    for name, array in read_safetensors(source / "model.safetensors").items():
        # The pooler (a dense layer over [CLS]) is not part of a mean-pooled sentence embedding.
        if name.startswith("pooler."):
            continue
        mapped = names.get_name(name, try_suffixes=(".weight", ".bias"))
        if mapped is None:
            sys.exit(f"Error: no GGUF name for tensor {name}")
        # Matrices in half precision (half the file, same embeddings to 3 decimals); vectors
        # (biases, norms) in single precision, as llama.cpp expects.
        array = array.astype(np.float16 if array.ndim == 2 and not mapped.startswith("token_types") else np.float32)
        writer.add_tensor(mapped, array)

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    write_wordpiece(target.with_suffix(".wordpiece"), pieces)


if __name__ == "__main__":
    main()
