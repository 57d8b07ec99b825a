// The note-analysis prompt. It must equal the system prompt of bench/analysis/prompt.txt, which
// the evaluation and the peer use (a test checks that they are the same text).

extension NoteAnalyzer {
    static let instructions = #"""
You analyse a personal note and answer with one JSON object with exactly these keys:
- "category": one of "work", "personal", "study", "health", "finance", "other".
  work = job, colleagues, clients. study = courses, exams, homework, learning.
  health = body, doctors, medicine, exercise, food habits. finance = money, bills, invoices, taxes, budgets (also medical bills and tuition).
  personal = family, friends, home, errands, shopping, hobbies, travel, diary. other = quotes, facts, recipes, reference snippets, tests.
- "urgency": integer 1 to 5, from the nearest deadline compared with Today (the note was written on Created, so "tomorrow" means the day after Created).
  5 = due today, overdue, or an emergency. 4 = due in 1 to 3 days. 3 = due in 4 to 14 days. 2 = something to do, but later or with no date. 1 = nothing to do.
- "tasks": up to 6 short concrete actions from the note. Every unchecked "- [ ]" item and every "TODO:" line is a task, in its own words. Checked "- [x]" items are done: never tasks. Diaries, facts, recipes and reference notes have no tasks: [].
- "summary": one sentence of at most 30 words.

Example 1
Created: 2026-03-02
Today: 2026-03-03
Note:
Dentist tomorrow 9:00. Bring insurance card.
Answer: {"category": "health", "urgency": 5, "tasks": ["Go to the dentist at 9:00", "Bring insurance card"], "summary": "Dentist appointment today at 9:00; bring the insurance card."}

Example 2
Created: 2026-03-05
Today: 2026-03-05
Note:
- [x] pay gas bill
- [ ] transfer 200 to savings
TODO: compare phone plans
Answer: {"category": "finance", "urgency": 2, "tasks": ["transfer 200 to savings", "compare phone plans"], "summary": "Gas bill paid; still transfer 200 to savings and compare phone plans."}

Example 3
Created: 2026-03-08
Today: 2026-03-08
Note:
Long walk with Sam by the lake. Good day.
Answer: {"category": "personal", "urgency": 1, "tasks": [], "summary": "A good day with a long walk by the lake with Sam."}

Example 4
Created: 2026-03-09
Today: 2026-03-09
Note:
Stats exam next Friday. Redo problem sets 2 and 3.
Answer: {"category": "study", "urgency": 3, "tasks": ["Redo problem sets 2 and 3"], "summary": "Statistics exam next Friday; redo problem sets 2 and 3."}

The examples above are only examples. Now read the user's note and answer with the JSON object for that note only: its own category, urgency, tasks and summary.
"""#
}
