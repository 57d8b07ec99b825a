"""Does llama.cpp compute a sequence's logits the same alone and beside others? (issue 12)

Prints, for a model, the largest difference between a note's logits read alone and read
(1) beside three other notes, in one unified cache and with a cache each, and (2) with its prompt
cut into other pieces, with flash attention on and off and with repacked weights or not.
0 means bit for bit. Run with llama-cpp-python's interpreter:

    $NOTES_DEPS/venv/bin/python bench/ai/invariance.py $NOTES_DEPS/reader-model.gguf
"""
import sys
import numpy as np
import llama_cpp as L

path = sys.argv[1]
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
L.llama_backend_init()


def load(repack):
    params = L.llama_model_default_params()
    params.use_extra_bufts = repack
    return L.llama_model_load_from_file(path.encode(), params)


class Context:
    def __init__(self, model, sequences, unified, cells, flash):
        params = L.llama_context_default_params()
        params.n_ctx, params.n_seq_max, params.kv_unified = cells, sequences, unified
        params.n_batch = params.n_ubatch = 512
        params.n_threads = params.n_threads_batch = threads
        params.flash_attn_type = 1 if flash else 0
        self.context = L.llama_init_from_model(model, params)
        self.memory = L.llama_get_memory(self.context)
        self.batch = L.llama_batch_init(512, 0, 1)
        self.vocabulary = L.llama_vocab_n_tokens(L.llama_model_get_vocab(model))

    def decode(self, rows):
        """rows: (token, position, sequence, wants logits); returns the logits wanted, in order."""
        self.batch.n_tokens = len(rows)
        for i, (token, position, sequence, wanted) in enumerate(rows):
            self.batch.token[i], self.batch.pos[i], self.batch.n_seq_id[i] = token, position, 1
            self.batch.seq_id[i][0], self.batch.logits[i] = sequence, wanted
        assert L.llama_decode(self.context, self.batch) == 0
        return [np.ctypeslib.as_array(L.llama_get_logits_ith(self.context, i), shape=(self.vocabulary,)).copy()
                for i, row in enumerate(rows) if row[3]]


def tokens(model, text):
    vocab = L.llama_model_get_vocab(model)
    data = text.encode()
    out = (L.llama_token * 1024)()
    return list(out[:L.llama_tokenize(vocab, data, len(data), out, 1024, False, False)])


def read_notes(context, prefix, notes, steps=6):
    """The prefix in sequence 0, copied to 1.., each note in its sequence (each in a call of its
    own, as notes does with prompts of other lengths), then greedy steps of one token each, all
    sequences together; the logits of each step, per note."""
    L.llama_memory_clear(context.memory, True)
    context.decode([(t, p, 0, False) for p, t in enumerate(prefix)])
    for sequence in range(1, len(notes) + 1):
        L.llama_memory_seq_cp(context.memory, 0, sequence, -1, -1)
    logits = [context.decode([(t, len(prefix) + k, s, k == len(note) - 1) for k, t in enumerate(note)])
              for s, note in enumerate(notes, 1)]
    positions = [len(prefix) + len(note) for note in notes]
    for _ in range(steps):
        rows = [(int(np.argmax(logits[i][-1])), positions[i], i + 1, True) for i in range(len(notes))]
        positions = [p + 1 for p in positions]
        for i, step in enumerate(context.decode(rows)):
            logits[i].append(step)
    return logits


def in_pieces(context, text, pieces):
    L.llama_memory_clear(context.memory, True)
    start = 0
    for size in pieces:
        last = context.decode([(text[start + k], start + k, 0, k == size - 1) for k in range(size)])
        start += size
    return last[-1]


def worst(a, b):
    return "%.2g" % max(float(np.max(np.abs(x - y))) for x, y in zip(a, b))


for repack in (True, False):
    model = load(repack)
    prefix = tokens(model, "### Instructions\nRead the note; answer with its category, tasks and due dates. " * 6)
    a = tokens(model, "### Note\nBuy milk tomorrow and call the dentist about Friday. The car's MOT is due on the 14th.\n### Answer\n")
    b = tokens(model, "### Note\nDiary, Sunday. Walked by the river with Ana; we talked about moving to Porto in spring.\n### Answer\n")
    c = tokens(model, "### Note\nΗ συνάντηση μεταφέρθηκε την Τρίτη.\n### Answer\n")
    d = tokens(model, "### Note\nPay the parking permit (84 euros) before Monday; ask Sam about the car.\n### Answer\n")
    for flash in (True, False):
        label = f"repacked={'yes' if repack else 'no '} flash={'on ' if flash else 'off'}"
        alone = read_notes(Context(model, 2, True, 2048, flash), prefix, [a])[0]
        shared = read_notes(Context(model, 5, True, 8192, flash), prefix, [b, c, d, a])[3]
        own = read_notes(Context(model, 5, False, 5 * 2048, flash), prefix, [b, c, d, a])[3]
        print(f"{label}  beside three notes: one cache {worst(alone, shared)}, a cache each {worst(alone, own)}")
        full = prefix + a
        context = Context(model, 1, True, 2048, flash)
        reference = in_pieces(context, full, [len(prefix), len(a)])
        for name, pieces in [("its first token alone", [len(prefix), 1, len(a) - 1]),
                             ("its first 5 tokens apart", [len(prefix), 5, len(a) - 5]),
                             ("its first 8 tokens apart", [len(prefix), 8, len(a) - 8]),
                             ("prompt and note in one piece", [len(full)])]:
            print(f"{label}  the note with {name}: {worst([reference], [in_pieces(context, full, pieces)])}")
    L.llama_model_free(model)
