"""What happens to a tool call between the model's reply and the tools: one room.

A small model's call is often nearly right: it says a thing twice, makes up bounds, names an
item by id, writes a unit as an unknown, or carries an earlier task's letter. Everything
that rewrites, resolves, refuses or annotates a call lives here, around one record:

- `pending`: `PendingCall`, the call as the model wrote it and as it stands (a typed BAML
  object throughout), what the tools read of it, and what each guard changed and why;
- `guards`: the named guards in their order (`guards()`, then `AFTER_RUN`), each a small
  function whose docstring says why it exists; `desk.settle` runs them, and the call;
- the modules the guards call on: `closed_math`, `said_once`, `degrees`, `curve`, `person_primes`,
  `solved_math`, `bounds`, `unknowns`, `resolve` (with `field_words`), `variable_fit`,
  `grounding`, `joint_solve`, `pointing`.

A reply that does not parse as any call is read before a call exists, inside the model's one
repair round (`agent.llm.salvage`), and is not here. Nothing here reads English to decide a
tool or an item: each guard reads math, notation and fields.
"""
