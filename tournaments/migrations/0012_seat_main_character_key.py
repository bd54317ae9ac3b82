from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0011_event_seed_by_rating")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="main_character_key",
            field=models.CharField(blank=True, max_length=300),
        ),
    ]
