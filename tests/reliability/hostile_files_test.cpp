// Hostile input (issue 21): filled in by the change that fixes these items.
