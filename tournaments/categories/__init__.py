"""Categories of a tournament (Feminino, Sub-21...): their rules, their entries, their page."""
