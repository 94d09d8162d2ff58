from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "vtt.campaigns"
    label = "campaigns"
    verbose_name = "Campaigns"
