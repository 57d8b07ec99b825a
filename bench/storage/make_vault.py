#!/usr/bin/env python3
"""Writes an Obsidian-style vault of N notes (default 10,000) into a directory, deterministically.

Plain Markdown without ids: file names are the titles, in nested folders (40 folders, two deep),
with a `.obsidian` folder at the root. Every note has 5 links to other notes, in the forms
Obsidian writes: [[Name]], [[Name|text]], [[Name#Heading]], ![[Name]] and a relative Markdown
link [text](../Folder/Name.md). Every 10th note has an alias, which every 20th link uses; every
100th name is used in two folders. Note 0 ("Hub") is linked from every 100th note.
"""
import os
import random
import sys
import urllib.parse

WORDS = ("meeting budget report dentist groceries milk eggs bread train ticket invoice project "
         "deadline review draft email call friday monday plan garden paint kitchen doctor exam "
         "chapter lecture notes idea book movie recipe pasta tomato sauce flight hotel passport "
         "renew insurance bank transfer rent salary team sprint release bug fix deploy server").split()


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    rng = random.Random(14)
    folders = ["Area %02d/Topic %d" % (a, t) for a in range(20) for t in range(2)]
    notes = []
    for index in range(count):
        name = "Hub" if index == 0 else "Note %05d %s" % (index, rng.choice(WORDS))
        if index % 100 == 50:
            name = notes[index - 50][1]  # the same name in another folder
        notes.append((folders[index % len(folders)], name))
    os.makedirs(os.path.join(out, ".obsidian"), exist_ok=True)
    for index, (folder, name) in enumerate(notes):
        links = []
        for k in range(5):
            target = 0 if (k == 0 and index % 100 == 1) else rng.randrange(count)
            target_folder, target_name = notes[target]
            form = (index + k) % 5
            if target % 10 == 0 and k == 4 and target != 0:
                links.append("[[alias of %s]]" % target_name)
            elif form == 0:
                links.append("[[%s]]" % target_name)
            elif form == 1:
                links.append("[[%s|see here]]" % target_name)
            elif form == 2:
                links.append("[[%s#Details]]" % target_name)
            elif form == 3:
                links.append("![[%s]]" % target_name)
            else:
                path = "../../%s/%s.md" % (target_folder, target_name)
                links.append("[%s](%s)" % (target_name, urllib.parse.quote(path)))
        words = [rng.choice(WORDS) for _ in range(rng.randint(20, 80))]
        front = "---\naliases: [alias of %s]\n---\n" % name if index % 10 == 0 else ""
        body = "%s# Details\n%s\n\nRelated: %s #%s\n" % (front, " ".join(words), ", ".join(links), rng.choice(WORDS))
        directory = os.path.join(out, folder)
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, name + ".md"), "w", encoding="utf-8") as handle:
            handle.write(body)


if __name__ == "__main__":
    main()
