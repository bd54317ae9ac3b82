"""The rate limit settings are read from the environment and refused when they cannot be read."""

from tests.test_settings import run_manage


def test_it_refuses_a_rate_it_cannot_read_with_the_settings_name():
    result = run_manage("check", RATELIMIT_SEARCH="sixty a minute")
    assert result.returncode != 0
    assert 'RATELIMIT_SEARCH must look like "60/m"' in result.stderr


def test_it_accepts_a_rate_with_a_multiple_of_the_period():
    result = run_manage("check", RATELIMIT_REGISTER="10/5m", RATELIMIT_SIGNUP="30/h")
    assert result.returncode == 0, result.stderr
