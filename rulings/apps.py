from django.apps import AppConfig


class RulingsConfig(AppConfig):
    name = "rulings"
