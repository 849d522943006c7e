"""Learning a game's value model from self-play, generation by generation.

A generation is three steps, each one of koloda's own mechanisms:

1. **Self-play**: the current agent against a copy of itself, a one-match gauntlet run by
   the tournament's runner (its workers, joblib or Dask, its progress bar, its resumable
   results file), so the games are ordinary records, dealt from seeds.
2. **Fitting**: every position of those games (and of the generations before, up to
   `window`) where the models read one (every decision; in Snitch the turns, where its
   leaf's walk stops), replayed from the records, its features read from each seat
   (the game's `ValueFeatures`, the same numbers the kernel leaf reads), the target the
   seat's return from the deal (the game's, in a game of one deal: what search values a
   leaf by); a small mlp fitted by scikit-learn (`koloda[learn]`) and packed for the
   kernels (solvers/learned/mlp.py).
3. **Scoring**: the agent valuing its leaves by the new model against the previous
   generation's agent, a gauntlet on paired deals with seats rotated, its score with a
   95% interval.

Everything lands in one folder (`reports/learned/<game>/` by default): each generation's
games, its model (`models/`, the shipped format, named `<game>-g<N>` until one is shipped
as `<game>-v<N>`) and `progress.json`, the generations so far with their losses and
scores.  A run resumes from that folder: a generation whose games are there is not played
again, and a generation whose model is there is not fitted again.  The seed fixes the
deals, the fits and so the models: the same seed gives the same models.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from koloda import games as koloda_games
from koloda.games.errors import KolodaError
from koloda.solvers.learned import mlp
from koloda.solvers.learned.models import (
    digest_of,
    npy_bytes,
    use_models_from,
    write_model,
)
from koloda.solvers.learned.value import ValueFeatures
from koloda.solvers.search.evaluators import evaluator_for
from koloda.solvers.spec import format_spec, parse_spec
from koloda.tournament import config as tournament_config
from koloda.tournament.compare import read_match
from koloda.tournament.results import read_results
from koloda.tournament.runner import run_tournament
from koloda.tournament.seating import check_seat_spec
from koloda.tournament.seeds import derive_seed

PROGRESS = "progress.json"
MAX_PROGRESS_BYTES = 1 << 20


class LearnError(KolodaError):
    """Learning cannot start or go on (the message says why)."""


#: ridge regression's L2 penalty: a linear model's default, and the bootstrap of TD targets
RIDGE_ALPHA = 10.0


@dataclass
class Settings:
    """What a learning run does; kept in progress.json, so a resumed run goes on alike."""

    game: str                       # the game string
    seed: int = 1
    sims: int = 300                 # simulations per move in self-play and scoring
    games: int = 2000               # self-play games per generation
    score_games: int = 200          # games of each scoring gauntlet
    window: int = 2                 # generations of games each fit reads
    #: hidden layers' widths; none: a linear model, by ridge regression.  Outcomes are
    #: one noisy number a game, and a game's positions share it: over 4,000 games of
    #: Durak an mlp of 64 hidden units learnt the games by heart (held-out loss no better
    #: than the mean's), while ridge regression generalised (0.947 against 0.991)
    hidden: list[int] = field(default_factory=list)
    alpha: float = RIDGE_ALPHA      # the L2 penalty (ridge's alpha, or the mlp's)
    #: the lambda of the targets: 1, each seat's return at the end; below 1, TD(lambda)
    #: returns (`lambda_returns`) bootstrapped from a linear fit to the returns, a target
    #: of less noise.  On Platinum Fish's 2,000 games, an mlp of 64 fitted to the
    #: returns learnt the games by heart (held-out loss 0.687 after one epoch, rising),
    #: and fitted to lambda=0.95 it predicted the held-out returns better than ridge
    #: regression did (0.655 against 0.674)
    td: float = 1.0
    epochs: int = 30                # at most; it stops after 3 epochs without progress
    jobs: int = 2
    #: "value": a value model for search's leaves; "policy": a policy (policy_fit.py)
    #: learnt from `teacher`'s moves and scored against `against`
    kind: str = "value"
    teacher: str = ""
    against: str = ""
    #: a value run's search, whose leaves the models value in self-play and scoring and
    #: which plays as it is as the yardstick (none: `ismcts(sims=S)`, random playouts)
    search: str = ""


@dataclass
class Generation:
    number: int
    model: str                      # this generation's model name
    digest: str
    positions: int
    train_loss: float
    test_loss: float
    baseline_loss: float            # predicting the mean: what the features add
    score: float | None = None      # against the previous generation's agent
    low: float | None = None
    high: float | None = None
    seconds: float = 0.0
    #: against random playouts, the fixed yardstick: a generation can match the last and
    #: still lose ground (Durak's third scored 48.5% against its second and 47.8% against
    #: playouts, where its first scored 73%)
    playouts: float | None = None
    playouts_low: float | None = None
    playouts_high: float | None = None
    #: a policy's: how often its move is the teacher's, on the held-out deals
    agreement: float | None = None


def model_name(game: str, number: int) -> str:
    return f"{koloda_games.parse_game_string(game)[0]}-g{number}"


def agent_spec(settings: Settings, model: str | None) -> str:
    """The run's search with its leaves valued by `model` (as it is, without)."""
    if not settings.search:
        value = f",value={model}" if model else ""
        return f"ismcts(sims={settings.sims}{value})"
    if not model:
        return settings.search
    name, params = parse_spec(settings.search)
    return format_spec(name, {**params, "value": model})


class Learning:
    """One learning run in `folder`: `run(hours)` adds generations until the time is
    spent, printing each; `generations` holds what is done."""

    def __init__(self, settings: Settings, folder: Path, out=sys.stdout):
        self.settings, self.folder, self.out = settings, Path(folder), out
        self.game = koloda_games.load_game(settings.game)
        self._check_features()
        self.generations: list[Generation] = []
        self._resume()
        use_models_from(self.folder / "models")

    def _check_features(self) -> None:
        """LearnError for a game with no value features yet."""
        short = self.game.get_type().short_name
        values = evaluator_for(short).values
        if values is None:
            raise LearnError(f"{short} has no value features to learn from yet")
        if self.settings.search:
            try:                          # refused before any game is played
                check_seat_spec(self.game, agent_spec(self.settings, None))
            except KolodaError as err:
                raise LearnError(f"the search: {err}") from None
        self.values: ValueFeatures = values

    # ----- progress ---------------------------------------------------------------------

    def _resume(self) -> None:
        path = self.folder / PROGRESS
        if not path.exists():
            return
        if path.stat().st_size > MAX_PROGRESS_BYTES:
            raise LearnError(f"{path} is larger than a run's progress can be")
        try:
            data = json.loads(path.read_text())
            settings, generations = data["settings"], data["generations"]
            generations = [Generation(**g) for g in generations]
        except (ValueError, KeyError, TypeError, AttributeError) as err:
            raise LearnError(f"{path} is not a learning run's progress "
                             f"({type(err).__name__}); move it away to start afresh") \
                from None
        if not isinstance(settings, dict) or \
                {**asdict(Settings(self.settings.game)), **settings} != asdict(self.settings):
            raise LearnError(f"{path} was written by a run with other settings; give another "
                             f"folder, or the same settings, so that two runs are not mixed")
        self.generations = generations

    def _save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        data = {"settings": asdict(self.settings),
                "generations": [asdict(g) for g in self.generations]}
        (self.folder / PROGRESS).write_text(json.dumps(data, indent=1) + "\n")

    # ----- one generation ---------------------------------------------------------------

    def _match(self, name: str, agent: str, opponent: str, count: int, seed: int) -> Path:
        """Play (or finish) a one-match gauntlet into the folder; its results file."""
        agents = {agent: agent, f"{opponent} (copy)" if opponent == agent else opponent:
                  opponent}
        names = list(agents)
        config = tournament_config.one_match_config(
            name, self.settings.game, agents, names[0], names[1], count, seed,
            self.settings.jobs, str(self.folder), "shared", path=f"learning {self.settings.game}")
        run_tournament(config, progress=True)
        return config.results_path

    def positions(self, paths: list[Path]):
        """Features and targets of the positions the game's models read (`reads`: every
        decision, Snitch's at turns) in the games of `paths`, from every seat, and the deal
        (its seed) each comes from.  A target is the seat's return from its deal (the
        game's, in a game of one deal): what search values a leaf by."""
        features, targets, deals, sequences = [], [], [], []
        players = self.game.num_players()
        for number, (result, rows, returns) in enumerate(
                deal_positions(self.game, self.values, paths)):
            for row in rows:
                for seat in range(players):
                    features.append(row[seat])
                    targets.append(returns[seat])
                    deals.append(result.seed)
                    sequences.append(number * players + seat)
        #: each row's deal and seat: the rows of one, in the order played, are what
        #: lambda returns run along
        self._sequence = np.array(sequences)
        return np.array(features), np.array(targets), np.array(deals)

    def fit(self, x: np.ndarray, y: np.ndarray, deal: np.ndarray, seed: int):
        """A packed mlp fitted to (x, y), and its train, test and mean-predicting losses
        (mean squared error), the deals split by `split_by_deal` and the epochs chosen
        by `best_epoch`."""
        try:
            from sklearn.linear_model import Ridge
            from sklearn.neural_network import MLPRegressor
        except ImportError:
            raise LearnError("learning needs scikit-learn: pip install 'koloda[learn]'") \
                from None
        rng = np.random.default_rng(seed)
        train, check, test = split_by_deal(deal, rng)
        s = self.settings

        def loss(packed, rows):
            return float(np.mean((mlp.forward_reference(packed, x[rows])[:, 0] - y[rows]) ** 2))
        baseline = float(np.mean((y[test] - y[train].mean()) ** 2))
        target = y
        if s.td < 1.0:                    # bootstrapped from a linear fit to the returns
            first = Ridge(alpha=s.alpha if not s.hidden else RIDGE_ALPHA).fit(x[train],
                                                                              y[train])
            target = lambda_returns(y, first.predict(x), self._sequence, s.td)
        if not s.hidden:                  # linear: ridge regression, solved exactly
            ridge = Ridge(alpha=s.alpha).fit(x[train], target[train])
            packed = mlp.pack([(ridge.coef_.reshape(-1, 1), np.array([ridge.intercept_]))])
            return packed, losses_of(loss(packed, train), loss(packed, test), baseline)
        model = MLPRegressor(hidden_layer_sizes=tuple(s.hidden), alpha=s.alpha,
                             batch_size=256, learning_rate_init=1e-3,
                             random_state=seed % (1 << 31))

        def epoch():
            order = train[rng.permutation(len(train))]
            model.partial_fit(x[order], target[order])
            return mlp.pack([(w, b) for w, b in zip(model.coefs_, model.intercepts_)])
        best = best_epoch(epoch, lambda packed: loss(packed, check), s.epochs)
        return best, losses_of(loss(best, train), loss(best, test), baseline)

    # ----- what a kind of model plays and writes (PolicyLearning has its own) -----------

    kind = "value"

    def selfplay_spec(self, previous: str | None) -> str:
        """Who plays the generation's games: the search valuing by the last model."""
        return agent_spec(self.settings, previous)

    def scored_spec(self, model: str) -> str:
        """The agent a generation's model makes."""
        return agent_spec(self.settings, model)

    def yardstick_spec(self) -> str:
        """The fixed opponent every generation is also scored against: random playouts."""
        return agent_spec(self.settings, None)

    def model_name(self, number: int) -> str:
        return model_name(self.settings.game, number)

    def model_entry(self) -> tuple[str, dict]:
        """The feature set a model reads and the game parameters it is fitted for."""
        params = self.game.get_parameters()
        return self.values.name, {key: params[key] for key in self.values.variant_keys}

    def step(self) -> Generation:
        """Play, fit and score the next generation."""
        started = time.perf_counter()
        s = self.settings
        number = len(self.generations) + 1
        previous = self.generations[-1].model if self.generations else None
        spec = self.selfplay_spec(previous)
        self._match(f"selfplay-g{number}", spec, spec, s.games,
                    derive_seed(s.seed, "selfplay", number))
        paths = [self.folder / f"selfplay-g{k}.jsonl"
                 for k in range(max(1, number - s.window + 1), number + 1)]
        x, y, deals = self.positions(paths)
        packed, losses = self.fit(x, y, deals, derive_seed(s.seed, "fit", number))
        name = self.model_name(number)
        features, variants = self.model_entry()
        digest = write_model(self.folder / "models", name, self.game.get_type().short_name,
                             self.kind, features, variants, packed,
                             {"generation": number, "seed": s.seed})
        assert digest == digest_of(npy_bytes(packed))
        generation = Generation(number, name, digest, len(y), **losses)
        before = self.scored_spec(previous) if previous else self.yardstick_spec()
        scored = self._match(f"score-g{number}", self.scored_spec(name), before,
                             s.score_games, derive_seed(s.seed, "score", number))
        interval = read_match(str(scored)).interval()
        generation.score, generation.low, generation.high = \
            interval.score, interval.low, interval.high
        if previous is None:
            generation.playouts, generation.playouts_low, generation.playouts_high = \
                generation.score, generation.low, generation.high
        else:
            scored = self._match(f"playouts-g{number}", self.scored_spec(name),
                                 self.yardstick_spec(), s.score_games,
                                 derive_seed(s.seed, "playouts", number))
            interval = read_match(str(scored)).interval()
            generation.playouts, generation.playouts_low, generation.playouts_high = \
                interval.score, interval.low, interval.high
        generation.seconds = time.perf_counter() - started
        self.generations.append(generation)
        self._save()
        return generation


def replayed_actions(game, paths: list[Path]):
    """(state, action, result) at every action, chance's too, of the finished games in the
    results files `paths`, each game replayed from its record (the state before the
    action; it is applied when the next is asked for)."""
    for path in paths:
        for result in read_results(path).values():
            if result.error:
                continue
            state = game.new_initial_state()
            for action in result.actions:
                yield state, action, result
                state.apply_action(action)


def replayed_decisions(game, paths: list[Path]):
    """(state, action, result) at every decision of the finished games in `paths`."""
    for state, action, result in replayed_actions(game, paths):
        if not state.is_chance_node():
            yield state, action, result


def deal_positions(game, values: ValueFeatures, paths: list[Path]):
    """(result, rows, returns) for each deal of the finished games in `paths`, replayed
    from their records: the features from every seat of each position of the deal that
    the models read (`values.reads`), and every seat's return from the deal, as an engine
    that ends with the deal values it (the game's return, in a game of one deal)."""
    players = game.num_players()
    deal, game_of_deal = None, None
    rows: list[list[np.ndarray]] = []
    for state, action, result in replayed_actions(game, paths):
        core = state.core
        if deal is None or result is not game_of_deal:    # a deal starts (or a game)
            deal, rows, game_of_deal = core.copy(), [], result
            deal.end_at_deal()
        if not state.is_chance_node() and values.reads(core):
            rows.append([values.of(core, seat) for seat in range(players)])
        deal.apply(action)
        if deal.is_terminal():
            yield result, rows, deal.returns()
            deal, rows = None, []


def lambda_returns(returns: np.ndarray, values: np.ndarray, sequence: np.ndarray,
                   lam: float) -> np.ndarray:
    """TD(lambda) targets (Sutton, "Learning to predict by the methods of temporal
    differences", 1988): along each sequence (the rows of one `sequence` id, in row
    order), a row's target is `(1 - lam) * values[next] + lam * target[next]`, and the
    last row's is its return: the return, with the noise of the far future replaced in
    part by what later positions are worth."""
    target = np.asarray(returns, np.float64).copy()
    following = np.full(len(target), -1)
    last: dict[int, int] = {}
    for row in range(len(target) - 1, -1, -1):
        following[row] = last.get(int(sequence[row]), -1)
        last[int(sequence[row])] = row
    for row in range(len(target) - 1, -1, -1):
        after = following[row]
        if after >= 0:
            target[row] = (1.0 - lam) * values[after] + lam * target[after]
    return target


def split_by_deal(deal: np.ndarray, rng) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows to fit, to stop on and to test: a tenth of the deals held out whole for
    each of the last two, as a game's positions (and the games of one deal, seats
    rotated) are much alike, and one deal on both sides would flatter the fit
    (scikit-learn's own early stopping splits positions, not deals).  Under 10 deals (a
    trial run) every row is in all three."""
    seeds = rng.permutation(np.unique(deal))
    tenth = len(seeds) // 10
    if not tenth:
        every = np.arange(len(deal))
        return every, every, every
    return (np.flatnonzero(~np.isin(deal, seeds[:2 * tenth])),
            np.flatnonzero(np.isin(deal, seeds[tenth:2 * tenth])),
            np.flatnonzero(np.isin(deal, seeds[:tenth])))


def best_epoch(epoch: Callable[[], np.ndarray], checked: Callable[[np.ndarray], float],
               epochs: int) -> np.ndarray:
    """The packed model of the epoch with the least loss on the rows to stop on:
    `epoch()` trains one more epoch and packs the model, `checked(packed)` is its loss;
    at most `epochs`, stopping after 3 without progress."""
    best, best_loss, stale = None, np.inf, 0
    for _ in range(epochs):
        packed = epoch()
        loss = checked(packed)
        if loss < best_loss - 1e-5:
            best, best_loss, stale = packed, loss, 0
        else:
            stale += 1
            if stale >= 3:
                break
    assert best is not None
    return best


def losses_of(train: float, test: float, baseline: float, **more) -> dict:
    return {"train_loss": train, "test_loss": test, "baseline_loss": baseline, **more}


def write_progress_report(learning: Learning, command: str) -> Path:
    """`progress.md` and `curve.png` in the run's folder: each generation's losses and its
    score against the last, with the command that produced them."""
    folder, rows = learning.folder, learning.generations
    policy = learning.kind == "policy"
    if policy:
        about = ["Each generation's agent is `policy(model=MODEL)`, fitted to the moves of "
                 f"`{learning.settings.teacher}` in the generations' games so far, and scored "
                 "against the previous generation's and against the yardstick "
                 f"`{learning.yardstick_spec()}` (generation 1: one match, against the "
                 "yardstick), on shared deals with seats rotated, with a 95% interval "
                 "clustered by deal. Losses are the mean negative log probability of the "
                 "teacher's move among the legal moves, on the deals fitted (train) and on "
                 "a tenth held out (test), beside the teacher's move frequencies alone; "
                 "agreement is how often the policy's move is the teacher's, held out."]
        head = ["| generation | model | positions | train | test | frequencies alone | "
                "agreement | against the last [95%] | against the yardstick [95%] | seconds |",
                "|---|---|---|---|---|---|---|---|---|---|"]
    else:
        about = [f"Each generation's agent is `{learning.scored_spec('MODEL')}`, scored "
                 "against the previous generation's agent and against the same search with "
                 "random playouts (generation 1: one match, against playouts), on shared "
                 "deals with seats rotated, with a 95% interval clustered by deal. "
                 "Losses are mean squared errors of the return, on the deals fitted (train) "
                 "and on a tenth held out (test), beside predicting the mean."]
        head = ["| generation | model | positions | train | test | mean alone | against the "
                "last [95%] | against playouts [95%] | seconds |",
                "|---|---|---|---|---|---|---|---|---|"]
    lines = [f"# Learning {learning.settings.game}: {len(rows)} generations", "",
             f"    {command}", "",
             f"Settings: {json.dumps(asdict(learning.settings))}.", "", *about, "", *head]
    for g in rows:
        agreement = f" {100 * g.agreement:.1f}% |" if policy and g.agreement is not None \
            else (" |" if policy else "")
        lines.append(f"| {g.number} | {g.model} `{g.digest[:12]}` | {g.positions:,} | "
                     f"{g.train_loss:.4f} | {g.test_loss:.4f} | {g.baseline_loss:.4f} |"
                     f"{agreement} {_percent(g.score, g.low, g.high) if g.number > 1 else ''} | "
                     f"{_percent(g.playouts, g.playouts_low, g.playouts_high)} | "
                     f"{g.seconds:.0f} |")
    lines += ["", "![the generations](curve.png)", ""]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "progress.md").write_text("\n".join(lines))
    _curve(learning).savefig(folder / "curve.png")
    return folder / "progress.md"


def _percent(score, low, high) -> str:
    return "" if score is None else f"{100 * score:.1f}% [{100 * low:.1f}-{100 * high:.1f}]"


def _curve(learning: Learning):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.5, 4), dpi=110, layout="constrained")
    left, right = fig.subplots(1, 2)
    yardstick = "against the yardstick" if learning.kind == "policy" else "against playouts"
    for label, key in (("against the last", ""), (yardstick, "playouts")):
        rows = [g for g in learning.generations if getattr(g, key or "score") is not None]
        score = [100 * getattr(g, key or "score") for g in rows]
        low = [100 * getattr(g, f"{key}_low" if key else "low") for g in rows]
        high = [100 * getattr(g, f"{key}_high" if key else "high") for g in rows]
        left.errorbar([g.number for g in rows], score,
                      yerr=[[s - lo for s, lo in zip(score, low)],
                            [hi - s for s, hi in zip(score, high)]],
                      fmt="o-", capsize=4, label=label)
    left.axhline(50, color="tab:gray", linestyle=":", linewidth=1)
    left.set_xlabel("generation")
    left.set_ylabel("score (%)")
    left.legend(fontsize=8)
    generations = learning.generations
    right.plot([g.number for g in generations], [g.test_loss for g in generations], "o-",
               label="test")
    right.plot([g.number for g in generations], [g.baseline_loss for g in generations],
               ":", label="frequencies alone" if learning.kind == "policy" else "the mean alone")
    right.set_xlabel("generation")
    right.set_ylabel("loss (log loss of the teacher's move)" if learning.kind == "policy"
                     else "loss (mean squared error)")
    right.legend(fontsize=8)
    for ax in (left, right):
        ax.set_xticks([g.number for g in generations])
        ax.grid(alpha=0.3)
    fig.suptitle(f"Learning {learning.settings.game}", fontsize=10)
    return fig


def ship(learning: Learning, number: int, version: int, folder: Path) -> str:
    """Copy generation `number`'s model into `folder` (the package's models) as
    `<game>-v<version>` (a policy: `<game>-policy-v<version>`), its index entry naming
    where it came from; its digest."""
    matching = [g for g in learning.generations if g.number == number]
    if not matching:
        raise LearnError(f"{learning.folder} has no generation {number}")
    generation = matching[0]
    source = learning.folder / "models" / f"{generation.model}.npy"
    weights = np.load(source, allow_pickle=False)
    if digest_of(npy_bytes(weights)) != generation.digest:
        raise LearnError(f"{source} is not the model generation {number} wrote")
    short = learning.game.get_type().short_name
    features, variants = learning.model_entry()
    kind = "" if learning.kind == "value" else f"{learning.kind}-"
    return write_model(folder, f"{short}-{kind}v{version}", short, learning.kind, features,
                       variants, weights,
                       {"from": f"{generation.model} of koloda learn "
                                f"{learning.settings.game} (seed {learning.settings.seed})",
                        "settings": asdict(learning.settings)})
