"""The plan: every pair, every shared game, seat-swapped pairs on one seed,
fully determined by the run's dice key; matches that never give one bot
process two games on one seed."""

from __future__ import annotations

from collections import Counter

from arena.model import BotSpec, DiceKey
from arena.play.plan import Entrant, group_into_matches, plan_pods, plan_round_robin, plan_solo


def entrant(name: str, games: set[str]) -> Entrant:
    return Entrant(BotSpec(name, ("true",), f"/bots/{name}", name * 8), frozenset(games))


BOTS = [entrant("a", {"slyyde", "detour"}), entrant("b", {"slyyde"}), entrant("c", {"slyyde", "detour"})]


def test_every_pair_plays_every_shared_game_in_seat_swapped_pairs():
    jobs = plan_round_robin(BOTS, ["detour", "slyyde"], rounds=3, key=DiceKey.from_seed(9))
    tables = Counter((job.game, frozenset(job.seats)) for job in jobs)
    ids = {e.spec.name: e.spec.bot_id for e in BOTS}
    assert tables == {
        ("slyyde", frozenset({ids["a"], ids["b"]})): 6, ("slyyde", frozenset({ids["a"], ids["c"]})): 6,
        ("slyyde", frozenset({ids["b"], ids["c"]})): 6, ("detour", frozenset({ids["a"], ids["c"]})): 6}
    for first, second in zip(jobs[::2], jobs[1::2]):
        assert first.seats == second.seats[::-1]
        assert first.seed == second.seed and first.round == second.round


def test_the_plan_depends_only_on_its_inputs():
    one, two = DiceKey.from_seed(1), DiceKey.from_seed(2)
    assert plan_round_robin(BOTS, ["slyyde"], 2, one) == plan_round_robin(BOTS, ["slyyde"], 2, DiceKey.from_seed(1))
    assert plan_round_robin(BOTS, ["slyyde"], 2, one) != plan_round_robin(BOTS, ["slyyde"], 2, two)
    drawn = [job.seed for job in plan_round_robin(BOTS, ["slyyde"], 2, DiceKey.draw())]
    assert drawn != [job.seed for job in plan_round_robin(BOTS, ["slyyde"], 2, DiceKey.draw())]
    jobs = plan_round_robin(BOTS, ["slyyde"], 2, DiceKey.from_seed(1))
    assert len({job.key for job in jobs}) == len(jobs)
    assert [job.order for job in jobs] == list(range(len(jobs)))
    assert len({job.seed for job in jobs}) == len(jobs) // 2


def test_adding_a_round_keeps_the_earlier_games():
    two = plan_round_robin(BOTS, ["slyyde"], 2, DiceKey.from_seed(1))
    three = plan_round_robin(BOTS, ["slyyde"], 3, DiceKey.from_seed(1))
    assert {job.key: job.seed for job in two}.items() <= {job.key: job.seed for job in three}.items()


def test_matches_keep_one_table_and_never_two_games_on_one_seed():
    jobs = plan_round_robin(BOTS, ["detour", "slyyde"], rounds=10, key=DiceKey.from_seed(3))
    matches = group_into_matches(jobs, workers=2)
    assert sorted(j.key for m in matches for j in m) == sorted(j.key for j in jobs)
    for match in matches:
        assert len({(job.game, frozenset(job.seats)) for job in match}) == 1
        assert len({job.seed for job in match}) == len(match)
    assert len(matches) >= 8
    # Processes are still reused across rounds: one match per table and
    # seat order when the workers are few enough.
    assert len(group_into_matches(jobs, workers=1)) == 8


def test_a_pod_goes_to_as_many_matches_as_it_has_rotations():
    pods, _ = plan_pods([entrant(name, {"detour"}) for name in "abcd"], ["detour"], 4, 3, DiceKey.from_seed(1))
    matches = group_into_matches(pods, workers=1)
    assert len(matches) == 4 and all(len(match) == 3 for match in matches)
    assert all(len({job.seed for job in match}) == 3 for match in matches)


def test_solo_jobs_have_one_seat_and_distinct_seeds():
    jobs = plan_solo(BOTS[0].spec, "slyyde", 5, DiceKey.from_seed(2))
    assert [len(job.seats) for job in jobs] == [1] * 5
    assert len({job.seed for job in jobs}) == 5 and len({job.key for job in jobs}) == 5


def test_what_a_bot_is_told_names_neither_the_seed_nor_the_bots_and_differs_within_a_pair():
    key = DiceKey.from_seed(1)
    first, second = plan_round_robin(BOTS, ["slyyde"], 1, key)[:2]
    assert first.seed == second.seed
    for job in (first, second):
        assert len(job.game_id) == 16 and int(job.game_id, 16) >= 0
        assert not any(part in job.game_id for part in ("slyyde", "aaaa", "bbbb", "r0"))
    assert first.game_id != second.game_id
    assert {first.bot_seed(0), first.bot_seed(1)}.isdisjoint({second.bot_seed(0), second.bot_seed(1)})
    assert first.seed not in {first.bot_seed(0), first.bot_seed(1)}
