"""Maps: one per scene, on a square or hex grid, with tokens, fog of war, notes and (for travel
hexes) terrain and the party's position.

Cells are ``(col, row)`` in a width × height rectangle on both grids (offset coordinates on hex
maps, see ``systems/core/hexgrid.py``). Fog is one bit per cell, row-major, in ``revealed``;
``fog_version`` counts its changes and names the players' masked background in the cache.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from vtt.campaigns.models import Campaign
from vtt.characters.models import Character

MAX_SIDE = 200  # cells per side: 40 000 cells at most


class GridKind(models.TextChoices):
    SQUARE = "square", _("Squares")
    HEX = "hex", _("Hexes")


class HexOrientation(models.TextChoices):
    POINTY = "pointy", _("Pointy-top")
    FLAT = "flat", _("Flat-top")


class Metric(models.TextChoices):
    CHEBYSHEV = "chebyshev", _("A diagonal counts as one cell")
    ALTERNATING = "alternating", _("Every second diagonal counts double")
    MANHATTAN = "manhattan", _("No diagonal steps")


class DistanceUnit(models.TextChoices):
    FEET = "ft", _("ft")
    YARDS = "yd", _("yd")
    METRES = "m", _("m")
    MILES = "mi", _("mi")
    KILOMETRES = "km", _("km")


class Terrain(models.TextChoices):
    PLAINS = "plains", _("Plains")
    FOREST = "forest", _("Forest")
    HILLS = "hills", _("Hills")
    MOUNTAINS = "mountains", _("Mountains")
    SWAMP = "swamp", _("Swamp")
    WATER = "water", _("Water")
    DESERT = "desert", _("Desert")
    TUNDRA = "tundra", _("Tundra")
    ROAD = "road", _("Road")
    SETTLEMENT = "settlement", _("Settlement")
    RUINS = "ruins", _("Ruins")


class Light(models.TextChoices):
    """Light levels (Crows «Свет»), for a map's ambient light and painted squares."""

    BRIGHT = "bright", _("Bright light")
    DIM = "dim", _("Dim light")
    DARK = "dark", _("Darkness")


class Map(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="maps")
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=8, choices=GridKind.choices, default=GridKind.SQUARE)
    orientation = models.CharField(
        max_length=8, choices=HexOrientation.choices, default=HexOrientation.FLAT
    )
    metric = models.CharField(max_length=12, choices=Metric.choices, default=Metric.CHEBYSHEV)
    width = models.PositiveSmallIntegerField(default=30)
    height = models.PositiveSmallIntegerField(default=20)
    cell_px = models.PositiveSmallIntegerField(default=50)
    cell_distance = models.DecimalField(max_digits=8, decimal_places=2, default=5)
    distance_unit = models.CharField(
        max_length=4, choices=DistanceUnit.choices, default=DistanceUnit.FEET
    )
    # Cells start hidden (and cells added by a resize are hidden) when set.
    fogged = models.BooleanField(default=True)
    revealed = models.BinaryField(default=b"")
    fog_version = models.PositiveIntegerField(default=1)
    # The re-encoded background (never served directly: the referee gets it through a view,
    # players get a copy masked under the fog).
    background = models.CharField(max_length=200, blank=True)
    bg_width = models.PositiveIntegerField(default=0)
    bg_height = models.PositiveIntegerField(default=0)
    bg_version = models.PositiveIntegerField(default=0)
    terrain = models.JSONField(default=dict, blank=True)  # "col,row" → Terrain
    # Battle squares: "col,row" → {"cover": "wall"|"low", "height": n, "light": Light,
    # "concealment": "light"|"heavy"}; what attacks read (systems/crows/battlemap.py).
    features = models.JSONField(default=dict, blank=True)
    ambient_light = models.CharField(max_length=8, choices=Light.choices, default=Light.BRIGHT)
    # Travel: where players are told the party is, and where it really is (Crows "lost").
    party_col = models.IntegerField(null=True, blank=True)
    party_row = models.IntegerField(null=True, blank=True)
    true_col = models.IntegerField(null=True, blank=True)
    true_row = models.IntegerField(null=True, blank=True)
    active = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign_id", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign"], condition=Q(active=True), name="one_active_map"
            ),
            models.CheckConstraint(
                condition=Q(width__gte=1, width__lte=MAX_SIDE, height__gte=1, height__lte=MAX_SIDE),
                name="map_size_in_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_hex(self) -> bool:
        return self.kind == GridKind.HEX


class Token(models.Model):
    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="tokens")
    name = models.CharField(max_length=60)
    color = models.CharField(max_length=7, default="#7a2e1f")
    image = models.CharField(max_length=200, blank=True)
    image_version = models.PositiveIntegerField(default=0)
    size = models.CharField(max_length=16, default="medium")
    cells = models.PositiveSmallIntegerField(default=1)  # from the ruleset's size category
    character = models.ForeignKey(
        Character, on_delete=models.SET_NULL, null=True, blank=True, related_name="tokens"
    )
    hidden = models.BooleanField(default=False)  # the referee's alone
    col = models.PositiveSmallIntegerField(default=0)
    row = models.PositiveSmallIntegerField(default=0)
    speed = models.PositiveSmallIntegerField(null=True, blank=True)  # cells a round
    moved = models.PositiveIntegerField(default=0)  # cells moved this round
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["map_id", "id"]

    def __str__(self) -> str:
        return self.name


class MapNote(models.Model):
    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="notes")
    col = models.PositiveSmallIntegerField()
    row = models.PositiveSmallIntegerField()
    text = models.TextField(max_length=2000)
    # Secret notes are the referee's; the others reach players once their cell is revealed.
    secret = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["map_id", "id"]

    def __str__(self) -> str:
        return self.text[:40]
