#!/usr/bin/env python3
"""Writes N Markdown notes (default 10,000) with front matter into a directory, deterministically.

Every 1,000th note carries a planted rare word (zyxquartz<k>) that the benchmark must find.
"""
import os
import random
import sys

WORDS = ("meeting budget report dentist groceries milk eggs bread train ticket invoice project "
         "deadline review draft email call friday monday plan garden paint kitchen doctor exam "
         "chapter lecture notes idea book movie recipe pasta tomato sauce flight hotel passport "
         "renew insurance bank transfer rent salary team sprint release bug fix deploy server "
         "backup photo album birthday gift party music guitar lesson run gym yoga sleep water").split()
TAGS = ["work", "home", "health", "study", "finance", "travel", "ideas", "family"]


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    os.makedirs(out, exist_ok=True)
    rng = random.Random(42)
    base = 1_735_689_600_000  # 2025-01-01T00:00:00Z
    for index in range(count):
        ms = base + index * 60_000
        random_bits = rng.getrandbits(80)
        hex_id = "%012x" % ms + "7" + "%03x" % (random_bits >> 68) + "%x" % (8 + (random_bits >> 64 & 3)) + "%015x" % (random_bits & ((1 << 60) - 1))
        hex_id = hex_id[:32]
        note_id = "-".join([hex_id[:8], hex_id[8:12], hex_id[12:16], hex_id[16:20], hex_id[20:]])
        words = [rng.choice(WORDS) for _ in range(rng.randint(20, 120))]
        if index % 1000 == 0:
            words.insert(rng.randint(0, len(words)), "zyxquartz%d" % (index // 1000))
        title = " ".join(words[:5]).capitalize()
        tags = sorted(set(rng.sample(TAGS, rng.randint(0, 2))))
        body = title + "\n" + " ".join(words[5:]) + "".join(" #" + tag for tag in tags)
        stamp = "%sZ" % __import__("datetime").datetime.utcfromtimestamp(ms / 1000).strftime("%Y-%m-%dT%H:%M:%S")
        with open(os.path.join(out, note_id + ".md"), "w", encoding="utf-8") as handle:
            handle.write("---\nid: %s\ntitle: \"%s\"\ntags: [%s]\ncreated: %s\nupdated: %s\n---\n%s\n"
                         % (note_id, title, ", ".join(tags), stamp, stamp, body))


if __name__ == "__main__":
    main()
