"""Fixtures for the tests at this level (helpers live in helpers.py so test modules can import them)."""
import pytest

from helpers import BASE_CHIPSET, problems_in


@pytest.fixture
def check_records(tmp_path):
    def run(adapters=(), chipsets=(BASE_CHIPSET,)):
        return problems_in(tmp_path, adapters, chipsets)
    return run
