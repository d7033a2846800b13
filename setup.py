"""The build step pyproject.toml cannot say: the translation catalogues compiled at build time.

Each ``core/language/locale/<lang>/LC_MESSAGES/<domain>.po`` becomes the ``.msgpack``
beside it (babel, a build requirement only), which the program reads
(``core.language.compiled``).  A wheel carries them; an editable install (``pip install
-e .``) compiles them in place, in the checkout (they are not committed: .gitignore).
Everything else is in pyproject.toml.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

# The checkout's or the sdist's own core (a build's hooks run with another folder first on sys.path);
# it needs msgspec, and babel to compile, the build requirements (pyproject.toml).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from core.language.compiled import SUFFIX, compiled  # noqa: E402

LOCALE = Path("core") / "language" / "locale"


class build_py_with_catalogues(build_py):  # noqa: N801 (setuptools' command names are lower case)
    def run(self) -> None:
        super().run()
        for source, target in self._catalogues().items():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(compiled(source.read_bytes(), source.parts[-3], source.stem))

    def _catalogues(self) -> dict[Path, Path]:
        # In an editable install the files the package reads are the checkout's: the compiled ones go there.
        root = Path() if self.editable_mode else Path(self.build_lib)
        return {po: root / po.with_suffix(SUFFIX) for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))}

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), *map(str, self._catalogues().values())]

    def get_output_mapping(self) -> dict[str, str]:
        return {**super().get_output_mapping(), **{str(out): str(po) for po, out in self._catalogues().items()}}


setup(cmdclass={"build_py": build_py_with_catalogues})
