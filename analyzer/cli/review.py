"""``belote review``: a played deal card by card, each card against the best with every card
open and beside pimc's; a logged deal or one typed with ``--hands``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from analyzer.cli.common import command_line, pimc_player, print_json, progress_bar, typed_deal
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
from analyzer.errors import BeloteError

Hands = Annotated[Optional[str], typer.Option(
    "--hands", help="A deal typed by hand: each seat's cards at the first trick, seat 0 first, "
    "separated by / (Dekjas: its 8 piles, face-up:face-down, e.g. Jh:7c; docs/NOTATION.md).")]
Trump = Annotated[Optional[str], typer.Option("--trump", help="With --hands: the trump suit (h, d, c, s).")]
Turned = Annotated[Optional[str], typer.Option(
    "--turned", help="With --hands: the turned card (classic: the troefmaker holds it; Dekjas: one of the dealer's "
    "face-up cards). Needed by --bids: its suit is round 1's trump.")]
Bids = Annotated[Optional[str], typer.Option(
    "--bids", help="With --hands and --turned: the bidding, every call in order from seat 0 (pass, take, take:s "
    "in round 2, smous:h, play or redeal after a smous, koe:c), e.g. \"pass take\"; it decides the trump and the "
    "troefmaker (instead of --trump and --taker), and the review shows it.")]


def review(
    file: Optional[Path] = typer.Argument(None, help="A deal log written with 'belote simulate --log' (or give "
                                                     "--hands)."),
    deal: Optional[int] = typer.Option(None, "--deal", help="Review this deal number (default: the first played one)."),
    hands: Hands = None,
    trump: Trump = None,
    taker: Taker = None,
    plays: Plays = "",
    turned: Turned = None,
    bids: Bids = None,
    variant: VariantOption = Variant.classic,
    players: Players = None,
    rule: RuleOptions = None,
    pimc: str = typer.Option("pimc:infer=bids", "--pimc",
                             help="The searching player whose card is shown beside each card played (a pimc policy "
                                  "with its parameters), or none."),
    worlds: Optional[int] = typer.Option(
        None, "--worlds", min=0, max=255, show_default="32 in classic and Piekjas 2; 0 in Piekjas 3-4 and Dekjas",
        help="Value every card also from what its seat knew: on this many deals of the cards it could not see "
        "(drawn as pimc draws them, the bidding included), each solved with open cards; each card is then an "
        "error, bad luck or lucky. 0: the open-card values only. Piekjas 3-4 (its solver is not exact: a "
        "pessimistic value, and 2-12 s a deal on 8 worlds) and Dekjas (a world of its first tricks takes seconds "
        "to solve): 0 unless asked."),
    bot: Optional[str] = typer.Option(
        None, "--bot", help="The bot beside you: from --bot-from on, the rest of the deal played by this player in "
        "every seat (net, pimc, heuristic, each from what its seat sees), its result beside the deal's."),
    bot_from: Optional[int] = typer.Option(
        None, "--bot-from", min=1, show_default="the costliest card",
        help="With --bot: the card (1 = the first of the deal) from which the bot plays."),
    lang: LangOption = Lang.en,
    as_json: Json = False,
    quiet: Quiet = False,
):
    """Review a played deal card by card: what each card gave away against the best card with
    every card open (the exact solver; Piekjas 3-4: its pessimistic two-sided value), what it
    gave away by what its seat knew (--worlds), so that each card is an error, bad luck or lucky,
    the card pimc would have played from what the seat saw, the totals per seat and side, and
    the deal's value trick by trick. A logged deal, or one typed with --hands (docs/NOTATION.md).

    Examples:

      belote simulate --deals 20 --log deals.jsonl && belote review deals.jsonl

      belote review deals.jsonl --deal 7 --lang nl

      belote review deals.jsonl --deal 7 --bot net     (from the costliest card on, net plays every seat)

      belote review --hands "Jh 9h Ah Tc 7s Ks Qd 8c / 7h 8h Qh Kh Ac Kc 9c 7c / Th As Ts 9s 8s Js Qs Ad /
      Qc Jc 8d 7d 9d Td Kd Jd" --trump h --taker 0 --plays "Jh 7h Th Qc"

      belote review --hands "..." --turned 9h --bids "take" --plays "Jh 7h Th Qc"   (the bidding decides the trump)
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.output.review_text import render
    from analyzer.players import public_info
    from analyzer.questions.review import default_worlds, review as review_deal

    player = pimc_player(pimc)
    if hands is not None:
        if file is not None:
            raise BeloteError("give a deal log or --hands, not both")
        rules, typed = typed_deal(variant, players, rule, hands, trump, taker, plays, turned, bids)
        if not typed["tricks"]:
            raise BeloteError("--plays is empty: nothing to review (belote analyse values the cards of a position)")
        chosen, pub = typed, public_info(rules)
    else:
        if file is None:
            raise BeloteError("give a deal log (belote simulate --log FILE) or a deal typed with --hands")
        # lazy: loads when the command runs, not for belote --help (0.3 s)
        from analyzer.output.deallog import find_deal

        chosen = find_deal(file, deal, played=True)  # read up to it, replayed through the reference
        rules, pub = None, None
    cards = sum(len(t["plays"]) for t in chosen.get("tricks", []))
    with progress_bar(cards, quiet, "review") as update:  # 0.5-1.3 s a deal on open cards; worlds: see --worlds
        from analyzer.rules.deal_schema import check_record

        named = rules if rules is not None else check_record(chosen, f"deal {chosen.get('deal')}")
        r = review_deal(chosen, pimc=player, public=pub, rules=rules, progress=lambda done, total: update(done),
                        worlds=default_worlds(named) if worlds is None else worlds)
    line = None
    if bot is not None or bot_from is not None:
        # lazy: loads when the command runs, not for belote --help (0.3 s)
        from analyzer.questions.review import bot_line

        worst = r.costliest()
        start = bot_from - 1 if bot_from is not None else (r.cards.index(worst) if worst is not None else 0)
        line = bot_line(chosen, start, bot or "net", public=pub, rules=rules)
    if as_json:
        print_json({"command": command_line(), **r.as_dict(), **({"bot": line} if line else {})})
        return
    typer.echo(render(r, lang.value, bot=line))
