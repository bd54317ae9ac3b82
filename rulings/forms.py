from __future__ import annotations

from django import forms

from .models import Document, Game
from .query import MAX_CHARS

# "All games" was a choice of its own before every game became the default; old links still say it.
ALL_GAMES = "all"


class SearchForm(forms.Form):
    # A judge pastes a player's whole message at times (two to four sentences); the command takes as much.
    q = forms.CharField(required=False, max_length=MAX_CHARS, label="Search the rules")
    game = forms.ChoiceField(required=False, label="Game")
    document = forms.ChoiceField(required=False, label="Document")

    def __init__(self, *args, games: list[Game], documents: list[Document], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        games = sorted(games, key=lambda g: g.code != "dcdb")
        self.fields["game"].choices = [("", "All games")] + [(g.code, f"{g.name} only") for g in games]
        self.fields["game"].choices += (
            [(ALL_GAMES, "All games")] if self.data.get("game") == ALL_GAMES else []
        )
        self.fields["q"].error_messages["max_length"] = (
            "A search is at most %(limit_value)d characters (this one has %(show_value)d): try fewer words."
        )
        self.fields["document"].choices = [("", "All current documents")] + [
            (d.slug, f"{d.title} {d.edition}".strip() + ("" if d.is_current else " (old edition)"))
            for d in documents
        ]
        # A filter from an old link or an old browser (the top bar carries the last one chosen) is dropped
        # with a word, never the search with it: the view searches without it.
        self.fields["game"].error_messages["invalid_choice"] = (
            "“%(value)s” is not a game here: every game was searched."
        )
        self.fields["document"].error_messages["invalid_choice"] = (
            "“%(value)s” is not a document here (an old link?): every current document was searched."
        )
        self.fields["q"].widget.input_type = "search"
        self.fields["q"].widget.attrs.update(
            {
                "placeholder": "Rule, card or question",
                "autofocus": True,
                "autocomplete": "off",
                "autocapitalize": "off",
                "spellcheck": "false",
            }
        )

    def scope(self) -> str:
        """What is searched, in words, for the filters' summary line: the filters that hold (an unknown one
        is left out, as the search leaves it out)."""
        chosen = getattr(self, "cleaned_data", {})
        games, documents = dict(self.fields["game"].choices), dict(self.fields["document"].choices)
        if chosen.get("document"):
            decides = chosen.get("game", "") not in ("", ALL_GAMES)
            return documents[chosen["document"]] + (" (the document decides the game)" if decides else "")
        return f"{games.get(chosen.get('game', ''), 'All games')} · All current documents"
