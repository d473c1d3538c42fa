"""Text made from a document for a model or a program: names (:mod:`.names`) and prose (:mod:`.prose`)."""
