"""`math-agent eval`: question sets run through the real agent, judged by SymPy."""
