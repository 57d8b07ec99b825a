#!/usr/bin/env python3
"""Writes the labelled search benchmark: a notebook of Markdown notes and the queries over it.

    make_notebook.py DIR      -> DIR/notes/*.md and DIR/queries.json

40 subjects of everyday life, each with two notes written in different words, a query in words
neither note uses ("meaning"), a rare word of the first note ("words"), that rare word among the
other-words query ("mixed": no note has all its words, the note with the rare word is wanted),
and a probe that asks for the second note among the first one's related notes ("related"); then 260 notes on other
subjects (work projects, study notes, reading notes, film lists, language practice) around them.
Every note and query was written for this benchmark; the other notes come from templates with a
fixed seed, so the notebook is the same on every run.
"""
import json
import os
import random
import re
import sys

# (first note, second note in other words, query in words neither uses, a rare word of the first)
SUBJECTS = [
    ("Take Miso to the vet on Thursday for her vaccinations", "Booster shots for the cat are overdue, ring the animal clinic", "kitten immunisation appointment", "Miso"),
    ("The hoover stopped sucking up dust, buy a replacement", "Compare cordless stick cleaners: Dyson or Shark", "new vacuum for the carpets", "Dyson"),
    ("Molar aching again, book Dr. Okafor for a filling", "Teeth cleaning with the hygienist every six months", "tooth pain dental checkup", "Okafor"),
    ("Car makes a grinding noise when braking, take it to the garage", "MOT test due for the Corolla in March", "automobile service at the mechanic", "Corolla"),
    ("Landlord raising the rent by 8% from January", "Lease renewal: negotiate the tenancy terms with Mrs. Patel", "apartment housing cost increase", "Patel"),
    ("Passport expires in May, renew before the Lisbon trip", "Fill in the travel document application form and get photos taken", "identity papers for going abroad", "Lisbon"),
    ("Send receipts to the accountant before the tax deadline", "HMRC self assessment return: gather the P60 and invoices", "yearly income declaration to the government", "P60"),
    ("Grandma turns 90 on Saturday, order a cake", "Party planning for Nana: balloons, invite the cousins", "elderly relative celebration", "Nana"),
    ("Kitchen sink is leaking under the cabinet, call a plumber", "Dripping tap in the bathroom needs a new washer", "water pipe fix", "washer"),
    ("Laptop battery dies after an hour, order a replacement cell", "ThinkPad screen flickers, check the warranty with Lenovo", "portable computer power problem", "ThinkPad"),
    ("Mow the lawn and trim the hedges before the weekend", "Plant tulip bulbs in the flower beds this autumn", "yard work and greenery outdoors", "tulip"),
    ("Training for the half marathon: 10 km on Sunday", "Buy new trainers, the old ones hurt my knees on long jogs", "race preparation running shoes", "marathon"),
    ("Energy bill doubled, switch supplier to Octopus", "Submit meter readings for gas and power", "utility costs of the household", "Octopus"),
    ("Interview at Stripe on Tuesday, prepare system design questions", "Update my CV and cover letter for the product manager role", "applying for a new job position", "Stripe"),
    ("Sarah and Tom's wedding in June, buy a gift from the registry", "Book a suit fitting for the ceremony", "marriage celebration attire and present", "registry"),
    ("Fever and sore throat since Monday, see the GP", "Pick up the antibiotics prescription from the pharmacy", "feeling ill medicine", "antibiotics"),
    ("Hire a removal van for the move on the 14th", "Pack boxes and label them by room before relocating", "changing address logistics", "removal"),
    ("Home contents insurance renewal quote from Aviva", "Compare policies for the flat, the premium went up", "coverage cost for belongings", "Aviva"),
    ("Parents evening at Oakfield Primary on Wednesday", "Pack Lily's lunchbox and PE kit for Thursday", "child education teacher meeting", "Oakfield"),
    ("Bin collection moved to Friday, put out the recycling", "Take the old electronics to the waste centre", "rubbish disposal day", "electronics"),
    ("Suspicious transaction on my debit card, call the bank", "Freeze the card and request a replacement after the fraud alert", "stolen money account security", "debit"),
    ("Book a cottage in Cornwall for the August break", "Search for seaside rentals with a sea view for summer", "vacation accommodation by the coast", "Cornwall"),
    ("Printer says paper jam but the tray is empty", "Order ink cartridges for the HP Officejet", "printing device malfunction toner", "Officejet"),
    ("Internet keeps dropping every evening, reboot the router", "Call Virgin Media about the slow broadband speed", "home network connection problems", "router"),
    ("Cut down on sugar and snacks after dinner", "Meal prep salads and lean protein for the week", "eating healthier to lose weight", "salads"),
    ("Fixed rate ends in October, ask the broker about remortgaging", "Compare home loan offers from Nationwide and Halifax", "house financing interest deal", "Nationwide"),
    ("Upstairs neighbour plays loud music past midnight", "Write to the council about the barking dog next door", "disturbance complaint about residents", "midnight"),
    ("Cracked the iPhone screen, book a repair at the Apple store", "Phone contract ends soon, look for a cheaper SIM-only plan", "mobile handset broken glass", "iPhone"),
    ("Back up the holiday photos to the external drive", "Sort the pictures from Iceland into albums", "image files archive storage", "Iceland"),
    ("Piano lesson moved to 5pm, practise the Chopin nocturne", "Book a tuner for the upright, it sounds flat", "music instrument keyboard class", "Chopin"),
    ("Submit the abstract for PyCon by the 20th", "Rehearse the slides for my talk on async programming", "presentation at a developer event", "PyCon"),
    ("Ask Emma if she can babysit on Friday night", "Find childcare for the kids during the school holidays", "someone to look after the children", "babysit"),
    ("Bike has a flat tyre, patch the inner tube", "Service the bicycle gears and oil the chain", "cycle puncture repair", "tyre"),
    ("Return the library books before the fine kicks in", "Renew the borrowed novels online", "overdue loans of reading material", "library"),
    ("Boiler pressure dropped, no hot water this morning", "Annual gas safety check for the heating system", "radiator warmth broken furnace", "boiler"),
    ("Apply for the US ESTA before the New York trip", "Embassy appointment for the work permit paperwork", "entry authorisation to a foreign country", "ESTA"),
    ("Sponsor Jake's charity swim, donate 20 pounds", "Set up a monthly gift to the food bank", "giving money to good causes", "sponsor"),
    ("Roof tiles came loose in the storm, get a roofer", "Water stain on the bedroom ceiling after heavy rain", "house damage leak from above", "tiles"),
    ("Eye test at Specsavers, my vision is blurry", "Pick up the new spectacles and contact lenses", "optician eyesight appointment", "Specsavers"),
    ("Check the workplace pension contributions on the payslip", "Consolidate old retirement pots into one fund", "saving for when I stop working", "pension"),
]

PROJECTS = ["Atlas", "Borealis", "Cobalt", "Delta", "Ember", "Fjord", "Granite", "Helix", "Indigo", "Juniper"]
WORK = [
    "Project {p}: sprint {n} review, {k} tickets closed, velocity steady",
    "Project {p}: deploy of release 2.{n} to staging failed on the migration step",
    "Project {p}: code review notes, rename the {c} module and add unit tests",
    "Project {p}: the {c} service times out under load, profile the database queries",
    "Project {p}: roadmap for Q{q}, ship the {c} dashboard first",
    "Project {p}: retrospective, too many meetings, fewer status updates",
    "Project {p}: API design for the {c} endpoint, pagination with cursors",
    "Project {p}: on-call handover, two alerts about disk usage on node {n}",
]
COMPONENTS = ["billing", "search", "export", "sync", "reporting", "auth", "notification", "ingest"]
STUDY = [
    "Study notes: the {t} in chapter {n}, revise the key formulas",
    "Lecture {n} on {t}: examples to redo before the exam",
    "Flashcards for {t}: definitions and one worked problem",
    "Reading group summary: {t} and its history",
]
TOPICS = ["French Revolution", "photosynthesis", "linear algebra", "thermodynamics", "Roman Empire", "plate tectonics",
          "probability theory", "organic chemistry", "Baroque architecture", "supply and demand", "the Cold War", "cell division"]
READING = [
    "Quote from {b}: worth rereading the chapter on {t}",
    "Finished {b}; the ending was slow but the middle part about {t} was great",
    "Started {b}, page {n}, the narrator reminds me of a teacher I had",
]
BOOKS = ["Middlemarch", "Dune", "The Left Hand of Darkness", "Moby-Dick", "Beloved", "Invisible Cities", "Stoner", "The Remains of the Day"]
FILMS = ["Watchlist: {f} and {g}, both recommended by the film club",
         "Saw {f} at the cinema, the soundtrack was the best part",
         "Film night idea: a double bill of {f} and {g}"]
FILMLIST = ["Rashomon", "Vertigo", "Paris, Texas", "Stalker", "Amelie", "Parasite", "Spirited Away", "The Third Man", "Heat", "Alien"]
LANGUAGE = ["Spanish practice: {w1}, {w2} and {w3}, use each in a sentence",
            "Duolingo streak day {n}: irregular verbs in the past tense",
            "German vocabulary: {w1}, {w2}, {w3}; review the genders"]
WORDS = ["madrugada", "sobremesa", "Fernweh", "Gemütlichkeit", "estrenar", "Kummerspeck", "desvelado", "Torschlusspanik", "friolero", "Feierabend"]
IDEAS = ["Blog post idea: why {c} pipelines fail quietly", "Idea: a small tool that turns {t} notes into quizzes",
         "Side project: a map of every {t} reference in {b}"]


def distractors(count: int) -> list[str]:
    rng = random.Random(16)
    notes, seen = [], set()
    makers = [
        lambda: rng.choice(WORK).format(p=rng.choice(PROJECTS), n=rng.randint(2, 60), k=rng.randint(3, 30), c=rng.choice(COMPONENTS), q=rng.randint(1, 4)),
        lambda: rng.choice(STUDY).format(t=rng.choice(TOPICS), n=rng.randint(1, 14)),
        lambda: rng.choice(READING).format(b=rng.choice(BOOKS), t=rng.choice(TOPICS), n=rng.randint(10, 400)),
        lambda: (lambda f, g: rng.choice(FILMS).format(f=f, g=g))(*rng.sample(FILMLIST, 2)),
        lambda: (lambda w: rng.choice(LANGUAGE).format(w1=w[0], w2=w[1], w3=w[2], n=rng.randint(5, 300)))(rng.sample(WORDS, 3)),
        lambda: rng.choice(IDEAS).format(c=rng.choice(COMPONENTS), t=rng.choice(TOPICS), b=rng.choice(BOOKS)),
    ]
    while len(notes) < count:
        text = rng.choice(makers)()
        if text not in seen:
            seen.add(text)
            notes.append(text)
    return notes


STOP = {"about", "with", "from", "that", "this", "when", "have", "for", "the", "and", "after", "before", "into"}


def words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z0-9]+", text)}


def main() -> None:
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "notes"), exist_ok=True)
    texts = [text for subject in SUBJECTS for text in subject[:2]] + distractors(260)
    assert len(set(texts)) == len(texts)
    for index, text in enumerate(texts):
        with open(os.path.join(out, "notes", f"note-{index:03d}.md"), "w") as handle:
            handle.write(text + "\n")
    queries = []
    for number, (first, second, other, rare) in enumerate(SUBJECTS):
        # A meaning query shares no word (beyond short ones) with the notes it should find.
        shared = {w for w in words(other) & (words(first) | words(second)) if len(w) > 3 and w not in STOP}
        assert not shared, (other, shared)
        queries.append({"kind": "meaning", "query": other, "relevant": [first, second]})
        holders = [t for t in texts if rare.lower() in words(t)]
        queries.append({"kind": "words", "query": rare, "relevant": holders})
        queries.append({"kind": "related", "note": first, "relevant": [second]})
        # The rare word among other words: no note has them all, the note with the word is wanted.
        queries.append({"kind": "mixed", "query": f"{rare} {other}", "relevant": holders})
    with open(os.path.join(out, "queries.json"), "w") as handle:
        json.dump({"notes": len(texts), "queries": queries}, handle, indent=1)
    print(f"{len(texts)} notes, {len(queries)} queries", file=sys.stderr)


if __name__ == "__main__":
    main()
