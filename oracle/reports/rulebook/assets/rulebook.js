// The rulebook's script: the index's filter by card name, rule id or word. Without it the index is a plain list.
(function () {
  "use strict";
  var form = document.getElementById("rulebook-filter");
  if (!form) { return; }
  var input = document.getElementById("rulebook-query"), count = document.getElementById("rulebook-count");
  var items = Array.prototype.slice.call(document.querySelectorAll("[data-search]"));
  var ruleId = /^[a-z]+-\d+$/;
  form.hidden = false;

  // The query's words, split as the index's texts were (index.py: NOT_A_WORD). A rule id matches a whole word
  // (RUL-1 is not RUL-12); any other word matches the start of a word ("hold" finds "holding").
  function words() {
    return input.value.toLowerCase().split(/[^\p{L}\p{N}_-]+/u).filter(function (w) { return w; });
  }

  function matches(text, word) {
    return text.indexOf(" " + word + (ruleId.test(word) ? " " : "")) >= 0;
  }

  function apply() {
    var query = words(), shown = 0;
    items.forEach(function (item) {
      var text = item.getAttribute("data-search");
      var visible = query.every(function (word) { return matches(text, word); });
      item.hidden = !visible;
      if (visible) { shown += 1; }
    });
    Array.prototype.slice.call(document.querySelectorAll("[data-filter-section]")).reverse().forEach(function (s) {
      s.hidden = query.length > 0 && !s.querySelector("[data-search]:not([hidden])");
    });
    document.getElementById("no-match").hidden = shown > 0;
    count.textContent = query.length ? shown + " of " + items.length + " entries match" : items.length + " entries";
  }

  input.addEventListener("input", apply);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  var asked = new URLSearchParams(window.location.search).get("q");
  if (asked) { input.value = asked; }
  apply();
}());
