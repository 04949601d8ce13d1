"""How a session is shown, for every front: answers' math as people write it (`pretty`) or
as MathML (`mathml`), plots (`plotting`, `plot_drawing`), the Markdown export (`export`)."""
