import pytest

from tests.factories import make_user


@pytest.fixture
def organizer_client(client):
    user = make_user("org")
    client.force_login(user)
    client.user = user
    return client
