"""The size limit of a tournament file, shared by the one file dispatch and the importers: a module of its own, so
that no importer needs the dispatch (which reaches every importer)."""

# An interchange file of the largest real events is well under 1 MB, a TRF of 1,000 players about 200 KB: this
# keeps a hostile or broken file from tying up a server.
MAX_FILE_BYTES = 20 * 1024 * 1024
