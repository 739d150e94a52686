"""Training the nets: TD self-play (:mod:`.train`), supervised training on targets
(:mod:`.supervised`), the targets themselves (:mod:`.targets`) and the strength
benchmark that gates each new net (:mod:`.benchmark`).  Loaded on first use:
``import backgammon`` imports none of it.
"""
