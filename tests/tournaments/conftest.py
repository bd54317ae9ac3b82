import pytest

from tests.factories import make_user


@pytest.fixture
def organizer_client(client):
    """A client logged in as a user who organizes the events made with ``organizer=client.user``."""
    user = make_user("org")
    client.force_login(user)
    client.user = user
    return client
