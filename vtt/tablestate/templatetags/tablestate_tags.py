"""``{% tablestate_panel %}``: the campaign-wide rules state's panel on the table page (the
ruleset's plugin names it in ``table_panels``) with its initial snapshot and translated labels;
the plugin's ``RulesState`` gives the title and extra configuration."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from vtt.campaigns.models import Role
from vtt.tablestate import selectors, services

register = template.Library()


def js_labels() -> dict[str, str]:
    """Every string static/js/deck.js shows, translated for the page's language."""
    return {
        "deck": _("Action deck"),
        "battle": _("Battle"),
        "round": _("Round {n}"),
        "noFight": _("No fight is going on."),
        "notDealt": _("Cards are not dealt yet."),
        "shuffleNext": _("A joker came up: the deck is shuffled before the next deal."),
        "shuffleDue": _("The deck is shuffled before the next deal."),
        "joker": _("Joker"),
        "jokerHint": _("acts at any point of the round, +2 to trait and damage rolls"),
        "pool": _("GM's pool"),
        "bennies": _("Bennies"),
        "benniesOf": _("{name}: {n} bennies"),
        "session": _("Session"),
        "sessionOn": _("session running"),
        "startSession": _("Start session"),
        "startSessionConfirm": _(
            "Start a session? Players get 3 bennies each, GM wild cards 2, the pool one per "
            "player character."
        ),
        "endSession": _("End session"),
        "endSessionConfirm": _("End the session? Every unused benny is lost."),
        "startCombat": _("Start a fight"),
        "deal": _("Deal the round"),
        "endCombat": _("End the fight"),
        "endCombatConfirm": _("End the fight? The cards go back to the deck."),
        "who": _("Who is dealt in"),
        "addGroup": _("Group of extras (one card)"),
        "add": _("Add"),
        "hidden": _("hidden"),
        "groupHidden": _("hidden from players"),
        "remove": _("Remove"),
        "yours": _("yours"),
        "order": _("Turn order"),
        "participants": _("Participants"),
        "noParticipants": _("No characters in this campaign yet."),
        "roll": _("Roll"),
        "trait": _("Trait"),
        "rollFor": _("Roll for"),
        "rollAs": _("Trait roll"),
        "jokerApplied": _("+2 from the joker"),
        "waiting": _("Waiting for a choice"),
        "rerollCost": _("costs a benny"),
        "minus": _("Take a benny from the pool"),
        "plus": _("Add a benny to the pool"),
        "stale": _("The table changed meanwhile; it is up to date now."),
        "failed": _("The request failed. Check the connection and try again."),
        "logStartSession": _(
            "Session starts: players get 3 bennies each, the GM's pool holds {pool}."
        ),
        "logEndSession": _("Session over: unused bennies are lost."),
        "logStartCombat": _("The fight begins: the action deck is shuffled."),
        "logDeal": _("Round {n}: cards dealt."),
        "logShuffled": _("The deck was shuffled first."),
        "logJoker": _("Joker! The deck is shuffled before the next deal."),
        "logJokerBennies": _("A joker: every player and GM wild card gets a benny."),
        "logEndCombat": _("The fight is over."),
        "logPool": _("GM's pool: {pool}."),
        "logReroll": _("{name}: a benny spent on a re-roll."),
        "logRerollPool": _("{name}: a benny from the GM's pool spent on a re-roll."),
        "logSoak": _("{name}: a benny spent on a soak roll."),
        "logSoakPool": _("{name}: a benny from the GM's pool spent on a soak roll."),
        "logSpend": _("{name}: a benny spent."),
        "logSpendPool": _("{name}: a benny from the GM's pool spent."),
        "logInjury": _("{name}: Injury Table — {result} ({change}), {duration}."),
        "logInjuryCalled": _("a called shot"),
        "logResetBattle": _("A new battle."),
        "logNextSide": _("Round {n}: {side} act."),
        "phase": _("Phase"),
        "acting": _("Acting now: {side}"),
        "first": _("First: {side}"),
        "initiative": _("Initiative"),
        "initiativeRoll": _("Roll initiative (d10 each side)"),
        "surprise": _("Surprise"),
        "surpriseRoll": _("Roll surprise (d6)"),
        "unaware": _("Caught unaware"),
        "tactics": _("Tactics"),
        "tacticsRoll": _("Use Tactics"),
        "tacticsTried": _("Tactics was tried in this battle."),
        "nextSide": _("Next side"),
        "resetBattle": _("New battle"),
        "resetBattleConfirm": _("Start a new battle? The initiative is rolled again."),
        "wizard": _("New character (wizard)"),
        "move": _("Move"),
        "pending": _("awaits a choice"),
    }


@register.inclusion_tag("tablestate/_panel.html", takes_context=True)
def tablestate_panel(context: dict[str, Any]) -> dict[str, Any]:
    campaign = context.get("campaign")
    membership = context.get("membership")
    request = context.get("request")
    if campaign is None or membership is None or not services.supported(campaign):
        return {"supported": False}
    ts = services.get_or_create_state(campaign)
    snapshot = selectors.snapshot_for(ts, user_id=request.user.pk, role=membership.role)
    is_referee = membership.role == Role.REFEREE
    can_play = bool(context.get("can_play"))
    config = {
        "campaign": campaign.pk,
        "ruleset": campaign.ruleset,
        "lang": "ru" if (get_language() or "ru").startswith("ru") else "en",
        "me": request.user.pk,
        "isReferee": is_referee,
        "canPlay": can_play,
        "snapshot": snapshot,
        "urls": {
            "state": reverse("api-table-state", args=[campaign.pk]),
            "move": reverse("api-table-move", args=[campaign.pk, "MOVE"]).replace(
                "/MOVE/", "/{move}/"
            ),
            "choice": reverse("api-table-choice", args=[campaign.pk]),
            "characterMove": reverse("api-character-move", args=[0, "MOVE"])
            .replace("/0/", "/{id}/")
            .replace("/MOVE/", "/{move}/"),
        },
        "labels": js_labels(),
    }
    declared = services.hooks(campaign.ruleset)
    extra = declared.panel_config(campaign) if declared.panel_config else {}
    config["urls"].update(extra.pop("urls", {}))
    config.update(extra)
    return {
        "supported": True,
        "ruleset": campaign.ruleset,
        "title": declared.panel_title,
        "wizard_url": config["urls"].get("wizard"),
        "config": config,
        "is_referee": is_referee,
        "can_play": can_play,
        "campaign": campaign,
    }
