"""`fireteam report`: the files it writes, what it refuses, and hostile text made inert."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import msgspec
import pytest
from markdown_it import MarkdownIt

from core.game import Game
from core.log.views import REFEREE
from core.registry import get_ruleset
from core.report import account, build, render_html, render_md
from core.storage.decoding import Header
from tui.main import main as fireteam

SAVES = Path(__file__).resolve().parents[2] / "saves"
HOSTILE = [
    "<script>alert(1)</script>",
    "](javascript:alert(2))",
    "[x](javascript:alert(3))",
    "<img src=x onerror=alert(4)>",
    "*bold* `code` | cell | # head",
]


def hostile_game(tmp_path: Path) -> Path:
    """Ludonet's tanks scenario with a hostile title, unit names, a note and a cause."""
    text = Path(get_ruleset("ludonet").scenarios["tanks"].file).read_text(encoding="utf-8")
    text = text.replace('title = "Tanks at Cagny"', f"title = {msgspec.json.encode(HOSTILE[0]).decode()}")
    text = text.replace('name = "Sherman Firefly"', f"name = {msgspec.json.encode(HOSTILE[1]).decode()}")
    text = text.replace('name = "Typhoon"', f"name = {msgspec.json.encode(HOSTILE[3]).decode()}")
    scenario = tmp_path / "evil.toml"
    scenario.write_text(text, encoding="utf-8")
    game = Game.new(tmp_path / "evil.ft", "ludonet", seed=1)
    game.execute(f"scenario {scenario}", role=REFEREE)
    game.execute(f'note "{HOSTILE[2]} {HOSTILE[4]}"', role=REFEREE)
    game.execute(f"out sherman {HOSTILE[2]}", role=REFEREE)
    game.execute(f'out panzer "{HOSTILE[3]}"', role=REFEREE)  # Ludonet scores no defeat points: a cause
    game.close()
    return tmp_path / "evil.ft"


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attrs: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs += [f"{k}={v}" for k, v in attrs]


def parsed(html: str) -> Tags:
    tags = Tags()
    tags.feed(html)
    return tags


def test_hostile_names_notes_and_causes_come_out_as_text(tmp_path):
    save = hostile_game(tmp_path)
    report = build(Game.open(save, writable=False), REFEREE)
    assert report.facts.scenario == HOSTILE[0]
    out = tmp_path / "r.md"
    render_md.write(report, out)
    markdown = out.read_text(encoding="utf-8")
    shown = MarkdownIt("commonmark").enable("table").render(markdown)
    tags = parsed(shown)
    assert tags.tags <= {
        "h1",
        "h2",
        "h3",
        "p",
        "ul",
        "li",
        "strong",
        "br",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "img",
    }
    assert not any("javascript" in a.lower() or a.startswith("on") for a in tags.attrs)
    assert [a for a in tags.attrs if a.startswith("src=")] == [f"src=r-{n}.svg" for n in ("score", "losses", "luck")]
    # What a reader sees is the text itself, every character of it.
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in shown and "](javascript:alert(2))" in shown
    page = render_html.render(report)
    tags = parsed(page)
    assert "script" not in tags.tags and "img" not in tags.tags
    assert not any("javascript" in a.lower() or a.split("=")[0].startswith("on") for a in tags.attrs)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script" not in page.lower()
    # No line of either starts a heading or a list item with the save's text.
    assert not re.search(r"^\s*[#|*-]\s*\*bold", markdown, re.M)
    for svg in tmp_path.glob("r-*.svg"):
        assert "<script" not in svg.read_text(encoding="utf-8")


def test_the_command_writes_markdown_with_its_charts_or_one_html_page(tmp_path, capsys):
    save = SAVES / "demo-game.ft"
    assert fireteam(["report", str(save), "-o", str(tmp_path / "demo.md")]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "demo-losses.svg",
        "demo-luck.svg",
        "demo-score.svg",
        "demo.md",
    ]
    text = (tmp_path / "demo.md").read_text(encoding="utf-8")
    assert "![Score over the turns](demo-score.svg)" in text
    assert fireteam(["report", str(save), "--as", "regulars", "-o", str(tmp_path / "demo.html")]) == 0
    page = (tmp_path / "demo.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 3 and "As Bersaglieri saw it" in page
    assert "src=" not in page and "href=" not in page.replace("xmlns:xlink=", "")  # it loads nothing
    capsys.readouterr()
    assert fireteam(["report", str(save), "--format", "html"]) == 0
    assert capsys.readouterr().out.startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", "{tmp}/x.ft"], "will not write a report over a save"),
        (["-o", "{save}"], "will not write a report over a save"),
        (["-o", "{tmp}"], "is a folder"),
        (["-o", "{tmp}/nowhere/r.md"], "no such folder"),
        (["--as", "nobody"], "no role 'nobody'"),
        (["--step", "100000"], "step must be between 0 and"),
    ],
)
def test_the_command_refuses_what_it_cannot_do(tmp_path, capsys, args, message):
    save = SAVES / "demo-game.ft"
    before = save.read_bytes()
    args = [a.format(tmp=tmp_path, save=save) for a in args]
    assert fireteam(["report", str(save), *args]) == 2
    assert message in capsys.readouterr().err
    assert save.read_bytes() == before


def test_a_forked_save_names_where_it_left_its_original():
    game = Game.open(SAVES / "demo-game.ft", writable=False)
    Parent = getattr(__import__("core.storage.decoding", fromlist=["Parent"]), "Parent", None)
    if Parent is not None:
        parent = Parent(path="/home/anna/games/demo-game.ft", sha256="ab" * 32, step=120)
        game.header = msgspec.structs.replace(game.header, parent=parent)
    else:  # the fork's header field (session contract) is not in main yet: a stand-in with its shape

        class Forked(Header, frozen=True):
            parent: dict | None = None

        class Parent(msgspec.Struct, frozen=True):  # noqa: N801
            path: str
            sha256: str
            step: int

        game.header = Forked(
            **msgspec.structs.asdict(game.header), parent=Parent("/home/anna/games/demo-game.ft", "ab" * 32, 120)
        )
    report = build(game, REFEREE)
    assert report.facts.origin is not None and report.facts.origin.step == 120
    said = " ".join(account.summary(report))
    # The original by its file name: not the folders the referee keeps it in (#61).
    assert f"leaves the original demo-game.ft (sha256 {'ab' * 32}) after step 120" in said
    assert "/home/anna" not in render_md.render(report) + render_html.render(report)
    assert "after step 120" in render_md.render(report) and "after step 120" in render_html.render(report)
    assert build(Game.open(SAVES / "demo-game.ft", writable=False), REFEREE).facts.origin is None
