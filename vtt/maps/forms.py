from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from vtt.maps import images, services
from vtt.maps.models import MAX_SIDE, DistanceUnit, GridKind, HexOrientation, Light, Metric

FOG_REVEALED, FOG_HIDDEN = "revealed", "hidden"
# Revealed first and by default: a new map shows players their tokens; the referee hides what
# they must not see yet, or picks "hidden" to reveal a dungeon cell by cell.
FOG_START_CHOICES = [
    (FOG_REVEALED, _("Everything revealed: hide what the players must not see yet")),
    (FOG_HIDDEN, _("Everything hidden: reveal it as the party explores")),
]


class MapForm(forms.Form):
    """The referee's map settings (the service validates again; this renders and parses)."""

    name = forms.CharField(label=_("Name"), max_length=services.NAME_MAX)
    kind = forms.ChoiceField(label=_("Grid"), choices=GridKind.choices, initial=GridKind.SQUARE)
    orientation = forms.ChoiceField(
        label=_("Hexes"),
        choices=HexOrientation.choices,
        initial=HexOrientation.FLAT,
        help_text=_("Only for hex grids."),
    )
    width = forms.IntegerField(label=_("Width, cells"), min_value=1, max_value=MAX_SIDE, initial=30)
    height = forms.IntegerField(
        label=_("Height, cells"), min_value=1, max_value=MAX_SIDE, initial=20
    )
    cell_px = forms.IntegerField(
        label=_("Cell size, px"),
        min_value=services.CELL_PX[0],
        max_value=services.CELL_PX[1],
        initial=50,
    )
    cell_distance = forms.DecimalField(
        label=_("A cell is"),
        min_value=services.CELL_DISTANCE[0],
        max_value=services.CELL_DISTANCE[1],
        decimal_places=2,
        required=False,
        help_text=_("Empty: the ruleset's default (5 ft squares; a travel hex in miles)."),
    )
    distance_unit = forms.ChoiceField(
        label=_("Unit"), choices=[("", "—"), *DistanceUnit.choices], required=False
    )
    metric = forms.ChoiceField(
        label=_("Diagonals on squares"), choices=Metric.choices, initial=Metric.CHEBYSHEV
    )
    fogged = forms.TypedChoiceField(
        label=_("Fog of war at the start"),
        choices=FOG_START_CHOICES,
        coerce=lambda value: value == FOG_HIDDEN,
        initial=FOG_REVEALED,
        widget=forms.RadioSelect,
        help_text=_("Cells added when the map grows start the same way."),
    )
    ambient_light = forms.ChoiceField(
        label=_("Light on the map"),
        choices=Light.choices,
        initial=Light.BRIGHT,
        required=False,
        help_text=_("Crows battle maps: the light where nothing else is painted."),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("width", "height", "cell_px", "cell_distance"):
            self.fields[name].widget.attrs["inputmode"] = "decimal"

    def service_data(self) -> dict:
        data = dict(self.cleaned_data)
        if data.get("cell_distance") is None:
            data.pop("cell_distance", None)
        if not data.get("distance_unit"):
            data.pop("distance_unit", None)
        if not data.get("ambient_light"):
            data.pop("ambient_light", None)
        return data


class BackgroundForm(forms.Form):
    """The upload limits are settings (``MAP_UPLOAD_MAX_BYTES``, ``MAP_UPLOAD_MAX_PIXELS``): the
    hint is written when the form is made, in the page's language."""

    image = forms.FileField(
        label=_("Background image"),
        widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg,image/webp"}),
    )
    fit = forms.BooleanField(
        label=_("Fit the grid to the image"),
        required=False,
        help_text=_("Set the width and height in cells from the image size and the cell size."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["image"].help_text = gettext(
            "PNG, JPEG or WebP, up to %(mb)d MB and %(mp)d megapixels."
        ) % {"mb": images.max_bytes() // (1024 * 1024), "mp": images.max_pixels() // 1_000_000}
