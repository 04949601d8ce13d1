"""math-agent: REPL -> agent loop -> BAML function -> tool -> history -> context strategy."""
