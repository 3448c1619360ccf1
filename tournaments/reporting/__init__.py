"""Players report their results from their phones (issue 30): private codes, "minha mesa", reports and the
opponent's confirmation, and the arbiter's approval, which alone writes a result."""
