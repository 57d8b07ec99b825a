// Categories by example: the labelled notes nearest a note in meaning vote for its category. The
// labelled notes are a small bundled set in several languages and every note whose category the
// user set (`notes set --category`), so a user's own sense of "work" or "personal" is heard
// through all of their corrections, in any language, not through the dozen newest the scorer's
// prompt has room for.
import AI
import Notes
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A note of known category, as a unit-length vector.
public struct LabelledVector: Sendable {
    public var vector: [Float]
    public var category: Category
    /// Set by the user (a correction), not one of the bundled examples.
    public var isCorrection: Bool

    public init(vector: [Float], category: Category, isCorrection: Bool) {
        self.vector = vector
        self.category = category
        self.isCorrection = isCorrection
    }
}

/// A note whose category the user set, with its stored vector when it has a current one.
public struct CategoryCorrection: Sendable, Equatable {
    public var text: String
    public var category: Category
    public var vector: [Float]?

    public init(text: String, category: Category, vector: [Float]? = nil) {
        self.text = text
        self.category = category
        self.vector = vector
    }
}

/// The vote of the nearest labelled notes. The labelled vectors are made on the first vote (a
/// command that only reads the analyzer's version never embeds anything).
public final class CategoryNeighbours: Sendable {
    /// Each text's unit-length vector (its first part, as the embedding model reads it).
    public typealias Embed = @Sendable ([String]) throws -> [[Float]]

    let embed: Embed
    let corrections: [CategoryCorrection]
    /// Where the bundled examples' vectors are kept (nil: made in every process).
    let cacheDirectory: String?
    /// Names the embedding model and the examples, for the analyzer's version.
    let identity: String
    private let labelled = Mutex<Result<[LabelledVector], any Error>?>(nil)

    /// How many of the nearest labelled notes vote.
    static let voters = 7
    /// multilingual-e5-small puts every pair of texts between 0.7 and 0.95: a note's vote falls
    /// off by a factor e with each 0.02 of cosine it lies further than the nearest one.
    static let temperature: Float = 0.02
    /// A correction counts for this many bundled examples: it is the user's own word. Each
    /// step up costs about 0.7 points on the other dev notes (20 corrections of notes the
    /// analysis got wrong: 78.8% with none, 78.1% at 2, 77.4% at 3); below 2, five corrections no
    /// longer carry a musician's band notes to "work" (CategoryNeighboursTests).
    static let correctionWeight: Float = 2
    /// The vote's weight beside the scorer's calibrated log-probabilities and keywords (a
    /// keyword is 0.75): measured on the dev part of bench/analysis (RESULTS.md).
    static let weight = 1.5

    /// `embed` makes vectors with the model `modelVersion` names; a correction's stored vector
    /// must come from the same model.
    public init(modelVersion: String, corrections: [CategoryCorrection], cacheDirectory: String? = nil, embed: @escaping Embed) {
        self.embed = embed
        self.corrections = corrections
        self.cacheDirectory = cacheDirectory
        identity = modelVersion + "/" + String(ContentHash.of(CategoryNeighbours.examples.map { $0.category.rawValue + ":" + $0.text }
            .joined(separator: "\n") + "\(Self.voters) \(Self.temperature) \(Self.correctionWeight) \(Self.weight)").prefix(8))
    }

    /// A text's first 150 words, as multilingual-e5-small's first chunk of it (the vector the
    /// store keeps as a note's chunk 0): only that part is embedded for the vote. The rest would
    /// cost up to three times as long and be thrown away.
    public static func firstPart(of text: String) -> String {
        text.prefix(6_000).split(whereSeparator: \.isWhitespace).prefix(150).joined(separator: " ")
    }

    /// How many of the user's corrections vote.
    public var correctionCount: Int { corrections.count }

    /// The text's vote, in `Category.allCases` order, summing to 1.
    public func votes(for text: String) throws -> [Double] {
        let labelled = try labelledVectors()
        guard let vector = try embed([text]).first else { return [Double](repeating: 0, count: Category.allCases.count) }
        return CategoryNeighbours.votes(for: vector, among: labelled)
    }

    /// The bundled examples' vectors and the corrections', made once (a failure is kept too:
    /// the analysis goes on without the vote rather than trying again for every note).
    func labelledVectors() throws -> [LabelledVector] {
        try labelled.withLock { state in
            if let state { return state }
            let result = Result { () throws -> [LabelledVector] in
                let cached = cachedExampleVectors()
                let lacking = corrections.filter { $0.vector == nil }.map(\.text)
                let wanted = (cached == nil ? CategoryNeighbours.examples.map(\.text) : []) + lacking
                let made = wanted.isEmpty ? [] : try embed(wanted)
                guard made.count == wanted.count else {
                    throw GenerationError.decodingFailure("the embedding model gave \(made.count) vectors for \(wanted.count) texts")
                }
                let examples = cached ?? Array(made.prefix(CategoryNeighbours.examples.count))
                if cached == nil { saveExampleVectors(examples) }
                var next = made[(made.count - lacking.count)...].makeIterator()
                return zip(CategoryNeighbours.examples, examples).map { LabelledVector(vector: $1, category: $0.category, isCorrection: false) }
                    + corrections.map { LabelledVector(vector: $0.vector ?? next.next()!, category: $0.category, isCorrection: true) }
            }
            state = result
            return result
        }.get()
    }

    // The bundled examples' vectors cost about 6 s of CPU to make on two cores: every command
    // that votes once (`notes set` on a note not analysed yet, `analyze --quick`, the daemon's
    // quick lane after each start) would pay it. They are kept in a file named by the model and
    // the examples: count and length as two 32-bit integers, then the floats, little-endian.

    private var cachePath: String? {
        cacheDirectory.map { "\($0)/category-examples-\(ContentHash.of(identity)).f32" }
    }

    private func cachedExampleVectors() -> [[Float]]? {
        guard let path = cachePath, let bytes = try? FileSystem.read(path, limit: 64 << 20), bytes.count >= 8 else { return nil }
        func integer(at offset: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) } }
        let (count, length) = (integer(at: 0), integer(at: 4))
        guard count == CategoryNeighbours.examples.count, length > 0, bytes.count == 8 + count * length * 4 else { return nil }
        return (0..<count).map { row in
            (0..<length).map { column in
                let offset = 8 + (row * length + column) * 4
                return Float(bitPattern: UInt32(integer(at: offset)))
            }
        }
    }

    private func saveExampleVectors(_ vectors: [[Float]]) {
        guard let path = cachePath, let directory = cacheDirectory, let length = vectors.first?.count,
              vectors.allSatisfy({ $0.count == length }) else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + vectors.count * length * 4)
        func append(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) } }
        append(UInt32(vectors.count))
        append(UInt32(length))
        for vector in vectors { for value in vector { append(value.bitPattern) } }
        // A cache that cannot be written is made again next time: nothing is lost.
        try? FileSystem.createDirectories(directory)
        try? FileSystem.writeAtomically(bytes, to: path)
    }

    /// The `voters` nearest labelled vectors, each weighted by how near it is against the
    /// nearest (`temperature`) and by whose label it carries (`correctionWeight`); all zero
    /// with no labelled vector of the vector's length.
    static func votes(for vector: [Float], among labelled: [LabelledVector]) -> [Double] {
        var nearest: [(similarity: Float, index: Int)] = []
        for (index, example) in labelled.enumerated() where example.vector.count == vector.count {
            var similarity: Float = 0
            for position in vector.indices { similarity += vector[position] * example.vector[position] }
            nearest.append((similarity, index))
        }
        nearest.sort { $0.similarity > $1.similarity }
        var votes = [Double](repeating: 0, count: Category.allCases.count)
        guard let top = nearest.first?.similarity else { return votes }
        for (similarity, index) in nearest.prefix(voters) {
            let example = labelled[index]
            let weight = expf((similarity - top) / temperature) * (example.isCorrection ? correctionWeight : 1)
            votes[Category.allCases.firstIndex(of: example.category)!] += Double(weight)
        }
        let total = votes.reduce(0, +)
        return votes.map { $0 / total }
    }

    /// Written for this purpose, in the languages of a mixed notebook (none is from the
    /// evaluation's notes): a handful a category and language is enough for the vote to carry
    /// the meaning across languages the scorer's English prompt does not read.
    public static let examples: [(text: String, category: Category)] = [
        ("Prepare the slides for Tuesday's sprint review and send the agenda to the team.", .work),
        ("Client asked for a revised quote by Friday; check the hours with Marta first.", .work),
        ("Production outage last night: write the incident report and schedule the post-mortem.", .work),
        ("Ετοίμασε την παρουσίαση για τη σύσκεψη με τον πελάτη την Πέμπτη.", .work),
        ("Ο διευθυντής θέλει την αναφορά του τριμήνου ως την Παρασκευή.", .work),
        ("Kundentermin am Mittwoch verschieben, das Angebot muss noch überarbeitet werden.", .work),
        ("Réunion d'équipe lundi : préparer le bilan du projet et les chiffres de vente.", .work),
        ("Enviar el informe mensual al jefe y revisar el contrato del proveedor.", .work),
        ("Spotkanie z klientem przełożone na czwartek, przygotować ofertę.", .work),
        ("Palaveri asiakkaan kanssa torstaina, lähetä tarjous ennen sitä.", .work),
        ("Gửi báo cáo dự án cho sếp trước thứ Sáu và chuẩn bị cuộc họp nhóm.", .work),
        ("Preparare la presentazione per il cliente e aggiornare il piano del progetto.", .work),

        ("Pick up the kids from school at four, then buy bread and batteries.", .personal),
        ("Anniversary dinner on Saturday: book the Italian place and order flowers.", .personal),
        ("Renew the passport before the summer trip to Lisbon.", .personal),
        ("Τα γενέθλια της γιαγιάς την Κυριακή, να πάρουμε τούρτα και δώρο.", .personal),
        ("Να φωνάξω υδραυλικό για τη βρύση της κουζίνας που στάζει.", .personal),
        ("Am Wochenende mit den Kindern in den Zoo, Oma anrufen wegen Sonntag.", .personal),
        ("Acheter un cadeau pour l'anniversaire de ma sœur et réserver le restaurant.", .personal),
        ("Llamar a mamá el domingo y reservar el hotel para las vacaciones.", .personal),
        ("Odebrać paczkę z poczty i kupić karmę dla psa.", .personal),
        ("Sauna lauantaina ystävien kanssa, osta makkaraa ja juomia.", .personal),
        ("Đi chợ mua rau, trứng và quà sinh nhật cho em gái.", .personal),
        ("Portare la macchina dal meccanico e comprare il regalo per la mamma.", .personal),

        ("Statistics exam in two weeks: redo the exercises on regression and hypothesis tests.", .study),
        ("Finish the literature review chapter of the thesis and email it to my supervisor.", .study),
        ("Flashcards for the Japanese course: 30 new kanji this week.", .study),
        ("Διάβασμα για τις εξετάσεις φυσικής: κεφάλαια 3 και 4, και οι ασκήσεις του καθηγητή.", .study),
        ("Η εργασία για το πανεπιστήμιο πρέπει να παραδοθεί τη Δευτέρα.", .study),
        ("Hausarbeit für das Seminar schreiben, Quellen in der Bibliothek ausleihen.", .study),
        ("Réviser le cours d'histoire pour le partiel et rendre le devoir de maths.", .study),
        ("Estudiar para el examen de química y terminar la tarea de inglés.", .study),
        ("Nauczyć się słówek na kolokwium z angielskiego i oddać referat.", .study),
        ("Tentti ensi viikolla, lue luennot 5–8 ja tee harjoitustehtävät.", .study),
        ("Ôn thi môn toán, làm bài tập chương 4 và nộp bài luận cho thầy.", .study),
        ("Studiare per l'esame di diritto e ripassare gli appunti delle lezioni.", .study),

        ("Blood test results: iron is low, eat more greens and retest in three months.", .health),
        ("Physio exercises for the shoulder twice a day; no heavy lifting this week.", .health),
        ("Slept badly again, try no screens after ten and a walk before bed.", .health),
        ("Ραντεβού με τον οδοντίατρο την Τρίτη στις 10, να πάρω και τις εξετάσεις.", .health),
        ("Πόνος στη μέση μετά το τρέξιμο, να κάνω διατάσεις κάθε πρωί.", .health),
        ("Termin beim Hausarzt wegen der Kopfschmerzen, Tabletten aus der Apotheke holen.", .health),
        ("Prendre rendez-vous chez le dentiste et reprendre la course à pied trois fois par semaine.", .health),
        ("Cita con el médico por la tos; tomar el jarabe dos veces al día.", .health),
        ("Wizyta u lekarza w piątek, wykupić receptę i zapisać się na szczepienie.", .health),
        ("Lääkäriaika maanantaina, ota verikokeet ja muista lääkkeet.", .health),
        ("Khám sức khỏe định kỳ, uống thuốc đúng giờ và tập thể dục mỗi sáng.", .health),
        ("Prenotare la visita dal medico e fare gli esami del sangue a digiuno.", .health),

        ("Car insurance renewal is 640 a year; compare two other offers before paying.", .finance),
        ("Split the holiday costs: I paid 320 for the flat, Sam owes me 160.", .finance),
        ("Check the pension statement and raise the monthly contribution.", .finance),
        ("Να πληρώσω τον λογαριασμό του ρεύματος και το ενοίκιο ως τις 5 του μήνα.", .finance),
        ("Φορολογική δήλωση: να μαζέψω τις αποδείξεις και να τις στείλω στον λογιστή.", .finance),
        ("Steuererklärung bis Ende Juli, Belege sammeln und Kontoauszüge ausdrucken.", .finance),
        ("Payer la facture d'électricité et vérifier le prélèvement du loyer.", .finance),
        ("Revisar el presupuesto del mes: alquiler, luz y ahorro de 200 euros.", .finance),
        ("Zapłacić rachunek za prąd i przelać czynsz do końca miesiąca.", .finance),
        ("Maksa sähkölasku ja vuokra ennen kuun loppua, siirrä säästöihin 200 euroa.", .finance),
        ("Trả tiền điện và tiền nhà trước ngày 5, chuyển 2 triệu vào tài khoản tiết kiệm.", .finance),
        ("Pagare la bolletta del gas e controllare l'estratto conto della banca.", .finance),

        ("Sourdough: 500 g flour, 350 g water, 100 g starter, 10 g salt, bake at 240 °C.", .other),
        ("\"Simplicity is prerequisite for reliability.\" Dijkstra", .other),
        ("The Great Wall is not visible from the Moon with the naked eye.", .other),
        ("Συνταγή για μουσακά: μελιτζάνες, κιμάς, μπεσαμέλ, 45 λεπτά στον φούρνο.", .other),
        ("«Ουδείς εκών κακός.» Σωκράτης", .other),
        ("Rezept Apfelkuchen: 3 Äpfel, 200 g Mehl, 100 g Zucker, 2 Eier.", .other),
        ("Citation : « Le cœur a ses raisons que la raison ne connaît point. » Pascal", .other),
        ("Receta de gazpacho: tomate, pepino, pimiento, ajo, aceite y vinagre.", .other),
        ("Ciekawostka: ośmiornice mają trzy serca.", .other),
        ("Karjalanpiirakat: ruisjauhoja, vettä, suolaa, riisipuuroa täytteeksi.", .other),
        ("Mật khẩu wifi ở nhà: hoa-sen-2024.", .other),
        ("Ricetta del tiramisù: mascarpone, savoiardi, caffè, uova e cacao.", .other),

        // Slovak, Dutch and Portuguese, one a category each.
        ("Porada s vedúcim v pondelok, pripraviť rozpočet projektu a poslať ho klientovi.", .work),
        ("Overleg met het team over de planning van het kwartaal, offerte naar de klant sturen.", .work),
        ("Reunião com o fornecedor na quarta-feira; rever o contrato e enviar a proposta.", .work),
        ("Kúpiť darček pre mamu na meniny a upratať byt pred návštevou.", .personal),
        ("Zaterdag verjaardag van mijn broer, taart halen en de fietsen van de kinderen maken.", .personal),
        ("Levar o cão ao passeio, comprar pão e ligar à avó no domingo.", .personal),
        ("Skúška z matematiky v piatok, prepočítať príklady z cvičení.", .study),
        ("Tentamen statistiek volgende week, hoofdstuk 5 herhalen en de oefenvragen maken.", .study),
        ("Estudar para o exame de biologia e entregar o trabalho de grupo na segunda.", .study),
        ("Objednať sa k zubárovi a vybrať lieky v lekárni.", .health),
        ("Afspraak bij de huisarts om de bloeddruk te laten meten, medicijnen ophalen.", .health),
        ("Consulta no dentista na terça e fazer análises ao sangue em jejum.", .health),
        ("Zaplatiť nájom a faktúru za elektrinu do konca mesiaca.", .finance),
        ("Belastingaangifte voor 1 mei indienen, bonnetjes en jaaropgave verzamelen.", .finance),
        ("Pagar a renda e a fatura da luz; transferir 100 euros para a poupança.", .finance),
        ("Recept na bryndzové halušky: zemiaky, múka, bryndza, slanina.", .other),
        ("Weetje: een octopus heeft drie harten en blauw bloed.", .other),
        ("Citação: \"O que não tem remédio, remediado está.\"", .other),

        // Longer notes, as a notebook holds them: meeting notes, a diary, lecture notes.
        ("Weekly sync with product and design. Decided to ship the onboarding flow behind a flag next sprint. Priya owns the API changes, I review the migration plan. Open question: do we keep the old dashboard for enterprise customers? Follow up with sales before Thursday's planning.", .work),
        ("Code review backlog is growing: three pull requests waiting since Monday. Deploy of the billing service failed on staging because of a missing environment variable.", .work),
        ("Call with the client about the website redesign: they want the launch moved to March and a discount on the maintenance contract. Send minutes and an updated timeline.", .work),
        ("Quiet Sunday. Slept late, made pancakes with the kids, walked along the river in the afternoon. Dad called, his new flat is almost unpacked. I should visit him next weekend and bring the drill for the shelves.", .personal),
        ("Trip to the mountains in August: book the cabin, check the car tyres, ask the neighbours to feed the cat.", .personal),
        ("Finally fixed the leaking tap in the bathroom; still need to repaint the hallway and hang the mirror.", .personal),
        ("Lecture 7, operating systems: virtual memory, page tables and the TLB. Page faults are expensive because they go to disk. Read sections 9.1 to 9.4 before the lab, and finish problem set 3 on scheduling.", .study),
        ("Physiotherapy after the knee surgery: week three, bending to 90 degrees. Ice after the exercises, no running until the check-up next month. Ask the surgeon about swimming.", .health),
        ("Monthly budget review: rent 950, groceries about 400, the car loan 210. Spent too much on eating out again. Cancel the unused streaming subscription and set up the automatic transfer to savings on payday.", .finance),
        ("Notes from the documentary on octopuses: they can change colour in a fraction of a second, solve puzzles, and each arm has its own cluster of neurons.", .other),
        ("Guitar practice: the F barre chord still buzzes; 15 minutes of scales a day and learn the intro of the new song.", .personal),
        ("Marathon training plan: long run on Sundays, intervals on Wednesdays, rest day after each. Drink more water and stretch.", .health),
    ]
}
