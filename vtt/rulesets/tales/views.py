"""The Tales new-character wizard as pages (htmx-enhanced; plain forms work too).

``/campaigns/<id>/tales/wizard/`` shows the step the user's wizard is at; each form posts one
action to the same address. With htmx the answer is the wizard fragment (400 with the message
when the rules refuse a step); without it, post/redirect/get with a flash message.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from systems import get_ruleset
from vtt.campaigns.models import Membership
from vtt.core.errors import ServiceError
from vtt.core.ratelimit import TokenBucket
from vtt.permissions import Action, authorize
from vtt.rulesets.tales import services

WIZARD_BUCKET = TokenBucket("wizard", burst=20, per_second=4)
# Characters of the comma-separated languages field; the wizard checks each language itself.
LANGUAGES_FIELD_MAX = 400
TEMPLATE = "tales/wizard.html"


def _membership(request: HttpRequest, pk: int) -> Membership:
    membership = authorize(request.user, pk, Action.VIEW)
    if membership.campaign.ruleset != services.TALES:
        raise Http404(_("This campaign does not play Tales."))
    return authorize(request.user, pk, Action.PLAY)


def _loc(item: dict[str, Any] | None) -> str:
    if not item:
        return ""
    lang = "ru" if (get_language() or "ru").startswith("ru") else "en"
    return str(item.get(lang) or item.get("en") or item.get("ru") or "")


def params_from_post(action: str, post) -> dict[str, Any]:
    """Form fields → the wizard action's parameters."""
    if action == "assign_stat":
        return {"stat": post.get("stat", "")}
    if action == "choose_origin_details":
        return {
            "crafts": [c for c in post.getlist("craft") if c.strip()],
            "art": post.get("art", ""),
        }
    if action == "choose_picks":
        picks = []
        for i in range(2):
            kind = post.get(f"pick{i}_kind", "skill")
            key = post.get(f"pick{i}_spell" if kind == "spell" else f"pick{i}_skill", "")
            picks.append({"kind": kind, "key": key, "detail": post.get(f"pick{i}_detail", "")})
        return {"picks": picks}
    if action == "choose_equipment":
        return {
            "armour": post.get("armour", "none"),
            "shield": post.get("shield", "none"),
            "weapons": post.getlist("weapons"),
        }
    if action == "finish":
        text = post.get("languages", "")[:LANGUAGES_FIELD_MAX]
        languages = [x.strip() for x in text.split(",") if x.strip()]
        return {"name": post.get("name", ""), "languages": languages}
    return {}


def wizard_context(wizard, membership: Membership, **extra: Any) -> dict[str, Any]:
    """Everything the templates show, with the ruleset's names in the page's language."""
    ruleset = get_ruleset(services.TALES)
    described = ruleset.describe()
    preview = services.preview(wizard)
    stats = [
        {"key": s["key"], "name": _loc(s), "value": preview["stats"].get(s["key"])}
        for s in described["stats"]
    ]
    skills = {s["key"]: s for s in described["skills"]}
    spells = {s["key"]: s for s in described["spells"]}
    weapons = {w["key"]: w for w in described["weapons"]}
    armour = {a["key"]: a for a in described["armour"]}
    shields = {s["key"]: s for s in described["shields"]}
    groups = []
    for g in described["skill_groups"]:
        members = [
            {"key": s["key"], "name": _loc(s), "detail": s["detail"], "levels": s["levels"]}
            for s in described["skills"]
            if s["group"] == g["key"]
        ]
        if members:
            groups.append({"name": _loc(g), "skills": members})
    state = wizard.state
    steps = [
        {"key": s["key"], "name": _loc(s)}
        for s in described["wizard"]["steps"]
        if s["key"] != "done"
    ]
    step = preview["step"]
    keys = [s["key"] for s in steps]
    for s in steps:
        s["done"] = step == "done" or (step in keys and keys.index(s["key"]) < keys.index(step))
        s["current"] = s["key"] == step
    rolls = [
        {
            "faces": r["faces"],
            "total": sum(r["faces"]),
            "stat": _loc(next((s for s in described["stats"] if s["key"] == r["stat"]), None)),
        }
        for r in state.get("stat_rolls") or []
    ]
    origin = preview.get("origin")
    origin_faces = (state.get("origin") or {}).get("faces")

    def skill_rows(rows):
        out = []
        for row in rows or []:
            s = skills.get(row["key"], {"ru": row["key"], "en": row["key"]})
            detail = row.get("detail") or ""
            if row["key"] == "art" and detail:
                art = next(
                    (a for a in described["wizard"]["art_kinds"] if a["key"] == detail), None
                )
                detail = _loc(art) if art else detail
            out.append({"name": _loc(s), "detail": detail, "level": row.get("level", 1)})
        return out

    sheet = preview.get("sheet")
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "wizard": wizard,
        "state": state,
        "preview": preview,
        "step": step,
        "steps": steps,
        "stats": stats,
        "rolls": rolls,
        "free_stats": [s for s in stats if s["key"] in preview.get("free_stats", [])],
        "pending_roll": preview.get("pending_roll"),
        "origin": {**origin, "name": _loc(origin)} if origin else None,
        "origin_faces": origin_faces,
        "origin_total": sum(origin_faces) if origin_faces else None,
        "origin_skills": skill_rows(preview.get("origin_skills")),
        "origin_table": [
            {
                "roll": o["roll"],
                "name": _loc(o),
                "skills": ", ".join(
                    _loc(skills.get(k.lstrip("@"))) or _loc(skills.get(f"combat_{k[1:]}")) or k
                    for k in o["skills"]
                ),
                "spells": o["spells"],
            }
            for o in described["origins"]
        ],
        "skill_groups": groups,
        "art_kinds": [{"key": a["key"], "name": _loc(a)} for a in described["wizard"]["art_kinds"]],
        "allowed_spells": [
            {"key": k, "name": _loc(spells[k]), "min_mind": spells[k]["min_mind"]}
            for k in preview.get("allowed_spells", [])
        ],
        "allowed_weapons": [
            {
                "key": k,
                "name": _loc(weapons[k]),
                "damage": weapons[k]["damage"],
                "min_str": weapons[k]["min_str"],
                "two_handed": weapons[k]["two_handed"],
            }
            for k in preview.get("allowed_weapons", [])
        ],
        "allowed_armour": [
            {"key": k, "name": _loc(armour[k]), "reduction": armour[k]["reduction"]}
            for k in preview.get("allowed_armour", [])
        ],
        "allowed_shields": [
            {"key": k, "name": _loc(shields[k])} for k in preview.get("allowed_shields", [])
        ],
        "max_weapons": ruleset.clean_settings(membership.campaign.rules or None)[
            "max_starting_weapons"
        ],
        "derived": preview.get("derived"),
        "sheet": sheet,
        "sheet_skills": skill_rows(sheet["skills"]) if sheet else [],
        "sheet_spells": [_loc(spells.get(k)) or k for k in (sheet or {}).get("spells", [])],
        "sheet_weapons": [
            _loc(weapons.get(w["key"])) or w["key"] for w in (sheet or {}).get("weapons", [])
        ],
        "sheet_armour": _loc(armour.get((sheet or {}).get("armour", ""))),
        "sheet_shield": _loc(shields.get((sheet or {}).get("shield", ""))),
        "character": services.finished_character(wizard),
        "detail_origin": origin["roll"] if origin else None,
    }
    context.update(extra)
    return context


@login_required
@require_http_methods(["GET", "POST"])
def wizard_page(request: HttpRequest, pk: int) -> HttpResponse:
    membership = _membership(request, pk)
    campaign = membership.campaign
    if request.method == "GET":
        wizard = services.wizard_for(campaign=campaign, user=request.user)
        return render(request, TEMPLATE, wizard_context(wizard, membership))
    action = request.POST.get("action", "")
    try:
        WIZARD_BUCKET.hit(str(request.user.pk))
        wizard = services.wizard_step(
            campaign=campaign,
            actor=request.user,
            role=membership.role,
            action=action,
            params=params_from_post(action, request.POST),
        )
    except ServiceError as exc:
        wizard = services.wizard_for(campaign=campaign, user=request.user)
        if not request.htmx:
            messages.error(request, exc.message)
            return redirect("tales_wizard", pk)
        context = wizard_context(wizard, membership, error=exc, posted=request.POST)
        response = render(request, f"{TEMPLATE}#wizard", context, status=exc.status)
        if exc.extra.get("retry_after"):
            response["Retry-After"] = str(exc.extra["retry_after"])
        return response
    if not request.htmx:
        return redirect("tales_wizard", pk)
    return render(request, f"{TEMPLATE}#wizard", wizard_context(wizard, membership))


@login_required
@require_POST
def wizard_restart(request: HttpRequest, pk: int) -> HttpResponse:
    membership = _membership(request, pk)
    services.wizard_restart(campaign=membership.campaign, actor=request.user)
    return redirect("tales_wizard", pk)
