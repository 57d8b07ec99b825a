// Deadlines read from a note's words, and the urgency they give.
import Testing
@testable import Notes

struct DeadlinesTests {
    /// Days since 1970 of an ISO date.
    func day(_ text: String) -> Int64 { Timestamp(iso8601: text)!.milliseconds / 86_400_000 }

    func urgency(_ text: String, created: String = "2026-11-25", today: String? = nil, hasTasks: Bool = true) -> Int {
        Deadlines.urgency(Deadlines.read(text, created: day(created), today: day(today ?? created)), hasTasks: hasTasks)
    }

    /// Days from the note's day to its nearest deadline; 2026-11-25 is a Wednesday, so Friday
    /// is 2 days on, Monday 5, and December 20 is 25.
    func daysLeft(_ text: String, created: String = "2026-11-25") -> Int? {
        Deadlines.read(text, created: day(created), today: day(created)).daysLeft
    }

    func isPressing(_ text: String) -> Bool { Deadlines.read(text, created: day("2026-11-25"), today: day("2026-11-25")).isPressing }

    @Test func relativeWordsCountFromTheDayTheNoteWasWritten() {
        // 2026-11-25 is a Wednesday.
        #expect(urgency("Essay due tomorrow 9am") == 4)
        #expect(urgency("Essay due tomorrow 9am", today: "2026-11-26") == 5)
        #expect(urgency("Call the pharmacy today") == 5)
        #expect(urgency("Dentist Friday 8:30") == 4)
        #expect(urgency("Dentist Wednesday 8:30") == 3, "the same weekday means next week's")
        #expect(urgency("Patches down to 14 mg next week") == 3)
        #expect(urgency("Apply in 20 days") == 2)
        #expect(urgency("Practise before lundi prochain") == 3)
        #expect(urgency("Reunión el viernes a las 10:15") == 4)
        #expect(urgency("Finish the deck by the end of the week") == 4, "Friday, two days on")
        #expect(urgency("Finish the deck by the end of the week", created: "2026-11-28") == 5, "written on a Saturday")
        #expect(urgency("Clean the garage this weekend", created: "2026-11-23") == 3, "Monday to Saturday")
    }

    @Test func everyDayATextNamesRelativeOnesCountedFromItsDay() {
        // Written on Wednesday 25 November: tomorrow, Friday, 14 December and the 20th of March, once each, past ones too.
        let days = Deadlines.days(in: "Call the plumber tomorrow and Friday; dentist on 14 December, again on 14 December; paid on 20.3.2026",
                                  created: day("2026-11-25"))
        #expect(Set(days) == [day("2026-11-26"), day("2026-11-27"), day("2026-12-14"), day("2026-03-20")], "\(days)")
        #expect(days.count == 4)
        #expect(Deadlines.days(in: "Nothing to do.", created: day("2026-11-25")).isEmpty)
    }

    @Test func explicitDatesAndDaysOfTheMonth() {
        #expect(urgency("Tuition deadline Dec 1") == 3)
        #expect(urgency("Flight is 20 December") == 2)
        #expect(urgency("Vaccine due 2026-11-27") == 4)
        #expect(urgency("Rent due on the 1st", created: "2026-11-28", today: "2026-11-30") == 4)
        #expect(urgency("RSVP deadline was the 26th") == 5)
        #expect(urgency("Renewal Jan 3", created: "2026-12-28") == 3, "next year's January")
        #expect(urgency("チェックイン12月20日") == 2)
    }

    @Test func pastEventsAndOldNotesAreNotDeadlines() {
        #expect(urgency("Submitted Nov 10, they said 10 working days", hasTasks: false) == 1)
        #expect(urgency("Dentist tomorrow", created: "2026-10-01", today: "2026-11-25", hasTasks: false) == 1,
                "a deadline long gone is history, not an emergency")
        #expect(urgency("Dentist tomorrow", created: "2026-11-20", today: "2026-11-25") == 5, "recently overdue")
    }

    @Test func pressingWordsAndNoDate() {
        #expect(urgency("Chest pain, call emergency services") == 5)
        #expect(urgency("Invoice 21 days overdue, send a reminder") == 5)
        #expect(urgency("Books to read next", hasTasks: true) == 2)
        #expect(urgency("Word of the day: petrichor", hasTasks: false) == 1)
    }

    @Test func englishPhrasesAreReadWhole() {
        #expect(daysLeft("Pay rent the day after tomorrow") == 2, "not also 'tomorrow'")
        #expect(daysLeft("Ship it by the end of next week") == 10)
        #expect(daysLeft("Party on the 30th of December") == 35, "the month named, not this month's 30th")
        #expect(daysLeft("Renew in two weeks") == 14)
        #expect(daysLeft("Cheese spread over 3 days") == nil, "'over' counts only Dutch units")
    }

    @Test func spanishFrenchAndGermanGaps() {
        #expect(daysLeft("Entregar pasado mañana") == 2)
        #expect(daysLeft("Renovar dentro de 3 días") == 3)
        #expect(daysLeft("Pagar en una semana") == 7)
        #expect(daysLeft("Boda el 20 de diciembre de 2026") == 25)
        #expect(daysLeft("Limpiar este fin de semana") == 3)
        #expect(daysLeft("Mañana por la mañana, dentista") == 1)
        #expect(daysLeft("Gimnasio a las 9 de la mañana") == nil, "morning, not tomorrow")
        #expect(isPressing("Llamar al banco lo antes posible"))
        #expect(daysLeft("Rendre le rapport après-demain") == 2)
        #expect(daysLeft("Payer dans 3 jours") == 3)
        #expect(daysLeft("Dossier à rendre le 1er décembre") == 6)
        #expect(daysLeft("Loyer avant le 20") == 25)
        #expect(daysLeft("Ranger ce week-end") == 3)
        #expect(isPressing("Rappeler dès que possible"))
        #expect(daysLeft("Steuererklärung in 3 Tagen") == 3)
        #expect(daysLeft("Antrag in einer Woche") == 7)
        #expect(daysLeft("Zahnarzt morgen früh") == 1)
        #expect(daysLeft("Kino Freitagabend") == 2)
        #expect(daysLeft("Reifen wechseln am Wochenende") == 3)
        #expect(daysLeft("Abgabe am 20. Dezember") == 25)
        #expect(daysLeft("Guten Morgen! Einkaufsliste: Milch") == nil)
        #expect(daysLeft("Gestern Morgen Joggen, 5 km") == nil)
        #expect(isPressing("Bitte so schnell wie möglich zurückrufen"))
    }

    @Test func portuguese() {
        #expect(daysLeft("Pagar a conta hoje") == 0)
        #expect(daysLeft("Dentista amanhã às 9h") == 1)
        #expect(daysLeft("Entregar depois de amanhã") == 2, "not also 'amanhã'")
        #expect(daysLeft("Reunião sexta-feira às 10") == 2)
        #expect(daysLeft("Entregar o relatório até sexta") == 2)
        #expect(daysLeft("Academia na segunda") == 5)
        #expect(daysLeft("Viagem na semana que vem") == 7)
        #expect(daysLeft("Consulta na próxima semana") == 7)
        #expect(daysLeft("Renovar o passaporte daqui a 3 dias") == 3)
        #expect(daysLeft("Prova em 2 semanas") == 14)
        #expect(daysLeft("Aniversário 20 de dezembro") == 25)
        #expect(daysLeft("Vencimento até dia 20") == 25)
        #expect(isPressing("Ligar para o médico, urgente"))
        #expect(isPressing("Responder o quanto antes"))
        #expect(daysLeft("Li o livro pela segunda vez") == nil, "second, not Monday")
        #expect(daysLeft("Pedir a segunda via do boleto") == nil)
    }

    @Test func italian() {
        #expect(daysLeft("Chiamare la banca oggi") == 0)
        #expect(daysLeft("Dentista domani alle 9") == 1)
        #expect(daysLeft("Consegna dopodomani") == 2)
        #expect(daysLeft("Pagare entro venerdì") == 2)
        #expect(daysLeft("Palestra venerdi sera") == 2, "without the accent")
        #expect(daysLeft("Riunione la prossima settimana") == 7)
        #expect(daysLeft("Esame tra 3 giorni") == 3)
        #expect(daysLeft("Rinnovo fra una settimana") == 7)
        #expect(daysLeft("Cena il 20 dicembre") == 25)
        #expect(isPressing("Pratiche urgenti da firmare"))
        #expect(isPressing("Rispondere al più presto"))
        #expect(daysLeft("La settimana scorsa ho finito il libro", created: "2026-11-25") == nil)
    }

    @Test func dutch() {
        #expect(daysLeft("Boodschappen vandaag") == 0)
        #expect(daysLeft("Tandarts morgen om 9 uur") == 1)
        #expect(daysLeft("Verslag inleveren overmorgen") == 2)
        #expect(daysLeft("Vergadering vrijdag") == 2)
        #expect(daysLeft("Borrel maandagmiddag") == 5)
        #expect(daysLeft("Verhuizen volgende week") == 7)
        #expect(daysLeft("Belastingaangifte over 3 dagen") == 3)
        #expect(daysLeft("Verjaardag 20 december") == 25)
        #expect(isPressing("Met spoed de huisarts bellen"))
        #expect(isPressing("Zo snel mogelijk betalen"))
        #expect(daysLeft("Goedemorgen allemaal") == nil)
        #expect(daysLeft("Goede morgen! Koffie gezet") == nil)
        #expect(daysLeft("Hardlopen 's morgens") == nil)
    }

    @Test func polish() {
        #expect(daysLeft("Zapłacić rachunek dziś") == 0)
        #expect(daysLeft("Dentysta jutro o 9") == 1)
        #expect(daysLeft("Oddać raport do jutra") == 1)
        #expect(daysLeft("Egzamin pojutrze") == 2)
        #expect(daysLeft("Spotkanie w piątek") == 2)
        #expect(daysLeft("Wysłać do piątku") == 2)
        #expect(daysLeft("Siłownia w poniedziałek") == 5)
        #expect(daysLeft("Zebranie w środę") == 7, "the same weekday means next week's")
        #expect(daysLeft("Wyjazd w przyszłym tygodniu") == 7)
        #expect(daysLeft("Odnowić za 3 dni") == 3)
        #expect(daysLeft("Wizyta za tydzień") == 7)
        #expect(daysLeft("Urodziny 20 grudnia") == 25)
        #expect(isPressing("Pilne: zadzwonić do lekarza"))
        #expect(daysLeft("Za dużo kawy, 3 dni bez snu") == nil)
    }

    @Test func slovak() {
        #expect(daysLeft("Zaplatiť účet dnes") == 0)
        #expect(daysLeft("Zubár zajtra o 9") == 1)
        #expect(daysLeft("Odovzdať pozajtra") == 2)
        #expect(daysLeft("Porada v piatok") == 2)
        #expect(daysLeft("Poslať do piatku") == 2)
        #expect(daysLeft("Sťahovanie budúci týždeň") == 7)
        #expect(daysLeft("Skúška o 3 dni") == 3)
        #expect(daysLeft("Obnoviť za 3 dni") == 3)
        #expect(daysLeft("Oslava 20. decembra") == 25)
        #expect(isPressing("Súrne zavolať lekárovi"))
        #expect(daysLeft("Z matematiky piatka, vďaka za pomoc") == nil, "a grade of five, and 'za' with no count")
    }

    @Test func finnish() {
        #expect(daysLeft("Maksa lasku tänään") == 0)
        #expect(daysLeft("Hammaslääkäri huomenna klo 9") == 1)
        #expect(daysLeft("Raportti ylihuomenna") == 2)
        #expect(daysLeft("Palaveri perjantaina") == 2)
        #expect(daysLeft("Palauta perjantaihin mennessä") == 2)
        #expect(daysLeft("Hakemus maanantaihin mennessä") == 5)
        #expect(daysLeft("Kuoroharjoitus keskiviikkona") == 7)
        #expect(daysLeft("Muutto ensi viikolla") == 7)
        #expect(daysLeft("Tentti 3 päivän päästä") == 3)
        #expect(daysLeft("Passi uusittava kahden viikon päästä") == 14, "not also 'viikon päästä'")
        #expect(daysLeft("Tarkastus viikon kuluttua") == 7)
        #expect(daysLeft("Juhlat 20. joulukuuta") == 25)
        #expect(daysLeft("Eräpäivä joulukuun 20.") == 25)
        #expect(isPressing("Kiireellinen: soita lääkärille"))
        #expect(isPressing("Vastaa kiireesti"))
        #expect(daysLeft("Sauna perjantaisin") == nil, "on Fridays, a habit")
        #expect(daysLeft("Viime viikonloppuna mökillä") == nil)
        #expect(daysLeft("Remontti kesti 3 päivää") == nil, "a duration, not a deadline")
    }

    @Test func greek() {
        #expect(daysLeft("Πληρωμή λογαριασμού σήμερα") == 0)
        #expect(daysLeft("Οδοντίατρος αύριο στις 9") == 1)
        #expect(daysLeft("ΡΑΝΤΕΒΟΥ ΑΥΡΙΟ") == 1, "capitals without accents")
        #expect(daysLeft("Παράδοση μεθαύριο") == 2)
        #expect(daysLeft("Συνάντηση την Παρασκευή") == 2)
        #expect(daysLeft("ΕΩΣ ΤΗΣ ΠΑΡΑΣΚΕΥΗΣ") == 2, "a capital final sigma")
        #expect(daysLeft("Γυμναστήριο την Τρίτη") == 6)
        #expect(daysLeft("Μετακόμιση την επόμενη εβδομάδα") == 7)
        #expect(daysLeft("Εξετάσεις σε 3 μέρες") == 3)
        #expect(daysLeft("Γενέθλια 20 Δεκεμβρίου") == 25)
        #expect(isPressing("Επείγον: κλήση στον γιατρό"))
        #expect(isPressing("ΕΠΕΙΓΟΝ"))
        #expect(daysLeft("Το διάβασα για τρίτη φορά") == nil, "third, not Tuesday")
    }

    @Test func vietnamese() {
        #expect(daysLeft("Đóng tiền điện hôm nay") == 0)
        #expect(daysLeft("Khám răng ngày mai lúc 9 giờ") == 1)
        #expect(daysLeft("Nga\u{300}y mai họp") == 1, "decomposed diacritics")
        #expect(daysLeft("Nộp báo cáo ngày kia") == 2)
        #expect(daysLeft("Họp thứ sáu") == 2)
        #expect(daysLeft("Họp thứ 6 lúc 10 giờ") == 2)
        #expect(daysLeft("Đi chợ chủ nhật") == 4)
        #expect(daysLeft("Chuyển nhà tuần sau") == 7)
        #expect(daysLeft("Thi 3 ngày nữa") == 3)
        #expect(daysLeft("Gia hạn hộ chiếu 2 tuần sau") == 14, "not also 'tuần sau'")
        #expect(daysLeft("Sinh nhật ngày 20 tháng 12") == 25)
        #expect(isPressing("Khẩn cấp: gọi bác sĩ"))
        #expect(isPressing("Cần gấp bản hợp đồng"))
        #expect(!isPressing("Gấp quần áo"), "folding clothes")
        #expect(daysLeft("Chị Mai gọi điện") == nil, "a name")
        #expect(daysLeft("Sắp xếp theo thứ tự") == nil, "'thứ' alone")
        #expect(daysLeft("Tiêm mũi thứ hai") == nil, "the second dose, not Monday")
    }

    @Test func swedish() {
        #expect(daysLeft("Betala hyran idag") == 0)
        #expect(daysLeft("Tandläkaren imorgon kl 9") == 1)
        #expect(daysLeft("Tandläkaren i morgon") == 1)
        #expect(daysLeft("Lämna in i övermorgon") == 2)
        #expect(daysLeft("Möte på fredag") == 2)
        #expect(daysLeft("Flytt nästa vecka") == 7)
        #expect(daysLeft("Ansökan om 3 dagar") == 3)
        #expect(daysLeft("Födelsedag 20 december") == 25)
        #expect(daysLeft("Jag ringde i måndags") == nil, "last Monday")
        #expect(isPressing("Brådskande: ring banken"))
    }

    @Test func czech() {
        #expect(daysLeft("Zaplatit nájem dnes") == 0)
        #expect(daysLeft("Zubař zítra v 9") == 1)
        #expect(daysLeft("Odevzdat pozítří") == 2)
        #expect(daysLeft("Schůzka v pátek") == 2)
        #expect(daysLeft("Stěhování příští týden") == 7)
        #expect(daysLeft("Zkouška za 3 dny") == 3)
        #expect(daysLeft("Narozeniny 20. prosince") == 25)
        #expect(isPressing("Naléhavé: zavolat do banky"))
        #expect(daysLeft("Minulý týden jsem byl u lékaře") == nil)
    }

    @Test func turkish() {
        #expect(daysLeft("Kirayı bugün öde") == 0)
        #expect(daysLeft("Dişçi yarın saat 9") == 1)
        #expect(daysLeft("Toplantı cuma günü") == 2)
        #expect(daysLeft("Taşınma gelecek hafta") == 7)
        #expect(daysLeft("Sınav 3 gün içinde") == 3)
        #expect(daysLeft("Doğum günü 20 aralık") == 25)
        #expect(isPressing("Acil: bankayı ara"))
        #expect(!isPressing("hemen hemen bitti"), "almost, not at once")
    }

    @Test func romanian() {
        #expect(daysLeft("Plătește chiria azi") == 0)
        #expect(daysLeft("Dentist mâine la 9") == 1)
        #expect(daysLeft("Dentist maine la 9") == 1, "without diacritics")
        #expect(daysLeft("Predare poimâine") == 2)
        #expect(daysLeft("Ședință vineri") == 2)
        #expect(daysLeft("Mutarea săptămâna viitoare") == 7)
        #expect(daysLeft("Examen în 3 zile") == 3)
        #expect(daysLeft("Ziua ei pe 20 decembrie") == 25)
        #expect(isPressing("Urgentă: sună la bancă"))
    }

    @Test func japanese() {
        #expect(daysLeft("今日中に家賃を払う") == 0)
        #expect(daysLeft("明日9時に歯医者") == 1)
        #expect(daysLeft("明後日までに提出") == 2)
        #expect(daysLeft("金曜に会議") == 2)
        #expect(daysLeft("来週引っ越し") == 7)
        #expect(daysLeft("先週の月曜に病院へ行った") == nil, "last week's Monday")
        #expect(isPressing("至急：銀行に電話"))
    }

    @Test func datesInFiguresDayFirst() {
        #expect(daysLeft("Termin 12.12.") == 17)
        #expect(daysLeft("Abgabe 15.12.2026") == 20)
        #expect(daysLeft("Odevzdat do 1/12") == 6)
        // The weekday alone is nearer than the date it names: read the figures on their own.
        #expect(Deadlines.numericDates("Spotkanie czwartek 3.12", created: day("2026-11-25")) == [day("2026-12-03")],
                "a day and month without a final dot after a weekday")
        #expect(Deadlines.numericDates("Spotkanie 3.12", created: day("2026-11-25")).isEmpty, "without the weekday, a decimal")
        #expect(daysLeft("Weight 31.4 kg") == nil, "a decimal")
        #expect(daysLeft("Add 1/2 cup of sugar") == nil, "a fraction")
        #expect(daysLeft("Meeting at 17:30") == nil, "a time")
    }
}
