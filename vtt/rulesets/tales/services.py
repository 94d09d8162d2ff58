"""The Tales new-character wizard as stored, resumable state (DESIGN.md: services own writes).

Each step locks the user's wizard row, runs one ``systems.tales`` wizard action (the server
rolls the dice), and saves the new state. A step the rules refuse raises before anything is
saved, so a refused step leaves the wizard exactly as it was. Finishing creates the character
sheet through ``vtt.characters.services.character_create`` in the same transaction.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from systems import get_ruleset
from systems.core.dice import Dice, RandomDice
from systems.core.ruleset import RulesError
from vtt.accounts.models import User
from vtt.campaigns.models import Campaign
from vtt.characters import services as character_services
from vtt.characters.models import Character
from vtt.core.errors import Conflict, Invalid, invalid_from_rules
from vtt.rulesets.tales.models import CharacterWizard

TALES = "tales"
ACTIONS = (
    "roll_stat",
    "assign_stat",
    "roll_origin",
    "choose_origin_details",
    "choose_picks",
    "choose_equipment",
    "finish",
)


def _ruleset():
    return get_ruleset(TALES)


def _check_campaign(campaign: Campaign) -> None:
    if campaign.ruleset != TALES:
        raise Invalid(_("This campaign does not play Tales."), code="wrong_ruleset", status=404)


def wizard_for(*, campaign: Campaign, user: User) -> CharacterWizard:
    """The user's wizard in this campaign (a fresh one is not saved until the first step)."""
    _check_campaign(campaign)
    wizard = CharacterWizard.objects.filter(campaign=campaign, user=user).first()
    if wizard is None:
        wizard = CharacterWizard(campaign=campaign, user=user, state=_ruleset().wizard_start())
    return wizard


def preview(wizard: CharacterWizard) -> dict[str, Any]:
    """What the current step offers and what is settled so far."""
    try:
        return _ruleset().wizard_preview(wizard.state, wizard.campaign.rules or None)
    except RulesError:
        # A stored wizard the rules no longer accept (say, the campaign's kit changed):
        # show a fresh one rather than an error page; the old state stays until a step.
        return _ruleset().wizard_preview(_ruleset().wizard_start(), wizard.campaign.rules or None)


def _lock(campaign: Campaign, user: User) -> CharacterWizard:
    wizard, _created = CharacterWizard.objects.select_for_update().get_or_create(
        campaign=campaign, user=user, defaults={"state": _ruleset().wizard_start()}
    )
    return wizard


@transaction.atomic
def wizard_step(
    *,
    campaign: Campaign,
    actor: User,
    role: str,
    action: str,
    params: dict[str, Any] | None = None,
    dice: Dice | None = None,
) -> CharacterWizard:
    """Run one wizard action for ``actor``. Rolls happen here, on the server; the stored state
    keeps the faces. ``finish`` also creates the character sheet (owned by the actor)."""
    _check_campaign(campaign)
    if action not in ACTIONS:
        raise Invalid(_("No such wizard step: %(a)s.") % {"a": action}, code="no_action")
    params = dict(params or {})
    wizard = _lock(campaign, actor)
    if wizard.state.get("step") == "done":
        raise Conflict(
            _("This character is finished. Start a new one to make another."), code="done"
        )
    if action == "finish":
        name = " ".join(str(params.get("name") or "").split())
        if not name:
            raise Invalid(
                _("Give the character a name."), code="name", fields={"name": [_("Required.")]}
            )
        params["name"] = name
    ruleset = _ruleset()
    settings = campaign.rules or None
    try:
        state = ruleset.wizard_step(
            wizard.state,
            action,
            dice=(dice or RandomDice()) if action in ("roll_stat", "roll_origin") else None,
            settings=settings,
            **params,
        )
    except RulesError as exc:
        raise invalid_from_rules(exc, code="step_refused") from exc
    except TypeError as exc:  # a parameter the step does not take
        raise Invalid(_("Unexpected parameters for this step."), code="bad_params") from exc
    wizard.state = state
    if state["step"] == "done":
        sheet = state["sheet"]
        wizard.character = character_services.character_create(
            campaign=campaign,
            actor=actor,
            role=role,
            name=sheet["name"],
            state=sheet,
        )
    wizard.save()
    return wizard


@transaction.atomic
def wizard_restart(*, campaign: Campaign, actor: User) -> CharacterWizard:
    """Throw the wizard away and start afresh (the finished character, if any, stays)."""
    _check_campaign(campaign)
    wizard = _lock(campaign, actor)
    wizard.state = _ruleset().wizard_start()
    wizard.character = None
    wizard.save()
    return wizard


def finished_character(wizard: CharacterWizard) -> Character | None:
    if wizard.character_id is None:
        return None
    return Character.objects.filter(pk=wizard.character_id).first()
