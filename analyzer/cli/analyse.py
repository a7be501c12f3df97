"""``belote analyse``: one decision of a typed position, every legal card valued with every
card open, and pimc's card.
"""

from __future__ import annotations

import typer

from analyzer.cli.common import command_line, pimc_player, print_json, typed_deal
from analyzer.cli.options import (
    Json,
    Lang,
    LangOption,
    Players,
    Plays,
    Quiet,
    RuleOptions,
    Taker,
    Variant,
    VariantOption,
)


def analyse(
    hands: str = typer.Option(..., "--hands", help="Each seat's cards at the first trick, seat 0 first, separated "
                              "by / (Dekjas: its 8 piles, face-up:face-down, e.g. Jh:7c; docs/NOTATION.md)."),
    trump: str = typer.Option(..., "--trump", help="The trump suit (h, d, c, s)."),
    taker: Taker = 0,
    plays: Plays = "",
    variant: VariantOption = Variant.classic,
    players: Players = None,
    rule: RuleOptions = None,
    pimc: str = typer.Option("pimc", "--pimc", help="The searching player whose card is shown (a pimc policy), or "
                             "none. A typed position has no bidding: it reads only the cards."),
    lang: LangOption = Lang.en,
    as_json: Json = False,
    quiet: Quiet = False,  # one position: no progress to show (accepted as by every command with --json)
):
    """One decision: every legal card of the seat to move after --plays, valued with every card
    open (the exact solver; Piekjas 3-4: its pessimistic value), what each gives away against the
    best, and the card pimc plays from what the seat sees.

    Examples:

      belote analyse --hands "Jh 9h Ah Tc 7s Ks Qd 8c / 7h 8h Qh Kh Ac Kc 9c 7c / Th As Ts 9s 8s Js Qs Ad /
      Qc Jc 8d 7d 9d Td Kd Jd" --trump h --taker 0 --plays "Jh 7h Th Qc"

      belote analyse --variant piekjas --players 2 --hands "..." --trump s --taker 1 --json
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.output.review_text import render_position
    from analyzer.questions.review import analyse as analyse_position

    rules, typed = typed_deal(variant, players, rule, hands, trump, taker, plays)
    p = analyse_position(typed, rules, pimc=pimc_player(pimc))
    if as_json:
        print_json({"command": command_line(), **p.as_dict()})
        return
    typer.echo(render_position(p, lang.value))
