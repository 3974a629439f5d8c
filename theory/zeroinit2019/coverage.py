"""Coverage map of the ZeroInit/Fixup submission (filled in Part B, issue 10)."""
COVERAGE = ()
