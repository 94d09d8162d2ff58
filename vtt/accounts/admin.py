from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from vtt.accounts.models import User


@admin.register(User)
class VttUserAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets, ("VTT", {"fields": ("language",)}))
