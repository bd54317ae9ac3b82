from django.urls import path, register_converter

from . import views, views_read


class KeyConverter:
    """An entry or section key (it may hold slashes); a NUL byte is never part of one, and PostgreSQL
    refuses to compare text with it, so such an address is simply not found."""

    regex = "[^\x00]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class NumberConverter(KeyConverter):
    regex = "[^/\x00]+"


register_converter(KeyConverter, "key")
register_converter(NumberConverter, "number")

app_name = "rulings"
urlpatterns = [
    path("", views.index, name="index"),
    path("offline-index.json", views_read.offline_index, name="offline_index"),
    path("rule/<slug:game>/<number:number>/", views.rule, name="rule"),
    path("cards/<slug:game>/", views.cards, name="cards"),
    path("glossary/<slug:game>/", views_read.glossary, name="glossary"),
    path("peek/<slug:slug>/<key:key>/", views_read.peek, name="peek"),
    path("d/<slug:slug>/", views.document, name="document"),
    path("d/<slug:slug>/changes/", views.changes, name="changes"),
    path("d/<slug:slug>/s/<key:key>/", views.section, name="section"),
    path("d/<slug:slug>/e/<key:key>/", views.entry, name="entry"),
]
