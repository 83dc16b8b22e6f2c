"""Ships the browser client inside the package: ``static/`` (the repository's, which the tests
and the editable install use in place) is copied to ``cardhall/static`` in every non-editable
build, so ``pip install .`` and the Docker image serve ``GET /``. Everything else is in
pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

STATIC = Path(__file__).resolve().parent / "static"


class BuildPyWithStatic(build_py):
    """``build_py`` plus a copy of ``static/`` into the built ``cardhall`` package."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode and STATIC.is_dir():
            shutil.copytree(STATIC, Path(self.build_lib) / "cardhall" / "static",
                            dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildPyWithStatic})
