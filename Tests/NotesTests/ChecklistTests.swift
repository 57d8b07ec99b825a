// Ticking a checklist item in a note's text: only the box changes, and only the item the task names.
import Notes
import Testing

@Suite struct ChecklistTests {
    @Test func readsItemsWithAnyBulletAndBox() {
        #expect(Checklist.item("  - [ ] buy milk ")! == ("buy milk", false))
        #expect(Checklist.item("* [x] eggs")! == ("eggs", true))
        #expect(Checklist.item("+ [X] bread")! == ("bread", true))
        #expect(Checklist.item("- buy milk") == nil)
        #expect(Checklist.item("[ ] no bullet") == nil)
    }

    @Test func ticksTheFirstItemTheTaskNamesAndKeepsTheRestOfTheLine() {
        let body = "Shopping\r\n  * [ ] Buy milk.\n- [ ] call the bank — today\n- [ ] buy milk"
        #expect(Checklist.marking("buy milk", done: true, in: body) == "Shopping\r\n  * [x] Buy milk.\n- [ ] call the bank — today\n- [ ] buy milk")
        // The analysis may keep an item without its trailing remark.
        #expect(Checklist.marking("Call the bank", done: true, in: body) == "Shopping\r\n  * [ ] Buy milk.\n- [x] call the bank — today\n- [ ] buy milk")
        #expect(Checklist.marking("water the plants", done: true, in: body) == nil)
        #expect(Checklist.marking("", done: true, in: body) == nil)
    }

    @Test func untickingFindsTheTickedItemOnly() {
        let body = "- [x] buy milk\n- [X] Buy bread"
        #expect(Checklist.marking("buy bread", done: false, in: body) == "- [x] buy milk\n- [ ] Buy bread")
        #expect(Checklist.marking("buy milk", done: true, in: body) == nil)
    }
}
