"""Memory for long conversations: sentence embeddings and durable user facts.

- `embeddings`: all-MiniLM-L6-v2 in numpy (optional extra `embeddings`), a deterministic
  hashed bag-of-words stand-in, and a per-text cache.
- `user_facts`: the user's durable facts and preferences (ExtractUserFacts), the store they
  are merged into, and `FactsMemory`, a wrapper that shows them to every MathChat call.
- `scenarios`: benchmark conversations for back-references and long-lived preferences.
"""
