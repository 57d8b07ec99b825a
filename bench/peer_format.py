"""The prompt text the peers give a model without a chat template: the same plain format as ours
(Sources/AI/Runtime/PromptFormat.swift), so that both sides read the same text."""


def plain_prompt(messages):
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    user = "\n\n".join(m["content"] for m in messages if m["role"] == "user")
    return (f"### Instructions\n{system}\n\n" if system else "") + f"### Prompt\n{user}\n\n### Response\n"
