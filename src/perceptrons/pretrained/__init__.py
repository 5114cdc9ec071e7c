"""Models that ship inside the package, reached by a name from a fixed table (:mod:`.catalogue`)."""
