"""``fireteam completion bash|zsh|fish``: a script the shell accepts, completing commands and options."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]


def script(shell: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "tui.main", "completion", shell],
        capture_output=True, text=True, cwd=ROOT, timeout=120, check=True,
    )  # fmt: skip
    return done.stdout


def bash_completes(line: str) -> list[str]:
    """What bash offers for ``line`` (its last word), the script sourced as a user's .bashrc would."""
    words = line.split(" ")
    program = f"""
source /dev/stdin <<'COMPLETION'
{script("bash")}
COMPLETION
COMP_WORDS=({" ".join(f"'{w}'" for w in words)}); COMP_CWORD={len(words) - 1}
COMP_LINE='{line}'; COMP_POINT={len(line)}
_shtab_fireteam fireteam '{words[-1]}' '{words[-2]}'
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return sorted(w.strip() for w in done.stdout.split())


def test_bash_completes_the_commands_their_options_and_the_client_s():
    assert bash_completes("fireteam rep") == ["replay", "report"]
    assert bash_completes("fireteam compl") == ["completion"]
    assert "--json" in bash_completes("fireteam log --")
    assert bash_completes("fireteam --pl") == ["--plain"]
    assert bash_completes("fireteam paths --j") == ["--json"]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_shell_accepts_its_script(shell, tmp_path):
    text = script(shell)
    for command in ("script", "replay", "report", "serve", "paths", "completion"):
        assert command in text, command
    if shutil.which(shell) is None:
        pytest.skip(f"no {shell} here to read it (.ci/run installs zsh and fish)")
    path = tmp_path / f"fireteam.{shell}"
    path.write_text(text)
    check = {"bash": ["bash", "-n"], "zsh": ["zsh", "-n"], "fish": ["fish", "--no-execute"]}[shell]
    done = subprocess.run([*check, str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
