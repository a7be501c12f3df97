"""Studies: measurements behind a choice, kept to rerun when the code they measured changes."""
