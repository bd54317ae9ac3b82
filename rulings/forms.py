from __future__ import annotations

from django import forms

from .models import Document, Game


class SearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=200, label="Search the rules")
    game = forms.ChoiceField(required=False, label="Game")
    document = forms.ChoiceField(required=False, label="Document")

    def __init__(self, *args, games: list[Game], documents: list[Document], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", "All games")] + [(g.code, g.name) for g in games]
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
