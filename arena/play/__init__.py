"""Playing games: the referee, the plan of a tournament, matches, and the
executors that run them (local processes or Dask)."""
