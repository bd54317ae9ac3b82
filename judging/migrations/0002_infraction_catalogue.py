from django.db import migrations


def forwards(apps, schema_editor):
    from judging.catalogue import seed

    seed(apps.get_model("judging", "Infraction"))


class Migration(migrations.Migration):
    dependencies = [("judging", "0001_initial")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
