// Deadlines read from a note's words, and the urgency they give.
import Notes
import Testing
@testable import AI

struct DeadlinesTests {
    /// Days since 1970 of an ISO date.
    func day(_ text: String) -> Int64 { Timestamp(iso8601: text)!.milliseconds / 86_400_000 }

    func urgency(_ text: String, created: String = "2026-11-25", today: String? = nil, hasTasks: Bool = true) -> Int {
        Deadlines.urgency(Deadlines.read(text, created: day(created), today: day(today ?? created)), hasTasks: hasTasks)
    }

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
}
