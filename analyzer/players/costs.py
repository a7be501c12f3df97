"""What a double-dummy hand costs, in the one phrase every help text and doc quotes.

Two different costs (the measurements behind them: docs/PERFORMANCE.md and its journal):

- ``dd`` as a play policy (every seat plays double dummy, ``--bracket``): classic 12.7 hands a
  second on an idle core (0.08 s a hand; ``scripts/bench/strong.py speed --deals 100 --labels
  classic``), up to 0.65 s a hand through ``table --bracket`` on a loaded 2-core machine; about
  50 times a PIMC hand (630 a second idle).
- ``--dd-loss`` (the solver values every card that is not forced, ``duel``): classic about
  0.23 s of CPU a hand (37 ms a position), 0.76 s wall on a loaded machine; Dekjas 5.5 s,
  Piekjas 2 0.02 s, Piekjas 3 0.68 s a hand; Piekjas 4 not measured (1.6 s a solve from the
  first trick).

README.md quotes both phrases word for word (``tests/commands/test_cli_inputs.py`` checks it), so the
figures change here and there together, with a new measurement.
"""

DD_PLAY_COST = ("0.08 to 0.15 s a classic hand on an idle core and up to 0.65 s on a loaded one, about 50 times "
                "a PIMC hand")
DD_LOSS_COST = ("about 0.25 s a classic hand on an idle core and 0.75 s on a loaded one; 0.02 s in Piekjas 2, "
                "0.7 s in Piekjas 3, 5.5 s in Dekjas, more in Piekjas 4")
