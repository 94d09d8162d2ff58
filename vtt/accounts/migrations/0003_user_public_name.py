from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_english_labels"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="public_name",
            field=models.CharField(blank=True, max_length=40, verbose_name="display name"),
        ),
    ]
