#!/usr/bin/env python3
"""Writes the `notes ask` benchmark: a notebook of 300 Markdown notes and 74 questions over it.

    make_questions.py DIR      -> DIR/notes/*.md and DIR/questions.json

Four kinds of question: a fact in one note ("fact"), a day in one note ("date"), a total over two
or three notes ("sum"), and questions the notes cannot answer ("none": near misses such as the
guitar lesson when the notes have the piano lesson, and subjects the notebook never mentions).
Each answerable question lists the notes that hold its answer and the strings an answer must
contain (any one of them, case and spaces ignored). The 60 notes that hold answers were written
for this benchmark; the other 240 are bench/search's seeded filler notes (work, study, reading,
films, language practice), so the notebook is the same on every run. A question is held out (never
looked at while tuning the prompt or tools) when the first hex digit of its text's SHA-256 is below 6.
"""
import hashlib
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "search"))
from make_notebook import distractors  # noqa: E402

# (key, title, body)
NOTES = [
    ("piano", "Piano lesson", "Mrs. Kowalski moved the piano lesson to 5pm on Thursdays from next week. Practise the Chopin nocturne."),
    ("passport", "Passport renewal", "The passport renewal needs two photos, the old passport and the form PA-12 signed by a witness."),
    ("parking", "Parking permit", "Residents' parking permit for this year is 84 euros, paid at the town hall before the end of January."),
    ("wifi", "Guest wifi", "The guest wifi network is called Lighthouse and the password is sardine-47."),
    ("bike-lock", "Bike lock", "The code of the blue bike lock is 3971."),
    ("plumber", "Plumber", "The plumber who fixed the boiler is Anton Varga, phone 0612 448 930."),
    ("bin", "Bins", "Green bin for garden waste goes out every second Monday; the black bin on Fridays."),
    ("gym", "Gym membership", "Signed up at FitHub on Canal Street, 32 euros a month, cancel with one month's notice."),
    ("wine", "Wine for Ana", "Ana liked the Albariño from Rías Baixas at dinner, the bottle with the blue label."),
    ("locker", "Work locker", "My locker at the office is number 214 on the second floor."),
    ("insurance", "Car insurance", "Car insurance policy number is KX-5521-88 with Allianz, renews in March."),
    ("vet", "Miso at the vet", "The vet said Miso weighs 4.6 kg and should eat the kidney diet food from now on."),
    ("mortgage", "Mortgage", "The fixed mortgage rate is 3.1% until 2029, then it follows the Euribor."),
    ("tyres", "Winter tyres", "The winter tyres are stored at the Autohaus Brandt garage, rack 17."),
    ("school", "School run", "Lily's school starts at 8:40 and the gate closes at 8:50."),
    ("recipe", "Grandma's soup", "Grandma's lentil soup: 300 g red lentils, two carrots, cumin and a lemon at the end."),
    ("landlord", "Landlord", "The landlord, Mr. Dubois, wants the rent paid by the 3rd of each month to the account ending 0917."),
    ("library", "Library card", "My library card number is 22871 and the fine is 20 cents a day per book."),
    ("doctor", "Blood test", "Dr. Haddad said the cholesterol was 5.8 and to repeat the blood test in six months."),
    ("shoes", "Running shoes", "I bought the Brooks Ghost running shoes in size 43, they fit better than the 42."),
    ("flight", "Lisbon flight", "Flight TP1337 to Lisbon leaves from terminal 2, seat 14C, bag drop closes 45 minutes before."),
    ("neighbour", "Neighbour's keys", "Our spare keys are with the neighbour at number 12, Mrs. Okonkwo."),
    ("printer", "Printer ink", "The office printer takes HP 305 XL cartridges; the black one lasts about a month."),
    ("choir", "Choir", "Choir rehearsals are on Wednesdays at 7:30pm in the St. Mary's church hall."),
    # dates
    ("dentist", "Dentist", "Dentist check-up with Dr. Okafor on 14 December at 9:30."),
    ("mot", "Car MOT", "The car's MOT test is booked for 9 January at the Kwik garage."),
    ("wedding", "Sara's wedding", "Sara and Tom's wedding is on 20 June in Porto; RSVP by 1 March."),
    ("tax", "Tax return", "The tax return must be filed by 31 January; the accountant wants the receipts a week before."),
    ("concert", "Concert tickets", "Tickets for the Radiohead concert: 18 April at the Ziggo Dome, doors at 7pm."),
    ("lease", "Flat lease", "The lease of the flat ends on 30 September; give notice three months before."),
    ("vaccine", "Flu jab", "Flu vaccination at the pharmacy on 5 December at 4pm."),
    ("exam", "Driving test", "My driving test is on 22 February at 10:15 at the Elm Road centre."),
    ("mum", "Mum's birthday", "Mum's 60th birthday is on 11 March; the family dinner is at Casa Lúcio."),
    ("warranty", "Laptop warranty", "The laptop's warranty runs out on 15 August; the receipt is in the blue folder."),
    ("move", "Moving day", "The removal van comes on 28 November at 8am."),
    ("visa", "Visa", "The visa appointment at the embassy is on 3 February at 11:00."),
    # sums: two or three notes each
    ("car1", "Brake pads", "Garage bill for the car: new brake pads, 240 euros."),
    ("car2", "Car test", "Paid 55 euros for the car's inspection test."),
    ("holiday1", "Cornwall cottage", "Holiday cottage in Cornwall booked: 620 pounds for the week."),
    ("holiday2", "Cornwall train", "Train tickets to Cornwall for the holiday: 140 pounds return."),
    ("holiday3", "Cornwall car hire", "Car hire in Cornwall for the holiday: 95 pounds."),
    ("party1", "Party cake", "Ordered the birthday party cake for Leo: 45 euros."),
    ("party2", "Party room", "Rented the room for Leo's birthday party: 120 euros."),
    ("kitchen1", "Kitchen tiles", "Kitchen renovation: the tiles cost 780 euros."),
    ("kitchen2", "Kitchen tiler", "Kitchen renovation: the tiler charged 1,150 euros for the work."),
    ("kitchen3", "Kitchen tap", "Kitchen renovation: new mixer tap, 160 euros."),
    ("bills1", "Electricity bill", "November electricity bill: 86 euros."),
    ("bills2", "Gas bill", "November gas bill: 112 euros."),
    ("books1", "Textbooks", "Bought the statistics textbook for the course: 62 euros."),
    ("books2", "Course fee", "Paid the evening course fee for statistics: 350 euros."),
    ("dog1", "Dog food", "Bought dog food for Bruno: 38 euros."),
    ("dog2", "Dog groomer", "Bruno at the dog groomer: 50 euros."),
    ("dog3", "Dog vet", "Bruno's vaccination at the vet: 72 euros."),
    ("gift1", "Gift for Dad", "Christmas gift for Dad: a wool scarf, 35 euros."),
    ("gift2", "Gift for Ana", "Christmas gift for Ana: a book on ceramics, 28 euros."),
    ("move1", "Removal van", "The removal van for the move costs 390 euros."),
    ("move2", "Moving boxes", "Moving boxes and tape for the move: 44 euros."),
    # two notes that make the near misses near
    ("guitar-shop", "Guitar strings", "Bought new strings for my old guitar at the music shop; the guitar needs a new bridge too."),
    ("cat-food", "Miso's food", "Miso likes the salmon pouches; buy a box of 24 next time."),
    ("sister", "Visit to Emma", "Visited my sister Emma in Leeds; her new flat is near the station."),
]

DATE = ["{d} {m}", "{m} {d}", "{d}th {m}", "{d}st {m}", "{d}nd {m}", "{d}rd {m}", "{m} {d}th", "{m} {d}st", "{m} {d}nd", "{m} {d}rd", "{d} {mm}", "{mm} {d}"]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]


def day(d, month):
    m = MONTHS[month - 1]
    forms = [f.format(d=d, m=m, mm=m[:3]) for f in DATE]
    return forms + [f"2026-{month:02d}-{d:02d}", f"2027-{month:02d}-{d:02d}", f"{d:02d}/{month:02d}", f"{d}/{month}"]


# (kind, question, notes holding the answer, accepted answers)
QUESTIONS = [
    ("fact", "When is the piano lesson now?", ["piano"], ["5pm", "5 pm", "17:00", "five"]),
    ("fact", "Which documents does the passport renewal need?", ["passport"], ["pa-12"]),
    ("fact", "How much is the parking permit this year?", ["parking"], ["84"]),
    ("fact", "What is the guest wifi password?", ["wifi"], ["sardine-47", "sardine47", "sardine 47"]),
    ("fact", "What is the code of the bike lock?", ["bike-lock"], ["3971"]),
    ("fact", "What is the plumber's phone number?", ["plumber"], ["0612 448 930", "0612448930"]),
    ("fact", "On which day does the black bin go out?", ["bin"], ["friday"]),
    ("fact", "How much does the gym cost a month?", ["gym"], ["32"]),
    ("fact", "Which wine did Ana like?", ["wine"], ["albariño", "albarino"]),
    ("fact", "What is my locker number at the office?", ["locker"], ["214"]),
    ("fact", "What is my car insurance policy number?", ["insurance"], ["kx-5521-88", "kx552188"]),
    ("fact", "How much does Miso weigh?", ["vet"], ["4.6"]),
    ("fact", "What is the fixed mortgage rate?", ["mortgage"], ["3.1"]),
    ("fact", "Where are the winter tyres stored?", ["tyres"], ["brandt"]),
    ("fact", "What time does Lily's school start?", ["school"], ["8:40", "8.40"]),
    ("fact", "How many grams of lentils go in grandma's soup?", ["recipe"], ["300"]),
    ("fact", "By which day of the month must the rent be paid?", ["landlord"], ["3rd", "3 ", "third"]),
    ("fact", "What is my library card number?", ["library"], ["22871"]),
    ("fact", "What was my cholesterol at the blood test?", ["doctor"], ["5.8"]),
    ("fact", "What size are my running shoes?", ["shoes"], ["43"]),
    ("fact", "What is my seat on the Lisbon flight?", ["flight"], ["14c"]),
    ("fact", "Who has our spare keys?", ["neighbour"], ["okonkwo", "number 12", "neighbour"]),
    ("fact", "Which cartridges does the office printer take?", ["printer"], ["305"]),
    ("fact", "Where are the choir rehearsals?", ["choir"], ["st. mary", "st mary", "saint mary"]),
    ("date", "When is my dentist appointment?", ["dentist"], day(14, 12)),
    ("date", "When is the car's MOT test?", ["mot"], day(9, 1)),
    ("date", "When is Sara and Tom's wedding?", ["wedding"], day(20, 6)),
    ("date", "By when must the tax return be filed?", ["tax"], day(31, 1)),
    ("date", "When is the Radiohead concert?", ["concert"], day(18, 4)),
    ("date", "When does the lease of the flat end?", ["lease"], day(30, 9)),
    ("date", "When is my flu vaccination?", ["vaccine"], day(5, 12)),
    ("date", "When is my driving test?", ["exam"], day(22, 2)),
    ("date", "When is Mum's 60th birthday?", ["mum"], day(11, 3)),
    ("date", "When does the laptop's warranty run out?", ["warranty"], day(15, 8)),
    ("date", "When does the removal van come?", ["move"], day(28, 11)),
    ("date", "When is the visa appointment?", ["visa"], day(3, 2)),
    ("sum", "How much did I spend on the car in total?", ["car1", "car2"], ["295"]),
    ("sum", "How much does the Cornwall holiday cost in total?", ["holiday1", "holiday2", "holiday3"], ["855"]),
    ("sum", "How much did Leo's birthday party cost altogether?", ["party1", "party2"], ["165"]),
    ("sum", "What did the kitchen renovation cost in total?", ["kitchen1", "kitchen2", "kitchen3"], ["2,090", "2090", "2 090"]),
    ("sum", "How much were the November electricity and gas bills together?", ["bills1", "bills2"], ["198"]),
    ("sum", "How much did the statistics course cost me with the textbook?", ["books1", "books2"], ["412"]),
    ("sum", "How much have I spent on Bruno the dog in total?", ["dog1", "dog2", "dog3"], ["160"]),
    ("sum", "How much did the Christmas gifts for Dad and Ana cost together?", ["gift1", "gift2"], ["63"]),
    ("sum", "What does the move cost with the van and the boxes?", ["move1", "move2"], ["434"]),
    ("sum", "How much do the gym and the parking permit cost together for one month of gym?", ["gym", "parking"], ["116"]),
    ("sum", "How much did the car's brake pads and the Cornwall car hire cost together?", ["car1", "holiday3"], ["240 euros and 95", "335"]),
    ("sum", "What do the Cornwall cottage and train cost together?", ["holiday1", "holiday2"], ["760"]),
    ("none", "When is the guitar lesson?", [], []),
    ("none", "What is my sister's shoe size?", [], []),
    ("none", "How much does Miso's cat insurance cost?", [], []),
    ("none", "What is the password of the office wifi?", [], []),
    ("none", "When is my next haircut?", [], []),
    ("none", "What is the code of the garage door?", [], []),
    ("none", "How much was the boat trip in Lisbon?", [], []),
    ("none", "What is Ana's phone number?", [], []),
    ("none", "When does the swimming pool open on Sundays?", [], []),
    ("none", "What is my bank's IBAN?", [], []),
    ("none", "When is Dad's birthday?", [], []),
    ("none", "How much did the new sofa cost?", [], []),
    ("none", "Which hotel did we book in Rome?", [], []),
    ("none", "What is the name of Lily's teacher?", [], []),
    ("none", "When is the electrician coming?", [], []),
    ("none", "What size is the bedroom window?", [], []),
    ("none", "How many vacation days do I have left?", [], []),
    ("none", "What is the plate number of my car?", [], []),
    ("none", "When is the choir concert?", [], []),
    ("none", "Which dentist did Emma recommend?", [], []),
    ("none", "How much is the guitar bridge repair?", [], []),
    ("none", "What is the wifi password at Mum's house?", [], []),
    ("none", "When does the flight back from Lisbon leave?", [], []),
    ("none", "How much does Bruno weigh?", [], []),
    ("none", "What did the doctor say about my blood pressure?", [], []),
    ("none", "When is the next parents' evening?", [], []),
]


def held_out(question):
    return hashlib.sha256(question.encode()).hexdigest()[0] < "6"


def main():
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "notes"), exist_ok=True)
    rng = random.Random(17)
    keys = {}
    texts = [(title, body) for _, title, body in NOTES] + [(text.split(",")[0][:60], text) for text in distractors(300 - len(NOTES))]
    assert len(texts) == 300
    order = list(range(len(texts)))
    rng.shuffle(order)
    for position, index in enumerate(order):
        title, body = texts[index]
        created = f"2026-11-{rng.randint(1, 28):02d}T{rng.randint(7, 22):02d}:{rng.randint(0, 59):02d}:00Z"
        name = f"note-{position:03d}.md"
        with open(os.path.join(out, "notes", name), "w") as handle:
            handle.write(f"---\ntitle: {json.dumps(title, ensure_ascii=False)}\ncreated: {created}\nupdated: {created}\n---\n{body}\n")
        if index < len(NOTES):
            keys[NOTES[index][0]] = {"file": name, "title": title}
    questions = []
    for kind, question, holders, answers in QUESTIONS:
        for key in holders:
            assert key in keys, key
        questions.append({"kind": kind, "question": question, "notes": [keys[k]["title"] for k in holders],
                          "answers": answers, "held_out": held_out(question)})
    with open(os.path.join(out, "questions.json"), "w") as handle:
        json.dump({"notes": len(texts), "questions": questions}, handle, indent=1, ensure_ascii=False)
    counts = {k: sum(q["kind"] == k for q in questions) for k in ("fact", "date", "sum", "none")}
    print(f"{len(texts)} notes, {len(questions)} questions {counts}, {sum(q['held_out'] for q in questions)} held out", file=sys.stderr)


if __name__ == "__main__":
    main()
