"""Printing, shared by the features that print: PDFs (:mod:`.pdf`), the processes
that render them (:mod:`.renderer`, :mod:`.engine`), their refusals (:mod:`.errors`),
chart scales (:mod:`.charts`) and spreadsheet cells (:mod:`.csv`)."""
