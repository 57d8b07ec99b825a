# Turns a sentence-transformers BERT folder (config.json, model.safetensors, tokenizer.json) into
# one GGUF file that llama.cpp runs as an embedding model (mean pooling). Needs only numpy and
# the gguf package: the safetensors file is read by hand (an 8-byte header size, a JSON header,
# then the raw tensors), so no torch. Run once by scripts/setup.sh.
#
#   python convert_embedding_model.py MODEL_DIR OUT.gguf
import json
import struct
import sys
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


def vocabulary(tokenizer: dict) -> tuple[list[str], list[int]]:
    """WordPiece tokens in id order, written the way llama.cpp's WPM tokenizer reads them: a
    word-initial piece gets U+2581 in front, a continuation ("##ing") loses its marks, and
    bracketed specials ([CLS], [unused0]) stay as they are and are control tokens."""
    model = tokenizer["model"]
    if model.get("type") != "WordPiece":
        sys.exit("Error: the tokenizer is not WordPiece")
    by_id = sorted(model["vocab"].items(), key=lambda item: item[1])
    if [index for _, index in by_id] != list(range(len(by_id))):
        sys.exit("Error: the tokenizer's ids are not 0..n-1")
    prefix = model.get("continuing_subword_prefix", "##")
    tokens, types = [], []
    for text, _ in by_id:
        if text.startswith("[") and text.endswith("]"):
            tokens.append(text)
            types.append(gguf.TokenType.CONTROL)
        elif text.startswith(prefix):
            tokens.append(text[len(prefix):])
            types.append(gguf.TokenType.NORMAL)
        else:
            tokens.append("\u2581" + text)
            types.append(gguf.TokenType.NORMAL)
    return tokens, types


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

    tokens, types = vocabulary(tokenizer)
    ids = tokenizer["model"]["vocab"]
    writer.add_tokenizer_model("bert")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_type_count(config.get("type_vocab_size", 2))
    writer.add_bos_token_id(ids["[CLS]"])
    writer.add_sep_token_id(ids["[SEP]"])
    writer.add_unk_token_id(ids["[UNK]"])
    writer.add_pad_token_id(ids["[PAD]"])
    writer.add_mask_token_id(ids["[MASK]"])
    writer.add_add_bos_token(True)
    writer.add_add_sep_token(True)

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


if __name__ == "__main__":
    main()
