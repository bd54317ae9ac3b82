from django.urls import path

from . import views, views_read

app_name = "rulings"
urlpatterns = [
    path("", views.index, name="index"),
    path("rule/<slug:game>/<str:number>/", views.rule, name="rule"),
    path("cards/<slug:game>/", views.cards, name="cards"),
    path("glossary/<slug:game>/", views_read.glossary, name="glossary"),
    path("peek/<slug:slug>/<path:key>/", views_read.peek, name="peek"),
    path("d/<slug:slug>/", views.document, name="document"),
    path("d/<slug:slug>/changes/", views.changes, name="changes"),
    path("d/<slug:slug>/s/<path:key>/", views.section, name="section"),
    path("d/<slug:slug>/e/<path:key>/", views.entry, name="entry"),
]
