"""Package mapping (the rest of the metadata is in pyproject.toml).

The repo keeps the design card's top level, ``tourney/``, ``cli/`` and ``reports/``,
but every installed import name lives under ``tourney``: ``cli/`` installs as
``tourney.cli`` and ``reports/`` as ``tourney.reports``, so no bare ``cli`` or
``reports`` module lands in site-packages. Sub-packages are found, not listed, so a
new folder with an ``__init__.py`` needs no edit here.
"""
from setuptools import find_packages, setup

MAPPED = {"tourney.cli": "cli", "tourney.reports": "reports", "tourney.web": "web"}


def mapped_packages(prefix: str, folder: str) -> list[str]:
    found = find_packages(include=[folder, folder + ".*"])
    return [prefix + name[len(folder):] for name in found]


packages = find_packages(include=["tourney", "tourney.*"])
for prefix, folder in MAPPED.items():
    packages += mapped_packages(prefix, folder)

setup(
    packages=packages,
    package_dir={"tourney": "tourney", **MAPPED},
    package_data={
        "tourney.reports": ["templates/*", "templates/**/*", "static/*", "locale/*/LC_MESSAGES/*", "*.cfg"],
        "tourney.web": ["templates/*", "static/*"],
        "tourney.storage": ["alembic.ini", "migrations/*", "migrations/**/*"],
    },
)
