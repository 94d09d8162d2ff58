from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "vtt.accounts"
    label = "accounts"
    verbose_name = "Accounts"
