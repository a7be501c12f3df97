"""What a double-dummy hand costs, in the one phrase every help text and doc quotes.

Two different costs, both from docs/BENCHMARKS.md (2026-12-01):

- ``dd`` as a play policy (every seat plays double dummy, ``--bracket``): classic 7.0 hands
  a second on one thread at load 2 (0.14 s a hand), 2.6 at load 4, 1.55 a thread through
  ``table --bracket`` on the loaded 2-core machine (0.65 s); 25-30 times a PIMC hand in
  every one of those runs (PIMC 173, 77.7 and 45). Since PIMC v2 (2026-12-03, commit f20a07d,
  ``scripts/bench_strong.py speed --deals 100 --labels classic``, idle): dd 12.7 hands a second
  (0.08 s), PIMC 630: about 50 times.
- ``--dd-loss`` (the solver values every card that is not forced, ``duel``): classic 37 ms a
  position and 0.76 s a hand wall on the loaded machine, 70 s of CPU for 306 hands (0.23 s
  a hand); Dekjas 5.5 s, Piekjas 2 0.02 s, Piekjas 3 0.68 s a hand; Piekjas 4 not measured
  (1.6 s a solve from the first trick).

README.md quotes both phrases word for word (``tests/test_cli_inputs.py`` checks it), so the
figures change here and there together, with a new measurement.
"""

DD_PLAY_COST = ("0.08 to 0.15 s a classic hand on an idle core and up to 0.65 s on a loaded one, about 50 times "
                "a PIMC hand")
DD_LOSS_COST = ("about 0.25 s a classic hand on an idle core and 0.75 s on a loaded one; 0.02 s in Piekjas 2, "
                "0.7 s in Piekjas 3, 5.5 s in Dekjas, more in Piekjas 4")
