/* The Tales new-character wizard (vtt/rulesets/tales/templates/tales/wizard.html): small helps on top of plain
 * forms that work without it. A pick is a skill or, for the two origins that may cast, a spell;
 * the detail field shows for skills that name something (a craft, an art, a language); no more
 * weapons can be ticked than the campaign allows. The server checks all of it again. */
function setupPick(fieldset) {
  var radios = fieldset.querySelectorAll('input[type=radio][name$="_kind"]');
  var skill = fieldset.querySelector(".pick-skill");
  var spell = fieldset.querySelector(".pick-spell");
  var detail = fieldset.querySelector(".pick-detail");
  var skillSelect = skill && skill.querySelector("select");
  function kind() {
    var checked = fieldset.querySelector('input[type=radio][name$="_kind"]:checked');
    return checked ? checked.value : "skill";
  }
  function sync() {
    var isSpell = kind() === "spell";
    if (skill) { skill.hidden = isSpell; skillSelect.disabled = isSpell; }
    if (spell) { spell.hidden = !isSpell; spell.querySelector("select").disabled = !isSpell; }
    var option = skillSelect && skillSelect.selectedOptions[0];
    var needs = option ? option.getAttribute("data-detail") : "";
    if (detail) {
      detail.hidden = isSpell || !needs;
      var input = detail.querySelector("input");
      input.required = !isSpell && needs === "required";
    }
  }
  Array.prototype.forEach.call(radios, function (r) { r.addEventListener("change", sync); });
  if (skillSelect) skillSelect.addEventListener("change", sync);
  sync();
}

function setupWeapons(fieldset) {
  var max = Number(fieldset.getAttribute("data-max")) || 3;
  var boxes = fieldset.querySelectorAll("input[type=checkbox]");
  function sync() {
    var ticked = fieldset.querySelectorAll("input[type=checkbox]:checked").length;
    Array.prototype.forEach.call(boxes, function (b) { b.disabled = !b.checked && ticked >= max; });
  }
  Array.prototype.forEach.call(boxes, function (b) { b.addEventListener("change", sync); });
  sync();
}

function setup(root) {
  Array.prototype.forEach.call(root.querySelectorAll("fieldset.pick"), setupPick);
  Array.prototype.forEach.call(root.querySelectorAll("fieldset.weapons"), setupWeapons);
  var first = root.querySelector(".wizard-step input[name=name]");
  if (first && root.id === "wizard") first.focus();
}

setup(document);
document.body.addEventListener("htmx:load", function (event) {
  if (event.detail && event.detail.elt && event.detail.elt.id === "wizard") setup(event.detail.elt);
});
