"""``belote learn``: the net play policy trained, and judged on held-out deals (``--write``:
its weights shipped).
"""

from __future__ import annotations

from typing import Optional

import typer

from analyzer.cli.common import command_line, make_rules, print_json, progress_bar
from analyzer.cli.options import Json, Players, Quiet, Seed, Variant, VariantOption
from analyzer.errors import BeloteError
from analyzer.runs.limits import SEEDS


def learn(
    variant: VariantOption = Variant.classic,
    players: Players = None,
    deals: int = typer.Option(200_000, "--deals", min=10, max=10_000_000, help="Deals whose decisions train the model."),
    test_deals: int = typer.Option(20_000, "--test-deals", min=10, max=10_000_000,
                                   help="Deals of --test-seed the model is judged on (never trained on)."),
    target: str = typer.Option("rollout", "--target", help="What a card is worth: rollout (pimc's value of the card "
                               "followed by heuristic play on the true deal: 4 x the net hand score + the card-point "
                               "margin) or dd (the double-dummy card points; about 100 times slower)."),
    anchor: Optional[float] = typer.Option(None, "--anchor", min=0.0, max=1e6, help="Fix the weight of the "
                                           "heuristic's card at this many units: leave it only for a larger predicted gain."),
    iterations: int = typer.Option(1, "--iterations", min=1, max=10, help="Steps of policy iteration: the first "
                                   "trains on heuristic games and play-outs, each next one on the games and play-outs of "
                                   "the net the step before trained (rollout target only)."),
    start: str = typer.Option("heuristic", "--start", help="Whose games and play-outs the first step trains on: the "
                              "heuristic's, or a net version's (net:v=N, net for the latest): one more step of policy "
                              "iteration over it (rollout target only)."),
    seed: Seed = 1,
    test_seed: int = typer.Option(2, "--test-seed", min=0, max=SEEDS - 1, help="The seed of the held-out deals."),
    ridge: float = typer.Option(1.0, "--ridge", max=1e6, help="The ridge penalty of the least squares, more than 0."),
    fit: str = typer.Option("choice", "--fit", help="How the weights are fitted: choice (the least squares, then "
                            "refined to minimise what the model's own choice gives away) or squares (the least squares "
                            "alone: every card's value fitted alike, as net:v=3 was trained)."),
    write: bool = typer.Option(False, "--write", help="Write the weights into analyzer/players/net_data/net.npy "
                               "(the row of this variant), with their provenance in net.json beside it."),
    threads: Optional[int] = typer.Option(None, "--threads", help="Processes that value the decisions, at most the "
                                          "cores (default: all of them). Results do not depend on it."),
    as_json: Json = False,
    quiet: Quiet = False,
):
    """Train the net play policy, and judge it on held-out deals.

    Every decision of deals bid and played by the heuristic: each legal card's features as the
    seat sees it, and the card's value on the true deal (--target: pimc's own evaluator, the card
    followed by heuristic play, or double dummy). With --iterations N, each step after the first
    plays the deals and the play-outs with the net of the step before (a step of policy
    iteration: the net learns what its own play makes of each card); --start net:v=N makes the
    first step one over a shipped version. The model (a weight per feature and per pair of
    features, one block of weights per role and stage of the hand) is fitted by ridge least squares
    within each decision, then (--fit choice, the default) refined to minimise what its own choice of
    card gives away (a softmax over its scores, L-BFGS). It is then
    judged on deals of --test-seed: the value it gives away per decision, next to the heuristic's.
    --write ships the weights (analyzer/players/net_data/net.npy) with their provenance, once the
    results are printed; a folder it cannot write is refused before any work. --deals is bounded
    by the memory available (about 24 KB a classic deal, held twice).

    Examples:

      belote learn --deals 20000 --test-deals 5000

      belote learn --variant piekjas --players 2 --write

      belote learn --iterations 2 --write

      belote learn --start net:v=3 --deals 300000 --write
    """
    from analyzer.runs import learn as L

    if fit not in ("choice", "squares"):
        raise BeloteError(f'--fit must be choice or squares, not "{fit}"')
    if target not in ("rollout", "dd"):
        raise BeloteError(f'--target must be rollout or dd, not "{target}"')
    if target == "dd" and iterations > 1:
        raise BeloteError("--iterations needs --target rollout: double dummy does not depend on the play-outs")
    if target == "dd" and start != "heuristic":
        raise BeloteError("--start needs --target rollout: double dummy does not depend on the play-outs")
    L.check_ridge(ridge)
    rules = make_rules(variant, players, None)
    threads = L.check_workers(threads)
    L.check_memory(rules.label, deals, test_deals, threads)
    from analyzer.players.net_files import NET_PATH, header_path

    weights_path = NET_PATH
    stale = L.remove_stale(weights_path)  # what a --write killed before its renames left
    if stale:
        typer.echo(stale, err=True)
    if write:
        L.check_writable(weights_path)
    weights, steps = _start_weights(start, rules.label), []
    for it in range(1, iterations + 1):
        step = f"step {it} of {iterations}: " if iterations > 1 else ""
        train = test = None  # the step before's decisions, freed before this step's are made (memory)
        with progress_bar(deals, quiet, f"{step}training deals") as update:
            train = L.decisions_parallel(rules, seed, deals, threads, progress=update, label=target, weights=weights)
        with progress_bar(test_deals, quiet, f"{step}held-out deals") as update:
            test = L.decisions_parallel(rules, test_seed, test_deals, threads, progress=update, label=target,
                                        weights=weights)
        with progress_bar(int(train.x.shape[0]), quiet, f"{step}fitting (rows)") as update:
            w = L.fit(train, ridge, anchor, progress=update)
        if fit == "choice":
            n_steps = len(L.TEMPERATURES) * L.LBFGS_STEPS
            with progress_bar(n_steps, quiet, f"{step}refining the choice (steps)") as update:
                w = L.refine(train, w, threads=threads, progress=update)
        steps.append({"step": it, "games": start if it == 1 else f"net of step {it - 1}",
                      "train": {"deals": deals, "decisions": train.n, "seconds": round(train.seconds, 1)},
                      "in_sample": L.evaluate(train, w), "held_out": L.evaluate(test, w)})
        weights = w
    r = {"rules": rules.label, "seed": seed, "target": target, "anchor": anchor, "iterations": iterations, "fit": fit,
         "start": start,
         "train": steps[-1]["train"], "test_seed": test_seed, "ridge": ridge, "in_sample": steps[-1]["in_sample"],
         "held_out": steps[-1]["held_out"], "steps": steps, "weights": [round(float(x), 6) for x in w]}
    if as_json:
        print_json({"command": command_line(), **r})
    else:
        _render(r, test_deals)
    if write:  # after the results are printed: a write that fails anyway (a full disk) loses nothing printed
        L.write_weights(weights_path, {rules.label: w}, {rules.label: _provenance(r)})
        if not as_json:
            typer.echo(f"weights written to {weights_path} and {header_path(weights_path).name} ({rules.label})")


def _start_weights(start: str, label: str):
    """The row of net weights whose games and play-outs the first step trains on (``--start net:v=N``,
    ``net`` the latest: the play registry's spelling and bounds), or None for the heuristic's; a
    one-line error naming the versions otherwise."""
    # lazy, as every command's work: reading the weights is not needed for belote --help
    from analyzer.players import play
    from analyzer.players.net import ROW_LABELS
    from analyzer.players.net_weights import BY_VERSION, LATEST
    from analyzer.players.params import NET_V, param
    from analyzer.players.policies import play_code

    if start == "heuristic":
        return None
    try:
        code = play_code(start)
    except BeloteError:
        code = None
    if code is None or code & play.KIND_MASK != play.NET:
        names = ", ".join(f"net:v={v}" for v in BY_VERSION)
        raise BeloteError(f'--start must be heuristic, net (the latest) or one of {names}, not "{start}"')
    return BY_VERSION[param(code, NET_V) or LATEST][ROW_LABELS.index(label)]


def _provenance(r: dict) -> dict:
    """The provenance written beside the weights (``--write``): how they were trained and judged."""
    from analyzer.output.outdir import provenance

    def judged(e):
        return {k: e[k] for k in ("decisions", "deals", "net_loss", "heuristic_loss", "difference", "difference_ci",
                                  "net_best", "heuristic_best")}

    prov = {k: r[k] for k in ("seed", "test_seed", "ridge", "target", "anchor", "fit", "start")} | {
        "commit": provenance().get("git_commit"), "train_deals": r["train"]["deals"],
        "train_decisions": r["train"]["decisions"], "held_out": judged(r["held_out"])}
    if r["fit"] == "choice":
        from analyzer.runs.learn import LBFGS_STEPS, PENALTY, TEMPERATURES

        prov["choice"] = {"temperatures": list(TEMPERATURES), "penalty": PENALTY, "lbfgs_steps": LBFGS_STEPS}
    if r["iterations"] > 1:  # the steps before, each judged on its own player's games
        prov["iterations"] = r["iterations"]
        prov["steps"] = [{"step": s_["step"], "games": s_["games"], "held_out": judged(s_["held_out"])}
                         for s_ in r["steps"]]
    return prov


def _render(r: dict, test_deals: int) -> None:
    """The results as text: each step's difference, then the last step's held-out figures."""
    h, iterations, train = r["held_out"], r["iterations"], r["train"]
    for s_ in r["steps"][:-1]:
        e = s_["held_out"]
        typer.echo(f"step {s_['step']} (games and play-outs: {s_['games']}): difference {e['difference']:+.3f} "
                   f"[{e['difference_ci'][0]:+.3f}, {e['difference_ci'][1]:+.3f}] against the heuristic held out")
    last = r["steps"][-1]["games"]
    games = "" if last == "heuristic" else f" (step {iterations}: games and play-outs of {last})"
    typer.echo(f"{r['rules']}: trained on {train['decisions']:,} decisions of {train['deals']:,} deals "
               f"(seed {r['seed']}), judged on {h['decisions']:,} decisions of {test_deals:,} deals "
               f"(seed {r['test_seed']}){games}")
    by = last
    unit = "card points given away per decision against double dummy" if r["target"] == "dd" else \
        f"value given away per decision against the best card's (4 x net score + card points, {by} play-out)"
    typer.echo(f"{unit}: net {h['net_loss']:.3f}, heuristic "
               f"{h['heuristic_loss']:.3f}; difference {h['difference']:+.3f} [{h['difference_ci'][0]:+.3f}, "
               f"{h['difference_ci'][1]:+.3f}] (paired, 95%)")
    typer.echo(f"a best card: net {100 * h['net_best']:.1f}%, heuristic {100 * h['heuristic_best']:.1f}%; net plays "
               f"another card than the heuristic in {100 * h['differs_from_heuristic']:.1f}% of decisions")
