from __future__ import annotations

from django import forms

from .models import Document, Game

# The toolkit's own game: a search without a game looks in its documents first (see ``views.index``).
HOME_GAME = "dcdb"
ALL_GAMES = "all"


class SearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=200, label="Search the rules")
    game = forms.ChoiceField(required=False, label="Game")
    document = forms.ChoiceField(required=False, label="Document")

    def __init__(self, *args, games: list[Game], documents: list[Document], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        games = sorted(games, key=lambda g: g.code != HOME_GAME)
        self.fields["game"].choices = [(g.code, g.name) for g in games] + [(ALL_GAMES, "All games")]
        self.fields["q"].error_messages["max_length"] = (
            "A search is at most %(limit_value)d characters (this one has %(show_value)d): try fewer words."
        )
        self.fields["document"].choices = [("", "All current documents")] + [
            (d.slug, f"{d.title} {d.edition}".strip() + ("" if d.is_current else " (old edition)"))
            for d in documents
        ]
        self.fields["q"].widget.input_type = "search"
        self.fields["q"].widget.attrs.update(
            {
                "placeholder": "Rule number, card, keyword or question",
                "autofocus": True,
                "autocomplete": "off",
                "autocapitalize": "off",
                "spellcheck": "false",
            }
        )
