from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0010_pairing_policy_label")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="main_character_key",
            field=models.CharField(blank=True, max_length=300),
        ),
    ]
