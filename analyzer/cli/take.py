"""``belote take``: should I take with this hand? Every call played out on the same sampled
deals (``--bracket``: under each play policy).
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from analyzer.cli.common import (
    backend,
    bars_per_policy,
    call_to_english,
    check_hand_fits,
    command_line,
    compiling_notice,
    make_rules,
    print_json,
    progress_bar,
    run_inputs,
    searching,
    to_english,
    typed_language,
)
from analyzer.cli.options import (
    BidCalibrated,
    Cluster,
    Json,
    Lang,
    Objective,
    Play,
    Players,
    Quiet,
    Resume,
    RuleOptions,
    RunDir,
    Scheduler,
    Seed,
    Threads,
    Variant,
    VariantOption,
)
from analyzer.errors import BeloteError
from analyzer.players.costs import DD_PLAY_COST
from analyzer.players.equity import equity_table
from analyzer.players.policies import DEFAULT_PLAY, Policies
from analyzer.questions.take_score import parse_score, score_answer
from analyzer.runs.limits import MAX_DEALS, check_deals


def take(
    hand: Optional[str] = typer.Argument(
        None, help="Your cards at bidding time, e.g. \"Jh 9h Ah Tc 7s\": 5 in classic and 4-player piekjas, "
        "otherwise 6. Dekjas: use --mine and --theirs instead."),
    turned: str = typer.Option(..., "--turned", help="The turned card, e.g. Qh (dekjas: the dealer's last face-up card)."),
    variant: VariantOption = Variant.classic,
    players: Players = None,
    seat: int = typer.Option(0, "--seat", min=0, help="Your seat: 0 = voorhand (bids first) ... players-1 = dealer."),
    round_: int = typer.Option(1, "--round", min=1, max=2, help="The bidding round reached: 1, or 2 after everyone passed."),
    mine: Optional[str] = typer.Option(None, "--mine", help="Dekjas: your 8 face-up cards."),
    theirs: Optional[str] = typer.Option(None, "--theirs", help="Dekjas: the opponent's 8 face-up cards."),
    call: Optional[List[str]] = typer.Option(
        None, "--call", help="Compare only these calls: take, smous, pass, or with a suit, e.g. take:s (repeatable). "
        "Default: every call open. Pass is always compared."),
    objective: Optional[Objective] = typer.Option(
        None, "--objective", show_default="net, or win with --score",
        help="What ranks the calls: net = your side's score minus the best other side's (counts what a dedans "
        "gives away); score = your side's own score; win = your side's chance to win the game from --score."),
    score: Optional[str] = typer.Option(
        None, "--score", help="The score at the table before this deal: classic ours-theirs (--score 820-640); "
        "piekjas and dekjas every seat's total, voorhand first (--score 120-300-80). Adds each call's chance to "
        "win the game, and where the verdict changes with the score."),
    equity: Optional[Path] = typer.Option(
        None, "--equity", help="With --score: an equity table built by belote equity --build --file (default: the "
        "one shipped for the variant; needed when --rule changes the game)."),
    deals: int = typer.Option(100_000, "--deals", min=1, max=MAX_DEALS,
                              help="Paired deals to keep (deals where the earlier seats passed)."),
    precision: Optional[float] = typer.Option(
        None, "--precision", help="Instead of --deals: simulate until the 95% half-width of the verdict's "
        "difference is at most this many points (capped by --max-deals)."),
    max_deals: int = typer.Option(2_000_000, "--max-deals", min=1, max=MAX_DEALS,
                                  help="The cap on paired deals with --precision."),
    seed: Seed = 1,
    bid: BidCalibrated = None,
    play: Play = None,
    rule: RuleOptions = None,
    threads: Threads = None,
    lang: Optional[Lang] = typer.Option(
        None, "--lang", help="The language of the cards you type and of the answer: en (J Q K, suits c d h s) or "
        "nl (B V H, suits k r h s; the answer in Dutch, its rows as players say them). Default: recognised from the "
        "cards (they never read differently in the two), English where they read the same."),
    cluster: Cluster = None,
    scheduler: Scheduler = None,
    run_dir: RunDir = None,
    resume: Resume = False,
    bracket: bool = typer.Option(
        False, "--bracket", help="Answer under each policy of --bracket-plays (every seat) side by side, on the "
        "same deals: P(made), P(dedans), P(capot/pit) and net gain of each call, and whether the verdict holds "
        "under all of them."),
    bracket_plays: Optional[str] = typer.Option(
        None, "--bracket-plays", help="The play policies of --bracket, weakest first. Default: heuristic,net,pimc,dd."),
    bracket_deals: Optional[str] = typer.Option(
        None, "--bracket-deals", show_default="pimc=4000,dd=500", help="Paired deals of the searching policies of "
        f"--bracket: one number for all, or by policy (pimc: about a millisecond a hand; dd: {DD_PLAY_COST}); "
        "the others keep --deals. Their numbers are adjusted by the heuristic's on the same deals (a control "
        "variate), the plain ones shown beside."),
    bracket_bidders: Optional[str] = typer.Option(
        None, "--bracket-bidders", show_default="net", help="With --bracket: the player whose bidders every "
        "column bids with (--bid calibrated reads the file calibrated for that player's play). Default: net where "
        "it is a column, otherwise the first of --bracket-plays."),
    as_json: Json = False,
    quiet: Quiet = False,
):
    """Should I take with this hand? Every call open, played out on the same sampled deals.

    Unknown cards are sampled given what you see; when earlier seats bid first, only deals
    where they all passed under their bidding policy (--bid: calibrated by default, or
    heuristic, or per seat) are kept; later seats bid with it too. For each call: your side's
    expected hand score and net score (minus the best other side's), the paired differences
    to passing, p_we_take, p_made, p_dedans, p_tie, p_capot_for, p_pit_against (and
    p_not_played when deals were passed out or redealt), each a share of all deals, with
    95% CIs; then the verdict. The same names as the report and its CSV.

    Examples:

      belote take "Jh 9h Ah Tc 7s" --turned Qh

      belote take "Js 9s As 7h 8c" --turned Td --seat 1 --round 2 --precision 1

      belote take "Js Qs Ks 9d Ad 7c" --turned 8s --variant piekjas --players 2 --seat 1 --json

      belote take --variant dekjas --mine "Jh 9h Ah Ac Tc 7d 8s Ks" --theirs "7c 8c 9c Qd Kd Ad Ts Qh" --turned Qh

      belote take "Bh 9h Ah 10k 7s" --turned Vh --lang nl

      belote take "8c Qd 7s 9d Kc" --turned Th --seat 2 --bid heuristic

      belote take "Jh Ah Tc 7s 8d" --turned Qh --bracket --deals 20000 --bracket-deals pimc=4000,dd=300

      belote take "Jh 9h Ac Tc 7s" --turned Qh --score 820-640
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.cli import render
    from analyzer.players.policy_files import bid_note, default_bid, describe_bid
    from analyzer.questions.take import analyse_take

    lang_ = typed_language([hand, turned, mine, theirs], lang)
    hand, turned, mine, theirs = (to_english(x, lang_) for x in (hand, turned, mine, theirs))
    call = [call_to_english(c, lang_) for c in call] if call else call
    check_hand_fits(variant, players, hand)
    rules = make_rules(variant, players, rule)
    if objective is Objective.win and score is None:
        raise BeloteError("--objective win needs the score: add --score, e.g. --score 820-640 (ours first)")
    if equity is not None and score is None:
        raise BeloteError("--equity is the table --score reads: add --score")
    objective = objective or (Objective.win if score is not None else Objective.net)
    at_score = table = None
    if score is not None:
        if bracket:
            raise BeloteError("--score answers under one play policy: leave out --bracket")
        at_score = parse_score(score, rules, seat)
        table = equity_table(rules, equity)  # a missing or mismatched table is refused before the work
    if bracket and play is not None:
        raise BeloteError("--bracket sets the play policies: use --bracket-plays instead of --play")
    play = play or DEFAULT_PLAY
    note = bid_note(rules, bid, play)
    bid = bid or default_bid(rules, play)  # --bracket too: the same bidders under every play policy
    if bracket:
        if precision is not None:
            raise BeloteError("--bracket keeps a fixed number of deals: use --deals and --bracket-deals, not --precision")
        _take_bracket(rules, hand, turned, seat, round_, mine, theirs, call, objective.value, deals, bracket_deals,
                      bracket_plays, seed, bid, threads, lang_, as_json, quiet, bracket_bidders)
        return
    pols = Policies.parse(bid, play, rules.players)
    total = max_deals if precision is not None else deals
    compiling_notice("take", quiet, searching(pols))
    recorded = run_inputs(  # note, total and lang_ too: the names run folders have recorded them under
        hand=hand, turned=turned, variant=variant, players=players, seat=seat, round_=round_, mine=mine, theirs=theirs,
        call=call, objective=objective, deals=deals, precision=precision, max_deals=max_deals, seed=seed, bid=bid,
        play=play, rule=rule, lang=lang, bracket=bracket, bracket_plays=bracket_plays, bracket_deals=bracket_deals,
        note=note, total=total, lang_=lang_)
    with backend(cluster, scheduler, run_dir, resume, "take", recorded, quiet), \
            progress_bar(total, quiet, "sampling") as update:
        r = analyse_take(rules, hand, turned, seat, round_, mine=mine, theirs=theirs, deals=deals,
                         precision=precision, max_deals=max_deals, seed=seed, policies=pols, calls=call,
                         objective="net" if objective is Objective.win else objective.value, threads=threads,
                         progress=update, keep_scores=at_score is not None)
    ans = None
    if at_score is not None:
        ans = score_answer(r, at_score, table)
    if as_json:
        d = r.as_dict()
        d["command"] = command_line()
        if ans is not None:
            d["game"] = ans.as_dict()
            d["inputs"]["objective"] = objective.value
        if note:
            d["inputs"]["bid_note"] = note
        if lang_ == "nl":
            d["inputs"]["lang"] = "nl"
        print_json(d)
        return
    render.take(r, seed, seat > 0 or round_ == 2, bid, play, objective.value,
                f"Bidders: {describe_bid(pols, rules)}" + (f" ({note})" if note else "") + ".", lang_, ans)


def _take_bracket(rules, hand, turned, seat, round_, mine, theirs, call, objective, deals, bracket_deals,
                  bracket_plays, seed, bid, threads, lang_, as_json, quiet, bidders=None) -> None:
    """``take --bracket``: the question under each play policy, one progress bar each."""
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.cli import render
    from analyzer.questions.bracket import analyse_bracket, check_bidders, parse_plays, strong_sizes
    from analyzer.questions.table_bracket import parse_deals

    plays = parse_plays(bracket_plays)
    bidders = check_bidders(bidders, plays)
    if bracket_deals is not None:
        bracket_deals = parse_deals(bracket_deals)
        for v in (bracket_deals.values() if isinstance(bracket_deals, dict) else [bracket_deals]):
            check_deals(v, "--bracket-deals")
    strong_sizes(plays, bracket_deals)  # a bad --bracket-deals is refused before the compile
    compiling_notice("take", quiet, searching=True)
    with bars_per_policy(quiet) as progress:
        b = analyse_bracket(rules, hand, turned, seat, round_, mine=mine, theirs=theirs, plays=plays, deals=deals,
                            strong_deals=bracket_deals, seed=seed, bid=bid, calls=call, objective=objective,
                            threads=threads, progress=progress, bidders_of=bidders)
    if as_json:
        d = b.as_dict()
        d["command"] = command_line()
        if lang_ == "nl":
            d["inputs"] = {"lang": "nl"}
        print_json(d)
        return
    render.take_bracket(b, bid, seed, objective)
