"""Documents generated from a tournament (the homologation workbook)."""
