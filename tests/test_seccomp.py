"""The box's system-call filter (arena/bots/seccomp.py, issue 38).

A real bot (tests/zoo/syscalls.py) makes every denied call in a real
tournament, as root and as an ordinary user, and each returns what the
filter returns for it (EPERM; ENOSYS for clone3; EAFNOSUPPORT for socket);
the same calls in a box without the filter return something else, so it is
the filter that refused them. Bots in Python, Node, Java, C++ and Perl pass
``arena check`` with the filter on, and the documentation lists what
``DENIED`` lists."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from support import ARENA, RANDOM_BOT, REPO, arena

from arena.bots import isolation, seccomp
from arena.errors import ArenaError
from arena.model import BotSpec, Limits

OPTIONS = ["--rounds", "1", "--jobs", "1", "--move-timeout", "2", "--startup-timeout", "20"]
# The calls whose refusal a box without the filter also gives (they need a
# capability the box has not); every other call, unfiltered, fails
# otherwise, or succeeds.
REFUSED_ANYWAY = {"pivot_root", "move_mount", "fsopen", "fsmount", "fspick", "kexec_load", "kexec_file_load",
                  "init_module", "finit_module", "delete_module", "acct", "syslog", "userfaultfd", "bpf"}


def _expected(name: str) -> str:
    return {"clone3": "ENOSYS", "socket": "EAFNOSUPPORT"}.get(name.split("(")[0], "EPERM")


def _zoo_numbers(zoo_dir: Path) -> dict[str, dict[str, int]]:
    tree = ast.parse((zoo_dir / "syscalls.py").read_text())
    [numbers] = [node.value for node in tree.body if isinstance(node, ast.Assign)
                 and any(isinstance(target, ast.Name) and target.id == "NUMBERS" for target in node.targets)]
    return ast.literal_eval(numbers)


def _reported(text: str) -> dict[str, str]:
    return dict(re.findall(r"^syscall (.+?): (\S+)$", text, re.M))


def test_the_zoo_bot_makes_every_denied_call_by_its_number(zoo_dir):
    """Its table of numbers is libseccomp's, for every call denied that
    the architecture has."""
    import pyseccomp

    for machine, arch in (("x86_64", pyseccomp.Arch.X86_64), ("aarch64", pyseccomp.Arch.AARCH64)):
        table = _zoo_numbers(zoo_dir)[machine]
        wanted = {call: pyseccomp.resolve_syscall(arch, call) for call in [*seccomp.denied_calls(), "getpid"]}
        assert table == {call: number for call, number in wanted.items() if number >= 0}, machine


def test_the_filter_is_compiled_for_this_machine():
    """Compiled once, as a whole number of BPF instructions; handed to each
    bot in a memory file that is not inherited by accident."""
    program = seccomp.program()
    assert program and len(program) % 8 == 0
    fd = seccomp.program_file()
    try:
        assert os.read(fd, len(program) + 1) == program
        assert not os.get_inheritable(fd)
    finally:
        os.close(fd)


def test_without_libseccomp_arena_says_so_in_one_line(monkeypatch):
    """pyseccomp raises RuntimeError when it finds no libseccomp.so.2."""
    import ctypes.util

    if isolation.box_problem():
        pytest.skip(isolation.box_problem())
    found = ctypes.util.find_library
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: None if name == "seccomp" else found(name))
    monkeypatch.delitem(sys.modules, "pyseccomp", raising=False)
    seccomp.program.cache_clear()
    try:
        with pytest.raises(ArenaError, match=r"^cannot build the bots' system-call filter: .*libseccomp2") as raised:
            isolation.check(Limits())
        assert "\n" not in str(raised.value)
    finally:
        monkeypatch.undo()
        seccomp.program.cache_clear()


def _spec(bot: Path, *args: str) -> BotSpec:
    return BotSpec(bot.stem, (sys.executable, str(bot), *args), str(bot), "0")


def _probe(bot: Path, filtered: bool) -> dict[str, str]:
    """What each call returns in a box made as a bot's (``--probe``), with
    or without the filter."""
    fd = seccomp.program_file() if filtered else None
    try:
        command = isolation.box_command(_spec(bot, "--probe"), Limits(), fd)
        run = subprocess.run(command, capture_output=True, text=True, timeout=60, pass_fds=(fd,) if fd else ())
    finally:
        if fd is not None:
            os.close(fd)
    assert run.returncode == 0, run.stderr
    return _reported(run.stdout)


def test_it_is_the_filter_that_refuses(zoo_dir):
    """In a box without the filter the calls fail otherwise (EFAULT, EINVAL,
    EBADF, ENOSYS...) or succeed, but for those that need a capability the
    box has not: the zoo bot's EPERMs come from the filter."""
    if isolation.box_problem():
        pytest.skip(isolation.box_problem())
    bot = zoo_dir / "syscalls.py"
    unfiltered, filtered = _probe(bot, filtered=False), _probe(bot, filtered=True)
    assert set(unfiltered) == set(filtered) and len(filtered) >= len(seccomp.denied_calls())
    assert {name: result for name, result in filtered.items() if result != _expected(name)} == {}
    same = {name for name in filtered if unfiltered[name] == filtered[name]}
    assert same <= REFUSED_ANYWAY, {name: unfiltered[name] for name in same - REFUSED_ANYWAY}


def _tournament(folder: Path, zoo_dir: Path, game: str, user=None, python: Path | None = None) -> str:
    """Play the zoo bot against an honest one; its logs."""
    bots = folder / "bots"
    bots.mkdir(parents=True)
    shutil.copy(zoo_dir / "syscalls.py", bots)
    shutil.copy(RANDOM_BOT, bots / "honest.py")
    tmpdir = folder / "tmp"
    tmpdir.mkdir()
    if user is None:
        env = dict(os.environ, PYTHONPATH=str(REPO), TMPDIR=str(tmpdir))
        command, identity = ARENA, {}
    else:
        for path in [folder, *folder.rglob("*")]:
            os.chown(path, user.pw_uid, user.pw_gid)
        env = {"PATH": "/usr/bin:/bin", "HOME": str(folder.parent), "TMPDIR": str(tmpdir), "LANG": "C.UTF-8"}
        command = [str(python), "-m", "arena.cli"]
        identity = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    run = subprocess.run([*command, "tournament", "--bots", str(bots), "--games", game, *OPTIONS], cwd=folder,
                         env=env, capture_output=True, text=True, timeout=600, **identity)
    if "bubblewrap cannot make a box here" in run.stderr:
        pytest.skip(run.stderr.strip().splitlines()[-1])
    assert run.returncode == 0, run.stderr
    with closing(sqlite3.connect(folder / "arena.db")) as db:
        rows = db.execute("SELECT seats, termination, forfeit_seat FROM games").fetchall()
    assert len(rows) == 2
    for seats, termination, forfeit_seat in rows:
        assert (json.loads(seats)[forfeit_seat].split("@")[0], termination) == ("syscalls", "illegal")
    return "".join(path.read_text() for path in (folder / "logs" / "bots").rglob("*-syscalls.stderr.log"))


def _check_refused(log: str) -> None:
    found = _reported(log)
    assert len(found) >= len(seccomp.denied_calls()), log
    assert {name: result for name, result in found.items() if result != _expected(name)} == {}
    assert "attack syscalls: blocked" in log and "SUCCEEDED" not in log, log


@pytest.mark.slow
def test_denied_calls_return_their_error_in_a_tournament_as_root(zoo_dir, zoo_game, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("the ordinary-user test covers this machine")
    _check_refused(_tournament(tmp_path, zoo_dir, zoo_game))


@pytest.mark.slow
def test_denied_calls_return_their_error_in_a_tournament_as_an_ordinary_user(ordinary_user, zoo_dir, zoo_game):
    account, home, python = ordinary_user
    _check_refused(_tournament(home / "tournament", zoo_dir, zoo_game, account, python))


# -- runtimes under the filter ------------------------------------------------------------------

PERL_BOT = r"""#!/usr/bin/perl
# An arena bot in Perl with core modules only: the first offered action.
use strict;
use warnings;
use JSON::PP;
$| = 1;
my $json = JSON::PP->new->canonical;
while (my $line = <STDIN>) {
    my $message = $json->decode($line);
    my $type = $message->{type};
    if ($type eq "hello") {
        print $json->encode({type => "hello", name => "perl_first", games => $message->{games}}), "\n";
    } elsif ($type eq "decide") {
        print $json->encode({type => "action", action => $message->{actions}[0]}), "\n";
    } elsif ($type eq "bye") {
        last;
    }
}
"""


def _java_bot(folder: Path) -> None:
    """The Java bot of docs/how-to/compiled-bots.md, compiled."""
    page = (REPO / "docs" / "how-to" / "compiled-bots.md").read_text()
    source = re.search(r'```java title="bots/java_first/Bot.java"\n(.*?)```', page, re.S)
    assert source, "the how-to's Java bot"
    (folder / "Bot.java").write_text(source.group(1))
    subprocess.run(["javac", "Bot.java"], cwd=folder, check=True, capture_output=True, timeout=300)
    (folder / "bot.json").write_text(json.dumps({"command": ["java", "-cp", ".", "Bot"]}))


def _cpp_bot(folder: Path, gpp: str) -> None:
    for name in ("arena_bot.hpp", "example_bot.cpp"):
        shutil.copy(REPO / "protocol" / "helpers" / name, folder / name)
    subprocess.run([gpp, "-std=c++17", "-O2", "-o", "example_bot", "example_bot.cpp"], cwd=folder, check=True,
                   capture_output=True, timeout=300)
    (folder / "bot.json").write_text(json.dumps({"command": ["./example_bot"]}))


@pytest.mark.slow  # a whole check per language: dozens of games each
@pytest.mark.parametrize("language", ["python", "node", "java", "c++", "perl"])
def test_bots_in_every_language_pass_arena_check_under_the_filter(language, request, tmp_path):
    """The runtimes' threads, memory reservations and probes (the JVM's,
    libuv's io_uring) live with the filter: each bot is fit for a
    tournament."""
    bots = tmp_path / "bots"
    folder = bots / "bot"
    folder.mkdir(parents=True)
    if language == "python":
        shutil.copy(RANDOM_BOT, folder / "bot.py")
        (folder / "bot.json").write_text(json.dumps({"command": ["python3", "bot.py"]}))
    elif language == "node":
        node = request.getfixturevalue("node")
        shutil.copy(REPO / "bots" / "random_bot_js.js", folder / "bot.js")
        (folder / "bot.json").write_text(json.dumps({"command": [node, "bot.js"]}))
    elif language == "java":
        if not (shutil.which("javac") and shutil.which("java")):
            pytest.skip("no JDK (javac, java) here")
        _java_bot(folder)
    elif language == "c++":
        _cpp_bot(folder, request.getfixturevalue("gpp"))
    else:
        (folder / "bot.pl").write_text(PERL_BOT)
        (folder / "bot.json").write_text(json.dumps({"command": ["perl", "bot.pl"]}))
    run = arena("check", "bot", "--bots", str(bots), "--move-timeout", "1", cwd=tmp_path, tmpdir=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "bot is fit for a tournament", run.stdout


# -- the documentation -----------------------------------------------------------------------------


def test_the_protocol_lists_every_denied_call():
    """PROTOCOL.md names what returns an error, for bot authors; the
    generated reference (docs/generate.py) has the whole table."""
    text = (REPO / "protocol" / "PROTOCOL.md").read_text()
    section = text[text.index("System calls"):]
    named = set(re.findall(r"`(\w+)`", section[:section.index("\n## ")]))
    assert set(seccomp.denied_calls()) <= named, set(seccomp.denied_calls()) - named
