"""The plan: every pair, every shared game, seat-swapped pairs on one seed,
fully determined by the tournament seed."""

from __future__ import annotations

from collections import Counter

from arena.model import BotSpec
from arena.play.plan import Entrant, group_into_matches, plan_round_robin, plan_solo


def entrant(name: str, games: set[str]) -> Entrant:
    return Entrant(BotSpec(name, ("true",), f"/bots/{name}", name * 8), frozenset(games))


BOTS = [entrant("a", {"slyyde", "detour"}), entrant("b", {"slyyde"}), entrant("c", {"slyyde", "detour"})]


def test_every_pair_plays_every_shared_game_in_seat_swapped_pairs():
    jobs = plan_round_robin(BOTS, ["detour", "slyyde"], rounds=3, seed=9)
    tables = Counter((job.game, frozenset(job.seats)) for job in jobs)
    ids = {e.spec.name: e.spec.bot_id for e in BOTS}
    assert tables == {
        ("slyyde", frozenset({ids["a"], ids["b"]})): 6, ("slyyde", frozenset({ids["a"], ids["c"]})): 6,
        ("slyyde", frozenset({ids["b"], ids["c"]})): 6, ("detour", frozenset({ids["a"], ids["c"]})): 6}
    for first, second in zip(jobs[::2], jobs[1::2]):
        assert first.seats == second.seats[::-1]
        assert first.seed == second.seed and first.round == second.round


def test_the_plan_depends_only_on_its_inputs():
    assert plan_round_robin(BOTS, ["slyyde"], 2, 1) == plan_round_robin(BOTS, ["slyyde"], 2, 1)
    assert plan_round_robin(BOTS, ["slyyde"], 2, 1) != plan_round_robin(BOTS, ["slyyde"], 2, 2)
    jobs = plan_round_robin(BOTS, ["slyyde"], 2, 1)
    assert len({job.key for job in jobs}) == len(jobs)
    assert [job.order for job in jobs] == list(range(len(jobs)))
    assert len({job.seed for job in jobs}) == len(jobs) // 2


def test_adding_a_round_keeps_the_earlier_games():
    two = plan_round_robin(BOTS, ["slyyde"], 2, 1)
    three = plan_round_robin(BOTS, ["slyyde"], 3, 1)
    assert {job.key: job.seed for job in two}.items() <= {job.key: job.seed for job in three}.items()


def test_matches_keep_one_table_and_whole_pairs():
    jobs = plan_round_robin(BOTS, ["detour", "slyyde"], rounds=10, seed=3)
    matches = group_into_matches(jobs, workers=2)
    assert sorted(j.key for m in matches for j in m) == sorted(j.key for j in jobs)
    for match in matches:
        assert len({(job.game, frozenset(job.seats)) for job in match}) == 1
        assert len(match) % 2 == 0
    assert len(matches) >= 8


def test_solo_jobs_have_one_seat_and_distinct_seeds():
    jobs = plan_solo(BOTS[0].spec, "slyyde", 5, seed=2)
    assert [len(job.seats) for job in jobs] == [1] * 5
    assert len({job.seed for job in jobs}) == 5 and len({job.key for job in jobs}) == 5
