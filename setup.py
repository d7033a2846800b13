"""The build step pyproject.toml cannot say: the translation catalogues compiled at build time.

Each ``core/language/locale/<lang>/LC_MESSAGES/<domain>.po`` becomes the ``.mo``
beside it (babel, a build requirement only), which the program reads with the
standard library's ``gettext``.  A wheel carries the ``.mo`` files; an editable
install (``pip install -e .``) compiles them in place, in the checkout (they are
not committed: .gitignore).  Everything else is in pyproject.toml.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LOCALE = Path("core") / "language" / "locale"


class build_py_with_catalogues(build_py):  # noqa: N801 (setuptools' command names are lower case)
    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for source, target in self._catalogues().items():
            with open(source, "rb") as f:
                catalog = read_po(f, locale=source.parts[-3], domain=source.stem)
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as f:
                write_mo(f, catalog, use_fuzzy=False)

    def _catalogues(self) -> dict[Path, Path]:
        # In an editable install the files the package reads are the checkout's: the .mo go there.
        root = Path() if self.editable_mode else Path(self.build_lib)
        return {po: root / po.with_suffix(".mo") for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))}

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), *map(str, self._catalogues().values())]

    def get_output_mapping(self) -> dict[str, str]:
        return {**super().get_output_mapping(), **{str(mo): str(po) for po, mo in self._catalogues().items()}}


setup(cmdclass={"build_py": build_py_with_catalogues})
