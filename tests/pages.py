"""Reading pages as a visitor, for tests that check what every page of a kind shows."""

from __future__ import annotations


def read_pages(client, urls: dict[str, str]) -> dict[str, str]:
    """Each page's text by its name; every one must answer 200."""
    answers = {}
    for what, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, what
        answers[what] = response.content.decode()
    return answers
