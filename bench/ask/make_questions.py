#!/usr/bin/env python3
"""Writes the `notes ask` benchmark: a notebook of 300 Markdown notes and 201 questions over it.

    make_questions.py DIR      -> DIR/notes/*.md and DIR/questions.json

Eight kinds of question ("kind"):
  fact      a fact in one note (40)
  date      a day in one note (22)
  sum       a total over two to four notes (22)
  count     how many notes tell of something in a time ("how many takeaways last month?") (10)
  lang      a question in Greek, Finnish or Polish ("language": "el", "fi", "pl"), over notes in
            that language or in English ("over"), asked like one of the other kinds ("like");
            (26, 6 of them unanswerable)
  followup  a conversation of two turns ("turns": [{question, notes, answers}, ...]), the second
            depending on the first ("And the one before that?"); the
            last turn is scored, and the top level holds the first turn's question and the last
            turn's notes and answers (11, one in Polish)
  days      how many days (or weeks) until a day a note states, or since one, counted from the
            bench's today, 2026-12-01 ("how many days until...?", "how long ago did I...?"); the
            answer is the number of days, and for a question in weeks the whole weeks too (14,
            4 of them in Greek, Finnish or Polish, with "language" and "over" as for lang)
  none      questions the notes cannot answer (56): near misses, where the notes speak of the thing
            but not of what is asked (the guitar lesson when the notes have the piano lesson, the
            seat on the Kraków flight when only the Lisbon one has a seat), and subjects the
            notebook never mentions.
Each answerable question lists the titles of the notes that hold its answer and the strings an
answer must contain (any one of them, case and spaces ignored); in another language, the answer
is accepted in that language or in English (numbers, names, dates). Every question has a
"language" ("en" for English).

The first 74 questions (fact, date, sum, none) and their 60 notes are those of the first version
of the bench, unchanged, and so are their note files and days. The 113 added are mostly in the
user's words rather than the note's ("what do I owe the tiler" when the note says what he charged),
as people ask, over 83 notes added for them: everyday English notes, logs written on their days
(gym, runs, late trains, takeaways...), three long ones (a review meeting, a residents' meeting,
a diary entry) where the answer is one sentence among many, and notes in Greek, Finnish and
Polish. The other 157 notes are bench/search's seeded filler (work, study, reading, films,
language practice): 300 notes in all, the same on every run. A question is held out (never
looked at while tuning the prompt or tools) when the first hex digit of its text's SHA-256 is
below 6 (for a followup, its first turn's text): 69 of the 201.
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

# The notes of the first 74 questions; the filler notes come after them and the notes added below
# after the filler, so that those notes and the filler kept have the files and days they had.
FIRST_NOTES = len(NOTES)

# Added for the paraphrase, near-miss, count, other-language and follow-up questions below. A
# fourth field, when there, is the day the note was written (the notes of a log: gym, runs, late
# trains...); the others are written on a November day drawn as before.
NOTES += [
    ("sleep", "Sleep plan", "Sleep plan from the sleep clinic, week 3: lights out by 22:30, no screens after 21:45, bedroom at 17°C with the window shut, up at 6:45 even at weekends, no coffee after 2pm. Keep the sleep diary going until the follow-up."),
    ("smoke", "Smoke alarms", "The housing corporation's inspector checks the smoke alarms on 9 December, some time between 8 and 12; someone has to be home. Reference WB-77810."),
    ("glasses", "New glasses", "Eye test at Pearle: left eye -1.75, right eye -2.00, a little astigmatism on the left. Chose the tortoiseshell frames; ready to pick up on 8 December at the shop in the Stadshart."),
    ("babysitter", "Babysitter", "Chloe from number 31 babysits on weekday evenings: 12 euros an hour, and she needs walking home after 11pm. Her mobile is 0643 918 226."),
    ("sit-1", "Chloe, 6 Nov", "Chloe babysat from 7 to 11 while we were at the school quiz: 4 hours.", "2026-11-06"),
    ("sit-2", "Chloe, 13 Nov", "Chloe looked after the kids from 6pm to 11pm, 5 hours; Leo was asleep by eight.", "2026-11-13"),
    ("sit-3", "Chloe, 27 Nov", "Chloe here from 8 to 11 for the work dinner, 3 hours. Nothing paid yet for November.", "2026-11-27"),
    ("allotment", "Allotment", "Allotment plot 23 at Hill Lane. The water is off from November to March. The yearly rent of 45 euros is due on 1 April. The key to the shed is under the blue pot by the compost heap."),
    ("review", "Year-end review with Priya",
     "Year-end review with Priya, in the small room on the fourth floor. She started with the Borealis launch: the customer numbers were good, "
     "but the release slipped by three weeks and she wants the planning to be more honest next year. Feedback from the team was mostly kind; "
     "two people said I interrupt in design reviews, which is fair. We talked about the on-call rota and agreed I drop to one week in six from "
     "February. The good news: my salary goes up 4% from 1 January, and the title changes to senior engineer at the same time. The bonus pool is "
     "only decided in February, so no figure yet. For next year she wants me to lead the Cobalt migration and to mentor the two new graduates, "
     "Sam and Ines. I asked about the conference in Berlin; she said yes if the money allows, and my training budget for next year is 1,200 euros. "
     "I should send her my goals by 11 December, three or four at most, with something measurable for each. We also discussed working from home: "
     "two office days a week stays, Tuesdays and Thursdays. Next check-in in March. I left feeling better than I expected, though the comment "
     "about interrupting stung a bit.", "2026-11-24"),
    ("krakow", "Kraków flights", "Wizz Air W6 1308 from Eindhoven to Kraków on 19 December at 07:05, back on 3 January at 18:40. 89 euros return, one cabin bag each."),
    ("krakow-hotel", "Kraków hotel", "Hotel Wawel Garden for the first two nights in Kraków (19 to 21 December): 140 euros, paid in advance. After that we stay at Marta's."),
    ("inhaler", "Inhaler", "Repeat prescription for the blue Ventolin inhaler: order it in the surgery's app, then it is ready after 48 hours at the pharmacy on Kerkstraat."),
    ("physio", "Physio for the knee", "Physio with Jonas for the knee: three sessions booked, Tuesdays at 7:15am. Exercises: wall sits 3 × 30 seconds, step-downs 15 on each leg. 45 euros a session; the insurance pays back 60%."),
    ("residents", "Residents' association, November meeting",
     "Residents' association meeting in the basement hall, about thirty people. First the lift: the repair firm finally has the part, and the "
     "lift will be out of service from 18 January for about a week, so the people on the top floors asked for help with shopping. Then the "
     "accounts: heating and cleaning went up, and the yearly service charge will rise from 1,180 to 1,340 euros from January; several people "
     "complained but it passed. The bike shed in the courtyard gets a new roof in spring, with twelve more racks. The caretaker, Mr. Petrov, now "
     "works mornings only, 7 to 12, and the emergency number is on the board by the mailboxes. The Christmas drinks are on 12 December in the "
     "hall, bring something to eat. Someone asked about painting the stairwell; it goes on the list for next year, again. Next meeting: "
     "14 January, same place. I volunteered to help with the newsletter, which I may regret.", "2026-11-18"),
    ("diary", "Sunday 22 November",
     "Slow Sunday. Lily lost her first tooth at breakfast, the bottom front one, and spent the morning showing it to everyone; the tooth fairy "
     "left two euros and a tiny note. Leo refused his porridge, then ate two bowls of it. In the afternoon we walked along the canal to the lock "
     "and back, about six kilometres; the café at the lock has changed hands and the new owners make proper cinnamon buns. Called Mum: she is "
     "nervous about the hip appointment in January but won't say the date; Dad is fine, still fixing the shed. Tom rang to say the garage on "
     "Mill Road was cheaper than ours for a service, worth trying next time. Bought a new kettle at the market, 29 euros, the old one had "
     "started to smell. Evening: finished the jigsaw, two pieces missing, of course. Must remember to order Lily's school photos before Friday.", "2026-11-22"),
    ("xmas-turkey", "Butcher order", "Turkey crown ordered at Hendriks the butcher: 48 euros, to pick up on 23 December after 10am."),
    ("xmas-wine", "Wine for Christmas", "Six bottles of Rioja for Christmas dinner from the wine shop on the corner: 54 euros."),
    ("xmas-veg", "Christmas veg box", "Organic veg box for Christmas week, sprouts and parsnips included: 27 euros."),
    ("wedding-gift", "Wedding present", "Gift for Sara and Tom from their wedding list: the Le Creuset casserole, 210 euros, sent to their address."),
    ("wedding-suit", "Suit hire", "Hired a navy suit for Sara's wedding: 85 euros, to collect on 18 June."),
    ("wedding-hotel", "Porto hotel", "Hotel in Porto for the wedding weekend, two nights: 260 euros, free cancellation until May."),
    ("desk", "Standing desk", "Bought the standing desk from IKEA for the home office: 329 euros."),
    ("chair", "Office chair", "Second-hand Aeron chair off Marktplaats: 250 euros, picked up in Utrecht."),
    ("monitor", "Monitor", "27-inch Dell monitor for working from home: 289 euros; work pays back half."),
    ("netflix", "Netflix", "Netflix went up again: 13.99 a month from December."),
    ("spotify", "Spotify", "Spotify family plan, 17.99 a month, shared with Emma."),
    ("icloud", "iCloud", "Upgraded iCloud to 200 GB for the photos: 2.99 a month."),
    ("bike-chain", "Bike service", "Bike shop: new chain and cassette, 64 euros."),
    ("bike-tyres", "Bike tyres", "Two Schwalbe Marathon tyres for the bike: 58 euros, fitted them myself."),
    ("take-0", "Indian takeaway", "Wednesday 28 October: Tandoori Nights delivered, 34 euros, far too much naan.", "2026-10-28"),
    ("take-1", "Thai takeaway", "Friday 6 November: Thai from Baan Thai, 31 euros for the four of us.", "2026-11-06"),
    ("take-2", "Pizza night", "Saturday 14 November: pizza from Da Michele, picked up on the way home, 26 euros.", "2026-11-14"),
    ("take-3", "Sushi delivery", "Saturday 21 November: sushi delivered from Sumo, 38 euros; the salmon rolls were the best.", "2026-11-21"),
    ("run-0", "Run 31 Oct", "Easy 6 km along the river, 34 minutes.", "2026-10-31"),
    ("run-1", "Run 8 Nov", "5 km park run in 26:40, knees fine.", "2026-11-08"),
    ("run-2", "Run 15 Nov", "8 km in the rain, slow, 47 minutes.", "2026-11-15"),
    ("run-3", "Run 22 Nov", "Long run: 10.5 km to the lake and back in 1:02.", "2026-11-22"),
    ("gym-0", "Back at the gym", "29 October, first time at FitHub in weeks: 20 minutes on the bike and stretching.", "2026-10-29"),
    ("gym-1", "Leg day", "3 November at FitHub: squats 5 × 5 at 70 kg, lunges, calf raises.", "2026-11-03"),
    ("gym-2", "Upper body", "10 November, FitHub: bench press 4 × 8 at 50 kg, rows, pull-ups.", "2026-11-10"),
    ("gym-3", "Cardio session", "19 November: 30 minutes on the rowing machine at FitHub, then the sauna.", "2026-11-19"),
    ("gym-4", "Leg day again", "26 November at FitHub: squats 5 × 5 at 75 kg, a new best.", "2026-11-26"),
    ("train-1", "Late train 4 Nov", "The 7:52 to Utrecht was 25 minutes late, missed the stand-up.", "2026-11-04"),
    ("train-2", "Late train 12 Nov", "Train 10 minutes late again, points failure at Amersfoort.", "2026-11-12"),
    ("train-3", "Late train 20 Nov", "15 minutes late this morning; claim the delay refund.", "2026-11-20"),
    ("train-4", "Late train 24 Nov", "40 minutes late, signal failure; worked from the café at the station.", "2026-11-24"),
    ("migraine-1", "Migraine 6 Nov", "Migraine from 2pm, took ibuprofen and lay down in the dark; gone by the evening.", "2026-11-06"),
    ("migraine-2", "Headache 14 Nov", "Another migraine, woke up with it, behind the left eye, queasy all morning.", "2026-11-14"),
    ("migraine-3", "Headache 25 Nov", "Migraine after a long day at the screen; the sleep clinic may be right about screens.", "2026-11-25"),
    ("lily-sick-1", "Lily off school", "Lily stayed home from school with a cold on 2 October; emailed the office.", "2026-10-02"),
    ("lily-sick-2", "Lily's fever", "Lily home with a fever of 38.9 on 19 November, no school.", "2026-11-19"),
    ("lily-sick-3", "Lily still ill", "Lily still poorly on 20 November, kept her home again.", "2026-11-20"),
    ("blood-1", "Gave blood", "Blood donation at Sanquin on 12 March; haemoglobin fine, next one in three months.", "2026-03-12"),
    ("blood-2", "Blood donation", "Gave blood again at Sanquin on 18 June; felt dizzy after, drink more water first.", "2026-06-18"),
    ("blood-3", "Sanquin", "Donated at Sanquin on 1 October, they gave me a pin.", "2026-10-01"),
    ("job-1", "Application: Mollie", "Applied to Mollie for the backend engineer role on 7 November; cover letter v3.", "2026-11-07"),
    ("job-2", "Application: Adyen", "Applied to Adyen, platform engineer, on 12 November. The recruiter is called Femke.", "2026-11-12"),
    ("job-3", "Application: Booking.com", "Sent my CV to Booking.com for the data engineer opening on 16 November.", "2026-11-16"),
    ("job-4", "Application: Picnic", "Applied at Picnic for the Python developer job on 21 November.", "2026-11-21"),
    ("interview", "Interview at Mollie", "Mollie invited me to a first interview on 3 December at 14:00, a video call with the hiring manager, Joost. Prepare the system design story.", "2026-11-25"),
    ("emma-2", "Leeds weekend", "Weekend at Emma's in Leeds, 11 and 12 April: the Royal Armouries and far too much curry.", "2026-04-12"),
    ("emma-3", "Emma's 40th", "Flew to Leeds for Emma's 40th birthday on 18 July; her friends put on a ceilidh.", "2026-07-19"),
    ("ballet", "Lily's ballet", "Lily's ballet at Studio Pirouette, Saturdays at 10: 96 euros for the autumn term."),
    ("football", "Lily's football", "Lily joined the football club: 40 euros for the term plus 25 for the kit."),
    ("school-trip", "Museum trip", "Lily's class goes to the science museum on 4 December; 18 euros and the signed consent form by Monday."),
    # Greek
    ("el-giagia", "Γενέθλια γιαγιάς", "Η γιαγιά Ελένη κλείνει τα 85 στις 17 Ιανουαρίου. Θέλει ένα μάλλινο κασκόλ, όχι λουλούδια. Να της τηλεφωνήσω νωρίς το πρωί."),
    ("el-moussakas", "Μουσακάς της μαμάς", "Ο μουσακάς της μαμάς: 3 μελιτζάνες, μισό κιλό κιμά, μπεσαμέλ με 2 αυγά. Στον φούρνο 45 λεπτά στους 180 βαθμούς, και μισή ώρα να σταθεί πριν τον κόψεις."),
    ("el-train", "Θεσσαλονίκη: τρένο", "Εισιτήρια τρένου Αθήνα – Θεσσαλονίκη για το Πάσχα, με επιστροφή: 64 ευρώ."),
    ("el-hotel", "Θεσσαλονίκη: ξενοδοχείο", "Ξενοδοχείο Electra Palace στη Θεσσαλονίκη, δύο νύχτες το Πάσχα: 150 ευρώ."),
    ("el-heating", "Κοινόχρηστα μαμάς", "Ο διαχειριστής της πολυκατοικίας της μαμάς, ο κ. Παπαδόπουλος, ζητάει 420 ευρώ για το πετρέλαιο θέρμανσης του χειμώνα, να πληρωθούν ως τις 15 Δεκεμβρίου."),
    # Finnish
    ("fi-mokki", "Mökkiviikonloppu", "Mökki Saimaan rannalla varattu 12.–14. helmikuuta Villen ja Sannan kanssa. Avain on saunan ikkunalaudalla kukkaruukun alla. Vuokra 380 euroa, jaetaan kolmeen osaan."),
    ("fi-neuvola", "Leon neuvola", "Leon neuvola-aika torstaina 10.12. klo 14.15, terveydenhoitaja Riikka Laine. Rokotukset ja mittaukset, neuvolakortti mukaan."),
    ("fi-lahja1", "Joululahja Mummille", "Mummille villasukat ja Pauligin kahvia, yhteensä 32 euroa."),
    ("fi-lahja2", "Joululahja Eetulle", "Eetulle Lego-setti, 45 euroa, paketoitu jo."),
    ("fi-sulka0", "Sulkapallo 28.10.", "Syksyn ensimmäinen sulkapallovuoro Jannen kanssa, Janne voitti.", "2026-10-28"),
    ("fi-sulka1", "Sulkapallo 4.11.", "Sulkapalloa Jannen kanssa, hävisin 2–1.", "2026-11-04"),
    ("fi-sulka2", "Sulkapallo 18.11.", "Sulkapallo Jannen kanssa, voitin molemmat erät!", "2026-11-18"),
    ("fi-sulka3", "Sulkapallo 25.11.", "Sulkapalloa taas, polvi vähän kipeä jälkeenpäin.", "2026-11-25"),
    # Polish
    ("pl-marta", "Mieszkanie Marty", "Marta mieszka na ul. Długiej 14/6 w Krakowie. Kod do klatki: 2580. Jeśli jej nie będzie, klucze zostawi u pani Zofii z parteru."),
    ("pl-lekcje", "Lekcje polskiego", "Polski z panią Anną we wtorki o 18:00 na Zoomie, 60 zł za lekcję. Na następny raz: ćwiczenia 3–5 z rozdziału o aspekcie."),
    ("pl-prezent1", "Prezent dla Marty", "Dla Marty: szalik i czekoladki Wedla, razem 120 zł."),
    ("pl-prezent2", "Kwiaty dla mamy Marty", "Bukiet dla mamy Marty na Wigilię: 85 zł."),
    ("pl-wigilia", "Wigilia w Tarnowie", "Wigilia u rodziców Marty w Tarnowie, 24 grudnia. Pociąg z Krakowa o 14:10, przywieźć makowiec i wino. Kolację zaczynamy, kiedy pojawi się pierwsza gwiazdka."),
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

# Dates as the other languages write them, with the English forms (a date is accepted in either).
MONTHS_EL = ["ιανουαρίου", "φεβρουαρίου", "μαρτίου", "απριλίου", "μαΐου", "ιουνίου", "ιουλίου", "αυγούστου", "σεπτεμβρίου", "οκτωβρίου", "νοεμβρίου", "δεκεμβρίου"]
MONTHS_FI = ["tammikuu", "helmikuu", "maaliskuu", "huhtikuu", "toukokuu", "kesäkuu", "heinäkuu", "elokuu", "syyskuu", "lokakuu", "marraskuu", "joulukuu"]
MONTHS_PL = ["stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września", "października", "listopada", "grudnia"]
UNACCENTED = str.maketrans("άέήίόύώϊΐϋΰ", "αεηιουωιιυυ")


def day_in(language, d, month):
    forms = day(d, month) + [f"{d}.{month}.", f"{d}.{month:02d}."]
    if language == "el":
        m = MONTHS_EL[month - 1]
        forms += [f"{d} {m}", f"{d} {m.translate(UNACCENTED)}", f"{d} {m[:3]}"]
    if language == "fi":
        m = MONTHS_FI[month - 1]
        forms += [f"{d}. {m}ta", f"{d} {m}ta", f"{m}n {d}"]
    if language == "pl":
        m = MONTHS_PL[month - 1]
        forms += [f"{d} {m}", f"{d}.{month:02d}", f"{d}.{month}"]
    return forms


NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}


def times(n, *nouns):
    """A count: "N times" or N followed by one of `nouns`, or the number in words."""
    return [f"{n} times", f"{n}x", NUMBER_WORDS[n]] + [f"{n} {noun}" for noun in nouns]


# Added: questions mostly in the user's words rather than the note's ("what do I owe the tiler"
# when the note says what he charged), as people ask; counts over several notes ("count"); near
# misses of the notes added above ("none"); questions in Greek, Finnish and Polish (LANG) and
# conversations (FOLLOWUPS) below.
QUESTIONS += [
    ("fact", "What time am I seeing the tooth doctor?", ["dentist"], ["9:30", "9.30", "half past nine"]),
    ("fact", "How cold should I keep the room I sleep in?", ["sleep"], ["17"]),
    ("fact", "What do I owe the tiler?", ["kitchen2"], ["1,150", "1150", "1 150", "1.150"]),
    ("fact", "What's our guest network called?", ["wifi"], ["lighthouse"]),
    ("fact", "Who do I call when the boiler plays up?", ["plumber"], ["varga", "0612 448 930", "0612448930"]),
    ("fact", "What pay rise am I getting next year?", ["review"], ["4%", "4 %", "4 percent", "4 per cent", "four percent", "four per cent"]),
    ("fact", "How much can I spend on courses and conferences next year?", ["review"], ["1,200", "1200", "1 200", "1.200"]),
    ("fact", "Where do I collect my puffer?", ["inhaler"], ["kerkstraat"]),
    ("fact", "What does the sitter charge an hour?", ["babysitter"], ["12"]),
    ("fact", "How strong is the lens for my right eye?", ["glasses"], ["-2.00", "-2.0", "−2", "minus 2", "-2,0"]),
    ("fact", "What did the tooth fairy bring Lily?", ["diary"], ["two euros", "2 euros", "€2", "2 euro", "two euro", "2€"]),
    ("fact", "How much will the building charge me a year from January?", ["residents"], ["1,340", "1340", "1 340", "1.340"]),
    ("fact", "When is the caretaker around?", ["residents"], ["7 to 12", "7-12", "7 and 12", "7am", "7:00", "7 till 12", "7 until 12", "7 to noon", "mornings"]),
    ("fact", "Where do I find the key to the garden shed?", ["allotment"], ["blue pot"]),
    ("fact", "What did I pay for the new kettle?", ["diary"], ["29"]),
    ("fact", "How much is each appointment for my knee?", ["physio"], ["45"]),
    ("date", "When is someone coming to check the fire alarms?", ["smoke"], day(9, 12)),
    ("date", "When can I collect my new specs?", ["glasses"], day(8, 12)),
    ("date", "When do I fly to Poland?", ["krakow"], day(19, 12)),
    ("date", "When do I pick up the bird for Christmas dinner?", ["xmas-turkey"], day(23, 12)),
    ("date", "When is my job interview?", ["interview"], day(3, 12)),
    ("date", "When is the lift out of action?", ["residents"], day(18, 1)),
    ("date", "By when should I give notice on the flat?", ["lease"], day(30, 6) + ["end of june"]),
    ("date", "By when do I owe Priya my goals?", ["review"], day(11, 12)),
    ("date", "What day is Lily's class outing?", ["school-trip"], day(4, 12)),
    ("date", "When do the residents meet next?", ["residents"], day(14, 1)),
    ("sum", "What's Christmas dinner costing so far?", ["xmas-turkey", "xmas-wine", "xmas-veg"], ["129"]),
    ("sum", "All told, what is Sara's wedding costing me?", ["wedding-gift", "wedding-suit", "wedding-hotel"], ["555"]),
    ("sum", "How much have I sunk into the home office?", ["desk", "chair", "monitor"], ["868", "723.5", "723,5"]),
    ("sum", "What do my monthly subscriptions come to?", ["netflix", "spotify", "icloud"], ["34.97", "34,97"]),
    ("sum", "What has fixing up my bike cost me?", ["bike-chain", "bike-tyres"], ["122"]),
    ("sum", "What did takeaways cost me last month?", ["take-1", "take-2", "take-3"], ["95"]),
    ("sum", "How far did I run in total last month?", ["run-1", "run-2", "run-3"], ["23.5", "23,5", "23½"]),
    ("sum", "What do I owe Chloe for November?", ["sit-1", "sit-2", "sit-3", "babysitter"], ["144"]),
    ("sum", "What's the Poland trip costing me so far?", ["krakow", "krakow-hotel"], ["229"]),
    ("sum", "What have Lily's after-school clubs cost this term?", ["ballet", "football"], ["161"]),
    ("count", "How many gym sessions did I do last month?", ["gym-1", "gym-2", "gym-3", "gym-4"], times(4, "sessions", "visits", "workouts")),
    ("count", "How many times did my train run late last month?", ["train-1", "train-2", "train-3", "train-4"], times(4, "delays", "late")),
    ("count", "How many bad headaches did I have in November?", ["migraine-1", "migraine-2", "migraine-3"], times(3, "migraines", "headaches")),
    ("count", "How many times did I go jogging last month?", ["run-1", "run-2", "run-3"], times(3, "runs")),
    ("count", "How many evenings did Chloe babysit in November?", ["sit-1", "sit-2", "sit-3"], times(3, "evenings")),
    ("count", "How many school days has Lily missed this term?", ["lily-sick-1", "lily-sick-2", "lily-sick-3"], times(3, "days", "school days")),
    ("count", "How many times have I donated blood this year?", ["blood-1", "blood-2", "blood-3"], times(3, "donations")),
    ("count", "How many jobs have I applied for?", ["job-1", "job-2", "job-3", "job-4"], times(4, "jobs", "applications", "companies", "roles", "positions")),
    ("count", "How often have I been to see my sister this year?", ["sister", "emma-2", "emma-3"], times(3, "visits")),
    ("count", "How many takeaways did we order last month?", ["take-1", "take-2", "take-3"], times(3, "takeaways", "orders")),
    # near misses: the notes speak of the thing, not of what is asked
    ("none", "Which sleeping pills did the clinic prescribe?", [], []),
    ("none", "What's the name of the fire alarm inspector?", [], []),
    ("none", "How much did my new frames cost?", [], []),
    ("none", "When is my next eye test due?", [], []),
    ("none", "What is Chloe's surname?", [], []),
    ("none", "What's the email address of the allotment committee?", [], []),
    ("none", "How big is my bonus this year?", [], []),
    ("none", "What's the phone number of the hotel in Kraków?", [], []),
    ("none", "How many puffs a day should I take?", [], []),
    ("none", "How heavy is the turkey?", [], []),
    ("none", "What colour is the casserole we're giving Sara and Tom?", [], []),
    ("none", "How high does the standing desk go?", [], []),
    ("none", "On which day does Netflix take the money each month?", [], []),
    ("none", "What did I pay for the bike's new brakes?", [], []),
    ("none", "How far did I run in September?", [], []),
    ("none", "What's my FitHub membership number?", [], []),
    ("none", "What seat do I have on the Kraków flight?", [], []),
    ("none", "What did the doctor give Lily for her fever?", [], []),
    ("none", "What's my blood type?", [], []),
    ("none", "What salary did Adyen offer me?", [], []),
    ("none", "Who chairs the residents' association?", [], []),
    ("none", "How much is Lily's ballet costume?", [], []),
    ("none", "What did Emma cook when I was in Leeds in July?", [], []),
    ("none", "Which platform does my morning train leave from?", [], []),
    ("none", "What did the GP say about my migraines?", [], []),
    ("none", "When is Mum's hip operation?", [], []),
    ("none", "What's the new café at the lock called?", [], []),
    ("none", "What time is the next residents' meeting?", [], []),
    ("none", "What's the physio's phone number?", [], []),
    ("none", "When is Lily's next football match?", [], []),
]

# (language, asked like kind, question, notes holding the answer, accepted answers): questions in
# Greek, Finnish and Polish, over notes in that language and over English notes. An answer is
# accepted in that language or in English (numbers, names and dates in either).
LANG = [
    ("el", "date", "Πότε έχει τα γενέθλιά της η γιαγιά;", ["el-giagia"], day_in("el", 17, 1)),
    ("el", "fact", "Πόση ώρα ψήνεται το φαγητό με τις μελιτζάνες;", ["el-moussakas"], ["45"]),
    ("el", "sum", "Πόσο θα μου στοιχίσει συνολικά η εκδρομή στη Θεσσαλονίκη;", ["el-train", "el-hotel"], ["214"]),
    ("el", "fact", "Πόσα θέλει ο διαχειριστής για τη θέρμανση;", ["el-heating"], ["420"]),
    ("el", "date", "Μέχρι πότε πρέπει να πληρωθεί το πετρέλαιο;", ["el-heating"], day_in("el", 15, 12)),
    ("el", "fact", "Τι ώρα αρχίζει το σχολείο της Λίλι;", ["school"], ["8:40", "8.40"]),
    ("el", "date", "Πότε έχω ραντεβού για τη βίζα;", ["visa"], day_in("el", 3, 2)),
    ("el", "none", "Πόσο κόστισε το κασκόλ της γιαγιάς;", [], []),
    ("el", "none", "Ποιο είναι το τηλέφωνο του κ. Παπαδόπουλου;", [], []),
    ("fi", "fact", "Mistä löydän mökin avaimen?", ["fi-mokki"], ["ikkunalaud", "kukkaruu", "windowsill", "window sill", "flowerpot", "flower pot", "plant pot"]),
    ("fi", "date", "Milloin mökkireissu alkaa?", ["fi-mokki"], day_in("fi", 12, 2) + ["12.–14", "12.-14", "12–14"]),
    ("fi", "fact", "Mihin aikaan Leo saa piikin?", ["fi-neuvola"], ["14.15", "14:15", "2:15", "2.15"]),
    ("fi", "sum", "Paljonko käytin Mummin ja Eetun joululahjoihin yhteensä?", ["fi-lahja1", "fi-lahja2"], ["77"]),
    ("fi", "count", "Kuinka monta kertaa pelasin sulkista marraskuussa?", ["fi-sulka1", "fi-sulka2", "fi-sulka3"], ["3 kertaa", "3 kerta", "kolme", "3 times", "three", "3x"]),
    ("fi", "fact", "Mikä on vierasverkon salasana?", ["wifi"], ["sardine-47", "sardine47", "sardine 47"]),
    ("fi", "fact", "Milloin musta roskis viedään ulos?", ["bin"], ["perjanta", "friday"]),
    ("fi", "none", "Mikä on mökin osoite?", [], []),
    ("fi", "none", "Paljonko Leon rokotukset maksavat?", [], []),
    ("pl", "fact", "Jaki kod otwiera drzwi do bloku Marty?", ["pl-marta"], ["2580"]),
    ("pl", "fact", "Ile płacę pani Annie za jedne zajęcia?", ["pl-lekcje"], ["60"]),
    ("pl", "sum", "Ile razem kosztowały upominki dla Marty i jej mamy?", ["pl-prezent1", "pl-prezent2"], ["205"]),
    ("pl", "fact", "Jakie ciasto mam zabrać do rodziców Marty?", ["pl-wigilia"], ["makowiec", "makowca", "poppy"]),
    ("pl", "fact", "Ile płacę w tym roku za parkowanie?", ["parking"], ["84"]),
    ("pl", "date", "Kiedy mogę odebrać nowe okulary?", ["glasses"], day_in("pl", 8, 12)),
    ("pl", "none", "Na którym piętrze mieszka Marta?", [], []),
    ("pl", "none", "Ile kosztuje bilet na pociąg do Tarnowa?", [], []),
]

# Conversations: each turn after the first depends on the one before; the last is scored.
# (language, [(question, notes holding the answer, accepted answers), ...])
FOLLOWUPS = [
    ("en", [("What did I pay for the kitchen tiles?", ["kitchen1"], ["780"]),
            ("And the tap?", ["kitchen3"], ["160"])]),
    ("en", [("What time is my flight to Kraków?", ["krakow"], ["07:05", "7:05", "7.05"]),
            ("And the flight home?", ["krakow"], day(3, 1) + ["18:40", "6:40"])]),
    ("en", [("In which city is Sara getting married?", ["wedding"], ["porto"]),
            ("How much is my hotel there?", ["wedding-hotel"], ["260"])]),
    ("en", [("When did I last work out at the gym?", ["gym-4"], day(26, 11)),
            ("And the one before that?", ["gym-3"], day(19, 11))]),
    ("en", [("Who sorted out the boiler last time?", ["plumber"], ["varga"]),
            ("What's his number?", ["plumber"], ["0612 448 930", "0612448930"])]),
    ("en", [("Which company am I interviewing with?", ["interview"], ["mollie"]),
            ("What time is it at?", ["interview"], ["14:00", "2pm", "2 pm", "2:00", "14.00", "14h"])]),
    ("en", [("What did I order from the butcher?", ["xmas-turkey"], ["turkey"]),
            ("How much was it?", ["xmas-turkey"], ["48"])]),
    ("en", [("Who babysits the kids?", ["babysitter"], ["chloe"]),
            ("What's her number?", ["babysitter"], ["0643 918 226", "0643918226"])]),
    ("en", [("When did we last get a takeaway?", ["take-3"], day(21, 11)),
            ("How much did it cost?", ["take-3"], ["38"])]),
    ("en", [("When is Mum's big birthday?", ["mum"], day(11, 3)),
            ("Where's the dinner?", ["mum"], ["casa lúcio", "casa lucio"])]),
    ("pl", [("Kiedy jadę do rodziców Marty?", ["pl-wigilia"], day_in("pl", 24, 12)),
            ("A o której mam pociąg?", ["pl-wigilia"], ["14:10", "14.10", "2:10"])]),
]

# How many days (or weeks) until a day a note states, or since one, counted from the bench's
# today, 2026-12-01 (run.py's --now, the day the prompt gives); a day with no year is the one
# nearest after half a year before the note was written, as the notebook reads it (a note of
# November's "5 March" is 2027's). (language, question, notes holding the answer, accepted
# answers): the number of days; asked in weeks, the days or the whole weeks.


def weeks(days):
    """A span asked in weeks: the days, or the whole weeks."""
    w = days // 7
    return [str(days), f"{w} weeks", f"{w} full weeks", f"{w} whole weeks", f"{w} complete weeks"]


DAYS = [
    ("en", "How many weeks have I got left to practise before my driving exam?", ["exam"], weeks(83)),
    ("en", "How many days till my teeth check-up?", ["dentist"], ["13"]),
    ("en", "How many days left before my taxes have to be in?", ["tax"], ["61"]),
    ("en", "How long until we leave for Poland?", ["krakow"], ["18"]),
    ("en", "How many weeks to go until Mum turns sixty?", ["mum"], weeks(100)),
    ("en", "How long before the lift in our building goes out of service?", ["residents"], ["48"]),
    ("en", "How many days has it been since I last gave blood?", ["blood-3"], ["61"]),
    ("en", "How many days since I applied to Mollie?", ["job-1"], ["24"]),
    ("en", "How many days ago did Lily come down with that fever?", ["lily-sick-2"], ["12"]),
    ("en", "How many weeks ago was my sister's 40th birthday party?", ["emma-3"], weeks(136)),
    ("el", "Πόσες μέρες μένουν μέχρι να κλείσει η γιαγιά τα 85;", ["el-giagia"], ["47"]),
    ("fi", "Kuinka monen päivän päästä lähdetään Saimaalle mökille?", ["fi-mokki"], ["73"]),
    ("pl", "Za ile dni jedziemy na Wigilię do Tarnowa?", ["pl-wigilia"], ["23"]),
    ("pl", "Ile dni temu wysłałem CV do Booking.com?", ["job-3"], ["15"]),
]


def held_out(question):
    return hashlib.sha256(question.encode()).hexdigest()[0] < "6"


KINDS = ("fact", "date", "sum", "count", "lang", "followup", "days", "none")


def note_language(key):
    """The language a bench note is written in: its key's prefix ("el-", "fi-", "pl-"), else English."""
    prefix = key.split("-")[0]
    return prefix if prefix in ("el", "fi", "pl") else "en"


def main():
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "notes"), exist_ok=True)
    rng = random.Random(17)
    keys = {}
    assert len({n[0] for n in NOTES}) == len(NOTES) and len({n[1] for n in NOTES}) == len(NOTES)
    # 300 notes, so the shuffle and the days drawn are the ones of the 74-question bench: its 60
    # notes and the filler kept (the first of the same seeded list) keep their files and days,
    # and the notes added take the places of the last filler notes, which they replace.
    bench = [(n[1], n[2], n[3] if len(n) > 3 else None) for n in NOTES]
    filler = [(text.split(",")[0][:60], text, None) for text in distractors(300 - len(NOTES))]
    texts = bench[:FIRST_NOTES] + filler + bench[FIRST_NOTES:]
    assert len(texts) == 300
    note_of = {i: NOTES[i] for i in range(FIRST_NOTES)}
    note_of.update({FIRST_NOTES + len(filler) + i: n for i, n in enumerate(NOTES[FIRST_NOTES:])})
    order = list(range(len(texts)))
    rng.shuffle(order)
    for position, index in enumerate(order):
        title, body, written = texts[index]
        created = f"2026-11-{rng.randint(1, 28):02d}T{rng.randint(7, 22):02d}:{rng.randint(0, 59):02d}:00Z"
        if written:
            created = written + created[10:]
        name = f"note-{position:03d}.md"
        with open(os.path.join(out, "notes", name), "w") as handle:
            handle.write(f"---\ntitle: {json.dumps(title, ensure_ascii=False)}\ncreated: {created}\nupdated: {created}\n---\n{body}\n")
        if index in note_of:
            keys[note_of[index][0]] = {"file": name, "title": title}

    def titles(holders):
        for key in holders:
            assert key in keys, key
        return [keys[k]["title"] for k in holders]

    questions = []
    for kind, question, holders, answers in QUESTIONS:
        questions.append({"kind": kind, "question": question, "notes": titles(holders),
                          "answers": answers, "held_out": held_out(question), "language": "en"})
    for language, like, question, holders, answers in LANG:
        questions.append({"kind": "lang", "question": question, "notes": titles(holders), "answers": answers,
                          "held_out": held_out(question), "language": language, "like": like,
                          "over": sorted({note_language(k) for k in holders})})
    for language, turns in FOLLOWUPS:
        # The top level is the first turn's question (the held-out rule's text) and the last turn's
        # notes and answers (what is scored).
        turns = [{"question": q, "notes": titles(holders), "answers": answers} for q, holders, answers in turns]
        questions.append({"kind": "followup", "question": turns[0]["question"], "notes": turns[-1]["notes"],
                          "answers": turns[-1]["answers"], "held_out": held_out(turns[0]["question"]),
                          "language": language, "turns": turns})
    for language, question, holders, answers in DAYS:
        q = {"kind": "days", "question": question, "notes": titles(holders), "answers": answers,
             "held_out": held_out(question), "language": language}
        if language != "en":
            q["over"] = sorted({note_language(k) for k in holders})
        questions.append(q)
    for q in questions:
        assert q["kind"] in KINDS and (q["answers"] or q["kind"] in ("none", "lang")), q["question"]
    assert len({q["question"] for q in questions}) == len(questions)
    with open(os.path.join(out, "questions.json"), "w") as handle:
        json.dump({"notes": len(texts), "questions": questions}, handle, indent=1, ensure_ascii=False)
    counts = {k: sum(q["kind"] == k for q in questions) for k in KINDS}
    print(f"{len(texts)} notes ({len(NOTES)} written for the bench), {len(questions)} questions {counts}, "
          f"{sum(q['held_out'] for q in questions)} held out", file=sys.stderr)


if __name__ == "__main__":
    main()
