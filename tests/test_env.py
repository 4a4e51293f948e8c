"""The games as environments for learners (arena.env, issue 40): PettingZoo's
own API and seed tests for every registered game at every table it seats
(and Pig, the plug-in example, from its own folder), the environment
agreeing with the engine's playouts step by step, the encodings as their
rules documents list them, the factory's refusals, the Gymnasium seat and
a policy served as a real bot in a real tournament in its box."""

from __future__ import annotations

import json
import sqlite3
import sys
from contextlib import closing

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from support import REPO, arena, python_bot, random_bots

from arena import results
from arena.env import SingleAgentEnv, env, raw_env, serve_policy
from arena.games import SPECS
from arena.games.encoding import reference
from arena.games.playout import random_playout

sys.path.insert(0, str(REPO / "examples" / "pig"))
from arena_pig import SPEC as PIG  # noqa: E402  (the plug-in example, not installed here)

GAMES = {**SPECS, "pig": PIG}


def tables():
    """Every game, every count its environment seats (two and up), every
    option set its conformance suite plays there."""
    for name, spec in sorted(GAMES.items()):
        for players in range(max(2, spec.game.min_players), spec.game.max_players + 1):
            for options in spec.conformance.get(players, [{}]):
                yield pytest.param(spec, players, options, id=f"{name}-{players}-{json.dumps(options)}")


@pytest.mark.parametrize(("spec", "players", "options"), list(tables()))
def test_pettingzoo_api_and_seed_tests_pass(spec, players, options):
    api_test(env(spec, players, options), num_cycles=300)
    seed_test(lambda: env(spec, players, options), num_cycles=300)


def test_every_registered_game_brings_an_encoding():
    assert all(spec.encoding is not None for spec in SPECS.values()), sorted(SPECS)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_ten_thousand_steps_agree_with_the_engines_playouts(name):
    """Same seed, same choices: the environment offers what the playout was
    offered, shows the state the playout's events make, and ends with the
    playout's placements, scored by the one scoring rule."""
    spec = GAMES[name]
    roll_step = spec.encoding.ROLL_STEP
    steps = seed = 0
    while steps < 10_000:
        players = 2 + seed % (spec.game.max_players - 1)
        final, events = random_playout(spec.game, players, seed)
        replay = spec.game.new_state(players)
        game = raw_env(spec, players)
        game.reset(seed=seed)
        for event in events:
            if event["kind"] == "chance":
                if roll_step is not None and event["stream"].startswith("seat:"):
                    agent = game.agent_selection
                    assert game.infos[agent]["action_mask"].nonzero()[0].tolist() == [roll_step]
                    assert agent == f"player_{event['stream'][5:]}"
                    game.step(roll_step)
                    steps += 1
                replay.apply_chance(tuple(event["values"]))
                continue
            info = game.infos[game.agent_selection]
            assert game.agent_selection == f"player_{event['seat']}"
            assert info["state"] == replay.to_json() and info["actions"] == event["offered"]
            chosen = event["offered"][event["chosen"]]
            index = spec.encoding(spec.game, players, {}).action_index(chosen, info["state"])
            assert info["action_mask"][index] == 1 and info["action_mask"].sum() == len(event["offered"])
            game.step(index)
            replay.apply_action(chosen)
            steps += 1
        assert all(game.terminations.values()), f"seed {seed}: the environment's game goes on"
        placements = final.outcome().placements
        assert game.infos["player_0"]["placements"] == list(placements)
        assert game.infos["player_0"]["state"] == final.to_json()
        assert [game.rewards[agent] for agent in game.possible_agents] == list(results.points(placements))
        seed += 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_rules_document_lists_the_encoding_as_it_is(name):
    spec = GAMES[name]
    assert reference(spec.encoding) in spec.rules_path().read_text()


@pytest.mark.parametrize(("spec", "players", "options"), list(tables()))
def test_observations_are_the_observers_view(spec, players, options):
    """Every number is in [0, 1] at every step, slot 0 of ``seats`` is always
    there, and two seats see one position differently (each itself first)."""
    game = raw_env(spec, players, options)
    game.reset(seed=7)
    encoding = game.encoding
    differ = False
    for _ in range(200):
        if all(game.terminations.values()):
            break
        views = [game.observe(agent) for agent in game.possible_agents]
        for agent, seen in zip(game.possible_agents, views):
            assert seen.dtype == np.float32 and seen.shape == (encoding.size,)
            assert game.observation_space(agent).contains(seen)
            assert seen[encoding.offsets["seats"]:encoding.offsets["seats"] + 4].tolist() == \
                [1.0] * players + [0.0] * (4 - players)
        differ = differ or not np.array_equal(views[0], views[1])
        mask = game.infos[game.agent_selection]["action_mask"]
        game.step(int(np.flatnonzero(mask)[-1]))
    assert differ, "every seat saw the same numbers: the observer is not in the observation"


def test_the_factory_refuses_what_a_game_cannot_seat_with_one_line():
    with pytest.raises(ValueError, match="detour is for 2 to 4 players, not 5"):
        env("detour", players=5)
    with pytest.raises(ValueError, match="detour has no option 'colour'"):
        env("detour", players=2, options={"colour": 1})
    with pytest.raises(ValueError, match="pieces"):
        env("detour", players=3, options={"pieces": 4})
    with pytest.raises(ValueError, match="unknown game: 'chess'"):
        env("chess")
    with pytest.raises(ValueError, match="no environment for one seat"):
        env("slyyde", players=1)


def test_an_action_not_offered_is_refused_and_the_wrapped_env_ends_the_game():
    game = raw_env("ciclovia", 2)
    game.reset(seed=1)
    with pytest.raises(ValueError, match="is not offered to player_0"):
        game.step(35)
    wrapped = env("ciclovia", 2)
    wrapped.reset(seed=1)
    wrapped.step(35)  # PettingZoo's TerminateIllegalWrapper logs it and ends the game
    assert wrapped.rewards["player_0"] == -1 and all(wrapped.terminations.values())


def test_render_words_the_position_and_the_offered_actions():
    game = raw_env("detour", 2, render_mode="ansi")
    game.reset(seed=1)
    text = game.render()
    assert "player_0 to decide:" in text and "move the piece on 45 first" in text, text


def test_the_gymnasium_seat_plays_against_the_house_greedy_bot_and_policies():
    seat = SingleAgentEnv("slyyde", players=3, seat=1, opponents=["greedy", lambda obs, mask: int(mask.argmax())])
    obs, info = seat.reset(seed=3)
    assert seat.observation_space.contains(obs) and info["action_mask"].any()
    done, reward = False, 0.0
    while not done:
        obs, reward, done, truncated, info = seat.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not truncated
    assert reward == results.points(info["placements"])[1]  # seat 1's points, by the one scoring rule
    with pytest.raises(ValueError, match="2 opponents wanted"):
        SingleAgentEnv("slyyde", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="unknown house bot: 'clever'"):
        SingleAgentEnv("detour", opponents="clever")


def test_serve_policy_answers_the_protocol_with_the_environments_numbers(tmp_path):
    """In process, through its streams: what the policy is shown is what the
    environment shows the same seat."""
    import io

    game = raw_env("roundabout", 2)
    game.reset(seed=4)
    agent = game.agent_selection
    info = game.infos[agent]
    seat = game.possible_agents.index(agent)
    shown = []

    def policy(observation, mask):
        shown.append((observation, mask))
        return int(np.flatnonzero(mask)[-1])

    lines = [{"type": "hello", "protocol": 1, "games": ["roundabout", "detour"]},
             {"type": "game_start", "game": "roundabout", "seat": seat, "players": 2, "options": {}},
             {"type": "decide", "state": info["state"], "actions": info["actions"], "timeout_ms": 1000},
             {"type": "bye"}]
    out = io.StringIO()
    serve_policy(policy, name="mine", stdin=io.StringIO("".join(json.dumps(m) + "\n" for m in lines)), stdout=out)
    hello, answer = (json.loads(line) for line in out.getvalue().splitlines())
    assert hello == {"type": "hello", "name": "mine", "games": ["detour", "roundabout"]}
    assert np.array_equal(shown[0][0], game.observe(agent)) and np.array_equal(shown[0][1], info["action_mask"])
    game.step(int(np.flatnonzero(info["action_mask"])[-1]))
    assert answer["action"] in info["actions"] and game.infos[agent] is not info


POLICY_BOT = """\
    import numpy as np
    from arena.env import serve_policy

    serve_policy(lambda observation, mask: int(np.flatnonzero(mask)[-1]), name="policy_bot")
"""


def test_a_served_policy_plays_a_real_tournament_in_its_box(tmp_path):
    bots = random_bots(tmp_path / "bots", ["randy"])
    python_bot(bots, "policy_bot", POLICY_BOT)
    run = arena("tournament", "--bots", "bots", "--games", "detour,slyyde", "--rounds", "2", "--jobs", "2",
                "--move-timeout", "2", "--isolation", "box", "--db", "t.db", "--out", "site", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "UNUSABLE" not in run.stderr and "skipping" not in run.stderr, run.stderr
    with closing(sqlite3.connect(tmp_path / "t.db")) as db:
        rows = db.execute("SELECT game, seats, termination FROM games").fetchall()
    assert {game for game, _, _ in rows} == {"detour", "slyyde"} and len(rows) == 8, rows
    assert all("policy_bot" in seats for _, seats, _ in rows), rows
    assert {termination for _, _, termination in rows} <= {"normal", "turn_cap"}, rows  # no forfeit
