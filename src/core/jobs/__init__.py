"""Work that runs later or on a clock, and the record each run leaves."""
