"""Accounts made before sign-up existed (by an administrator or the shell) keep logging in: the email
address an administrator gave them counts as verified."""

from django.db import migrations


def mark_verified(apps, schema_editor):
    User = apps.get_model("auth", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    taken = {e.lower() for e in EmailAddress.objects.values_list("email", flat=True)}
    for user in User.objects.exclude(email=""):
        if user.email.lower() in taken:
            continue
        taken.add(user.email.lower())
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(mark_verified, migrations.RunPython.noop)]
